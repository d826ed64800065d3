#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test only (tests/boot/run.sh, secureboot.sh), not installed by "make
# install".  As an initramfs-tools init-premount script (after udev has
# loaded the drivers) or a dracut initqueue/settled hook: write /proc/modules,
# kreloc's debugfs files, what the packaged kreloc command shows (when the
# test put it into the initramfs) and every module's /sys/module/NAME/sections
# to the second serial port, then power off (a kernel without ACPI or sysrq,
# the debug kernel, reboots: its QEMU runs with -no-reboot).
PREREQ="udev"
prereqs() { echo "$PREREQ"; }
case "${1:-}" in
prereqs) prereqs; exit 0 ;;
esac

udevadm settle --timeout=60 >/dev/null 2>&1 || true
mkdir -p /sys/kernel/debug
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null || true
k=/sys/kernel/debug/kreloc
{
	echo KRELOC-DUMP-BEGIN
	echo "== cmdline"
	cat /proc/cmdline
	echo "== proc-modules"
	cat /proc/modules
	echo "== lockdown"
	cat /sys/kernel/security/lockdown 2>/dev/null
	echo "sig_enforce=$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)"
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
		if command -v kreloc >/dev/null 2>&1; then
			echo "== kreloc-show"
			kreloc show 2>&1
			echo "rc=$?"
			echo "== kreloc-show-json"
			kreloc --json show 2>&1
		fi
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
echo o > /proc/sysrq-trigger 2>/dev/null
sleep 5
reboot -f
sleep 60
