# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the boot tests.  Source after rig/lib.sh.

# in_root ROOT CMD...: run CMD chrooted in ROOT with /proc, /sys and /dev
# mounted in a private mount namespace (the mounts vanish with it).
in_root() {
	local r="$1"
	shift
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
	unshare --mount --propagation private -- sh -ec '
		r="$1"; shift
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 "$@"' in_root "$r" "$@"
}
