#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test only (tests/boot/run.sh), not installed by "make install".  As an
# initramfs-tools init-premount script (after udev has loaded the drivers)
# or a dracut initqueue/settled hook: write /proc/modules and kreloc's
# debugfs files and every module's /sys/module/NAME/sections to the second
# serial port, then power off.
PREREQ="udev"
prereqs() { echo "$PREREQ"; }
case "${1:-}" in
prereqs) prereqs; exit 0 ;;
esac

udevadm settle --timeout=60 >/dev/null 2>&1 || true
mkdir -p /sys/kernel/debug
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
k=/sys/kernel/debug/kreloc
{
	echo KRELOC-DUMP-BEGIN
	echo "== cmdline"
	cat /proc/cmdline
	echo "== proc-modules"
	cat /proc/modules
	if [ -d "$k" ]; then
		echo "== info"
		cat "$k/info"
		echo "== modules"
		cat "$k/modules"
		for f in "$k"/module/*; do
			case "$f" in *@*) continue ;; esac
			echo "== module ${f##*/}"
			cat "$f"
		done
	fi
	# The kernel's own record of each module's sections (the ground
	# truth for kreloc's): PATH:ADDRESS lines.  (grep, not the shell's
	# read: a section file answers only a read at offset 0.)
	while read -r m _; do
		echo "== sysfs $m"
		grep -H . /sys/module/"$m"/sections/.[!.]* /sys/module/"$m"/sections/[!.]* 2>/dev/null
	done < /proc/modules
	echo KRELOC-DUMP-END
} > /dev/ttyS1 2>&1
sync
echo o > /proc/sysrq-trigger
sleep 60
