#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest entry point: run kreloc_lookup_test against the installed module.
. "$(dirname "$0")/kreloc_lib.sh"

[ "$(id -u)" -eq 0 ] || ksft_skip "must be run as root"
ko="${KRELOC_KO:-$(modinfo -n kreloc 2>/dev/null)}"
[ -n "$ko" ] && [ -r "$ko" ] || ksft_skip "kreloc.ko not found"
[ -d /sys/kernel/tracing ] || [ -d /sys/kernel/debug/tracing ] || ksft_skip "no tracefs"
# The test module with a function named like vmlinux's vfs_write, if built.
dup="${KRELOC_DUP_KO:-$(dirname "$0")/test_module/kreloc_test_dupname.ko}"
set --
[ -r "$dup" ] && set -- --dup-ko "$dup"
exec "$(dirname "$0")/kreloc_lookup_test" --ko "$ko" "$@"
