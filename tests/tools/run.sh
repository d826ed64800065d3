#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/tools/run.sh: build the kreloc CLI (with ASan/UBSan) and run its host
# tests, framed for rig/ktap.sh:
#   KRELOC-TEST-BEGIN tools-cli
#   <KTAP document>
#   KRELOC-TEST-END tools-cli rc=N
# and tools-times (test_times.sh: the times of snapshot format 3, resolve
# ADDR@SECONDS and --clock on a guest's module memory reused by another),
# tools-dbgtools (tests/tools/test_dbgtools.sh: `kreloc gdb`, `kreloc
# kallsyms`), tools-examples (tests/tools/test_examples.sh: every shell
# example of README.md and the man pages), tools-lib (test_lib.sh:
# libkreloc's exports, licence, ABI, install, examples, contract, sizes,
# prefetch, threads) and tools-debuginfod
# (test_debuginfod.sh: files by build id from a local debuginfod server;
# KRELOC_TEST_VMLINUX names the vmlinux with symbols it serves, run-all.sh
# passes rig/vmlinux-symbols.sh's).  With clang installed the libFuzzer
# targets are built and run bounded
# (KRELOC_FUZZ=0 to skip them).  Exit status: that of the suite.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/rig/lib.sh"
need_pkgs liblzma-dev libzstd-dev zlib1g-dev xz-utils zstd python3 xxd binutils gdb-multiarch \
	abigail-tools pkg-config debuginfod libdebuginfod-dev libarchive-tools
# Files come from the tests' own directories and servers, never from the
# debuginfod servers a user's environment names.
unset DEBUGINFOD_URLS
W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-tools.XXXXXX")
trap 'rm -rf "$W"' EXIT

build_log="$W/build.log"
rc=0
echo "KRELOC-TEST-PLAN tools-cli tools-times tools-dbgtools tools-examples tools-lib tools-debuginfod"
echo "KRELOC-TEST-BEGIN tools-cli"
if ! make -s -C "$top/tools/cli" kreloc kreloc-san > "$build_log" 2>&1 ||
   ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$top/tools" -o "$W/addrcheck" \
	"$here/addrcheck.c" "$top/tools/sysmap.c" >> "$build_log" 2>&1 ||
   ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$W/gen" "$here/gen.c" >> "$build_log" 2>&1; then
	echo "TAP version 13"
	echo "1..1"
	echo "not ok 1 build the kreloc CLI"
	sed 's/^/# /' "$build_log"
	rc=1
else
	if [ "${KRELOC_FUZZ:-1}" != 0 ] && command -v clang >/dev/null &&
	   make -s -C "$top/tools/cli" fuzz >> "$build_log" 2>&1; then
		export KRELOC_FUZZ=1
	else
		unset KRELOC_FUZZ
	fi
	mkdir -p "$W/t" "$W/d"
	"$here/test_cli.sh" "$top/tools/cli/kreloc-san" "$W/addrcheck" "$W/t"
	rc=$?
fi
echo "KRELOC-TEST-END tools-cli rc=$rc"
echo "KRELOC-TEST-BEGIN tools-times"
if [ -x "$top/tools/cli/kreloc-san" ] && [ -x "$W/addrcheck" ]; then
	"$here/test_times.sh" "$top/tools/cli/kreloc-san" "$W/addrcheck" "$W/times"
	r=$?
else
	printf 'TAP version 13\n1..1\nnot ok 1 build the kreloc CLI and addrcheck\n'
	r=1
fi
echo "KRELOC-TEST-END tools-times rc=$r"
[ $r -eq 0 ] || rc=$r
if [ -x "$top/tools/cli/kreloc-san" ] && [ -x "$W/gen" ]; then
	echo "KRELOC-TEST-BEGIN tools-dbgtools"
	"$here/test_dbgtools.sh" "$top/tools/cli/kreloc-san" "$W/gen" "$W/d"
	r=$?
	echo "KRELOC-TEST-END tools-dbgtools rc=$r"
	[ $r -eq 0 ] || rc=$r
	echo "KRELOC-TEST-BEGIN tools-examples"
	mkdir -p "$W/e"
	"$here/test_examples.sh" "$top/tools/cli/kreloc-san" "$W/e"
	r=$?
	echo "KRELOC-TEST-END tools-examples rc=$r"
	[ $r -eq 0 ] || rc=$r
fi
if [ -x "$top/tools/cli/kreloc-san" ]; then
	for t in lib debuginfod; do
		echo "KRELOC-TEST-BEGIN tools-$t"
		"$here/test_$t.sh" "$top/tools/cli/kreloc-san" "$W/$t"
		r=$?
		echo "KRELOC-TEST-END tools-$t rc=$r"
		[ $r -eq 0 ] || rc=$r
	done
fi
exit $rc
