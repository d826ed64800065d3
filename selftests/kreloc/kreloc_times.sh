#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest entry point: run kreloc_times_test against the installed
# module, the slow-init test module built beside it, and the kernel's
# dummy module.
. "$(dirname "$0")/kreloc_lib.sh"

[ "$(id -u)" -eq 0 ] || ksft_skip "must be run as root"
ko="${KRELOC_KO:-$(modinfo -n kreloc 2>/dev/null)}"
[ -n "$ko" ] && [ -r "$ko" ] || ksft_skip "kreloc.ko not found"
slow_ko="${KRELOC_SLOW_KO:-$(dirname "$0")/test_module/kreloc_test_slowinit.ko}"
[ -r "$slow_ko" ] || ksft_skip "$slow_ko not built"
dummy="${KRELOC_DUMMY_KO:-$(modinfo -n dummy 2>/dev/null)}"
[ -n "$dummy" ] && [ -r "$dummy" ] || ksft_skip "dummy.ko not found"
case "$dummy" in *.ko) ;; *) ksft_skip "$dummy is compressed" ;; esac
exec "$(dirname "$0")/kreloc_times_test" --ko "$ko" --dummy-ko "$dummy" --slow-ko "$slow_ko"
