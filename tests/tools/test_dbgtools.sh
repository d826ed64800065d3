#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_dbgtools.sh KRELOC GEN WORKDIR: host tests of `kreloc gdb` and
# `kreloc kallsyms` (a KTAP document on stdout): usage, and the bad inputs
# that must give a clear error and no wrong symbol (a map or vmlinux of
# another build, a .ko that is not the module that was loaded, a .ko of
# another release, a missing .ko).  Their real results (gdb breakpoints,
# perf samples) are checked in QEMU by rig/vm-gdb.sh and rig/vm-perf.sh.
set -uo pipefail
K="$1" GEN="$2" W="$3"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
KO=$(find "$MODDIR" -name af_key.ko 2>/dev/null | head -1)
export GEN
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

res="$W/results"
: > "$res"
n=0
ok() { n=$((n + 1)); echo "ok $n $*" >> "$res"; }
nok() { n=$((n + 1)); echo "not ok $n $*" >> "$res"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2" >> "$res"; }
diag() { sed 's/^/# /' >> "$res"; }
check() { local d="$1"; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
clean() { ! grep -qE 'AddressSanitizer|runtime error|LeakSanitizer|UndefinedBehavior' "$1"; }
run() { local name="$1"; shift; "$K" "$@" > "$W/$name.out" 2> "$W/$name.err"; rc=$?; }
expect_rc() {
	local name="$1" want="$2" re="$3" desc="$4"
	if [ "$rc" -eq "$want" ] && grep -qE -- "$re" "$W/$name.err" && clean "$W/$name.err"; then
		ok "$desc"
	else
		nok "$desc"
		{ echo "exit $rc (want $want), stderr:"; head -5 "$W/$name.err"; } | diag
	fi
}
mode() { stat -c %a "$1" 2>/dev/null; }

# ---------------------------------------------------------------- usage
run h1 gdb --help
check "gdb --help explains the script" grep -q 'add-symbol-file FILE TEXT -s SECTION ADDR' "$W/h1.out"
run h2 kallsyms --help
check "kallsyms --help names perf --kallsyms" grep -q 'perf report/script --kallsyms=FILE' "$W/h2.out"
run u1 kallsyms --snapshot x
expect_rc u1 2 'exactly one of --system-map FILE and --vmlinux FILE' "usage: kallsyms without a map exits 2"
run u2 kallsyms --snapshot x --system-map y --generation 1x
expect_rc u2 2 'generation 1x: a decimal generation' "usage: kallsyms --generation must be a number"
run u3 gdb --module 'vfat@x'
expect_rc u3 2 'NAME or NAME@LOAD_GEN' "usage: gdb --module NAME@GEN must have a number"
run u4 kallsyms --snapshot x --system-map y --json
expect_rc u4 2 'needs|write the symbols with -o FILE' "usage: kallsyms --json needs -o"

if [ ! -s "$MAP" ] || [ -z "$KO" ]; then
	skip "fixture" "no $MAP or af_key.ko in the rig cache (run rig/groundtruth.sh on amd64-6.1)"
	echo "TAP version 13"; echo "1..$n"; cat "$res"; exit 0
fi
R="$W/root"
mkroot "$R" "$MAP" "$KO"
SNAP="$W/snap"
"$K" --root "$R" snapshot -o "$SNAP" 2>/dev/null

# ---------------------------------------------------------------- kallsyms: core
run k1 kallsyms --snapshot "$SNAP" --system-map "$MAP" -o "$W/k1"
core=$(grep -vc $'\t' "$W/k1")
notin=$(grep -v $'\t' "$W/k1" | sort | comm -23 - <(sort "$R/proc/kallsyms") | wc -l)
if [ "$core" -gt 90000 ] && [ "$notin" -eq 0 ]; then
	ok "kallsyms: $core core symbols, each as the boot's /proc/kallsyms has it"
else
	nok "kallsyms: core symbols ($core, $notin not in /proc/kallsyms)"
	grep -v $'\t' "$W/k1" | sort | comm -23 - <(sort "$R/proc/kallsyms") | head -3 | diag
fi
check "kallsyms -o writes mode 0600 (it holds addresses)" test "$(mode "$W/k1")" = 600
# the same check notices a wrong offset: it can fail
sed 's/0x1e200000 ok$/0x1e201000 ok/' "$SNAP" > "$W/snap.off"
"$K" kallsyms --snapshot "$W/snap.off" --system-map "$MAP" 2>/dev/null | grep -v $'\t' | sort > "$W/k.off"
notin=$(comm -23 "$W/k.off" <(sort "$R/proc/kallsyms") | wc -l)
check "kallsyms: the same comparison catches a snapshot 0x1000 off ($notin lines differ)" test "$notin" -gt 80000

# ---------------------------------------------------------------- kallsyms: bad input
"$GEN" shift 0x200000 < "$MAP" > "$W/map.other"
run k2 kallsyms --snapshot "$SNAP" --system-map "$W/map.other" -o "$W/k2"
expect_rc k2 1 'map.other: _text is elsewhere, the snapshot.s kernel links it at 0xffffffff81000000: the map of another build' \
	"kallsyms: a System.map of another build is refused"
check "kallsyms: nothing is written for a refused map" test ! -e "$W/k2"
echo "The real System.map is in the linux-image-6.1.0-57-amd64-dbg package" > "$W/map.placeholder"
run k3 kallsyms --snapshot "$SNAP" --system-map "$W/map.placeholder"
expect_rc k3 1 "placeholder System.map" "kallsyms: Debian's placeholder System.map is refused"
# The fixture's af_key record is laid out 64-byte aligned, not as the loader
# packs af_key.ko: the .ko must be refused, not placed.
run k4 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" -o "$W/k4"
expect_rc k4 1 'af_key: .*af_key.ko is not the module that was loaded: section .* (leaves|overlap)' \
	"kallsyms: a .ko that does not fit the recorded section addresses is refused with the section"
check "kallsyms: no [af_key] symbol from the refused .ko" test "$(grep -c $'\t\\[af_key\\]' "$W/k4")" -eq 0
check "kallsyms: a module without a .ko is a warning naming the directory" \
	grep -q "warning: old_mod: no old_mod.ko under $MODDIR" "$W/k4.err"
# two records of one name (old_mod renamed af_key): perf could not tell them apart
sed 's/^module old_mod /module af_key /' "$SNAP" > "$W/snap.two"
run k7 kallsyms --snapshot "$W/snap.two" --system-map "$MAP" -o "$W/k7"
check "kallsyms: a name with two records gets [NAME@LOAD_GEN] tags and the --generation hint" \
	grep -q 'af_key has 2 records: each is tagged \[af_key@LOAD_GEN\]; give --generation N' "$W/k7.err"
run k5 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" -o "$W/k5" --json
if command -v python3 >/dev/null; then
	check "kallsyms --json: per-module status and reason" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["modules"]}
assert d["core_symbols"] > 90000
assert m["af_key"]["status"] == "mismatch" and "not the module" in m["af_key"]["reason"]
assert m["old_mod"]["status"] == "missing" and m["old_mod"]["symbols"] == 0' "$W/k5.out"
else
	skip "kallsyms --json" "no python3"
fi
# A .ko built for another release (the rig's 6.12 modules, when cached).
KO12=$(find "$CACHE/k/" -path '*6.12*' -name 'af_key.ko*' 2>/dev/null | head -1)
if [ -n "$KO12" ]; then
	mkdir -p "$W/mod12"
	case "$KO12" in
	*.xz) xz -dc "$KO12" > "$W/mod12/af_key.ko" ;;
	*.zst) zstd -qdc "$KO12" > "$W/mod12/af_key.ko" ;;
	*) cp "$KO12" "$W/mod12/" ;;
	esac
	run k6 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$W/mod12"
	expect_rc k6 1 'af_key.ko was built for 6\.12\.[^ ]*, the snapshot.s kernel is 6\.1\.0-57-amd64' \
		"kallsyms: a .ko of another release is refused, naming both releases"
else
	skip "kallsyms: a .ko of another release" "no 6.12 af_key.ko in the rig cache"
fi

# ---------------------------------------------------------------- gdb: bad input
VML="$W/vmlinux"
if "$top/tools/kreloc-extract-vmlinux" "$KENV/root/boot/vmlinuz-$KVER" "$VML" 2>/dev/null && [ -s "$VML" ]; then
	run g1 gdb --snapshot "$SNAP" --vmlinux "$VML"
	expect_rc g1 1 'vmlinux has build id [0-9a-f]+, but the snapshot.s kernel \(6.1.0-57-amd64\) has 0f1e2d3c4b5a69788796a5b4c3d2e1f001234567: another build' \
		"gdb: a vmlinux of another build (build id) is refused"
	check "gdb: nothing is printed for it" test ! -s "$W/g1.out"
	id=$(readelf -n "$VML" | sed -n 's/.*Build ID: //p' | head -1)
	sed "s/^BUILD_ID .*/BUILD_ID $id/" "$SNAP" > "$W/snap.id"
	run g2 gdb --snapshot "$W/snap.id" --vmlinux "$VML"
	expect_rc g2 1 'no symbol table \(stripped' "gdb: the stripped vmlinux of the right build says it has no symbols"
else
	skip "gdb: a vmlinux of another build" "cannot extract $KVER's vmlinux"
	skip "gdb: nothing printed" "no vmlinux"
	skip "gdb: stripped vmlinux" "no vmlinux"
fi
run g3 gdb --snapshot "$SNAP" --vmlinux "$KO"
expect_rc g3 1 'af_key.ko is a relocatable object \(a module\?\), not a vmlinux' "gdb: a .ko given as vmlinux is refused"
run g4 gdb --snapshot "$SNAP" --vmlinux "$W/nonexistent"
expect_rc g4 1 'nonexistent: No such file or directory' "gdb: a missing vmlinux is named"

echo "TAP version 13"
echo "1..$n"
cat "$res"
grep -q '^not ok' "$res" && exit 1
exit 0
