#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the kreloc test initramfs: mount the usual filesystems, run
# /kreloc/job (the demo, the selftests or a data dump), power off.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo "KRELOC-VM: booted $(uname -r) $(uname -m)"
# The job's output goes to the second serial port, away from kernel
# messages on the console; run-vm.sh names it (krelocdata=ttyS1|hvc1 on the
# kernel command line reaches init as an environment variable).
out=/dev/console
if [ -n "${krelocdata:-}" ] && [ -c "/dev/$krelocdata" ]; then
	out=/dev/$krelocdata
fi
rc=0
if [ -x /kreloc/job ]; then
	(cd /kreloc && ./job) > "$out" 2>&1 || rc=$?
fi
echo "KRELOC-VM: job done rc=$rc"
sync
# A kernel without ACPI (rig/kernel-debug.sh) only halts on poweroff; its
# env asks for krelocexit=reboot, and QEMU's -no-reboot ends the run.
[ "${krelocexit:-}" = reboot ] && reboot -f
poweroff -f
