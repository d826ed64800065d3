#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dracut cmdline hook (installed as cmdline/00-kreloc-load.sh): load kreloc
# before udev starts.  kreloc.disable=1 skips it; kreloc.PARAM=VALUE on the
# kernel command line reaches the module through modprobe (kmod reads
# /proc/cmdline for a loadable module's options).
type getargbool >/dev/null 2>&1 || . /lib/dracut-lib.sh

if getargbool 0 kreloc.disable; then
	info "kreloc: disabled on the kernel command line"
elif [ ! -d /sys/module/kreloc ]; then
	modprobe kreloc || warn "kreloc: modprobe kreloc failed"
fi
