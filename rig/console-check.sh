#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# console-check.sh CONSOLE: exit 1, listing the lines, if the kernel console
# log shows a report: Oops, BUG (KASAN, sleeping in atomic, ...), WARNING,
# a lockdep or RCU-lockdep report, UBSAN, list corruption, debugobjects,
# kmemleak, a panic or a rig timeout.  Exit 0 on a clean log.
set -uo pipefail

# One alternative per kind of report, as the kernel prints it.
pat='Oops|BUG:|WARNING: CPU:|Kernel panic|general protection|KRELOC-VM: TIMEOUT'
pat+='|WARNING: possible (circular|recursive) locking'
pat+='|WARNING: (inconsistent lock state|bad unlock balance|held lock freed|lock held when returning)'
pat+='|suspicious RCU usage|suspicious rcu_dereference'
pat+='|INFO: possible irq lock inversion|BUG: sleeping function called'
pat+='|UBSAN:|list_(add|del) corruption|ODEBUG:'
pat+='|unreferenced object 0x|kmemleak: [0-9]+ new suspected memory leak'

[ -r "$1" ] || { echo "console-check: cannot read $1" >&2; exit 2; }
# grep reads it all: with -q it could stop early, tr would die of SIGPIPE
# and pipefail would make a report look like a clean log.
if tr -d '\r' < "$1" | grep -E "$pat" > /dev/null; then
	tr -d '\r' < "$1" | grep -nE -A5 "$pat" | head -40
	exit 1
fi
exit 0
