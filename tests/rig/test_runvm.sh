#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_runvm.sh: rig/run-vm.sh's handling of a boot that never reaches the
# rig's /init, on a fake QEMU, as one KTAP block.  A kernel that dies or
# hangs before /init ran nothing of kreloc's and is booted once more; one
# that hangs after /init ran is a failure, never retried.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/rig/lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-runvm.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/cache/tmp" "$W/userland" "$W/stage/kreloc"
: > "$W/userland/busybox"
: > "$W/kernel"

# The fake QEMU plays the next word of $W/plan on each boot, writing the
# console to the first -serial file.
cat > "$W/fake-qemu" <<'FAKE'
#!/usr/bin/env bash
con=""
while [ $# -gt 0 ]; do
	if [ "$1" = -serial ] && [ -z "$con" ]; then con=${2#file:}; fi
	shift
done
n=$(($(cat "$FAKE_DIR/boots" 2>/dev/null || echo 0) + 1))
echo "$n" > "$FAKE_DIR/boots"
what=$(cut -d' ' -f"$n" "$FAKE_DIR/plan")
echo "Probing EDD (edd=off to disable)... ok" > "$con"
case "$what" in
hang) exec sleep 100 ;;
panic) echo "Kernel panic - not syncing: Fatal exception" >> "$con" ;;
ok) printf 'KRELOC-VM: booted 7.3.4 x86_64\nKRELOC-VM: job done rc=0\n' >> "$con" ;;
late) echo "KRELOC-VM: booted 7.3.4 x86_64" >> "$con"; exec sleep 100 ;;
early-oops)
	printf '[    2.34] Oops: int3: 0000 [#1] SMP NOPTI\r\n[    2.35] CPU: 1 UID: 0 PID: 1 Comm: swapper/0 Not tainted 7.3.4+deb13-amd64 #1\r\n' >> "$con"
	printf '[    2.37] CPU: 0 UID: 0 PID: 29 Comm: kworker/u8:1 Tainted: G      D      7.3.4+deb13-amd64 #1\r\n[    2.38] Kernel panic - not syncing: Fatal exception\r\n' >> "$con" ;;
job-panic)
	printf 'KRELOC-VM: booted 7.3.4 x86_64\n[    9.10] Kernel panic - not syncing: Fatal exception\n' >> "$con" ;;
kreloc-oops)
	printf '[    3.10] BUG: kernel NULL pointer dereference, address: 0000000000000000\r\n[    3.11] CPU: 0 UID: 0 PID: 97 Comm: modprobe Tainted: G           O       7.3.4+deb13-amd64 #1\r\n' >> "$con"
	printf '[    3.12] Kernel panic - not syncing: Fatal exception\r\n' >> "$con" ;;
esac
exit 0
FAKE
chmod +x "$W/fake-qemu"
cat > "$W/env" <<ENV
KVER=fake
QEMU_BIN=$W/fake-qemu
QEMU_ARGS=""
KIMAGE=$W/kernel
CONSOLE=ttyS0
USERLAND=$W/userland
ENV

# boot PLAN [OPTION...]: run run-vm.sh; sets rc, boots and the console in
# $W/log.
boot() {
	echo "$1" > "$W/plan"
	shift
	rm -f "$W/boots" "$W/log" "$W/log.died-before-init"
	FAKE_DIR=$W KRELOC_CACHE=$W/cache KRELOC_VM_INIT_TIMEOUT=2 \
		"$top/rig/run-vm.sh" --timeout 6 "$@" "$W/env" "$W/stage" "$W/log" \
		> "$W/out" 2>&1
	rc=$?
	boots=$(cat "$W/boots" 2>/dev/null || echo 0)
}

# (on a failure, the run's output as diagnostics)
T_DIAG_FILE="$W/out"
t_plan run-vm 10
boot "ok"
t "a boot that runs the job: exit 0, one boot (rc $rc, $boots boots)" \
	test "$rc.$boots" = 0.1
boot "hang ok"
t "silent before /init, then fine: booted once more, exit 0, first console kept (rc $rc, $boots boots)" \
	sh -c 'test "$1" = 0.2 && grep -q "Probing EDD" "$2.died-before-init"' sh "$rc.$boots" "$W/log"
boot "hang hang"
t "silent before /init twice: exit 1, TIMEOUT on the console (rc $rc, $boots boots)" \
	sh -c 'test "$1" = 1.2 && grep -q "KRELOC-VM: TIMEOUT" "$2"' sh "$rc.$boots" "$W/log"
boot "panic ok"
t "a panic before /init, then fine: booted once more, exit 0 (rc $rc, $boots boots)" \
	test "$rc.$boots" = 0.2
boot "late ok"
t "a hang after /init ran is never retried: exit 1, TIMEOUT (rc $rc, $boots boots)" \
	sh -c 'test "$1" = 1.1 && grep -q "KRELOC-VM: TIMEOUT" "$2"' sh "$rc.$boots" "$W/log"
# --expect-panic: the job's panic is the end it was to reach, nothing else is.
boot "job-panic" --expect-panic
t "--expect-panic: a panic after /init ran is the run's success: exit 0, one boot (rc $rc, $boots boots)" \
	test "$rc.$boots" = 0.1
boot "ok" --expect-panic
t "--expect-panic: a job that ends without a panic is a failure (rc $rc, $boots boots)" \
	test "$rc.$boots" = 1.1
boot "job-panic"
t "without --expect-panic a panic after /init is a failure (rc $rc, $boots boots)" \
	test "$rc.$boots" = 1.1
# A distribution's initramfs (--initrd) has no /init mark: kreloc's taint
# tells whether it had loaded.
: > "$W/initrd"
boot "early-oops ok" --initrd "$W/initrd"
t "--initrd: a panic whose first report says 'Not tainted': booted once more, exit 0 (rc $rc, $boots boots)" \
	test "$rc.$boots" = 0.2
boot "kreloc-oops ok" --initrd "$W/initrd"
t "--initrd: a panic in a kernel kreloc tainted (O) is never retried: exit 1 (rc $rc, $boots boots)" \
	test "$rc.$boots" = 1.1
t_done
