#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_lib.sh KRELOC WORKDIR: libkreloc as a library, one KTAP document on
# stdout.  What it exports (only <kreloc/kreloc.h>'s KRELOC_API functions,
# each in libkreloc.map) and what it never calls (nothing that prints to
# stdout/stderr or exits); the licence of every file it is built from
# (LGPL-2.1 OR BSD-2-Clause); its ABI against the baseline in the tree, and
# that the check fails for an ABI break, a new function in a released
# version node and a SONAME without its baseline (each made in a copy of
# the tree); `make -C tools/cli install` with DESTDIR and with a prefix;
# the example consumer built against the installed library through
# pkg-config, answering as `kreloc resolve` does, and every C example of
# libkreloc(3) and Documentation/ built so; one version everywhere; the
# features the packages promise; the contract (libcontract.c, against the
# sources under ASan and UBSan: NULL arguments, struct growth, options,
# callbacks, states, ownership), corrupt .ko files, sizes against the
# .ko's tables (sizecheck.py); no I/O after kreloc_resolver_prefetch()
# (libprefetch.c under seccomp); thread safety (several threads, one
# resolver) plainly and under ThreadSanitizer, which must catch the race
# when the resolver's lock is taken out.
set -uo pipefail
K="$1" W="$2"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
L="$top/tools/lib/kreloc"
. "$here/fixtures.sh"
ktap_begin
mkdir -p "$W"

make -s -C "$L" shared > "$W/build.log" 2>&1 || { echo "not ok 1 build libkreloc"; sed 's/^/# /' "$W/build.log"; echo "1..1"; exit 1; }
so="$L/$(make -s -C "$L" print-REALNAME)"
soname=$(readelf -dW "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')

# ---------------------------------------------------------------- exports
grep -o '^KRELOC_API [^(]*(' "$L/include/kreloc/kreloc.h" | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/' | sort > "$W/api"
sed -n 's/^[[:space:]]*\(kreloc_[a-z_0-9]*\);$/\1/p' "$L/libkreloc.map" | sort > "$W/map"
readelf --dyn-syms -W "$so" | awk '$7 != "UND" && $5 == "GLOBAL" && $8 ~ /@/ { sub(/@.*/, "", $8); print $8 }' | sort > "$W/exported"
check "libkreloc exports exactly the $(wc -l < "$W/api") KRELOC_API functions of <kreloc/kreloc.h>, each versioned in libkreloc.map ($soname)" \
	sh -c 'test -s "$1" && cmp -s "$1" "$2" && cmp -s "$1" "$3" && test "$4" = libkreloc.so.0' sh "$W/api" "$W/map" "$W/exported" "$soname"
check "... and nothing else: no internal name (ksnap_read, sysmap_load, kres_lookup) is in its dynamic symbol table" \
	sh -c '! readelf --dyn-syms -W "$1" | grep -qwE "ksnap_read|sysmap_load|kres_lookup|kelf_load"' sh "$so"
# The library never prints and never exits: none of what would is linked.
never="stdout stderr printf vprintf puts putchar perror exit _exit abort __assert_fail err errx warn warnx verr vwarn psignal"
calls=$(readelf --dyn-syms -W "$so" | awk '$7 == "UND" { sub(/@.*/, "", $8); print $8 }' | grep -xE "$(echo $never | tr ' ' '|')" | paste -sd' ')
check "libkreloc never prints or exits: it references none of stdout, stderr, printf, puts, perror, exit, abort, assert${calls:+ (but: $calls)}" \
	test -z "$calls"
check "... the check sees one: the tool itself calls exit and prints to stderr" \
	sh -c 'readelf --dyn-syms -W "$1" | grep -qw exit && readelf --dyn-syms -W "$1" | grep -qw stderr' sh "$(dirname "$K")/kreloc"
check "kreloc (the tool) is linked against libkreloc.so.0, not a copy" \
	sh -c 'readelf -dW "$1" | grep -q "NEEDED.*\[libkreloc.so.0\]" && ! readelf --dyn-syms -W "$1" | grep -qw ksnap_read' sh "$(dirname "$K")/kreloc"

# ---------------------------------------------------------------- features
# What the packages promise (debian/rules' REQUIRE_FEATURES) this build has,
# as the library says (kreloc version --json of the tool linked against it).
promised=$(sed -n 's/^export REQUIRE_FEATURES := //p' "$top/debian/rules")
"$(dirname "$K")/kreloc" version --json > "$W/version.json" 2>&1
missing=$(for f in $promised; do
	python3 -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["features"].get(sys.argv[2]))' \
		"$W/version.json" "$f" || echo "$f"; done | paste -sd' ')
check "features: the library built here has every feature the packages promise ($promised)${missing:+; left out: $missing}" \
	sh -c 'test -n "$1" && test -z "$2"' sh "$promised" "$missing"
# A build without libzstd-dev (a zstd.h that does not compile stands in for
# none) and with NO_DEBUGINFOD says so; with REQUIRE_FEATURES it fails.
F="$W/ftree"; mkdir -p "$F/tools/lib" "$W/nozstd"
cp -r "$top/lib" "$top/dkms.conf" "$F/"; cp "$top"/tools/*.c "$top"/tools/*.h "$F/tools/"
cp -r "$L" "$F/tools/lib/"; rm -rf "$F/tools/lib/kreloc/.obj" "$F/tools/lib/kreloc"/libkreloc.so*
echo '#error no libzstd-dev here' > "$W/nozstd/zstd.h"
make -s -j2 -C "$F/tools/lib/kreloc" shared CC="${CC:-cc} -isystem $W/nozstd" NO_DEBUGINFOD=1 > "$W/f1.log" 2>&1; rc=$?
check "features: a build without libzstd-dev and with NO_DEBUGINFOD=1 says what it left out and why ($(grep -m1 'built without' "$W/f1.log"); exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && grep -qx "libkreloc (shared) is built without zstd (no libzstd-dev) and debuginfod (NO_DEBUGINFOD=1)" "$1"' sh "$W/f1.log"
rm -f "$F/tools/lib/kreloc"/libkreloc.so*
make -s -C "$F/tools/lib/kreloc" shared CC="${CC:-cc} -isystem $W/nozstd" REQUIRE_FEATURES="$promised" > "$W/f2.log" 2>&1; rc=$?
check "features: ... and fails with the packages' REQUIRE_FEATURES ($(grep -m1 'REQUIRE_FEATURES' "$W/f2.log"); exit $rc)" \
	sh -c '[ '"$rc"' != 0 ] && grep -q "zstd left out, but REQUIRE_FEATURES asks for it" "$1" && [ ! -e "$2" ]' \
	sh "$W/f2.log" "$F/tools/lib/kreloc/libkreloc.so.0"
rm -rf "$F"

# ---------------------------------------------------------------- licence
# libkreloc is LGPL-2.1 OR BSD-2-Clause (Documentation/libkreloc.md): every
# file its Makefile compiles and every file of its directory says so, and
# debian/copyright lists those outside it under that licence.
lic="(LGPL-2.1 OR BSD-2-Clause)"
{ make -s -C "$L" print-SRCS print-HDRS | tr ' ' '\n' | grep . | sed "s#^#$L/#"
  if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
	git -C "$top" ls-files "$L" | sed "s#^#$top/#"
  else
	find "$L" -type f ! -path '*/.obj/*' ! -name 'libkreloc.so*' ! -name libkreloc.pc
  fi; } | xargs realpath | sort -u > "$W/libfiles"
bad=$(while read -r f; do
	grep -m1 -o 'SPDX-License-Identifier: .*' "$f" | grep -qF "SPDX-License-Identifier: $lic" || echo "${f#"$top"/}"
done < "$W/libfiles" | paste -sd' ')
check "licence: the $(wc -l < "$W/libfiles") files libkreloc is built from and ships all say SPDX $lic${bad:+ (but: $bad)}" \
	test -z "$bad"
miss=$(grep -v "^$L/" "$W/libfiles" | sed "s#^$top/##" | while read -r f; do
	awk -v f="$f" '/^Files:/ { p = 0 } /^Files:/ || /^ / { for (i = 1; i <= NF; i++) if ($i == f) p = 1 }
		/^License: LGPL-2.1 or BSD-2-clause$/ && p { found = 1 } END { exit !found }' "$top/debian/copyright" || echo "$f"
done | paste -sd' ')
check "licence: debian/copyright gives the shared files outside tools/lib/kreloc ($(grep -vc "^$L/" "$W/libfiles")) as LGPL-2.1 or BSD-2-clause${miss:+ (but not: $miss)}" \
	test -z "$miss"

# ---------------------------------------------------------------- ABI
if command -v abidiff >/dev/null; then
	res=$("$L/abi-check.sh" check "$so" "$L/libkreloc.abi" 2>&1); rc=$?
	check "ABI: $(echo "$res" | head -1)" test "$rc" = 0
	# Break it, in a copy of the tree: each change must fail the check, or pass where it should.
	tree() {
		rm -rf "$W/tree"; mkdir -p "$W/tree/tools/lib"
		cp -r "$top/lib" "$top/dkms.conf" "$W/tree/"
		cp "$top"/tools/*.c "$top"/tools/*.h "$W/tree/tools/"
		cp -r "$L" "$W/tree/tools/lib/"
		rm -rf "$W/tree/tools/lib/kreloc/.obj" "$W/tree/tools/lib/kreloc"/libkreloc.so*
	}
	abi_of_tree() {
		make -s -C "$W/tree/tools/lib/kreloc" shared > "$W/tree.log" 2>&1 &&
			make -s -C "$W/tree/tools/lib/kreloc" abi-check > "$W/abi.out" 2>&1
	}
	# An incompatible change: a member of a public struct changes type.
	tree
	sed -i 's/^\tuint64_t offset;$/\tuint32_t offset;/' "$W/tree/tools/lib/kreloc/include/kreloc/kreloc.h"
	abi_of_tree; rc=$?
	check "ABI: kreloc_addr_info.offset made uint32_t fails the check (exit $rc: $(head -1 "$W/abi.out"))" \
		sh -c '[ '"$rc"' != 0 ] && grep -q "breaks the ABI" "$1"' sh "$W/abi.out"
	# ... and passes when the SONAME and the baseline change with it.
	sed -i 's/^#define KRELOC_VERSION_MAJOR\t0$/#define KRELOC_VERSION_MAJOR\t1/' \
		"$W/tree/tools/lib/kreloc/include/kreloc/kreloc.h"
	abi_of_tree; rc=$?
	check "ABI: with KRELOC_VERSION_MAJOR 1 (libkreloc.so.1) but the old baseline, it still fails (exit $rc)" \
		sh -c '[ '"$rc"' != 0 ] && grep -q "a new SONAME goes with a new baseline" "$1"' sh "$W/abi.out"
	make -s -C "$W/tree/tools/lib/kreloc" abi-baseline > /dev/null 2>&1
	abi_of_tree; rc=$?
	check "ABI: ... and passes with the baseline written for libkreloc.so.1 (exit $rc)" test "$rc" = 0
	# A member added to a type the public header only declares (struct
	# kreloc_snapshot holds a struct ksnap): no ABI change.
	tree
	sed -i 's/^\tint no_modules;\(.*\)$/\tint no_modules;\1\n\tlong kreloc_test_member;/' \
		"$W/tree/tools/lib/kreloc/ksnap.h"
	abi_of_tree; rc=$?
	check "ABI: a member added to struct ksnap, inside the opaque struct kreloc_snapshot, passes (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && grep -q kreloc_test_member "$1"' sh "$W/tree/tools/lib/kreloc/ksnap.h"
	# A member appended to an info struct: in its tail padding it fails (an older library
	# leaves those bytes as its own padding), at its old size (KRELOC_APPENDED) it is a growth.
	tree
	h="$W/tree/tools/lib/kreloc/include/kreloc/kreloc.h"
	awk '/^struct kreloc_mem_info {$/ { in_s = 1 } in_s && /^};$/ { print "\tbool test_grown;"; in_s = 0 } { print }' \
		"$h" > "$h.new" && mv "$h.new" "$h"
	abi_of_tree; rc=$?
	check "ABI: a member appended to kreloc_mem_info in its tail padding fails the check (exit $rc: $(grep -m1 'not an appended' "$W/abi.out" | sed 's/^ *//'))" \
		sh -c '[ '"$rc"' != 0 ] && grep -q "not an appended member" "$1"' sh "$W/abi.out"
	sed -i 's/^\tbool test_grown;$/\tbool test_grown KRELOC_APPENDED;/' "$h"
	abi_of_tree; rc=$?
	check "ABI: ... at the struct's old size (KRELOC_APPENDED) it passes as a compatible growth (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && grep -q "grew compatibly" "$1"' sh "$W/abi.out"
	# A removed function.
	tree
	sed -i '/^\t\tkreloc_origin_name;$/d' "$W/tree/tools/lib/kreloc/libkreloc.map"
	abi_of_tree; rc=$?
	check "ABI: a released function no longer exported (kreloc_origin_name) fails the check (exit $rc)" \
		sh -c '[ '"$rc"' != 0 ] && grep -q "kreloc_origin_name@KRELOC_0.1 is gone" "$1"' sh "$W/abi.out"
	# A new function: in the released node it fails; in a new node it is a compatible growth.
	tree
	printf '\nKRELOC_API int kreloc_test_growth(void);\n' >> "$W/tree/tools/lib/kreloc/snapshot.h"
	printf '\nKRELOC_API int kreloc_test_growth(void)\n{\n\treturn 0;\n}\n' >> "$W/tree/tools/lib/kreloc/snapshot.c"
	sed -i 's/^\t\tkreloc_version;$/\t\tkreloc_version;\n\t\tkreloc_test_growth;/' "$W/tree/tools/lib/kreloc/libkreloc.map"
	abi_of_tree; rc=$?
	check "ABI: a new function put in the released node KRELOC_0.1 fails the check (exit $rc)" \
		sh -c '[ '"$rc"' != 0 ] && grep -q "new kreloc_test_growth in the released node KRELOC_0.1" "$1"' sh "$W/abi.out"
	sed -i '/^\t\tkreloc_test_growth;$/d' "$W/tree/tools/lib/kreloc/libkreloc.map"
	# (the newest released node is the one the baseline has last)
	last=$(sed -n "s/.*<elf-symbol name='[^']*' version='\([^']*\)'.*/\1/p" "$L/libkreloc.abi" | sort -V | tail -1)
	next="KRELOC_0.$(( ${last#KRELOC_0.} + 1 ))"
	printf '%s {\n\tglobal:\n\t\tkreloc_test_growth;\n} %s;\n' "$next" "$last" >> "$W/tree/tools/lib/kreloc/libkreloc.map"
	abi_of_tree; rc=$?
	check "ABI: ... in a new node $next (after $last) it passes as a compatible growth (exit $rc)" \
		sh -c '[ '"$rc"' = 0 ] && grep -q "grew compatibly" "$1"' sh "$W/abi.out"
	rm -rf "$W/tree"
else
	for i in 1 2 3 4 5 6 7 8; do skip "ABI check" "no abidiff (apt-get install abigail-tools)"; done
fi

# ---------------------------------------------------------------- install
D="$W/dest"
make -s -C "$top/tools/cli" install DESTDIR="$D" prefix=/usr > "$W/inst.log" 2>&1; rc=$?
u="$D/usr"
check "make -C tools/cli install DESTDIR prefix=/usr: the tool, its man pages and completion, the library with its SONAME links, the header, libkreloc.pc, libkreloc(3), the examples (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ -x "$1/sbin/kreloc" ] && [ -s "$1/share/man/man8/kreloc-resolve.8" ] &&
		[ -s "$1/share/bash-completion/completions/kreloc" ] &&
		[ "$(readlink "$1/lib/libkreloc.so")" = libkreloc.so.0 ] &&
		[ "$(readlink "$1/lib/libkreloc.so.0")" = "$(basename "$2")" ] && [ -f "$1/lib/$(basename "$2")" ] &&
		[ -s "$1/include/kreloc/kreloc.h" ] && grep -qx "libdir=/usr/lib" "$1/lib/pkgconfig/libkreloc.pc" &&
		[ -s "$1/share/man/man3/libkreloc.3" ] &&
		cmp -s "$3/examples/resolve.c" "$1/share/doc/libkreloc/examples/resolve.c"' sh "$u" "$so" "$L"
check "... the installed tool needs libkreloc.so.0 and has no RUNPATH for prefix /usr" \
	sh -c 'readelf -dW "$1" | grep -q "NEEDED.*libkreloc.so.0" && ! readelf -dW "$1" | grep -q RUNPATH' sh "$u/sbin/kreloc"
make -s -C "$top/tools/cli" uninstall DESTDIR="$D" prefix=/usr > /dev/null 2>&1
check "make uninstall (DESTDIR) leaves no file behind ($(find "$D" -type f -o -type l | wc -l))" \
	test -z "$(find "$D" -type f -o -type l)"
P="$W/prefix"
make -s -C "$top/tools/cli" install prefix="$P" > "$W/inst2.log" 2>&1; rc=$?
check "install prefix=$P: the installed kreloc runs from there with no LD_LIBRARY_PATH, with the installed libkreloc (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && env -u LD_LIBRARY_PATH "$1/sbin/kreloc" version > /dev/null &&
		ldd "$1/sbin/kreloc" | grep -q "libkreloc.so.0 => $1/lib/libkreloc.so.0"' sh "$P"

# ---------------------------------------------------------------- the example, through pkg-config
R="$W/root"; mkroot "$R"; SNAP="$W/snap"
"$K" --root "$R" snapshot -o "$SNAP" 2>/dev/null
kallsyms_full "$W/kallsyms"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
flags=$(pkg-config --cflags --libs libkreloc 2>&1)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$W/example" "$L/examples/resolve.c" $flags > "$W/ex.log" 2>&1; rc=$?
check "the example consumer builds against the installed library with pkg-config ($flags; exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && readelf -dW "$1" | grep -q "NEEDED.*libkreloc.so.0"' sh "$W/example"
[ $rc = 0 ] || sed 's/^/# /' "$W/ex.log"
# One version: the header's macros, kreloc_version(), libkreloc.pc, the file name, libkreloc.map.
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$W/libversion" "$here/libversion.c" $flags > "$W/ver.log" 2>&1 &&
	read -r vstr vnum vcode vrun < <(LD_LIBRARY_PATH="$P/lib" "$W/libversion"); rc=$?
pcv=$(pkg-config --modversion libkreloc 2>&1)
file=$(basename "$(readlink -f "$P/lib/libkreloc.so.0")")
node=$(sed -n 's/^\(KRELOC_[0-9.]*\) {$/\1/p' "$L/libkreloc.map" | sort -V | tail -1)
check "version: one for all: header $vstr ($vnum, code $vcode), kreloc_version() $vrun, pkg-config $pcv, $file, newest node $node (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" = "$4" ] && [ "libkreloc.so.$1" = "$5" ] &&
		[ "$(printf "%s\n%s\n" "${6#KRELOC_}" "$1" | sort -V | tail -1)" = "$1" ] &&
		[ "$7" = $(( ${1%%.*} * 65536 + $(echo "$1" | cut -d. -f2) * 256 + ${1##*.} )) ]' \
	sh "$vstr" "$vnum" "$vrun" "$pcv" "$file" "$node" "$vcode"
[ $rc = 0 ] || sed 's/^/# /' "$W/ver.log"
# Every C example a user is shown (libkreloc(3), Documentation/*.md, the installed examples).
python3 "$here/cexamples.py" "$W/cex" "$L/Documentation/libkreloc.3" "$top"/Documentation/*.md > "$W/cex.list"
for f in "$P"/share/doc/libkreloc/examples/*.c; do echo "$f ${f#"$P"/}"; done >> "$W/cex.list"
bad=""
while read -r c src; do
	b="$W/cex/$(basename "${c%.c}")"
	${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$b" "$c" $flags > "$b.log" 2>&1 ||
		{ bad="$bad $src"; sed "s|^|# $src: |" "$b.log" | head -5 >&3; }
done < "$W/cex.list"
check "examples: the $(wc -l < "$W/cex.list") C examples (libkreloc(3)'s, Documentation/'s, the installed ones) build with -std=c11 -Wall -Wextra -Werror through pkg-config${bad:+ (not:$bad)}" \
	sh -c 'test -z "$1" && grep -q "libkreloc.3:" "$2" && grep -q "examples/resolve.c" "$2"' sh "$bad" "$W/cex.list"
awk '$4 ~ /^\[(vfat|fat)\]$/ {print "0x" $1}' "$W/kallsyms" > "$W/maddrs"
awk 'NF == 3 && $2 ~ /^[tT]$/ && NR % 40 == 0 {print $1}' "$W/kallsyms" |
	while read -r a; do printf '0x%x\n' $((0x$a + 3)); done > "$W/caddrs"
cat "$W/caddrs" "$W/maddrs" > "$W/addrs"
LD_LIBRARY_PATH="$P/lib" "$W/example" "$SNAP" "$W/kallsyms" "$DATA/modules" < "$W/addrs" > "$W/ex.out" 2> "$W/ex.err"; rc=$?
"$P/sbin/kreloc" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" - \
	< "$W/addrs" > "$W/k.out" 2>/dev/null
check "... and answers $(wc -l < "$W/addrs") core and module addresses as the installed kreloc resolve does (exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && [ -s "$1" ] && cmp -s "$1" "$2" && [ $(grep -c "\[vfat\]" "$1") -gt 10 ]' sh "$W/ex.out" "$W/k.out"
LD_LIBRARY_PATH="$P/lib" "$W/example" "$SNAP" "$W/nonexistent.map" < /dev/null > /dev/null 2> "$W/ex2.err"; rc=$?
check "... a failure: the example prints kreloc_errmsg() and the library nothing more ($(head -1 "$W/ex2.err"))" \
	sh -c '[ '"$rc"' = 1 ] && [ "$(wc -l < "$1")" = 1 ] && grep -q "nonexistent.map: No such file" "$1"' sh "$W/ex2.err"
# libkreloc(3)'s example, with no .ko files: a module address is named by its section, as resolve does.
man_ex="$W/cex/$(basename "$(awk '$2 ~ /libkreloc\.3:/ {print $1; exit}' "$W/cex.list")" .c)"
LD_LIBRARY_PATH="$P/lib" "$man_ex" "$SNAP" "$W/kallsyms" < "$W/addrs" > "$W/man.out" 2> "$W/man.err"; rc=$?
"$P/sbin/kreloc" resolve --snapshot "$SNAP" --kallsyms "$W/kallsyms" - < "$W/addrs" 2>/dev/null |
	awk '{ print $1, $2 ($3 ~ /^\[/ ? " " $3 : "") }' > "$W/man.want"
check "libkreloc(3)'s example answers $(wc -l < "$W/addrs") addresses as kreloc resolve does, the $(grep -c '\[vfat\]' "$W/man.want") of vfat without its .ko by section ($(grep -m1 '\[vfat\]' "$W/man.out"); exit $rc)" \
	sh -c '[ '"$rc"' = 0 ] && cmp -s "$1" "$2" && grep -q " \.text+0x[0-9a-f]* \[vfat\]$" "$1"' sh "$W/man.out" "$W/man.want"

# ---------------------------------------------------------------- the contract
# libcontract.c, from the header alone, against the library's sources built
# with ASan and UBSan (so that a read of freed or foreign memory fails too).
srcs=$(make -s -C "$L" print-SRCS | tr ' ' '\n' | sed "s#^#$L/#")
sanflags="-std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
	-I$L -I$L/include -DKRELOC_HAVE_LZMA -DKRELOC_HAVE_ZSTD -DKRELOC_HAVE_ZLIB -DKRELOC_HAVE_DEBUGINFOD"
mkdir -p "$W/san"
# shellcheck disable=SC2086
(cd "$W/san" && printf '%s\n' $srcs | xargs -P2 -n4 ${CC:-cc} $sanflags -c) > "$W/san.log" 2>&1 &&
	ar rcs "$W/libkreloc-san.a" "$W/san/"*.o &&
	${CC:-cc} $sanflags -Wall -Wextra -Werror -o "$W/libcontract" "$here/libcontract.c" \
		"$W/libkreloc-san.a" -llzma -lzstd -lz -lpthread -ldl >> "$W/san.log" 2>&1; rc=$?
check "libcontract.c builds with the library's sources under ASan and UBSan (exit $rc)" test "$rc" = 0
[ $rc = 0 ] || sed 's/^/# /' "$W/san.log" | head -20
contract() { "$W/libcontract" "$1" "$SNAP" "$W/kallsyms" "$DATA/modules" "$R" > "$W/c_$1.out" 2> "$W/c_$1.err"; }

contract nulls; rc=$?
python3 "$here/nullargs.py" "$L/include/kreloc/kreloc.h" > "$W/hdrnull"
grep -v ' - -$' "$W/hdrnull" | sort > "$W/hdrptr"
sed -n 's/^[a-zA-Z]* \([a-z_0-9]*\) \([a-z_0-9]*\) \(nullable\|required\):.*/\1 \2 \3/p' "$W/c_nulls.out" | sort > "$W/prognull"
nfail=$(grep -c '^FAIL' "$W/c_nulls.out")
check "NULL: each of the $(wc -l < "$W/prognull") pointer arguments of the public functions, NULL with the others valid, is refused with -EINVAL (taken where the header says \"or NULL\"), never a crash (exit $rc, $nfail failed)" \
	sh -c '[ '"$rc"' = 0 ] && [ -s "$1" ] && ! grep -q "^FAIL" "$2"' sh "$W/prognull" "$W/c_nulls.out"
[ "$nfail" = 0 ] || { grep '^FAIL' "$W/c_nulls.out" | head -20; grep -m3 'ERROR: AddressSanitizer' "$W/c_nulls.err"; } | diag
differ=$(comm -3 "$W/hdrptr" "$W/prognull" | sed 's/^\t/table: /; s/^\([a-z]\)/header: \1/' | paste -sd';')
check "NULL: the table is every pointer argument of every function <kreloc/kreloc.h> exports, nullable as its kernel-doc says${differ:+ (differ: $differ)}" \
	sh -c 'test -z "$1" && cut -d" " -f1 "$2" | sort -u | cmp -s - "$3"' sh "$differ" "$W/hdrnull" "$W/api"
# contract_all MODE DESC: every line of libcontract MODE ok
contract_all() {
	local rc nok nfail
	contract "$1"; rc=$?
	nok=$(grep -c '^ok' "$W/c_$1.out"); nfail=$(grep -c '^FAIL' "$W/c_$1.out")
	check "$2 ($nok checks, $nfail failed, exit $rc)" sh -c '[ '"$rc"' = 0 ] && [ '"$nok"' -gt 0 ] && [ '"$nfail"' = 0 ]'
	[ "$rc" = 0 ] && [ "$nfail" = 0 ] || { grep '^FAIL' "$W/c_$1.out" | head -10; grep -m3 -A3 'ERROR: AddressSanitizer' "$W/c_$1.err"; } | diag
}
contract_all growth "struct growth: each function filling an info struct zeroes a newer caller's larger one past the library's size and writes nothing past an older caller's smaller one"
contract_all opts "options: sz 0 (no KRELOC_OPTS) and a byte set past the library's size are refused with a message naming the struct, zeros past it and an older caller's smaller struct are taken"
contract_all callbacks "callbacks: every walk (core and module symbols, sections, candidates) stopped by a callback returns a negative value (its own, or -ECANCELED for a positive one), never a count"
# (the crash dump: the fuzzer's seed, a real 6.1 dump cut down)
KRELOC_TEST_VMCORE="$top/tools/cli/fuzz/seeds/fuzz_vmcore/kreloc.core" \
	contract_all vmcore "ownership: a snapshot read from a crash dump is freed by its caller's kreloc_snapshot_free(), as every snapshot is"
contract_all states "states: every record's, region's and section's state_code is its state string's value, and a lookup's module_state_code its record's"
# A state a newer kreloc may write (a record 'frozen', a region 'shrunk') is OTHER, its string kept.
sed '0,/^module \([^ ]*\) gone /s//module \1 frozen /; 0,/^\(region [^ ]* [^ ]* [^ ]*\) freed$/s//\1 shrunk/' "$SNAP" > "$W/snap.newer"
"$W/libcontract" states "$W/snap.newer" "$W/kallsyms" "$DATA/modules" "$R" > "$W/c_newer.out" 2>&1; rc=$?
check "states: a record 'frozen' and a region 'shrunk' (a newer kreloc's) are KRELOC_*_STATE_OTHER, the strings kept (exit $rc: $(grep -m1 ' frozen ' "$W/c_newer.out"))" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^state [a-z_]* frozen 0$" "$1" && [ "$(grep -c " shrunk$" "$2")" = 1 ] &&
		grep -q "^ok states" "$1"' sh "$W/c_newer.out" "$W/snap.newer"
# Sizes, against the .ko's own tables (readelf) placed where the kernel put each section.
for m in vfat fat; do
	xz -dc "$DATA/modules/$m.ko.xz" > "$W/$m.ko"
	python3 "$here/sizecheck.py" addrs-mod "$W/$m.ko" "$DATA/debugfs/module/$m" > "$W/$m.saddrs"
	"$K" resolve --json --snapshot "$SNAP" --kallsyms "$W/kallsyms" --modules-dir "$DATA/modules" - \
		< "$W/$m.saddrs" > "$W/$m.sjson" 2>/dev/null
	res=$(python3 "$here/sizecheck.py" check-mod "$W/$m.ko" "$DATA/debugfs/module/$m" -- "$W/$m.sjson" 2>&1); rc=$?
	check "sizes: $m's functions and objects as its .ko's symtab: the last byte of each its symbol with its st_size, the first past it in no symbol but past it (in the section, or past the last one in the region's padding), section sizes the .ko's: $(echo "$res" | head -1)" \
		test "$rc" = 0
	[ $rc = 0 ] || echo "$res" | diag
	KRELOC_TEST_MODULE=$m "$W/libcontract" sections "$SNAP" "$W/kallsyms" "$DATA/modules" "$R" > "$W/$m.secs" 2>&1
	res=$(python3 "$here/sizecheck.py" check-sections "$W/$m.ko" "$DATA/debugfs/module/$m" -- "$W/$m.secs" 2>&1); rc=$?
	check "sizes: kreloc_resolver_module_sections() of $m: $res" test "$rc" = 0
done
# Corrupt is not missing: vfat's .ko truncated (xz itself says so), or not ELF at all.
C="$W/corrupt"; mkdir -p "$C/trunc" "$C/garbage" "$C/none"
cp "$DATA/modules/fat.ko.xz" "$C/trunc/"
head -c $(( $(stat -c %s "$DATA/modules/vfat.ko.xz") / 2 )) "$DATA/modules/vfat.ko.xz" > "$C/trunc/vfat.ko.xz"
yes kreloc | head -c 8192 > "$C/garbage/vfat.ko"
files_of() { "$W/libcontract" files "$SNAP" "$W/kallsyms" "$C/$1" "$R" 2>&1 | grep "^$2 "; }
tr_out=$(files_of trunc vfat) ga_out=$(files_of garbage vfat) no_out=$(files_of none vfat)
check "corrupt: a truncated vfat.ko.xz (xz -t: $(xz -t "$C/trunc/vfat.ko.xz" 2>&1 | sed 's/.*: //')) is KRELOC_FILE_CORRUPT with the reason, not missing: $(echo "$tr_out" | head -1)" \
	sh -c '[ -n "$1" ] && ! xz -t "$2" 2>/dev/null && ! echo "$1" | grep -qv "^vfat corrupt: $2: corrupt or truncated xz data$" &&
		[ "$(echo "$3" | grep -c "^fat ok")" -gt 0 ]' sh "$tr_out" "$C/trunc/vfat.ko.xz" "$(files_of trunc fat)"
check "corrupt: a vfat.ko that is not ELF is KRELOC_FILE_CORRUPT: $(echo "$ga_out" | head -1)" \
	sh -c '[ -n "$1" ] && ! echo "$1" | grep -qv "^vfat corrupt: $2: not an ELF file$"' sh "$ga_out" "$C/garbage/vfat.ko"
check "corrupt: ... and with no vfat.ko at all it is still missing: $(echo "$no_out" | head -1)" \
	sh -c '[ -n "$1" ] && ! echo "$1" | grep -qv "^vfat missing: no vfat.ko under "' sh "$no_out"
contract owner; rc=$?
check "ownership: $(sed -n 's/^[a-zA-Z]* owner: //p' "$W/c_owner.out" | head -1) (exit $rc; ASan: $(grep -c 'ERROR: AddressSanitizer' "$W/c_owner.err"))" \
	sh -c '[ '"$rc"' = 0 ] && grep -q "^ok owner" "$1"' sh "$W/c_owner.out"
[ $rc = 0 ] || grep -m3 -A3 'ERROR: AddressSanitizer' "$W/c_owner.err" | diag

# ---------------------------------------------------------------- prefetch
# After kreloc_resolver_prefetch() the resolve loop does no file or network
# I/O: seccomp makes any open, socket or connect a SIGSYS (libprefetch.c).
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$L/include" -o "$W/libprefetch" "$here/libprefetch.c" \
	-L"$L" -lkreloc > "$W/pf.log" 2>&1; rc=$?
pf() { LD_LIBRARY_PATH="$L" "$W/libprefetch" "$1" "$SNAP" "$W/kallsyms" "$DATA/modules" 0 "$W/addrs" > "$W/pf_$1.out" 2>&1; }
pf lazy; pf prefetch-seccomp; r1=$?; pf lazy-seccomp; r2=$?
check "prefetch: then $(wc -l < "$W/addrs") addresses resolved under seccomp (no open, socket, connect) as a lazy resolver answers them: $(head -1 "$W/pf_prefetch-seccomp.out") (exit $r1)" \
	sh -c '[ '"$rc$r1"' = 00 ] && grep -q "^prefetch [1-9]" "$1" && tail -n +2 "$1" | cmp -s - "$2" && grep -q "\[vfat\] .text ok$" "$2"' \
	sh "$W/pf_prefetch-seccomp.out" "$W/pf_lazy.out"
check "... without it, the same loop under seccomp is stopped at its first .ko ($(tail -1 "$W/pf_lazy-seccomp.out" | sed 's/.*SIGSYS/SIGSYS/'), exit $r2)" \
	sh -c '[ '"$r2"' = 9 ] && tail -1 "$1" | grep -q "SIGSYS: syscall"' sh "$W/pf_lazy-seccomp.out"
[ $rc = 0 ] || sed 's/^/# /' "$W/pf.log"

# ---------------------------------------------------------------- threads
srcs=$(make -s -C "$L" print-SRCS | tr ' ' '\n' | sed "s#^#$L/#")
cflags="-std=c11 -Wall -Wextra -Werror -O1 -g -I$L/include -DKRELOC_HAVE_LZMA -DKRELOC_HAVE_ZSTD -DKRELOC_HAVE_ZLIB"
libs="-lpthread -llzma -lzstd -lz"
cat "$W/caddrs" "$W/maddrs" "$W/caddrs" > "$W/taddrs"
${CC:-cc} $cflags -o "$W/threads" "$here/threads.c" -L"$L" -lkreloc $libs
res=$(LD_LIBRARY_PATH="$L" "$W/threads" "$SNAP" kallsyms "$W/kallsyms" "$DATA/modules" "$W/taddrs" 8 2>&1); rc=$?
check "threads: $res" test "$rc" = 0
if printf 'int main(void){return 0;}\n' | ${CC:-cc} -fsanitize=thread -x c - -o /dev/null 2>/dev/null; then
	# shellcheck disable=SC2086
	${CC:-cc} $cflags -fsanitize=thread -o "$W/threads-tsan" "$here/threads.c" $srcs $libs
	res=$(TSAN_OPTIONS=halt_on_error=1 "$W/threads-tsan" "$SNAP" kallsyms "$W/kallsyms" "$DATA/modules" "$W/taddrs" 4 2>&1); rc=$?
	check "threads under ThreadSanitizer: no data race (exit $rc): $(echo "$res" | grep -m1 -E 'threads x|WARNING')" test "$rc" = 0
	# Take the lock out of the first lookup in a module: the race must be seen.
	B="$W/brk"; mkdir -p "$B/tools/lib"; cp -r "$top/lib" "$B/"; cp "$top"/tools/*.c "$top"/tools/*.h "$B/tools/"
	cp -r "$L" "$B/tools/lib/"; rm -rf "$B/tools/lib/kreloc/.obj"
	sed -i 's/^\tpthread_mutex_lock((pthread_mutex_t \*)&r->lock);$//; s/^\tpthread_mutex_unlock((pthread_mutex_t \*)&r->lock);$//; s/memory_order_acquire/memory_order_relaxed/' \
		"$B/tools/lib/kreloc/kresolve.c"
	# shellcheck disable=SC2086
	${CC:-cc} $cflags -fsanitize=thread -o "$W/threads-brk" "$here/threads.c" $(echo "$srcs" | sed "s#^$L/#$B/tools/lib/kreloc/#") $libs
	brk=0
	for i in 1 2 3; do
		TSAN_OPTIONS=halt_on_error=1 "$W/threads-brk" "$SNAP" kallsyms "$W/kallsyms" "$DATA/modules" "$W/taddrs" 4 > "$W/brk.out" 2>&1 || brk=$((brk + 1))
	done
	check "... which catches it when kres_module()'s lock is taken out ($brk of 3 runs fail: $(grep -m1 -o 'WARNING: ThreadSanitizer: [a-z ]*' "$W/brk.out"))" \
		test "$brk" -gt 0
	rm -rf "$B"
else
	skip "threads under ThreadSanitizer" "no -fsanitize=thread"
	skip "ThreadSanitizer catches a race" "no -fsanitize=thread"
fi

echo "1..$n"
exit $failed
