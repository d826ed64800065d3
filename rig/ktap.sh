#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap.sh OUTPUT CONSOLE RESULTS: check the KTAP blocks a VM job wrote.
#
# OUTPUT holds blocks framed by "KRELOC-TEST-BEGIN name" and
# "KRELOC-TEST-END name rc=N", each a KTAP document.  Each block must have
# a plan, as many results as planned, and an exit code of 0 (4 = skipped).
# CONSOLE is the kernel console: any report rig/console-check.sh knows
# (Oops, BUG, WARNING, KASAN, lockdep, UBSAN, kmemleak, panic...) fails.
# Appends "passed failed skipped" to RESULTS and echoes the results.
set -uo pipefail

out="$1" console="$2" results="$3"
tr -d '\r' < "$out" | awk -v tag="${KRELOC_TAG:-vm}" '
function finish(rc,   bad) {
	bad = 0
	if (plan < 0) { printf "not ok - %s: %s: no KTAP plan\n", tag, name; bad = 1 }
	else if (planskip) { printf "ok - %s: %s # SKIP %s\n", tag, name, planskip; skip++ }
	else if (n != plan) { printf "not ok - %s: %s: %d results for a plan of %d\n", tag, name, n, plan; bad = 1 }
	if (rc != 0 && rc != 4 && !bad) { printf "not ok - %s: %s: exit code %d\n", tag, name, rc; bad = 1 }
	if (bad) fail++
	inblock = 0
}
/^KRELOC-TEST-BEGIN / { name = $2; inblock = 1; plan = -1; n = 0; planskip = ""; blocks++; next }
/^KRELOC-TEST-END / {
	if (!inblock) next
	rc = $3; sub(/^rc=/, "", rc); finish(rc + 0); next
}
!inblock { next }
/^1\.\.[0-9]+/ {
	plan = substr($1, 4) + 0
	if ($0 ~ /# SKIP/) { planskip = $0; sub(/.*# SKIP */, "", planskip) }
	next
}
/^(not )?ok [0-9]+/ {
	n++
	line = $0
	if (line ~ /# SKIP/) { skip++; printf "%s: %s: %s\n", tag, name, line; next }
	if (line ~ /^not ok/) { fail++ } else { pass++ }
	printf "%s: %s: %s\n", tag, name, line
	next
}
/^# / { if (ENVIRON["KRELOC_VERBOSE"] != "") print tag ": " name ": " $0 }
END {
	if (inblock) { printf "not ok - %s: %s: block never ended (crash or timeout)\n", tag, name; fail++ }
	if (!blocks) { printf "not ok - %s: no test ran\n", tag; fail++ }
	printf "%d %d %d\n", pass, fail, skip > "/dev/stderr"
}' 2> "$results.tmp"
counts=$(tail -1 "$results.tmp")
cat "$results.tmp" | head -n -1 >&2
if ! report=$("$(dirname "$0")/console-check.sh" "$console"); then
	echo "not ok - ${KRELOC_TAG:-vm}: kernel console shows a report (Oops/BUG/WARNING/KASAN/lockdep/UBSAN/kmemleak/panic/timeout):"
	printf '%s\n' "$report" | sed 's/^/#   /'
	read -r p f s <<< "$counts"
	counts="$p $((f + 1)) $s"
fi
echo "$counts" >> "$results"
rm -f "$results.tmp"
