#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest entry point: run kreloc_core_test against the installed module.
#   KRELOC_KO      module to test (default: modinfo's path of kreloc)
#   KRELOC_SOURCE  the LINKED_SOURCE it was built from (default: read from info)
#   KRELOC_MAP     the kernel's link-time map (default /boot/System.map-$(uname -r))
. "$(dirname "$0")/kreloc_lib.sh"

[ "$(id -u)" -eq 0 ] || ksft_skip "must be run as root"
ko="${KRELOC_KO:-$(modinfo -n kreloc 2>/dev/null)}"
[ -n "$ko" ] && [ -r "$ko" ] || ksft_skip "kreloc.ko not found"
map="${KRELOC_MAP:-/boot/System.map-$(uname -r)}"
[ -r "$map" ] && [ "$(wc -l < "$map")" -gt 100 ] ||
	ksft_skip "no real link-time map ($map)"
src="${KRELOC_SOURCE:-}"
if [ -z "$src" ]; then
	insmod "$ko" || ksft_skip "cannot load $ko"
	src=$(sed -n 's/^LINKED_SOURCE=//p' /sys/kernel/debug/kreloc/info)
	rmmod kreloc
fi
exec "$(dirname "$0")/kreloc_core_test" --ko "$ko" --source "$src" --map "$map"
