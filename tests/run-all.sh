#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole kreloc test suite (`make check`): host unit tests, lint
# (checkpatch --strict, sparse), then for each target kernel a QEMU boot
# running the selftests.  Installs its own prerequisites.  Ends with one
# line "N passed, N failed, N skipped"; exits non-zero on any failure.
#
#   KRELOC_TARGETS  kernels to boot (default: "amd64-6.1 amd64-6.12
#                   ppc64le-6.1 ppc64be-6.1 arm64-6.1 arm64-6.12"); "debug" adds the
#                   debug-kernel stages (rig/vm-debug.sh, and gdb: rig/vm-gdb.sh);
#                   amd64-6.1 includes perf with kreloc kallsyms (rig/vm-perf.sh).
#                   Also, not in the default (each adds about 10 minutes;
#                   README, "Kernels"): amd64-5.10 (Debian 11), amd64-6.12-deb13
#                   (Debian 13's own 6.12) and amd64-7 (trixie-backports'
#                   newest 7.x), each built in a root of its release.
#   KRELOC_CACHE    download/build cache (default ~/.cache/kreloc)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"

targets="${KRELOC_TARGETS:-amd64-6.1 amd64-6.12 ppc64le-6.1 ppc64be-6.1 arm64-6.1 arm64-6.12}"
results="$CACHE/tmp/results.$$"
: > "$results"
start=$(date +%s)

need_pkgs build-essential cpio busybox-static qemu-system-x86 xz-utils zstd \
	dwarves libelf-dev zlib1g-dev bc sparse kmod clang binutils debootstrap

stage() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }

# Environment of a target, fetched and cached.
target_env() {
	case "$1" in
	amd64-*) "$top/rig/kernel-amd64.sh" "${1#amd64-}" > "$CACHE/tmp/$1.env" ;;
	arm64-*) "$top/rig/kernel-arm64.sh" "${1#arm64-}" > "$CACHE/tmp/$1.env" ;;
	ppc64le-6.1) cp "$("$top/rig/kernel-ppc64le.sh" | tail -1)" "$CACHE/tmp/$1.env" ;;
	ppc64be-6.1) cp "$("$top/rig/kernel-ppc64be.sh" | tail -1)" "$CACHE/tmp/$1.env" ;;
	*) return 1 ;;
	esac && echo "$CACHE/tmp/$1.env"
}

# The link-time map of another release, for the must-refuse test.
other_of() {
	case "$1" in
	amd64-6.1) echo amd64-6.12 ;;
	amd64-6.12) echo amd64-6.1 ;;
	amd64-5.10) echo amd64-6.1 ;;
	amd64-6.12-deb13) echo amd64-6.12 ;;
	amd64-7) echo amd64-6.12-deb13 ;;
	ppc64le-6.1) echo ppc64be-6.1 ;;
	ppc64be-6.1) echo ppc64le-6.1 ;;
	arm64-6.1) echo arm64-6.12 ;;
	arm64-*) echo arm64-6.1 ;;
	esac
}

stage "host unit tests"
make -s -C "$top/tests/unit" > "$CACHE/tmp/unit.out" 2>&1
KRELOC_TAG=host "$top/rig/ktap.sh" "$CACHE/tmp/unit.out" /dev/null "$results"

stage "tools (host)"
# Their real-kernel fixtures (the 6.1 link-time map, a .ko) come from the rig.
"$top/rig/groundtruth.sh" "$(target_env amd64-6.1)" > /dev/null ||
	echo "# no amd64 6.1 link-time map: the CLI tests that need it will skip"
"$top/tests/tools/run.sh" > "$CACHE/tmp/tools.out" 2>&1
KRELOC_TAG=host "$top/rig/ktap.sh" "$CACHE/tmp/tools.out" /dev/null "$results"

stage "rig log checkers (host)"
"$top/tests/rig/run.sh" > "$CACHE/tmp/rigcheck.out" 2>&1
KRELOC_TAG=host "$top/rig/ktap.sh" "$CACHE/tmp/rigcheck.out" /dev/null "$results"

stage "lint"
"$top/rig/lint.sh" > "$CACHE/tmp/lint.out" 2>&1
KRELOC_TAG=lint "$top/rig/ktap.sh" "$CACHE/tmp/lint.out" /dev/null "$results"

for t in $targets; do
	[ "$t" = debug ] && continue
	stage "QEMU: $t"
	envf=$(target_env "$t") || { echo "not ok - $t: cannot fetch kernel"; echo "0 1 0" >> "$results"; continue; }
	o=$(other_of "$t")
	omap=$(oenv=$(target_env "$o") && "$top/rig/groundtruth.sh" "$oenv") || {
		echo "not ok - $t: no link-time map of $o"; echo "0 1 0" >> "$results"; continue; }
	"$top/rig/vm-tests.sh" "$envf" "$omap" "$results" || {
		echo "not ok - $t: rig failed"; echo "0 1 0" >> "$results"; }
	stage "QEMU: $t, the kreloc CLI (two boots)"
	"$top/rig/vm-tools.sh" "$envf" "$results" || {
		echo "not ok - $t: CLI rig failed"; echo "0 1 0" >> "$results"; }
	if [ "$t" = amd64-6.1 ]; then
		stage "QEMU: $t, perf names an unloaded module's samples with kreloc kallsyms"
		"$top/rig/vm-perf.sh" "$envf" "$results" || {
			echo "not ok - $t: perf rig failed"; echo "0 1 0" >> "$results"; }
	fi
done

case " $targets " in
*" debug "*)
	stage "QEMU: x86_64 debug kernel (KASAN, lockdep, kmemleak, fault injection, lockdown)"
	"$top/rig/vm-debug.sh" "$results" check || {
		echo "not ok - debug kernel: rig failed"; echo "0 1 0" >> "$results"; }
	stage "QEMU: x86_64 debug kernel, gdb with kreloc gdb's script"
	denv="$CACHE/tmp/debug-gdb.env.$$"
	if "$top/rig/kernel-debug.sh" > "$denv"; then
		"$top/rig/vm-gdb.sh" "$denv" "$results" || {
			echo "not ok - debug kernel: gdb rig failed"; echo "0 1 0" >> "$results"; }
		rm -f "$denv"
	else
		echo "not ok - debug kernel: cannot build it for the gdb test"; echo "0 1 0" >> "$results"
	fi
	;;
*)
	# gdb needs a vmlinux with symbols: the debug kernel's
	echo "ok - dbgtools-gdb # SKIP the debug kernel is not among KRELOC_TARGETS"
	echo "0 0 1" >> "$results"
	;;
esac

stage "boot: make install, dkms, initramfs-tools, dracut"
rc=0
"$top/tests/boot/run.sh" > "$CACHE/tmp/boot.out" 2> "$CACHE/tmp/boot.err" || rc=$?
# An abort is a failure even when every block printed so far passed.
[ $rc -eq 0 ] || printf 'KRELOC-TEST-BEGIN boot-run\n1..1\nnot ok 1 tests/boot/run.sh stopped with exit %d (%s)\nKRELOC-TEST-END boot-run rc=1\n' \
	"$rc" "$(tail -1 "$CACHE/tmp/boot.err")" >> "$CACHE/tmp/boot.out"
touch "$CACHE/boot/run/console.log"
KRELOC_TAG=boot "$top/rig/ktap.sh" "$CACHE/tmp/boot.out" "$CACHE/boot/run/console.log" "$results"

stage "done"
read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$results")
rm -f "$results"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
