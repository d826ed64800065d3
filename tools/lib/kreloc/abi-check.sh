#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# abi-check.sh check LIB BASELINE: is LIB (the built libkreloc.so.*) the ABI
#     of BASELINE (an abidw XML kept in the tree), or a compatible growth?
# abi-check.sh baseline LIB BASELINE: write LIB's ABI to BASELINE.
#
# libabigail (Debian abigail-tools) reads the DWARF of both: the types
# reachable from the functions <kreloc/kreloc.h> exports (--headers-dir).
# The check fails when
#   - abidiff finds anything but added functions: a function removed, or
#     changed (a parameter, a member of a struct it reaches; not the
#     layout of a struct the header only declares, which is opaque).  An
#     ABI break needs a new SONAME (KRELOC_VERSION_MAJOR in the header)
#     and a new baseline (make abi-baseline).  The one change of a type
#     that stays compatible, a member appended to an options or info
#     struct (which carry their size) at or past its old size, passes and
#     is recorded by writing the baseline in the same commit; one in the
#     old struct's tail padding fails;
#   - the SONAME is not the baseline's: the baseline goes with it;
#   - a symbol of the baseline changed its version node, or a new symbol
#     sits in a node the baseline already has: released nodes never change
#     (libkreloc.map), new functions go into a new one.
# A compatible growth passes, and says so (write the baseline with it).
# Exit 0 ok, 1 failed, 4 skipped (no abigail-tools).
set -uo pipefail
mode="$1" lib="$2" base="$3"
here=$(cd "$(dirname "$0")" && pwd)
for t in abidw abidiff readelf; do
	command -v "$t" >/dev/null || { echo "abi-check: $t not found (apt-get install abigail-tools binutils)"; exit 4; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

dump() { abidw --no-corpus-path --short-locs --no-comp-dir-path --headers-dir "$here/include/kreloc" --out-file "$2" "$1"; }
soname_of() { readelf -dW "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

if [ "$mode" = baseline ]; then
	dump "$lib" "$base" || exit 1
	# (the licence inside the root element: abidiff takes nothing before it)
	sed -i "1a \\  <!-- SPDX-License-Identifier: $(sed -n 's/^# SPDX-License-Identifier: //p' "$0") -->" "$base"
	echo "abi-check: $base written ($(soname_of "$lib"), $(grep -c '<elf-symbol ' "$base") symbols)"
	exit 0
fi
[ -s "$base" ] || { echo "abi-check: no baseline $base (make abi-baseline)"; exit 1; }
dump "$lib" "$tmp/new.abi" || exit 1
want=$(sed -n "s/.*<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$base" | head -1)
have=$(soname_of "$lib")
if [ "$want" != "$have" ]; then
	echo "abi-check: $lib is $have, the baseline $want: a new SONAME goes with a new baseline (make abi-baseline)"
	exit 1
fi

# Symbol versions: NAME VERSION, from the baseline and from the library.
sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1 \2/p" "$base" | sort > "$tmp/old.ver"
readelf --dyn-syms -W "$lib" | awk '$7 != "UND" && $8 ~ /@/ { split($8, a, "@+"); print a[1], a[2] }' |
	sort > "$tmp/new.ver"
bad=""
while read -r name ver; do
	now=$(awk -v n="$name" '$1 == n {print $2}' "$tmp/new.ver")
	[ "$now" = "$ver" ] || bad="$bad; $name@$ver is ${now:+now }${now:-gone}"
done < "$tmp/old.ver"
while read -r name ver; do
	grep -q "^$name " "$tmp/old.ver" && continue
	if awk '{print $2}' "$tmp/old.ver" | grep -qx "$ver"; then
		bad="$bad; new $name in the released node $ver (put it in a new node of libkreloc.map)"
	fi
done < "$tmp/new.ver"

# The structs the header only declares (struct kreloc_snapshot; ...) are
# opaque: callers hold pointers, the layout is the library's own.
sed -n 's/^struct \([a-z_0-9]*\);$/\1/p' "$here/include/kreloc/kreloc.h" |
	while read -r t; do printf '[suppress_type]\n  type_kind = struct\n  name = %s\n' "$t"; done \
	> "$tmp/opaque.suppr"
abidiff --no-show-locs --suppressions "$tmp/opaque.suppr" "$base" "$tmp/new.abi" > "$tmp/diff" 2>&1
rc=$?
if [ $((rc & 3)) -ne 0 ]; then
	echo "abi-check: abidiff failed (exit $rc)"; sed 's/^/  /' "$tmp/diff"; exit 1
fi
# abidiff flags only removals as surely incompatible (its exit bit 8); a
# changed type is "an ABI change" for a human to judge: here, a failure,
# but for the one growth the sz convention makes compatible: members
# inserted at or past a struct's old size.  A member in the old tail
# padding is not: an older library leaves it as its own padding.
changed=$(sed -n 's/^\(Functions\|Variables\) changes summary: \([0-9]*\) Removed[^,]*, \([0-9]*\) Changed.*/\2 \3/p;
	s/^\(Function\|Variable\) symbols changes summary: \([0-9]*\) Removed.*/\2 0/p' "$tmp/diff" |
	awk '{n += $1 + $2} END {print n + 0}')
appended_only() {
	awk '/^ *$/ || /changes summary:/ || /with some indirect sub-type change/ ||
	     /^ *\[C\] .function .* has some indirect sub-type changes:$/ ||
	     /^ *parameter [0-9]+ of type .* has sub-type changes:$/ ||
	     /^ *in (pointed to|unqualified underlying) type .struct [a-z_0-9]+.:$/ ||
	     /^ *[0-9]+ data member insertions?:$/ ||
	     /^ *[0-9]+ Added functions?:$/ || /^ *\[A\] .function / { next }
	     /^ *type size changed from [0-9]+ to [0-9]+ \(in bits\)$/ { old = $5 + 0; next }
	     /, at offset [0-9]+ \(in bits\)$/ {
		match($0, /at offset [0-9]+/)
		if (old && substr($0, RSTART + 10, RLENGTH - 10) + 0 >= old)
			next
	     }
	     { bad = bad "\n" $0 }
	     END { if (bad != "") { print substr(bad, 2); exit 1 } }' "$1"
}
if [ "$changed" -gt 0 ]; then
	if [ $((rc & 8)) -eq 0 ] && appended_only "$tmp/diff" > "$tmp/notappended"; then
		rc=$((rc | 4))
	else
		rc=$((rc | 8))
	fi
fi
if [ $((rc & 8)) -ne 0 ] || [ -n "$bad" ]; then
	echo "abi-check: $lib ($have) breaks the ABI of $base${bad:+: ${bad#; }}"
	[ -s "$tmp/notappended" ] && sed 's/^/  not an appended member: /' "$tmp/notappended" | head -5
	[ $((rc & 8)) -ne 0 ] && sed 's/^/  /' "$tmp/diff" | head -40
	echo "  (an incompatible change needs a new SONAME, KRELOC_VERSION_MAJOR in the header, and make abi-baseline)"
	exit 1
fi
if [ $((rc & 4)) -ne 0 ]; then
	echo "abi-check: $have grew compatibly since the baseline ($(grep -c '^' "$tmp/new.ver") symbols; write it with make abi-baseline):"
	sed 's/^/  /' "$tmp/diff" | head -20
	exit 0
fi
echo "abi-check: $have matches the baseline ($(grep -c '^' "$tmp/new.ver") symbols, $(awk '{print $2}' "$tmp/new.ver" | sort -u | paste -sd,))"
exit 0
