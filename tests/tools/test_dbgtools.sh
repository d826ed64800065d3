#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_dbgtools.sh KRELOC GEN WORKDIR: host tests of `kreloc gdb` and
# `kreloc kallsyms` (a KTAP document on stdout) on the boot recorded in
# tests/tools/data (fixtures.sh): usage, the real records placed from
# their real .ko files, and the bad inputs that must give a clear error
# and no wrong symbol (a map or vmlinux of another build, a .ko of another
# build or release, a missing .ko).  Their real results (gdb breakpoints,
# perf samples) are checked in QEMU by rig/vm-gdb.sh and rig/vm-inject.sh.
set -uo pipefail
K="$1" GEN="$2" W="$3"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
export GEN
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

res="$W/results"
: > "$res"
exec 3>> "$res"
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
run u5 gdb --module 'vfat@18446744073709551616'
expect_rc u5 2 'NAME or NAME@LOAD_GEN' "usage: gdb --module NAME@GEN past 2^64 is refused, not taken as 2^64-1"
run u4 kallsyms --snapshot x --system-map y --json
expect_rc u4 2 'needs|write the symbols with -o FILE' "usage: kallsyms --json needs -o"

if [ ! -s "$MAP" ]; then
	skip "fixture" "no $MAP in the rig cache (run rig/groundtruth.sh on amd64-6.1)"
	echo "TAP version 13"; echo "1..$n"; cat "$res"; exit 0
fi
R="$W/root"
mkroot "$R"
SNAP="$W/snap"
"$K" --root "$R" snapshot -o "$SNAP" 2>/dev/null
MODDIR="$DATA/modules"
xz -dc "$DATA/kallsyms.xz" | sort > "$W/kallsyms.sorted"

# ---------------------------------------------------------------- kallsyms: core
run k1 kallsyms --snapshot "$SNAP" --system-map "$MAP" -o "$W/k1"
# The recorded kallsyms keeps the text symbols: compare those.
grep -v $'\t' "$W/k1" | awk '$2 ~ /^[tTwW]$/' | sort > "$W/k1.text"
core=$(wc -l < "$W/k1.text")
notin=$(comm -23 "$W/k1.text" "$W/kallsyms.sorted" | wc -l)
if [ "$core" -gt 40000 ] && [ "$notin" -eq 0 ]; then
	ok "kallsyms: $core core text symbols, each as the boot's /proc/kallsyms has it"
else
	nok "kallsyms: core symbols ($core, $notin not in /proc/kallsyms)"
	comm -23 "$W/k1.text" "$W/kallsyms.sorted" | head -3 | diag
fi
check "kallsyms -o writes mode 0600 (it holds addresses)" test "$(mode "$W/k1")" = 600
# ... and the other way round: each core text line of /proc/kallsyms is
# there, x86's .exit.text (linked after .init.data, past its SIZE) and the
# _etext/_einittext markers included (ksnap_core_areas(): an area ends at
# the next section, not at SIZE).
grep -v $'\t' "$W/kallsyms.sorted" | awk '$2 ~ /^[tTwW]$/' > "$W/kallsyms.text"
missing=$(comm -13 "$W/k1.text" "$W/kallsyms.text" | wc -l)
check "kallsyms: each of the boot's $(wc -l < "$W/kallsyms.text") core text symbols is there ($missing missing)" \
	test "$missing" -eq 0 -a -s "$W/kallsyms.text"
# the same check notices a wrong offset: it can fail
sed 's/^\(core [a-z.]* [^ ]* [^ ]* [^ ]*\) \(0x[0-9a-f]*\)000 \([a-z]*\)$/\1 \2001 \3/' "$SNAP" > "$W/snap.off"
"$K" kallsyms --snapshot "$W/snap.off" --system-map "$MAP" 2>/dev/null | grep -v $'\t' |
	awk '$2 ~ /^[tTwW]$/' | sort > "$W/k.off"
notin=$(comm -23 "$W/k.off" "$W/kallsyms.sorted" | wc -l)
check "kallsyms: the same comparison catches a snapshot 1 byte off ($notin lines differ)" test "$notin" -gt 40000
# What a build from the arch link base alone publishes: the text offset,
# no section's size, no other section: no symbol can be placed for sure.
awk '$1 == "core" && $2 == "text" { $5 = "-" }
     $1 == "core" && $2 != "text" { $3 = $4 = $5 = $6 = "-"; $7 = "unknown" } 1' "$SNAP" > "$W/snap.arch"
run k5 kallsyms --snapshot "$W/snap.arch" --system-map "$MAP" -o "$W/k5"
expect_rc k5 1 'not where any core section ends .*System.map or vmlinux' \
	"kallsyms: only the text offset known (arch base): exit 1, says what to build with"
check "kallsyms: ... and writes no symbol" test ! -s "$W/k5"

# ---------------------------------------------------------------- kallsyms: modules
run k4 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" -o "$W/k4"
grep $'\t\\[\\(fat\\|vfat\\)\\]$' "$W/k4" | awk '$2 ~ /^[tTwW]$/' | sort > "$W/k4.mod"
nmod=$(wc -l < "$W/k4.mod")
notin=$(comm -23 "$W/k4.mod" "$W/kallsyms.sorted" | wc -l)
check "kallsyms: fat and vfat placed from their .ko.xz by build id: $nmod text symbols, each as /proc/kallsyms had it" \
	test "$nmod" -gt 100 -a "$notin" -eq 0
check "kallsyms: a module without a .ko (kreloc itself) is a warning naming the directory" \
	grep -q "warning: kreloc: no kreloc.ko under $MODDIR" "$W/k4.err"
# two records of one name (dummy renamed vfat): perf could not tell them apart
sed 's/^module dummy /module vfat /' "$SNAP" > "$W/snap.two"
run k7 kallsyms --snapshot "$W/snap.two" --system-map "$MAP" -o "$W/k7"
check "kallsyms: a name with two records gets [NAME@LOAD_GEN] tags and the --generation hint" \
	grep -q 'vfat has 2 records: each is tagged \[vfat@LOAD_GEN\]; give --generation N' "$W/k7.err"
run k5 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$MODDIR" -o "$W/k5" --json
check "kallsyms --json: per-module status and reason" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["modules"]}
assert d["schema"] == 1 and d["core_symbols"] > 90000
assert m["vfat"]["status"] == "ok" and m["vfat"]["symbols"] > 20
assert m["kreloc"]["status"] == "missing" and m["kreloc"]["symbols"] == 0' "$W/k5.out"

# ---------------------------------------------------------------- kallsyms: bad input
"$GEN" shift 0x200000 < "$MAP" > "$W/map.other"
run k2 kallsyms --snapshot "$SNAP" --system-map "$W/map.other" -o "$W/k2"
expect_rc k2 1 'map.other: _text is 0x[0-9a-f]+ there, the snapshot.s kernel links it at 0xffffffff81000000: the map of another build' \
	"kallsyms: a System.map of another build is refused"
check "kallsyms: nothing is written for a refused map" test ! -e "$W/k2"
# The right _text is not enough: the snapshot's anchors must agree.
printf 'ffffffff81000000 T _text\nffffffff81200000 T do_sys_openat2\n' > "$W/map.two"
run k9 kallsyms --snapshot "$SNAP" --system-map "$W/map.two" -o "$W/k9"
expect_rc k9 1 "map.two: not shown to be the link-time map .*: 2 of the snapshot's 3 anchors in the sections it covers are not in it \(_stext, _etext\)" \
	"kallsyms: a two-line map (the right _text, a wrong do_sys_openat2) is refused"
ksyt=$(awk '$3 == "__start___ksymtab" {print $1}' "$MAP")
sed "s/^$ksyt \([A-Za-z]\) __start___ksymtab\$/$(printf %x $((0x$ksyt + 8))) \1 __start___ksymtab/" "$MAP" > "$W/map.moved"
run k10 kallsyms --snapshot "$SNAP" --system-map "$W/map.moved" -o "$W/k10"
expect_rc k10 1 "map.moved: not the link-time map .*: 1 of the 32 anchors it has differ, e\.g\. __start___ksymtab" \
	"kallsyms: a System.map with one of 32 anchors elsewhere is refused, naming it"
check "kallsyms: nothing is written for them" test ! -e "$W/k9" -a ! -e "$W/k10"
# -o of kallsyms and gdb: the same rules as snapshot's (ofile.c).
ln -s /proc/self/fd/1 "$W/k.link"
run k11 kallsyms --snapshot "$SNAP" --system-map "$MAP" -o "$W/k.link"
expect_rc k11 1 'k.link is a symbolic link' "kallsyms -o a symbolic link to /proc/self/fd/1: refused, exit 1"
check "... the link is still there" test "$(readlink "$W/k.link")" = /proc/self/fd/1
mkfifo "$W/k.fifo"
timeout 60 cat "$W/k.fifo" > "$W/k.fifo.out" & reader=$!
run k12 kallsyms --snapshot "$SNAP" --system-map "$MAP" -o "$W/k.fifo"
wait $reader
check "kallsyms -o a FIFO: written through it, the FIFO stays (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ -p "$1" ] && cmp -s "$2" "$3"' sh "$W/k.fifo" "$W/k.fifo.out" "$W/k1"
echo "The real System.map is in the linux-image-$KVER-dbg package" > "$W/map.placeholder"
run k3 kallsyms --snapshot "$SNAP" --system-map "$W/map.placeholder"
expect_rc k3 1 "placeholder System.map" "kallsyms: Debian's placeholder System.map is refused"
# A .ko of another build (the rig's 6.12 vfat.ko, when cached): not the
# record's build id, so refused; and without build ids (a version 1
# snapshot) its vermagic names the other release.
if [ -n "$OTHER_VFAT" ]; then
	mkdir -p "$W/mod12"
	cp "$OTHER_VFAT" "$W/mod12/"
	run k6 kallsyms --snapshot "$SNAP" --system-map "$MAP" --modules-dir "$W/mod12"
	expect_rc k6 1 'vfat: none of the 1 vfat.ko files .*has the record.s build id [0-9a-f]+ \(another build\)' \
		"kallsyms: a .ko of another build is refused, naming the record's build id"
	sed '/^module /s/ [0-9a-f]\{40\}\( \|$\)/ -\1/' "$SNAP" > "$W/snap.noid"
	run k8 kallsyms --snapshot "$W/snap.noid" --system-map "$MAP" --modules-dir "$W/mod12"
	expect_rc k8 1 'vfat.ko.xz was built for 6\.12\.[^ ]*, the snapshot.s kernel is '"$KVER" \
		"kallsyms: without a build id, a .ko of another release is refused, naming both releases"
else
	skip "kallsyms: a .ko of another build" "no 6.12 vfat.ko in the rig cache"
	skip "kallsyms: a .ko of another release" "no 6.12 vfat.ko in the rig cache"
fi

# ---------------------------------------------------------------- gdb: bad input
VML="$W/vmlinux" VML12="$W/vmlinux.12"
vmlinuz12=$(ls "$CACHE"/k/amd64-6.12.*/root/boot/vmlinuz-6.12.* 2>/dev/null | head -1)
if [ -n "$vmlinuz12" ] && "$top/tools/kreloc-extract-vmlinux" "$vmlinuz12" "$VML12" 2>/dev/null &&
   "$top/tools/kreloc-extract-vmlinux" "$CACHE/k/amd64-$KVER/root/boot/vmlinuz-$KVER" "$VML" 2>/dev/null; then
	run g1 gdb --snapshot "$SNAP" --vmlinux "$VML12"
	expect_rc g1 1 "vmlinux.12 has build id [0-9a-f]+, but the snapshot.s kernel \\($KVER\\) has $(kval "$DATA/debugfs/info" BUILD_ID): another build" \
		"gdb: a vmlinux of another build (6.12's, by build id) is refused"
	check "gdb: nothing is printed for it" test ! -s "$W/g1.out"
	run g2 gdb --snapshot "$SNAP" --vmlinux "$VML"
	expect_rc g2 1 'no symbol table \(stripped' "gdb: the stripped vmlinux of the right build says it has no symbols"
else
	skip "gdb: a vmlinux of another build" "cannot extract $KVER's vmlinux"
	skip "gdb: nothing printed" "no vmlinux"
	skip "gdb: stripped vmlinux" "no vmlinux"
fi
xz -dc "$MODDIR/vfat.ko.xz" > "$W/vfat.ko"
run g3 gdb --snapshot "$SNAP" --vmlinux "$W/vfat.ko"
expect_rc g3 1 'vfat.ko is a relocatable object \(a module\?\), not a vmlinux' "gdb: a .ko given as vmlinux is refused"
run g4 gdb --snapshot "$SNAP" --vmlinux "$W/nonexistent"
expect_rc g4 1 'nonexistent: No such file or directory' "gdb: a missing vmlinux is named"

# ---------------------------------------------------------------- gdb with compressed modules
# gdb reads no .ko.xz: kreloc gdb gives it unpacked copies from its cache
# (keyed by build id), and gdb itself, on the script, names the boot's
# addresses as its /proc/kallsyms did.
envf61="$CACHE/k/amd64-$KVER.env"
[ -s "$envf61" ] || envf61="$CACHE/k/amd64-6.1.env"
GDB=$(command -v gdb-multiarch || command -v gdb || true)
VSYM=""
if [ -s "$envf61" ] && grep -q "KVER=$KVER" "$envf61" 2>/dev/null; then
	VSYM=$("$top/rig/vmlinux-symbols.sh" "$envf61" 2>/dev/null) || VSYM=""
fi
if [ -n "$GDB" ] && [ -s "$VSYM" ]; then
	XC="$W/xdg"
	XDG_CACHE_HOME="$XC" "$K" gdb --snapshot "$SNAP" --vmlinux "$VSYM" --modules-dir "$MODDIR" \
		--history -o "$W/z.gdb" > "$W/z1.out" 2> "$W/z1.err"; rc=$?
	check "gdb --modules-dir with .ko.xz only: exit 0, each add-symbol-file names an unpacked copy (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && [ "$(grep -c "^add-symbol-file \"$1/kreloc/ko/[0-9a-f]*/[a-z]*\.ko\" " "$2")" = 3 ]' sh "$XC" "$W/z.gdb"
	# Ground truth: the boot's /proc/kallsyms, one function of each module
	# (dummy: unloaded before the snapshot) and one of the core kernel.
	: > "$W/z.want"
	for m in vfat fat; do
		awk -v m="[$m]" '$4 == m && $2 ~ /^[tT]$/ {print $1, $3; exit}' "$W/kallsyms.sorted" >> "$W/z.want"
	done
	# dummy was unloaded before the capture: its .text from kreloc's record,
	# its first function from dummy.ko.
	xz -dc "$MODDIR/dummy.ko.xz" > "$W/dummy.ko"
	echo "$(awk '$1 == "section" && $2 == ".text" {print substr($3, 3)}' "$DATA"/debugfs/module/dummy@*)" \
		"$(readelf -sW "$W/dummy.ko" | awk '$4 == "FUNC" && $7 != "UND" && $2 ~ /^0+$/ {print $8; exit}')" >> "$W/z.want"
	grep -v $'\t' "$W/kallsyms.sorted" | awk '$3 == "schedule" {print $1, $3; exit}' >> "$W/z.want"
	args=()
	while read -r a _; do args+=(-ex "info symbol 0x$a"); done < "$W/z.want"
	"$GDB" -batch -nx -x "$W/z.gdb" "${args[@]}" > "$W/z.gdbout" 2>&1
	got=$(grep -E '^[A-Za-z_][A-Za-z0-9_.]* in section ' "$W/z.gdbout" | awk '{print $1}' | paste -sd' ')
	want=$(awk '{print $2}' "$W/z.want" | paste -sd' ')
	check "gdb on that script names vfat's, fat's, unloaded dummy's and a core function as /proc/kallsyms did ($got)" \
		test -n "$want" -a "$got" = "$want"
	[ "$got" = "$want" ] || diag < "$W/z.gdbout"
	check "the unpacked copies: mode 0600 in 0700 directories of the cache" sh -c '
		for f in "$1"/kreloc/ko/*/*.ko; do [ "$(stat -c %a "$f")" = 600 ] || exit 1; done
		for d in "$1"/kreloc "$1"/kreloc/ko "$1"/kreloc/ko/*; do [ "$(stat -c %a "$d")" = 700 ] || exit 1; done' sh "$XC"
	vko=$(ls "$XC"/kreloc/ko/*/vfat.ko)
	touch -d @1000000000 "$vko"
	XDG_CACHE_HOME="$XC" "$K" gdb --snapshot "$SNAP" --vmlinux "$VSYM" --modules-dir "$MODDIR" \
		-o "$W/z2.gdb" 2> "$W/z2.err"
	check "a second run unpacks nothing again (vfat.ko left as it was)" test "$(stat -c %Y "$vko")" = 1000000000
	printf 'X' | dd of="$vko" bs=1 seek=100 conv=notrunc 2>/dev/null
	XDG_CACHE_HOME="$XC" "$K" gdb --snapshot "$SNAP" --vmlinux "$VSYM" --modules-dir "$MODDIR" \
		-o "$W/z3.gdb" 2> "$W/z3.err"
	check "a copy that is not the module's bytes is written again" \
		sh -c 'xz -dc "$1" | cmp -s - "$2"' sh "$MODDIR/vfat.ko.xz" "$vko"
	mknod "$W/g.null" c 1 3 2>/dev/null
	XDG_CACHE_HOME="$XC" "$K" gdb --snapshot "$SNAP" --vmlinux "$VSYM" --modules-dir "$MODDIR" \
		-o "$W/g.null" > "$W/z5.out" 2> "$W/z5.err"; rc=$?
	check "gdb -o a character device (a copy of /dev/null): written in place, still the device (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && [ -c "$1" ]' sh "$W/g.null"
	chmod 777 "$XC/kreloc/ko"
	XDG_CACHE_HOME="$XC" "$K" gdb --snapshot "$SNAP" --vmlinux "$VSYM" --modules-dir "$MODDIR" \
		-o "$W/z4.gdb" > "$W/z4.out" 2> "$W/z4.err"; rc=$?
	expect_rc z4 0 "vfat: .*vfat.ko.xz is compressed, which gdb cannot read, and it could not be unpacked: .*/kreloc/ko: not a private directory of yours" \
		"gdb: a cache directory others may write is not used; the module is left out with the reason"
	chmod 700 "$XC/kreloc/ko"
else
	for i in 1 2 3 4 5 6 7; do skip "gdb with .ko.xz modules" "no gdb or no vmlinux with symbols for $KVER (rig/vmlinux-symbols.sh)"; done
fi

echo "TAP version 13"
echo "1..$n"
cat "$res"
grep -q '^not ok' "$res" && exit 1
exit 0
