#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_cli.sh KRELOC GEN WORKDIR: host tests of the kreloc CLI (a KTAP
# document on stdout).  KRELOC should be the ASan/UBSan build.  Needs the
# Debian 6.1 amd64 link-time map and .ko files from the rig's cache for the
# tests that use them; those are skipped (KTAP SKIP) when absent.
set -uo pipefail
K="$1" GEN="$2" W="$3"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
KO=$(find "$MODDIR" -name af_key.ko 2>/dev/null | head -1)
export GEN
# Sanitizers: abort on the first report, so a report is also a nonzero exit.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

res="$W/results"
: > "$res"
n=0
ok() { n=$((n + 1)); echo "ok $n $*" >> "$res"; }
nok() { n=$((n + 1)); echo "not ok $n $*" >> "$res"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2" >> "$res"; }
diag() { sed 's/^/# /' >> "$res"; }
# check DESC CMD...: ok if CMD succeeds
check() { local d="$1"; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
# no sanitizer report in a stderr file
clean() { ! grep -qE 'AddressSanitizer|runtime error|LeakSanitizer|UndefinedBehavior' "$1"; }

# run NAME ARGS...: run kreloc, stdout to $W/NAME.out, stderr to $W/NAME.err, rc in $rc
run() { local name="$1"; shift; "$K" "$@" > "$W/$name.out" 2> "$W/$name.err"; rc=$?; }
# expect_rc NAME RC REGEX DESC: exit code and a stderr message matching REGEX, no sanitizer report
expect_rc() {
	local name="$1" want="$2" re="$3" desc="$4"
	if [ "$rc" -eq "$want" ] && grep -qE -- "$re" "$W/$name.err" && clean "$W/$name.err"; then
		ok "$desc"
	else
		nok "$desc"
		{ echo "exit $rc (want $want), stderr:"; head -5 "$W/$name.err"; } | diag
	fi
}

have_fixture=1
[ -s "$MAP" ] && [ -n "$KO" ] || have_fixture=0

# ---------------------------------------------------------------- usage
run u1 resolve --system-map /dev/null 0x1;   expect_rc u1 2 'snapshot FILE is required' "usage: resolve without --snapshot exits 2"
run u2 resolve --snapshot x --system-map a --kallsyms b; expect_rc u2 2 'exactly one of' "usage: both maps exit 2"
run u3 frobnicate;                           expect_rc u3 2 "unknown command 'frobnicate'" "usage: unknown command exits 2"
run u4 probe --dry-run 'bad spec!';          expect_rc u4 2 'bad character in symbol name' "usage: malformed probe spec exits 2"
run u5 probe --remove nogroup;               expect_rc u5 2 'GROUP/EVENT' "usage: --remove without G/E exits 2"
run u6 show --bogus;                         expect_rc u6 2 'bad option' "usage: unknown option exits 2"
run u7 --help
if [ "$rc" -eq 0 ] && grep -q 'resolve' "$W/u7.out" && grep -q probe "$W/u7.out"; then ok "--help lists the commands"; else nok "--help lists the commands"; fi

# ---------------------------------------------------------------- kreloc missing
mkdir -p "$W/empty/sys/kernel/debug"
run m1 --root "$W/empty" show
expect_rc m1 1 "kreloc not loaded: $W/empty/sys/kernel/debug/kreloc missing" "show: kreloc not loaded names the directory, exit 1"

if [ "$have_fixture" = 0 ]; then
	skip "fixture" "no $MAP or af_key.ko in the rig cache (run rig/groundtruth.sh on amd64-6.1)"
	echo "TAP version 13"; echo "1..$n"; cat "$res"; exit 0
fi

R="$W/root"
mkroot "$R" "$MAP" "$KO"
SNAP="$W/snap"

# ---------------------------------------------------------------- show / snapshot
run s1 --root "$R" show
check "show: table has the text section with its offset" \
	grep -qE '^text +0xffffffff81000000 +0xffffffff9f200000 +0xe01d32 +0x1e200000 +ok' "$W/s1.out"
run s2 --root "$R" show --json
if command -v python3 >/dev/null; then
	check "show --json is valid JSON with 4 module records" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["modules"])==4 and d["sections"][0]["offset"]=="0x1e200000"' "$W/s2.out"
else
	skip "show --json is valid JSON" "no python3"
fi
run s3 --root "$R" snapshot -o "$SNAP"
if [ "$rc" -eq 0 ] && [ "$(head -1 "$SNAP")" = "KRELOC-SNAPSHOT 1" ] &&
   [ "$(grep -c '^module ' "$SNAP")" -eq 4 ] && [ "$(tail -1 "$SNAP")" = "end $(wc -l < "$SNAP")" ]; then
	ok "snapshot: header, 4 module records, end line counts the lines ($(wc -c < "$SNAP") bytes)"
else
	nok "snapshot: header, 4 module records, end line"; diag < "$W/s3.err"
fi
run s4 show --snapshot "$SNAP" --json
check "snapshot round trip: show --snapshot equals show of the live tree" cmp -s "$W/s2.out" "$W/s4.out"
run s5 --root "$R" show --snapshot "$SNAP"
check "snapshot keeps history: old_mod gone 2..5" grep -qE '^old_mod +gone .* 2\.\.5$' "$W/s5.out"

# ---------------------------------------------------------------- core resolve, 10,000 addresses
"$GEN" core 10000 42 "$KOFF" < "$MAP" > "$W/exp"
awk '{print $1}' "$W/exp" > "$W/addrs"
# cmp_core OUT: count lines whose SYMBOL+OFF or section is wrong
cmp_core() {
	paste -d' ' "$W/exp" "$1" | awk '
		$4 != $1 || $5 != $2 "+" $3 || $6 !~ /^(text|init\.text|init\.data)$/ || NF != 6 { bad++; if (bad < 4) print "# bad: " $0 }
		END { print bad + 0 }'
}
"$K" resolve --snapshot "$SNAP" --system-map "$MAP" - < "$W/addrs" > "$W/c1.out" 2> "$W/c1.err"; rc=$?
bad=$(cmp_core "$W/c1.out" | tail -1)
if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$(wc -l < "$W/c1.out")" -eq 10000 ] && clean "$W/c1.err"; then
	ok "resolve: 10000 KASLR'd core addresses against the 94k-line System.map all right"
else
	nok "resolve: 10000 core addresses ($bad wrong, exit $rc)"; cmp_core "$W/c1.out" | head -3 | diag
fi
# The same check must notice a wrong offset (the test can fail).
sed 's/0x1e200000 ok$/0x1e201000 ok/' "$SNAP" > "$W/snap.wrong"
"$K" resolve --snapshot "$W/snap.wrong" --system-map "$MAP" - < "$W/addrs" > "$W/c2.out" 2>/dev/null
bad=$(cmp_core "$W/c2.out" | tail -1)
if [ "$bad" -gt 9000 ]; then ok "resolve: the same check catches a snapshot 0x1000 off ($bad wrong)"; else nok "resolve: wrong offset not caught ($bad wrong)"; fi
# kallsyms saved on another boot (offset KOFF2) of the same build
"$GEN" shift "$KOFF2" < "$MAP" > "$W/kallsyms.other"
"$K" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.other" - < "$W/addrs" > "$W/c3.out" 2> "$W/c3.err"; rc=$?
bad=$(cmp_core "$W/c3.out" | tail -1)
if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]; then ok "resolve --kallsyms from another boot: 10000 addresses right"; else nok "resolve --kallsyms from another boot ($bad wrong, exit $rc)"; fi
run c4 --json resolve --snapshot "$SNAP" --system-map "$MAP" "$(head -1 "$W/addrs")" 0x10
if command -v python3 >/dev/null; then
	check "resolve --json: array with a resolved and an unresolved entry" python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==2 and d[0]["resolved"] and d[0]["section"]=="text" and not d[1]["resolved"]' "$W/c4.out"
else
	skip "resolve --json" "no python3"
fi
run c5 resolve --snapshot "$SNAP" --system-map "$MAP" 0x1234 nothex 0xffffffff9f200000
if [ "$rc" -eq 1 ] && grep -qx '0x1234 ?' "$W/c5.out" && grep -qx 'nothex ?' "$W/c5.out" &&
   grep -qx '0xffffffff9f200000 startup_64+0x0 text' "$W/c5.out" && grep -q "'nothex' is not a hex address" "$W/c5.err"; then
	ok "resolve: unknown and malformed addresses print '?', exit 1; _text resolves"
else
	nok "resolve: unknown/malformed addresses"; cat "$W/c5.out" "$W/c5.err" | diag
fi
# A map of another build (_text moved) is refused.
"$GEN" shift 0x200000 < "$MAP" > "$W/map.other"
run c6 resolve --snapshot "$SNAP" --system-map "$W/map.other" 0x1
expect_rc c6 1 "$W/map.other: _text is 0xffffffff81200000 but the snapshot's REF_LINKED is 0xffffffff81000000" \
	"resolve: a System.map of another build is refused, naming the file"
echo "The real System.map is in the linux-image-6.1.0-57-amd64-dbg package" > "$W/map.placeholder"
run c7 resolve --snapshot "$SNAP" --system-map "$W/map.placeholder" 0x1
expect_rc c7 1 "map.placeholder: Debian's placeholder System.map" "resolve: Debian's placeholder System.map is refused with the reason"
sed 's/^\(ffffffff\)/0000000000000000/' "$MAP" | awk '{print "0000000000000000", $2, $3}' > "$W/kallsyms.zero"
run c8 resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms.zero" 0x1
expect_rc c8 1 'no core symbol with a nonzero address' "resolve: a kallsyms read without CAP_SYSLOG (zeros) is refused"

# ---------------------------------------------------------------- modules
KMOD="$R/sys/kernel/debug/kreloc/module/af_key@4"
ktext=$(awk '$2 == ".text" {print $3}' "$KMOD")
# every function in af_key's .text at +0 and +1 (when the function is longer than 1 byte)
readelf -sW "$KO" | awk -v sec="$(readelf -SW "$KO" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p')" \
	'$4 == "FUNC" && $7 == sec && $3 > 1 {print $2, $8}' | sort -u -k1,1 |
	while read -r v name; do
		printf '0x%x %s+0x0\n0x%x %s+0x1\n' $((ktext + 0x$v)) "$name" $((ktext + 0x$v + 1)) "$name"
	done > "$W/mexp"
nm_count=$(wc -l < "$W/mexp")
awk '{print $1}' "$W/mexp" | "$K" resolve --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" - > "$W/m1.out" 2> "$W/m1.err"; rc=$?
bad=$(paste -d' ' "$W/mexp" "$W/m1.out" | awk '$3 != $1 || $4 != $2 || $5 != "[af_key]" || $6 != ".text" {b++} END {print b + 0}')
if [ "$rc" -eq 0 ] && [ "$nm_count" -gt 20 ] && [ "$bad" -eq 0 ] && clean "$W/m1.err"; then
	ok "resolve: all $nm_count af_key .text function addresses -> symbol+off [af_key] .text (libelf symtab)"
else
	nok "resolve: af_key functions ($bad of $nm_count wrong, exit $rc)"; paste -d' ' "$W/mexp" "$W/m1.out" | awk '$3 != $1 || $4 != $2' | head -3 | diag
fi
a=$(printf '0x%x' $((ktext + 0x10)))
run m2 resolve --snapshot "$SNAP" --system-map "$MAP" "$a"
check "resolve: module address without --modules-dir -> .text+0x10 [af_key] .text" grep -qx "$a .text+0x10 \[af_key\] .text" "$W/m2.out"
run m3 resolve --snapshot "$SNAP" --system-map "$MAP" 0xffffffffc0b01804 0xffffffffc0b04010
check "resolve: unloaded module (history) -> [old_mod@2] with its section" \
	grep -qxF $'0xffffffffc0b01804 .exit.text+0x4 [old_mod@2] .exit.text\n0xffffffffc0b04010 .data+0x10 [old_mod@2] .data' "$W/m3.out"
check "resolve: unloaded module (history) -> both lines" test "$(grep -c 'old_mod@2' "$W/m3.out")" -eq 2
run m4 resolve --snapshot "$SNAP" --system-map "$MAP" 0xffffffffc0c00010 0xffffffffc0c00810
check "resolve: a range reused by a later load resolves to the newest record" \
	test "$(cat "$W/m4.out")" = $'0xffffffffc0c00010 .text+0x10 [reuse_b] .text\n0xffffffffc0c00810 .text.unlikely+0x10 [reuse_b] .text.unlikely'
run m5 resolve --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" 0xffffffffc0a80004
check "resolve: freed module init text still resolves" grep -qE '^0xffffffffc0a80004 [a-z_]+\+0x[0-9a-f]+ \[af_key\] \.init\.text$' "$W/m5.out"
# A .ko of another build (a different .text size) is not used for names.
mkdir -p "$W/wrongko"
sed 's/^\(section \.text 0x[0-9a-f]*\) 0x[0-9a-f]*/\1 0x1234/' "$SNAP" | awk '/^end /{print "end " NR; next} {print}' > "$W/snap.ko"
run m6 resolve --snapshot "$W/snap.ko" --system-map "$MAP" --modules-dir "$MODDIR" "$(printf '0x%x' $((ktext + 0x10)))"
check "resolve: a .ko whose .text size differs from the snapshot is not trusted" \
	grep -q 'another build, not used' "$W/m6.err"

# ---------------------------------------------------------------- ppc64 ELFv1
P="$W/ppc"
mkroot_ppc64v1 "$P"
run p1 --root "$P" snapshot -o "$W/snap.ppc"
if grep -qx 'ENDIAN big' "$W/snap.ppc" && grep -qx 'ELF_ABI v1' "$W/snap.ppc"; then
	ok "ppc64: snapshot says ENDIAN big, ELF_ABI v1 (from kallsyms .name symbols)"
else
	nok "ppc64: snapshot ENDIAN/ELF_ABI"; diag < "$W/snap.ppc"
fi
run p2 resolve --snapshot "$W/snap.ppc" --kallsyms "$P/proc/kallsyms" 0xc000000000010008 0xc000000000010104 0xc000000001400104
check "ppc64 ELFv1: code resolves to .foo/.bar (not the descriptor twin), .opd data to the descriptor" \
	test "$(cat "$W/p2.out")" = $'0xc000000000010008 .foo+0x8 text\n0xc000000000010104 .bar+0x4 text\n0xc000000001400104 foo+0x4 data'
run p3 --root "$P" probe --dry-run foo
check "ppc64 ELFv1: probe foo uses the .foo code address, never the descriptor" \
	test "$(cat "$W/p3.out")" = 'p:kreloc/foo 0xc000000000010000'

# ---------------------------------------------------------------- probe
sched=$(printf '0x%x' $((0xffffffff81a52dd0 + KOFF)))
run q1 --root "$R" probe --dry-run schedule
check "probe --dry-run schedule -> p:kreloc/schedule 0xRUNTIME (kallsyms)" test "$(cat "$W/q1.out")" = "p:kreloc/schedule $sched"
run q2 --root "$R" probe --dry-run --group grp --event ev schedule+0x10 '$arg1' 'x=%di:u64'
check "probe: +OFF, --group/--event and fetchargs" \
	test "$(cat "$W/q2.out")" = "p:grp/ev $(printf '0x%x' $((sched + 0x10))) \$arg1 x=%di:u64"
run q3 --root "$R" probe --dry-run vmlinux:0xffffffff81a52dd4
check "probe vmlinux:0xLINKED -> LINKED + text offset" test "$(cat "$W/q3.out")" = "p:kreloc/vmlinux_ffffffff81a52dd4 $(printf '0x%x' $((sched + 4)))"
run q4 --root "$R" probe --dry-run af_key:pfkey_sendmsg+4
check "probe mod:sym+off -> MOD:SYM+0xOFF line" test "$(cat "$W/q4.out")" = "p:kreloc/af_key_pfkey_sendmsg_4 af_key:pfkey_sendmsg+0x4"
run q5 --root "$R" probe --dry-run dup_fn
expect_rc q5 1 'symbol dup_fn is not unique \(2 entries\)' "probe: an ambiguous name is refused and says so"
run q6 --root "$R" probe --dry-run no_such_function
expect_rc q6 1 "$R/proc/kallsyms: no symbol no_such_function" "probe: unknown symbol names kallsyms, exit 1"
run q7 --root "$R" probe --dry-run vmlinux:0xffffffff82000010
expect_rc q7 1 'outside the kernel.s text section' "probe: vmlinux address outside text is refused"
run q8 --root "$R" probe --dry-run start_kernel
expect_rc q8 3 'init text, freed after boot' "probe: a freed __init function (start_kernel) is refused, exit 3"
run q9 --root "$R" probe --dry-run vmlinux:0xffffffff83079e46
expect_rc q9 3 'init.text, which the kernel has freed' "probe: a freed init link-time address is refused, exit 3"
run q10 --root "$R" probe --dry-run exc_int3+8
expect_rc q10 3 'kprobe blacklist .*exc_int3' "probe: a blacklisted address is refused with the blacklist entry, exit 3"
run q11 --root "$R" probe schedule
check "probe: writes the line to tracefs kprobe_events" test "$(cat "$R/sys/kernel/tracing/kprobe_events")" = "p:kreloc/schedule $sched"
run q12 --root "$R" probe --remove kreloc/schedule
check "probe --remove writes -:G/E" test "$(tail -1 "$R/sys/kernel/tracing/kprobe_events")" = "-:kreloc/schedule"
# The kernel refuses: kprobe_events fails to write, error_log has the reason.
F="$W/froot"; cp -r "$R" "$F"
ln -sf /dev/full "$F/sys/kernel/tracing/kprobe_events"
printf '[  1.000] trace_kprobe: error: Old\n  Command: p:x\n[ 12.345] trace_kprobe: error: Invalid probed address or symbol\n  Command: p:kreloc/schedule 0x1\n             ^\n' \
	> "$F/sys/kernel/tracing/error_log"
run q13 --root "$F" probe schedule
if [ "$rc" -eq 3 ] && grep -q 'Invalid probed address or symbol' "$W/q13.err" && ! grep -q 'error: Old' "$W/q13.err"; then
	ok "probe: a write error prints the newest error_log entry, exit 3"
else
	nok "probe: write error path (exit $rc)"; diag < "$W/q13.err"
fi
# older mounts: tracing under debugfs
G="$W/groot"; cp -r "$R" "$G"; rm -rf "$G/sys/kernel/tracing"; mkdir -p "$G/sys/kernel/debug/tracing"
: > "$G/sys/kernel/debug/tracing/kprobe_events"
run q14 --root "$G" probe schedule
check "probe: falls back to /sys/kernel/debug/tracing" grep -q '^p:kreloc/schedule ' "$G/sys/kernel/debug/tracing/kprobe_events"

# ---------------------------------------------------------------- corrupt snapshots
# corrupt NAME 'SED-or-CMD' REGEX: the mutated snapshot must fail with exit 1
# and "FILE:LINE: reason" (REGEX matches LINE: reason), no sanitizer report.
corrupt() {
	local name="$1" how="$2" re="$3" f="$W/bad.$1"
	eval "$how" > "$f"
	run "bad_$name" resolve --snapshot "$f" --system-map "$MAP" 0x1
	expect_rc "bad_$name" 1 "^kreloc: $f:$re" "corrupt snapshot ($name) -> exit 1 with FILE:LINE"
}
L=$(wc -l < "$SNAP")
corrupt trunc_half "head -n $((L / 2)) '$SNAP'" "$((L / 2 + 1)): truncated: no 'end' line"
corrupt trunc_last "head -n $((L - 1)) '$SNAP'" "$L: truncated: no 'end' line"
corrupt trunc_midline "head -c $(( $(head -n 24 "$SNAP" | wc -c) + 10 )) '$SNAP'" '25: module: expected NAME'
corrupt empty ": " '1: empty file'
corrupt magic "sed '1s/.*/KRELOC-SNAPSHUT 1/' '$SNAP'" "1: not a kreloc snapshot"
corrupt version "sed '1s/.*/KRELOC-SNAPSHOT 2/' '$SNAP'" "1: snapshot format version 2 is newer"
corrupt badhex "sed '16s/0x[0-9a-f]*/0xzz/' '$SNAP'" "16: core section: value is neither 0xHEX nor '-'"
corrupt longhex "sed '16s/0x\([0-9a-f]*\)/0x1\1/' '$SNAP'" "16: core section"
corrupt fields "sed '16s/ ok$//' '$SNAP'" "16: core section: expected"
corrupt dupkey "sed '4s/.*/ARCH x86_64\nARCH x86_64/' '$SNAP'" "5: header key given twice"
corrupt nokey "sed '/^ARCH /d' '$SNAP'" "[0-9]+: header key ARCH missing"
corrupt orphan "sed '/^module reuse_a/d' '$SNAP'" "[0-9]+: region/section before any module line"
corrupt state "sed 's/^module old_mod gone/module old_mod dead/' '$SNAP'" "[0-9]+: module: unknown STATE"
corrupt endcount "sed '\$s/.*/end 3/' '$SNAP'" "$L: end: line count does not match"
corrupt after "cat '$SNAP'; echo junk" "$((L + 1)): text after the 'end' line"
corrupt nul "sed '9s/ok/o\x00k/' '$SNAP'" "9: NUL byte in line"
corrupt binary "head -c 3000 /bin/sh" "1: "
corrupt wrap "sed 's/^region text 0xffffffffc0b00000 0x2000/region text 0xffffffffc0b00000 0xffffffffffffff00/' '$SNAP'" "[0-9]+: module memory: ADDRESS\\+SIZE wraps around"

# ---------------------------------------------------------------- corrupt System.maps
badmap() {
	local name="$1" how="$2" re="$3" f="$W/badmap.$1"
	eval "$how" > "$f"
	run "bm_$name" resolve --snapshot "$SNAP" --system-map "$f" 0x1
	expect_rc "bm_$name" 1 "^kreloc: $f:$re" "corrupt System.map ($name) -> exit 1 with FILE:LINE"
}
badmap nothex "sed '500s/^f/g/' '$MAP'" "500: address is not hexadecimal"
badmap notype "sed '600s/ T / TT /' '$MAP'" "600: expected a one-letter symbol type"
badmap truncated "head -c \$(( \$(head -n 700 '$MAP' | wc -c) + 10 )) '$MAP'" "701: expected a blank after the address"
badmap nul "sed '800s/ / \x00/' '$MAP'" "800: NUL byte in line"
badmap longaddr "sed '900s/^/1/' '$MAP'" "900: address out of range"

# ---------------------------------------------------------------- fuzzing
if [ -n "${KRELOC_FUZZ:-}" ] && [ -x "$top/tools/cli/fuzz/fuzz_snapshot" ]; then
	for f in fuzz_snapshot fuzz_sysmap fuzz_spec; do
		fz="$top/tools/cli/fuzz/$f"
		mkdir -p "$W/corpus.$f"
		case $f in
		fuzz_snapshot) cp "$SNAP" "$W/snap.ppc" "$W/corpus.$f/" ;;
		fuzz_sysmap) head -200 "$MAP" > "$W/corpus.$f/map"; (printf '\001'; head -50 "$W/kallsyms.other") > "$W/corpus.$f/ks" ;;
		fuzz_spec) printf 'schedule+0x10' > "$W/corpus.$f/a"; printf 'vmlinux:0xffffffff81000000' > "$W/corpus.$f/b"; printf 'mod-x:.sym+3' > "$W/corpus.$f/c" ;;
		esac
		if "$fz" -runs=20000 -max_total_time=10 -max_len=4096 "$W/corpus.$f" > "$W/$f.log" 2>&1; then
			ok "fuzz: $f bounded run ($(grep -oE '#[0-9]+' "$W/$f.log" | tail -1) execs) without a crash"
		else
			nok "fuzz: $f"; tail -30 "$W/$f.log" | diag
		fi
	done
else
	skip "fuzz targets" "no clang/libFuzzer build (make -C tools/cli fuzz)"
fi

echo "TAP version 13"
echo "1..$n"
cat "$res"
grep -q '^not ok' "$res" && exit 1
exit 0
