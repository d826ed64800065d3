#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-tests.sh ENV OTHER_MAP RESULTS: build kreloc in every link-time source
# variant for the kernel in ENV, boot it once under QEMU and run the
# selftests inside; append "passed failed skipped" to RESULTS.
#   OTHER_MAP  the link-time map of a *different* kernel release, for the
#              must-refuse variant
# An arm64 Image holds no vmlinux: there the vmlinux variant is skipped (and
# the build must refuse it), the other builds take the link-time map, and a
# map shifted by 2 MiB, whose anchors all agree, must be refused because the
# kernel's own VMCOREINFO offset differs.
# KRELOC_RUN_TAG=NAME puts the work dir at $CACHE/run/NAME-KVER, so that two
# runs for one kernel (two trees) never share it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" other_map="$2" results="$3"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
map=$("$top/rig/groundtruth.sh" "$envf")
ksft=$("$top/rig/linux-source.sh")/tools/testing/selftests
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}$KVER"
rm -rf "$work"
mkdir -p "$work/stage/kreloc/modules"

# One module per link-time source; the source tree is the same.
build() {
	local name="$1"
	shift
	"$top/rig/build-kreloc.sh" "$envf" "$work/build/$name" "$@"
	mkdir -p "$work/stage/kreloc/modules/$name"
	cp "$work/build/$name/kreloc.ko" "$work/stage/kreloc/modules/$name/"
}
build system.map LINKED_SOURCE=system.map SYSTEM_MAP="$map"
vmlinux_skip=
if [ "$(od -An -tx1 -j56 -N4 "${VMLINUZ:-$KIMAGE}" | tr -d ' \n')" = 41524d64 ]; then
	# An arm64 Image: the build must refuse it (no ELF inside), not fall back.
	if "$top/rig/build-kreloc.sh" "$envf" "$work/build/vmlinux" LINKED_SOURCE=vmlinux \
		SYSTEM_MAP=/nonexistent VMLINUZ="${VMLINUZ:-$KIMAGE}" 2>/dev/null; then
		vmlinux_skip="not ok - the vmlinux source was built from an arm64 Image"
	else
		vmlinux_skip="1..0 # SKIP an arm64 Image holds no vmlinux (the build refused it)"
	fi
	main=(LINKED_SOURCE=system.map SYSTEM_MAP="$map")
	mainko=system.map
else
	build vmlinux LINKED_SOURCE=vmlinux SYSTEM_MAP=/nonexistent VMLINUZ="${VMLINUZ:-$KIMAGE}"
	main=(LINKED_SOURCE=vmlinux SYSTEM_MAP=/nonexistent VMLINUZ="${VMLINUZ:-$KIMAGE}")
	mainko=vmlinux
fi
build arch LINKED_SOURCE=arch
build othermap LINKED_SOURCE=system.map SYSTEM_MAP="$other_map"
if [ "$UNAME_M" = aarch64 ]; then
	# All anchors agree, but the offset is 2 MiB off the kernel's own.
	perl -ane 'printf "%016x %s %s\n", hex($F[0]) + 0x200000, $F[1], $F[2]' "$map" \
		> "$work/shifted.map"
	build shiftedmap LINKED_SOURCE=system.map SYSTEM_MAP="$work/shifted.map"
fi
# The test build: fault and delay hooks (test/hooks.c), the main source.
build hooks "${main[@]}" KRELOC_TEST_HOOKS=1

make -s -C "$top/selftests/kreloc" KSFT_DIR="$ksft" OUTPUT="$work/stage/kreloc" \
	CROSS_COMPILE="$CROSS_COMPILE" >&2
cp "$map" "$work/stage/kreloc/System.map"

# The project's test module, and some of the kernel's own modules.
build_test_modules "$top" "$work/build/test_module" || die "cannot build the test module"
cp "$work/build/test_module/kreloc_test_mod.ko" \
	"$work/build/test_module/kreloc_test_slowinit.ko" \
	"$work/build/test_module/kreloc_test_anchor.ko" \
	"$work/build/test_module/kreloc_test_dupname.ko" "$work/stage/kreloc/"
# Two users of kreloc's export, against the main build's Module.symvers:
# one imports the namespace KRELOC, one does not (modpost lets it through
# only with KBUILD_NSDEPS=1; the kernel must refuse it).
imp="$work/build/import_module"
mkdir -p "$imp/policy"
cp "$top/selftests/kreloc/import_module/"*.c "$top/selftests/kreloc/import_module/Kbuild" "$imp/"
cp "$top/policy/kreloc_export.h" "$imp/policy/"
kmod_make "$imp" KRELOC_SRC="$imp" KBUILD_NSDEPS=1 \
	KBUILD_EXTRA_SYMBOLS="$work/build/$mainko/Module.symvers" modules ||
	die "cannot build the modules that use kreloc's export"
cp "$imp/kreloc_test_import.ko" "$imp/kreloc_test_noimport.ko" "$work/stage/kreloc/"
modroot=$(mod_root "${MODDIR:-}")
if [ -n "$modroot" ] && [ -n "$(find "$modroot/lib/modules/$KVER/kernel" -name 'dummy.ko*' 2>/dev/null)" ]; then
	"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" dummy vfat bridge
else
	log "no dummy/vfat/bridge modules for $KVER: the module selftests will skip"
fi

{
	echo "#!/bin/sh"
	echo "ko=modules/$mainko/kreloc.ko"
	echo "vmlinux_skip='$vmlinux_skip'"
	# arm64: whether the kernel's own text has BTI landing pads for the
	# CPU to enforce (only then does the suite prove kreloc's indirect
	# calls land on valid targets).
	kbti=
	if [ "$UNAME_M" = aarch64 ] && grep -qx 'CONFIG_ARM64_BTI_KERNEL=y' "${KCONFIG:-/dev/null}"; then
		kbti=y
	fi
	echo "kbti='$kbti'"
	# Whether every static call is patched inline (x86_64: direct calls).
	kinline=n
	if grep -qx 'CONFIG_HAVE_STATIC_CALL_INLINE=y' "$KDIR/.config" 2>/dev/null; then
		kinline=y
	fi
	echo "kinline='$kinline'"
	cat <<'EOT'
# Runs inside the VM: each test is one KTAP block.
run() {
	name="$1"
	shift
	echo "KRELOC-TEST-BEGIN $name"
	"$@"
	echo "KRELOC-TEST-END $name rc=$?"
}
hooks=modules/hooks/kreloc.ko
# arm64: what the guest CPU enforces while the tests run.  QEMU's -cpu max
# has PAC (paca: the kernel signs its return addresses) and BTI; the kernel
# enforces BTI on its own text only when built with ARM64_BTI_KERNEL.
if [ "$(uname -m)" = aarch64 ]; then
	echo "KRELOC-TEST-BEGIN arm64-cpu"
	feat=" $(sed -n 's/^Features[[:space:]]*:\(.*\)/\1/p' /proc/cpuinfo | head -1) "
	echo "1..3"
	n=0
	for f in paca bti; do
		n=$((n + 1))
		case "$feat" in
		*" $f "*) echo "ok $n the guest CPU has $f" ;;
		*) echo "not ok $n the guest CPU has no $f (Features:$feat)" ;;
		esac
	done
	if [ -n "$kbti" ]; then
		echo "ok 3 the kernel enforces BTI on its text (ARM64_BTI_KERNEL)"
	else
		echo "ok 3 # SKIP kernel without ARM64_BTI_KERNEL: indirect calls not checked by BTI"
	fi
	echo "KRELOC-TEST-END arm64-cpu rc=0"
fi
# After each scenario: nothing kreloc logged holds an address or the offset.
dmesg_clean() {
	run "dmesg-after-$1" ./kreloc_dmesg_test --ko "$ko" --name "$@"
}
for src in system.map vmlinux arch; do
	if [ ! -e "modules/$src/kreloc.ko" ]; then
		echo "KRELOC-TEST-BEGIN core-$src"
		echo "$vmlinux_skip"
		echo "KRELOC-TEST-END core-$src rc=0"
		continue
	fi
	run "core-$src" ./kreloc_core_test --ko "modules/$src/kreloc.ko" \
		--source "$src" --map System.map
done
run core-othermap-refused ./kreloc_core_test --ko modules/othermap/kreloc.ko \
	--source system.map --map System.map --expect mismatch
if [ -e modules/shiftedmap/kreloc.ko ]; then
	run core-shiftedmap-refused ./kreloc_core_test --ko modules/shiftedmap/kreloc.ko \
		--source system.map --map System.map --expect mismatch \
		--dmesg "own offset disagrees with the anchors"
fi
dmesg_clean core
run calls ./kreloc_calls_test --ko "$ko" --decoy-ko "$hooks" --static-call-inline "$kinline"
dmesg_clean calls
dummy=$(find /lib/modules -name dummy.ko 2>/dev/null | head -1)
run modules ./kreloc_modules_test --ko "$ko" \
	--test-ko kreloc_test_mod.ko --dummy-ko "$dummy" --anchor-ko kreloc_test_anchor.ko \
	--hooks-ko "$hooks" --arch-ko modules/arch/kreloc.ko
dmesg_clean modules
run times ./kreloc_times_test --ko "$ko" --dummy-ko "$dummy" \
	--slow-ko kreloc_test_slowinit.ko
dmesg_clean times
run import ./kreloc_import_test --ko "$ko" --import-ko kreloc_test_import.ko \
	--noimport-ko kreloc_test_noimport.ko
dmesg_clean import
run lookup ./kreloc_lookup_test --ko "$ko" --hooks-ko "$hooks" --dup-ko kreloc_test_dupname.ko
dmesg_clean lookup --nosym-ko "$hooks"
run init ./kreloc_init_test --hooks-ko "$hooks"
dmesg_clean init
run race ./kreloc_race_test --hooks-ko "$hooks" --slow-ko kreloc_test_slowinit.ko \
	--test-ko kreloc_test_mod.ko --dummy-ko "$dummy"
dmesg_clean race --leak-ko "$hooks"
# Lockdown cannot be lowered again: last.
run lockdown ./kreloc_lockdown_test --ko "$ko" --import-ko kreloc_test_import.ko
EOT
} > "$work/stage/kreloc/job"
chmod +x "$work/stage/kreloc/job"

# A kernel that can run where it is loaded (ppc64 BE, CONFIG_RELOCATABLE_TEST)
# is started at another address, as kdump starts one: the offset is then
# not 0, so the tests see whether it is applied.
kaddr=()
[ -n "${RELOCATED_KERNEL_ADDR:-}" ] && kaddr=(--kernel-addr "$RELOCATED_KERNEL_ADDR")
log "booting $KVER for the selftests${kaddr[1]:+, relocated to ${kaddr[1]}}"
vmrc=0
"$top/rig/run-vm.sh" "${kaddr[@]}" "$envf" "$work/stage" "$work/console.log" "" "$work/output.log" || vmrc=$?
# The job's blocks, each of which must run (add new ones here too).
plan="core-system.map core-vmlinux core-arch core-othermap-refused modules times import lookup"
[ "$UNAME_M" != aarch64 ] || plan="$plan arm64-cpu"
KRELOC_PLAN="$plan" \
	KRELOC_TAG="$UNAME_M $KVER${kaddr[1]:+ at ${kaddr[1]}}" \
	"$top/rig/ktap.sh" "$work/output.log" "$work/console.log" "$results"
if [ $vmrc -ne 0 ]; then
	echo "not ok - $KVER: VM run failed (see $work/console.log)"
	echo "0 1 0" >> "$results"
fi
