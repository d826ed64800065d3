#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dracut module 90kreloc: load kreloc.ko from the initramfs before udev, so
# that kreloc records every later module with its init sections.

# Include it whenever the kernel has a kreloc module (hostonly or not).
check() {
	modinfo -k "$kernel" kreloc >/dev/null 2>&1 || return 1
	return 0
}

depends() {
	return 0
}

installkernel() {
	hostonly='' instmods kreloc
}

install() {
	# cmdline hooks run before pre-udev and udev: 00 sorts before
	# 90kernel-modules' rd.driver.pre handling.
	inst_hook cmdline 00 "$moddir/kreloc-load.sh"
	local f
	for f in /etc/modprobe.d/kreloc.conf /usr/lib/modprobe.d/kreloc.conf /lib/modprobe.d/kreloc.conf; do
		[ -f "$f" ] && inst_simple "$f"
	done
	return 0
}
