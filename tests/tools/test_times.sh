#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_times.sh KRELOC ADDRCHECK WORKDIR: the times kreloc records, and
# resolve with them, one KTAP document on stdout.
#
# The data is a guest's (tests/tools/data/amd64-6.1-reuse, capture-testdata.sh
# reuse): kreloc_busy loaded (A), unloaded, kreloc_gone loaded at its old
# address (B), unloaded, kreloc_busy loaded again (A2), with marker lines
# in two ftrace buffers (trace_clock perf, which is local_clock(), and
# mono) at each stage, kprobe hits in both modules, perf samples, and a
# format 3 snapshot at the end.  Ground truth (timecheck.py): each stage's
# /proc/kallsyms lines saved while it was loaded, the guest's markers for
# when it was loaded, the kernel's debugfs files for which record a stage
# is and its times; never kreloc's own output.  The cases:
#   - the data: one address held by three records in turn (and by
#     kreloc's freed .init.text before), the kernel's times agreeing with
#     the guest's markers;
#   - the snapshot keeps the times: debugfs -> snapshot -> show --json and
#     libkreloc's kreloc_snapshot_module_time() and kreloc_snapshot_time();
#   - resolve ADDR@SECONDS at each stage, in both clocks, names that stage's
#     record as its kallsyms did; without a time the same address is
#     ambiguous with every record; at a time no record held it, it says so;
#     a time of fewer digits whose window straddles a load is ambiguous;
#   - --text with --clock on the guest's trace and perf script names each
#     address by the record of its line's time; without, ambiguous;
#   - a record whose end kreloc did not see ends at the first later load
#     into its memory.
set -uo pipefail
K="$1" AC="$2" W="$3"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
ktap_begin
mkdir -p "$W"
D="$here/data/amd64-6.1-reuse"
TC="$here/timecheck.py"
NT=39
if [ ! -s "$D/snapshot" ]; then
	for i in $(seq $NT); do skip "times" "no $D (capture-testdata.sh reuse)"; done
	echo "1..$n"; exit 0
fi
S="$D/snapshot"
xz -dc "$D/kallsyms.xz" > "$W/kallsyms"
RES=(resolve --snapshot "$S" --kallsyms "$W/kallsyms" --modules-dir "$D/modules")
declare -A MP MM REC TRUTH
while read -r s t; do MP[$s]=$t; done < <(python3 "$TC" marks "$D" perf)
while read -r s t; do MM[$s]=$t; done < <(python3 "$TC" marks "$D" mono)
while read -r s r _; do REC[$s]=$r; done < <(python3 "$TC" records "$D")
# X: where A's kreloc_busy_spin was hit (the kprobe's %ip): B's first
# function and A2's kreloc_busy_spin came there after.
X=$(sed -n 's/.* busy_spin: .* ip=\(0x[0-9a-f]*\)$/\1/p' "$D/trace-perf" | head -1)
# (newest first, as resolve lists them)
held=$(python3 "$here/holders.py" list "$D/debugfs/module" "$X" | cut -d' ' -f2-)
echo "# $(sed -n 2p "$D/CAPTURE"); A ${REC[A]}, B ${REC[B]}, A2 ${REC[A2]}; $X held by: $held" | diag

# ---------------------------------------------------------------- the data
check "the data: $X was held by A, B and A2 in turn, and by kreloc's freed .init.text before ($held)" \
	test "$held" = "${REC[A2]} ${REC[B]} ${REC[A]} kreloc@1"
# The kernel's times (debugfs modules) against the guest's markers in the
# same clock: each stage's markers within its record's life, the gaps out.
res=$(python3 - "$D" "$TC" <<'EOF' 2>&1
import sys
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
import timecheck as tc
d = sys.argv[1]
recs = tc.records(d)
life = {}
for l in open(d + "/debugfs/modules"):
    f = l.split()
    if f and f[0][0] != "#":
        life[(f[0], int(f[4]))] = f[7:13]
bad, n = [], 0
for ci, clock in enumerate(("perf", "mono")):
    t = {name: ns for name, _, ns in tc.marks(d, clock)}
    span = {}
    for st, (name, gen, _) in recs.items():
        v = life[(name, gen)]
        lo = int(v[3 * ci])
        hi = int(v[3 * ci + 2]) if v[3 * ci + 2] != "-" else 1 << 64
        span[st] = (lo, hi)
    for st, marks in (("A", ("A", "A-last")), ("B", ("B", "B-last")), ("A2", ("A2", "end"))):
        for m in marks:
            n += 1
            if not span[st][0] <= t[m] <= span[st][1]:
                bad.append("%s %s outside %s %s" % (clock, m, st, span[st]))
    for m in ("before", "gap-AB", "gap-BA"):
        n += 1
        if any(lo <= t[m] <= hi for lo, hi in span.values()):
            bad.append("%s %s inside a record's life" % (clock, m))
print("%d markers checked%s" % (n, "; " + "; ".join(bad) if bad else ""))
sys.exit(1 if bad else 0)
EOF
)
check "the kernel's load and unload times agree with the guest's markers in both clocks: $res" test $? = 0

# ---------------------------------------------------------------- the snapshot keeps the times
R="$W/root"
mkdir -p "$R/sys/kernel/debug" "$R/proc"
cp -r "$D/debugfs" "$R/sys/kernel/debug/kreloc"
cp "$W/kallsyms" "$R/proc/kallsyms"
for f in "$D"/notes/*; do
	mkdir -p "$R/sys/module/${f##*/}/notes"
	xxd -r -p "$f" > "$R/sys/module/${f##*/}/notes/.note.gnu.build-id"
done
run s1 --root "$R" snapshot -o "$W/host.snap"
# NAME LOAD_GEN and the six times: debugfs modules' columns, the snapshot's module lines
awk '!/^#/ {print $1, $5, $8, $9, $10, $11, $12, $13}' "$D/debugfs/modules" > "$W/times.want"
awk '$1 == "module" {print $2, $6, $9, $10, $11, $12, $13, $14}' "$W/host.snap" > "$W/times.snap"
check "snapshot (format 3) of the guest's debugfs files: each record's six times as debugfs modules has them (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ "$(head -1 "$1")" = "KRELOC-SNAPSHOT 3" ] && [ $(wc -l < "$2") = 4 ] &&
		cmp -s "$2" "$3"' sh "$W/host.snap" "$W/times.want" "$W/times.snap"
info="$D/debugfs/info"
hdr=$(for k in LOCAL MONO; do
	echo "TAKEN_${k}_NS $(kval "$info" "NOW_${k}_NS")"
	echo "SINCE_${k}_NS $(kval "$info" "SINCE_${k}_NS")"
	echo "INIT_FREED_BY_${k}_NS $(kval "$info" "INIT_FREED_BY_${k}_NS")"
done | sort)
check "... and its header the times of info: TAKEN_ (info's NOW_), SINCE_, INIT_FREED_BY_, both clocks" \
	test "$(grep -E '^(TAKEN|SINCE|INIT_FREED_BY)_' "$W/host.snap" | sort)" = "$hdr"
# (The guest's CLI predates the KPROBE_UNIQUE key, which this one writes,
# '-' from these files: it and the end line's count differ too.)
check "... and it is the snapshot the guest wrote from the same files but for the moment it was taken (TAKEN_)" \
	bash -c 'x="^(TAKEN_|KPROBE_UNIQUE |end )"; cmp -s <(grep -Ev "$x" "$1") <(grep -Ev "$x" "$2")' \
	bash "$S" "$W/host.snap"
run s2 --root "$R" show --json
run s3 show --snapshot "$W/host.snap" --json
check "show --json: the live files and the snapshot of them give the same object, times included" \
	sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$W/s2.out" "$W/s3.out"
run s4 show --snapshot "$S" --json
jtimes() { python3 - "$1" "$W/times.want" "$info" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
got = ["%s %d %s" % (m["name"], m["load_gen"], " ".join(
    "-" if m["%s_%s_ns" % (e, c)] is None else str(m["%s_%s_ns" % (e, c)])
    for c in ("local", "mono") for e in ("load", "init", "unload"))) for m in d["modules"]]
assert got == [l.strip() for l in open(sys.argv[2])], got
info = dict(l.strip().split("=", 1) for l in open(sys.argv[3]) if "=" in l)
for c in ("local", "mono"):
    for k, v in (("since", "SINCE"), ("init_freed_by", "INIT_FREED_BY")) + \
            ((("taken", "NOW"),) if sys.argv[4] == "taken" else ()):
        assert d["%s_%s_ns" % (k, c)] == int(info["%s_%s_NS" % (v, c.upper())]), (k, c)
EOF
}
check "show --json of the guest's snapshot: load_, init_, unload_{local,mono}_ns of each record as debugfs has them, the snapshot's since_ and init_freed_by_" \
	jtimes "$W/s4.out" -
check "show --json of the live files: the same, and taken_ is info's NOW_" jtimes "$W/s2.out" taken
sed 's/^\(module kreloc_busy live .*\) \([0-9]*\) \([0-9]*\) - \([0-9]*\) \([0-9]*\) -$/\1 \2 \3 - \4 \5 1/' "$S" > "$W/bad.snap"
run s5 show --snapshot "$W/bad.snap" --json
check "... a check that fails for one time changed (A2's unload in CLOCK_MONOTONIC, which has not happened, set)" \
	sh -c 'grep -q "^module kreloc_busy live .* 1$" "$1" && ! jtimes "$2" - 2>/dev/null' sh "$W/bad.snap" "$W/s5.out"
sed 's/^KRELOC-SNAPSHOT 3$/KRELOC-SNAPSHOT 2/' "$S" > "$W/v2.snap"
run s6 show --snapshot "$W/v2.snap" --json
check "a version 2 snapshot has no times: its time columns are not read as ones (every time null)" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"] == 2 and all(v is None for m in d["modules"] for k, v in m.items() if k.endswith("_ns"))' "$W/s6.out"

# ---------------------------------------------------------------- libkreloc
L="$top/tools/lib/kreloc"
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$L/include" -o "$W/libtimes" "$here/libtimes.c" -L"$L" -lkreloc > "$W/lt.log" 2>&1; then
	LD_LIBRARY_PATH="$L" "$W/libtimes" "$S" > "$W/lt.out" 2>&1
	{
		awk '{print}' "$W/times.want"
		for k in LOCAL MONO; do
			# (TAKEN_: when the guest wrote the snapshot; the others as info)
			echo "snapshot $(echo $k | tr A-Z a-z) $(awk -v k="TAKEN_${k}_NS" '$1 == k {print $2}' "$S")" \
				"$(kval "$info" "SINCE_${k}_NS") $(kval "$info" "INIT_FREED_BY_${k}_NS")"
		done
		echo "refused: record 4 -34, clock 7 -22, event 7 -22, no ns -22, time 7 -22"
	} > "$W/lt.want"
	check "libkreloc: kreloc_snapshot_module_time() gives each record's times as debugfs has them (-ENODATA where '-'), kreloc_snapshot_time() the snapshot's; bad arguments -ERANGE, -EINVAL" \
		cmp -s "$W/lt.want" "$W/lt.out"
	cmp "$W/lt.want" "$W/lt.out" 2>&1 | diag
	tns() { python3 -c 'import sys; s, f = (sys.argv[1] + ".").split(".")[:2]; print(int(s) * 10**9 + int((f + "0" * 9)[:9]))' "$1"; }
	LD_LIBRARY_PATH="$L" "$W/libtimes" "$S" "$W/kallsyms" "$D/modules" \
		"$X" perf "$(tns "${MP[A]}")" 999 "$X" mono "$(tns "${MM[B]}")" 999 "$X" perf "$(tns "${MP[A2]}")" 0 \
		"$X" perf - 0 "$X" perf "$(tns "${MP[gap-AB]}")" 999 > "$W/lt2.out" 2>&1
	printf '%s\n' "$X ${REC[A]} kreloc_busy_spin+0x1 (1)" "$X ${REC[B]} kreloc_gone_work.isra.0+0x1 (1)" \
		"$X ${REC[A2]} kreloc_busy_spin+0x1 (1)" "$X ? 4: $held (4)" "$X ? 0: (0)" > "$W/lt2.want"
	check "libkreloc: kreloc_resolve_at() names A, B and A2 at their times; without one kreloc_resolve_candidates() lists all 4; at a gap none" \
		cmp -s "$W/lt2.want" "$W/lt2.out"
	diff "$W/lt2.want" "$W/lt2.out" | diag
else
	nok "libkreloc: build libtimes.c"; diag < "$W/lt.log"
	skip "libkreloc: kreloc_resolve_at()" "libtimes not built"
fi

# ---------------------------------------------------------------- resolve ADDR@SECONDS
# Points in each stage's functions (addrcheck gen on its kallsyms lines,
# kept away from what follows a section's end), at the stage's marker time.
for st in A B A2; do
	name=${REC[$st]%@*} gen=${REC[$st]#*@}
	awk -v m="$name" '$1 == "section" && $3 != "-" {print m, $2, $3}' "$D/debugfs/module/${REC[$st]}" > "$W/sect.$st"
	cp "$D/kallsyms-$st" "$W/ks.$st"
	"$AC" gen "$W/ks.$st" 40 7 "$W/sect.$st" > "$W/addrs.$st"
	# (live: [NAME]; unloaded: [NAME@GEN])
	tag="[$name@$gen]"; [ "$st" = A2 ] && tag="[$name]"
	for clock in perf mono; do
		if [ $clock = perf ]; then t=${MP[$st]} opt=(); else t=${MM[$st]} opt=(--clock mono); fi
		sed "s/\$/@$t/" "$W/addrs.$st" > "$W/q.$st.$clock"
		"$K" "${RES[@]}" "${opt[@]}" - < "$W/q.$st.$clock" > "$W/r.$st.$clock" 2> "$W/r.$st.$clock.err"; rc=$?
		if res=$("$AC" check "$W/ks.$st" "$W/addrs.$st" "$W/r.$st.$clock" 2>&1) && [ $rc = 0 ] && clean "$W/r.$st.$clock.err" &&
		   [ "$(awk -v t="$tag" '$3 != t' "$W/r.$st.$clock" | wc -l)" = 0 ]; then
			ok "resolve ADDR@${t} (stage $st's marker, --clock ${opt[1]:-perf, the default}): 40 points in $name's functions named as its kallsyms did then, each $tag: $res"
		else
			nok "resolve ADDR@$t (stage $st, $clock) (exit $rc)"; { echo "$res"; head -3 "$W/r.$st.$clock"; } | diag
		fi
	done
done
"$K" "${RES[@]}" --clock perf - < "$W/q.B.perf" > "$W/r.B.perf2" 2>/dev/null
check "--clock perf answers as the default" cmp -s "$W/r.B.perf" "$W/r.B.perf2"
# The same address, ADDR@T at each stage and without a time.
for st in A B A2; do TRUTH[$st]=$(python3 "$TC" name "$D" "$st" "$X"); done
run t1 "${RES[@]}" "$X@${MP[A]}" "$X@${MP[B]}" "$X@${MP[A2]}"
check "resolve $X at A's, B's and A2's times: ${TRUTH[A]%% *}, ${TRUTH[B]%% *}, ${TRUTH[A2]%% *} (exit $rc)" \
	test "$rc" = 0 -a "$(cut -d' ' -f2- "$W/t1.out")" = "$(printf '%s\n' "${TRUTH[A]}" "${TRUTH[B]}" "${TRUTH[A2]/@${REC[A2]#*@}/}")"
run t2 "${RES[@]}" "$X"
for st in A B A2; do
	res=$(python3 "$here/holders.py" line "$D/debugfs/module" "$W/t2.out" "$X" "${TRUTH[$st]}" 2>&1)
	check "... without a time: ambiguous, every record that held it a candidate, ${TRUTH[$st]} among them (exit $rc): $res" \
		test "$rc" = 1 -a "$res" != "${res#"$X": ambiguous}"
done
run t3 "${RES[@]}" --json "$X"
res=$(python3 "$here/holders.py" json "$D/debugfs/module" "$W/t3.out" "$X" "${TRUTH[B]}" 2>&1)
check "... --json: \"resolved\": false, \"ambiguous\": true, the same candidates ($res)" test "$res" != "${res#"$X": ambiguous}"
run t4 "${RES[@]}" --json --clock mono "$X@${MM[B]}"
check "resolve --json --clock mono $X@${MM[B]}: time_ns, clock mono, resolved to B's record (${REC[B]})" \
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; t=sys.argv[2].split(".")
assert r["time_ns"] == int(t[0]) * 10**9 + int(t[1].ljust(9, "0")) and r["clock"] == "mono" and r["resolved"] and "ambiguous" not in r
assert "%s@%d" % (r["module"], r["load_gen"]) == sys.argv[3] and r["module_state"] == "gone"' "$W/t4.out" "${MM[B]}" "${REC[B]}"
# When no record held it: before A, between A and B, between B and A2.
run t5 "${RES[@]}" "$X@${MP[before]}" "$X@${MP[gap-AB]}" "$X@${MP[gap-BA]}"
want=""
for m in before gap-AB gap-BA; do
	want="$want$X@${MP[$m]} ? (no module record held it at that time ($(echo "$held" | sed 's/ /, /g') did at another))
"
done
check "at the guest's markers before A, between A and B, between B and A2: no record held it, and it says which did at another time (exit $rc)" \
	test "$rc" = 1 -a "$(cat "$W/t5.out")" = "${want%?}"
# --freed: a stale address, named by the record that held it last, freed
# between that stage's marker and the gap's (the guest's clock, perf).
run t5f "${RES[@]}" --freed "$X@${MP[gap-AB]}" "$X@${MP[gap-BA]}"
res=$(python3 - "$W/t5f.out" "$X" "${MP[A]}" "${MP[gap-AB]}" "${TRUTH[A]}" "${MP[B]}" \
	"${MP[gap-BA]}" "${TRUTH[B]}" <<'EOF' 2>&1
import re, sys
from decimal import Decimal as D
out, x = open(sys.argv[1]).read().splitlines(), sys.argv[2]
for line, (lo, hi, name) in zip(out, [sys.argv[3:6], sys.argv[6:9]]):
    m = re.fullmatch(re.escape("%s@%s %s" % (x, hi, name)) +
                     r" \(freed at (\d+\.\d{9}): no module held it then\)", line)
    assert m, "%r is not %s freed" % (line, name)
    assert D(lo) < D(m.group(1)) < D(hi), "freed at %s, not between %s and %s" % (m.group(1), lo, hi)
assert len(out) == 2, out
print("ok")
EOF
)
check "--freed: between A and B, A's ${TRUTH[A]%% *}; between B and A2, B's ${TRUTH[B]%% *}; each freed between its marker and the gap's (exit $rc): $res" \
	test "$rc" = 0 -a "$res" = ok
# Fewer digits: a window that holds a moment of A and one of B (or B and A2).
for clock in perf mono; do
	if read -r w f s < <(python3 "$TC" straddle "$D" $clock); then
		opt=(--clock $clock)
		run "w.$clock" "${RES[@]}" "${opt[@]}" "$X@$w" "$X@$( [ $clock = perf ] && echo "${MP[$f-last]}" || echo "${MM[$f-last]}")"
		want="$X@$w ambiguous: ${TRUTH[$s]} | ${TRUTH[$f]}"
		[ "$s" = A2 ] && want="$X@$w ambiguous: ${TRUTH[A2]} | ${TRUTH[B]}"
		digits=0; [[ $w == *.* ]] && digits=$(( ${#w} - ${#w%%.*} - 1 ))
		check "--clock $clock $X@$w (a window of $digits fraction digits, over $f's unload and $s's load): ambiguous between $s and $f, newest first; at $f-last's microsecond $f alone" \
			sh -c '[ "$(head -1 "$1")" = "$2" ] && [ "$(sed -n 2p "$1" | cut -d" " -f2-)" = "$3" ]' sh "$W/w.$clock.out" "$want" "${TRUTH[$f]/@${REC[A2]#*@}/}"
	else
		nok "--clock $clock: a window of fewer digits over a load (none in the data)"
	fi
done
run b1 "${RES[@]}" --clock jiffies "$X@1.0"
expect_rc b1 2 "--clock jiffies: perf or mono" "--clock jiffies: a usage error, naming the clocks"
run b2 "${RES[@]}" "$X@1.2.3" "$X@" "$X@1e9"
check "ADDR@ with no number of seconds: ? (not ADDR@SECONDS), exit 1" \
	test "$rc" = 1 -a "$(grep -c '? (not ADDR@SECONDS)$' "$W/b2.out")" = 3

# ---------------------------------------------------------------- --text with times
for f in trace-perf trace-mono perf-script; do
	clock=${f#trace-}; [ $f = perf-script ] && clock=perf
	"$K" "${RES[@]}" --clock $clock --text < "$D/$f" > "$W/x.$f" 2> "$W/x.$f.err"; rc=$?
	res=$(python3 "$TC" text "$D" "$D/$f" "$W/x.$f" $clock 2>&1); r=$?
	check "resolve --text --clock $clock on the guest's $f: each module address named by the record of its line's time: ${res##*$'\n'} (exit $rc)" \
		test "$r" = 0 -a "$rc" = 0
	[ "$r" = 0 ] || echo "$res" | head -5 | diag
done
for f in trace-perf perf-script; do
	"$K" "${RES[@]}" --text < "$D/$f" > "$W/y.$f" 2> "$W/y.$f.err"; rc=$?
	res=$(python3 "$TC" text "$D" "$D/$f" "$W/y.$f" - 2>&1); r=$?
	check "resolve --text without --clock on the guest's $f: each such address ambiguous, every record a candidate: ${res##*$'\n'} (exit $rc)" \
		test "$r" = 0 -a "$rc" = 0
	[ "$r" = 0 ] || echo "$res" | head -5 | diag
done
sed 's/\[kreloc_busy@[0-9]*\]>/[kreloc_busy]>/' "$W/x.trace-perf" > "$W/x.wrong"
check "timecheck fails when A's hits are named as A2's record" \
	sh -c '! cmp -s "$1" "$2" && ! python3 "$3" text "$4" "$4/trace-perf" "$2" perf > /dev/null 2>&1' sh "$W/x.trace-perf" "$W/x.wrong" "$TC" "$D"
check "timecheck fails on the text resolved without a time where one is wanted" \
	sh -c '! python3 "$1" text "$2" "$2/trace-perf" "$3" perf > /dev/null 2>&1' sh "$TC" "$D" "$W/y.trace-perf"

# ---------------------------------------------------------------- an end kreloc did not see
# kreloc's own record without its init time (as a module loaded before
# kreloc has none): its .init.text, where A, B and A2 came in turn, ended
# at the first of them, A, not at A2.
awk '$1 == "module" && $2 == "kreloc" && $3 == "live" {$10 = "-"; $13 = "-"} {print}' "$S" > "$W/noinit.snap"
run e1 resolve --snapshot "$W/noinit.snap" --kallsyms "$W/kallsyms" --modules-dir "$D/modules" "$X@${MP[A]}" "$X@${MP[B]}" "$X@${MP[before]}"
check "a record with no end time (kreloc's .init.text) ends at the first later load into it: A and B alone at their times, kreloc's .init.text before A (exit $rc)" \
	sh -c 'grep -q "^module kreloc live .* - - - - - -$" "$1" && [ "$(sed -n 1p "$2" | cut -d" " -f2-)" = "$3" ] &&
		[ "$(sed -n 2p "$2" | cut -d" " -f2-)" = "$4" ] && sed -n 3p "$2" | grep -q " \[kreloc\] \.init\.text "' \
	sh "$W/noinit.snap" "$W/e1.out" "${TRUTH[A]}" "${TRUTH[B]}"

echo "1..$n"
exit $failed
