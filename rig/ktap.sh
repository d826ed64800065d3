#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap.sh OUTPUT CONSOLE RESULTS: count the results of a job's KTAP blocks.
#
# OUTPUT holds blocks framed by "KRELOC-TEST-BEGIN name" and
# "KRELOC-TEST-END name rc=N", each a KTAP document whose plan ("1..N",
# first or last) says how many results it has.  Every planned result
# counts once, as passed, failed or skipped:
#   ok ...                      passed
#   ok ... # SKIP reason        skipped
#   not ok ...                  failed, with or without "# SKIP"
#   1..0 # SKIP reason          the block is one skip
#   planned but never printed   failed (a block that crashed or hung)
#   no plan, too many results,  one more failure
#   an exit code other than 0/4 with nothing failed
# The blocks a job must produce are named in advance, by
# "KRELOC-TEST-PLAN name[:N]..." lines in OUTPUT or in $KRELOC_PLAN: a
# planned block that never began counts N (default 1) failures.
# CONSOLE is the kernel console: any report rig/console-check.sh knows
# (Oops, BUG, WARNING, KASAN, lockdep, UBSAN, kmemleak, panic, timeout)
# is one more failure.
# Appends "passed failed skipped" to RESULTS and echoes the results.
set -uo pipefail

out="$1" console="$2" results="$3"
[ -r "$out" ] || out=/dev/null
tr -d '\r' < "$out" | awk -v tag="${KRELOC_TAG:-vm}" -v preplan="${KRELOC_PLAN:-}" '
function plan_block(spec,   name, n) {
	name = spec; n = 1
	if (spec ~ /:[0-9]+$/) { n = spec; sub(/.*:/, "", n); n += 0; sub(/:[0-9]+$/, "", name) }
	if (!(name in planned)) order[norder++] = name
	planned[name] = n
}
function bad(msg, count) {
	printf "not ok - %s: %s: %s\n", tag, name, msg
	fail += count
	bfail += count
}
function finish(rc, ended,   missing) {
	if (planskip != "") {
		printf "ok - %s: %s # SKIP %s\n", tag, name, planskip
		skip += (plan > 0 ? plan : 1)
	} else if (plan < 0) {
		bad(ended ? "no KTAP plan" : "crashed or hung before its plan", 1)
	} else if (n > plan) {
		bad(sprintf("%d results for a plan of %d", n, plan), 1)
	} else if (n < plan) {
		missing = plan - n
		bad(sprintf("%d of %d planned results missing (%s)", missing, plan,
			    ended ? "the block ended early" : "crashed or hung"), missing)
	} else if (!ended) {
		bad("block never ended (crash or timeout)", 1)
	}
	if (ended && rc != 0 && rc != 4 && !bfail)
		bad(sprintf("exit code %d", rc), 1)
	inblock = 0
}
BEGIN {
	np = split(preplan, pp, /[ \t]+/)
	for (i = 1; i <= np; i++) if (pp[i] != "") plan_block(pp[i])
}
/^KRELOC-TEST-PLAN / { for (i = 2; i <= NF; i++) plan_block($i); next }
/^KRELOC-TEST-BEGIN / {
	if (inblock) finish(0, 0)
	name = $2; inblock = 1; plan = -1; n = 0; bfail = 0; planskip = ""; blocks++
	seen[name] = 1
	next
}
/^KRELOC-TEST-END / {
	if (!inblock || $2 != name) next
	rc = $3; sub(/^rc=/, "", rc); finish(rc + 0, 1); next
}
!inblock { next }
/^1\.\.[0-9]+/ {
	plan = substr($1, 4) + 0
	if ($0 ~ /# *SKIP/) { planskip = $0; sub(/.*# *SKIP */, "", planskip); if (planskip == "") planskip = "skipped" }
	next
}
/^not ok [0-9]+/ {
	n++; fail++; bfail++
	printf "%s: %s: %s\n", tag, name, $0
	next
}
/^ok [0-9]+/ {
	n++
	if ($0 ~ /# *SKIP/) skip++; else pass++
	printf "%s: %s: %s\n", tag, name, $0
	next
}
/^# / { if (ENVIRON["KRELOC_VERBOSE"] != "") print tag ": " name ": " $0 }
END {
	if (inblock) finish(0, 0)
	for (i = 0; i < norder; i++) {
		b = order[i]
		if (!(b in seen)) {
			printf "not ok - %s: %s: planned, never ran (%d results)\n", tag, b, planned[b]
			fail += planned[b]
		}
	}
	if (!blocks && !norder) { printf "not ok - %s: no test ran\n", tag; fail++ }
	printf "%d %d %d\n", pass, fail, skip > "/dev/stderr"
}' 2> "$results.tmp"
counts=$(tail -1 "$results.tmp")
head -n -1 "$results.tmp" >&2
if ! report=$("$(dirname "$0")/console-check.sh" "$console"); then
	echo "not ok - ${KRELOC_TAG:-vm}: kernel console shows a report (Oops/BUG/WARNING/KASAN/lockdep/UBSAN/kmemleak/panic/timeout):"
	printf '%s\n' "$report" | sed 's/^/#   /'
	read -r p f s <<< "$counts"
	counts="$p $((f + 1)) $s"
fi
echo "$counts" >> "$results"
rm -f "$results.tmp"
