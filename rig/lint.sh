#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: checkpatch.pl --strict and sparse on the module sources, as a KTAP
# block (checkpatch comes from Debian's linux-source-6.1; sparse is built
# against the amd64 and the arm64 6.12 headers with `make C=2`, so that each
# arch file is checked).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"

need_pkgs sparse
src=$("$top/rig/linux-source.sh")
envf="$CACHE/tmp/lint.env"
"$top/rig/kernel-amd64.sh" 6.12 > "$envf"
# shellcheck disable=SC1090
. "$envf"

echo "KRELOC-TEST-BEGIN lint"
echo "TAP version 13"
echo "1..3"
files=$(cd "$top" && ls ./*.c ./*.h kreloc_arch/*.c kreloc_arch/*.h lib/*.c lib/*.h \
	tests/dbgtools/module/*.c tests/tools/gone-module/*.c)
out=$(cd "$top" && perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 | grep -v '^total:' )
if [ -z "$out" ]; then
	echo "ok 1 checkpatch --strict: module sources clean"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 checkpatch --strict: module sources clean"
fi
b="$CACHE/tmp/sparse-build"
"$top/rig/build-kreloc.sh" "$envf" "$b" LINKED_SOURCE=arch >/dev/null 2>&1 || true
touch "$b"/*.c "$b"/kreloc_arch/*.c
sp=$(make -C "$b" KDIR="$KDIR" LINKED_SOURCE=arch C=2 2>&1 | grep -E '(warning|error):' | grep -v 'kreloc_linked_gen' || true)
if [ -z "$sp" ] && [ -s "$b/kreloc.ko" ]; then
	echo "ok 2 sparse (make C=2): no warnings"
else
	echo "$sp" | sed 's/^/# /'
	echo "not ok 2 sparse (make C=2): no warnings"
fi

# The same for arm64 (kreloc_arch/arm64.c), cross-built.
envf="$CACHE/tmp/lint-arm64.env"
"$top/rig/kernel-arm64.sh" 6.12 > "$envf"
# shellcheck disable=SC1090
. "$envf"
b="$CACHE/tmp/sparse-build-arm64"
"$top/rig/build-kreloc.sh" "$envf" "$b" LINKED_SOURCE=arch >/dev/null 2>&1 || true
touch "$b"/*.c "$b"/kreloc_arch/*.c
sp=$(make -C "$b" KDIR="$KDIR" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" LINKED_SOURCE=arch \
	C=2 2>&1 | grep -E '(warning|error):' | grep -v 'kreloc_linked_gen' || true)
if [ -z "$sp" ] && [ -s "$b/kreloc.ko" ]; then
	echo "ok 3 sparse (make C=2) on arm64: no warnings"
else
	echo "$sp" | sed 's/^/# /'
	echo "not ok 3 sparse (make C=2) on arm64: no warnings"
fi
echo "KRELOC-TEST-END lint rc=0"
