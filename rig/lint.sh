#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: checkpatch.pl --strict and sparse on the module sources, as a KTAP
# block (checkpatch comes from Debian's linux-source-6.1; sparse is built
# against the amd64 and the arm64 6.12 headers with `make C=2`, so that each
# arch file is checked).  Also: a test build is made only by
# KRELOC_TEST_HOOKS=1 on the make command line, never by the same variable
# in the environment (dkms.conf runs "env make").
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
echo "1..5"
dirs=$(module_dirs "$top")
# shellcheck disable=SC2086
files=$(cd "$top" && for d in . $dirs; do ls "$d"/*.c "$d"/*.h; done; ls tests/dbgtools/module/*.c tests/tools/gone-module/*.c \
	tests/vmcore/module/*.c tests/upstream/module/*.c tests/upstream/module/*.h)
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
for d in . $dirs; do touch "$b/$d"/*.c; done
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
for d in . $dirs; do touch "$b/$d"/*.c; done
sp=$(make -C "$b" KDIR="$KDIR" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" LINKED_SOURCE=arch \
	C=2 2>&1 | grep -E '(warning|error):' | grep -v 'kreloc_linked_gen' || true)
if [ -z "$sp" ] && [ -s "$b/kreloc.ko" ]; then
	echo "ok 3 sparse (make C=2) on arm64: no warnings"
else
	echo "$sp" | sed 's/^/# /'
	echo "not ok 3 sparse (make C=2) on arm64: no warnings"
fi
# KRELOC_TEST_HOOKS=1 exported (as an environment DKMS could run in): no
# test_ parameter, no test_hooks tag.  On the command line: both.
. "$CACHE/tmp/lint.env"
h="$CACHE/tmp/hooks-env-build"
rm -rf "$h"
mkdir -p "$h"
(cd "$top" && cp -r Kbuild Makefile dkms.conf ./*.c ./*.h $dirs tools mk "$h/")
rm -f "$h/kreloc_linked_gen.h" "$h/tools/kreloc-linkgen"
hooks_of() {	# "PARMS TAG": test_ parameters and the test_hooks tag of kreloc.ko
	echo "$(modinfo -F parm "$h/kreloc.ko" | grep -c '^test_') $(modinfo -F test_hooks "$h/kreloc.ko" | grep -c .)"
}
(cd "$h" && KRELOC_TEST_HOOKS=1 make -s KDIR="$KDIR" LINKED_SOURCE=arch modules) > "$h/env.log" 2>&1
envh=$([ -s "$h/kreloc.ko" ] && hooks_of || echo "no module")
make -s -C "$h" KDIR="$KDIR" clean > /dev/null 2>&1
(cd "$h" && make -s KDIR="$KDIR" LINKED_SOURCE=arch KRELOC_TEST_HOOKS=1 modules) > "$h/cmd.log" 2>&1
cmdh=$([ -s "$h/kreloc.ko" ] && hooks_of || echo "no module")
echo "# KRELOC_TEST_HOOKS=1 in the environment: $envh (test_ parameters, test_hooks tag); on the command line: $cmdh"
if [ "$envh" = "0 0" ]; then
	echo "ok 4 KRELOC_TEST_HOOKS=1 exported in the environment builds no test hooks"
else
	sed 's/^/# /' "$h/env.log"
	echo "not ok 4 KRELOC_TEST_HOOKS=1 exported in the environment builds no test hooks"
fi
case "$cmdh" in
"0 "* | *" 0" | "no module") sed 's/^/# /' "$h/cmd.log"
	echo "not ok 5 KRELOC_TEST_HOOKS=1 on the make command line builds them, tagged test_hooks" ;;
*) echo "ok 5 KRELOC_TEST_HOOKS=1 on the make command line builds them, tagged test_hooks" ;;
esac
echo "KRELOC-TEST-END lint rc=0"
