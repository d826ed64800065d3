#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the rig's log checkers (KTAP): rig/console-check.sh must
# pass a clean console and catch each kind of report, rig/dmesg-addr-check.sh
# must catch an address or the offset in a kreloc line and nothing else.
# The report lines are in the kernel's own formats (lib/, mm/kasan/,
# kernel/locking/lockdep.c, mm/kmemleak.c).  One block framed for
# rig/ktap.sh.
set -uo pipefail
rig=$(cd "$(dirname "$0")/../../rig" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

clean='[    0.000000] Linux version 6.1.192 (root@host) (gcc (Debian 12.2.0-14) 12.2.0)
[    0.000000] Command line: console=ttyS0 panic=-1 ignore_loglevel
[    0.120000] kasan: KernelAddressSanitizer initialized
[    0.130000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.140000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.150000] kmemleak: Kernel memory leak detector initialized (mem pool available: 15632)
[    0.160000] FAULT_INJECTION: forcing a failure.
[    0.160001] name failslab, interval 1, probability 4, space 0, times -1
[    1.000000] kreloc: 29 anchors from system.map, status ok
[    1.100000] kreloc: loading out-of-tree module taints kernel.
[    1.200000] kreloc_test_mod: init function at ffffffffc0200000
[    1.300000] Failed to disarm kprobe-ftrace at kallsyms_lookup_name+0x4/0x240 (error -12)
KRELOC-VM: job done rc=0'

reports=(
	'[    5.1] BUG: KASAN: use-after-free in kreloc_scan_modules+0x1a2/0x3c0 [kreloc]'
	'[    5.1] BUG: KASAN: slab-out-of-bounds in kstrdup+0x3c/0x70'
	'[    5.1] WARNING: possible circular locking dependency detected'
	'[    5.1] WARNING: possible recursive locking detected'
	'[    5.1] WARNING: inconsistent lock state'
	'[    5.1] WARNING: bad unlock balance detected!'
	'[    5.1] WARNING: suspicious RCU usage'
	'[    5.1] kernel/module/main.c:187 suspicious rcu_dereference_check() usage!'
	'[    5.1] BUG: sleeping function called from invalid context at mm/slab.h:723'
	'[    5.1] UBSAN: array-index-out-of-bounds in kreloc_core.c:42:13'
	'[    5.1] UBSAN: shift-out-of-bounds in lib/kreloc_calc.c:10:2'
	'[    5.1] list_add corruption. prev->next should be next (ffff888003c4d0a8), but was 0000000000000000. (prev=ffff888003c4d0a8).'
	'[    5.1] list_del corruption, ffff888003c4d0a8->next is LIST_POISON1 (dead000000000100)'
	'[    5.1] ODEBUG: free active (active state 0) object type: timer_list hint: 0x0'
	'unreferenced object 0xffff888005a4c000 (size 64):'
	'[    5.1] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)'
	'[    5.1] WARNING: CPU: 1 PID: 77 at kernel/kprobes.c:1100 __disarm_kprobe_ftrace+0x10/0x20'
	'[    5.1] general protection fault, probably for non-canonical address 0xdffffc0000000000: 0000 [#1] PREEMPT SMP KASAN'
	'[    5.1] Oops: 0000 [#1] PREEMPT SMP'
	'[    5.1] Kernel panic - not syncing: Fatal exception'
	'KRELOC-VM: TIMEOUT after 600s'
)

addr_bad=(
	'[    1.0] kreloc: 29 anchors from vmlinux, status ok, offset 0x1c000000'
	'[    1.0] kreloc:   _text linked 0xffffffff81000000 runtime 0xffffffff9d000000 delta 0x1c000000 (reference)'
	'[    1.0] kreloc: record at ffffffffc0200000'
	'[    1.0] kreloc: hashed 000000003f2a9c1e'
	'[    1.0] kreloc: delta 1c000000 disagrees'
	'[    1.0] kreloc: delta 469762048 disagrees'
)
addr_ok=(
	'[    1.0] kreloc: 29 anchors from vmlinux, status ok'
	'[    1.0] kreloc: history=5000: at most 4096'
	'[    1.0] kreloc: lookup: no such symbol "kernel_clone_x" (ENOENT)'
	'[    1.0] kreloc_test_mod: init function at ffffffffc0200000'
	'[    1.0] kreloc: loading out-of-tree module taints kernel.'
	'[    1.0] other: 0xffffffff81000000 not from kreloc'
)

# rig/console-known.sh: the known 6.1 kernel leak (a real report of the
# debug kernel's faults boot) is left out; any other leak stays.
known_leak='kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
unreferenced object 0xffff8880045b9c20 (size 16):
  comm "kreloc_stress", pid 2504, jiffies 4294948776
  hex dump (first 16 bytes):
    66 61 74 5f 63 61 63 68 65 00 5b 04 80 88 ff ff  fat_cache.[.....
  backtrace:
    [<(____ptrval____)>] __kmalloc_node_track_caller+0x4e/0x160
    [<(____ptrval____)>] kstrdup_const+0x4c/0x80
    [<(____ptrval____)>] kobject_set_name_vargs+0x43/0x110
    [<(____ptrval____)>] kobject_init_and_add+0xbf/0x120
    [<(____ptrval____)>] sysfs_slab_add+0x18f/0x210
    [<(____ptrval____)>] __kmem_cache_create+0x3a3/0x4a0
    [<(____ptrval____)>] kmem_cache_create+0x16/0x20
    [<(____ptrval____)>] do_one_initcall+0xc9/0x350'
# (the debug stage's planted leak, its controls boot)
other_leak='kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
unreferenced object 0xffff888002e09e00 (size 128):
  comm "insmod", pid 97, jiffies 4294897761
  backtrace:
    [<(____ptrval____)>] kmalloc_trace+0x2a/0xd0
    [<(____ptrval____)>] 0xffffffffc00a8598
    [<(____ptrval____)>] do_one_initcall+0xc9/0x350'

echo "KRELOC-TEST-BEGIN rig-log-checkers"
n=$(( 1 + ${#reports[@]} + ${#addr_bad[@]} + ${#addr_ok[@]} + 1 + 3 ))
echo "TAP version 13"
echo "1..$n"
i=0
ok() { i=$((i + 1)); if [ "$1" -eq 0 ]; then echo "ok $i $2"; else echo "not ok $i $2"; fi; }

printf '%s\n' "$clean" > "$tmp/clean"
"$rig/console-check.sh" "$tmp/clean" > /dev/null
ok $? "console-check: a clean debug-kernel console passes"
for r in "${reports[@]}"; do
	{ printf '%s\n' "$clean"; printf '%s\r\n' "$r"; } > "$tmp/log"
	"$rig/console-check.sh" "$tmp/log" > /dev/null
	[ $? -eq 1 ]
	ok $? "console-check: catches '${r:0:60}'"
done
for l in "${addr_bad[@]}"; do
	printf '%s\n' "$l" > "$tmp/log"
	"$rig/dmesg-addr-check.sh" "$tmp/log" 0x1c000000 > /dev/null
	[ $? -eq 1 ]
	ok $? "dmesg-addr-check: catches '${l:10:60}'"
done
for l in "${addr_ok[@]}"; do
	printf '%s\n' "$l" > "$tmp/log"
	"$rig/dmesg-addr-check.sh" "$tmp/log" 0x1c000000 > /dev/null
	ok $? "dmesg-addr-check: passes '${l:10:60}'"
done
"$rig/dmesg-addr-check.sh" "$tmp/clean" 0x1c000000 > /dev/null
ok $? "dmesg-addr-check: passes a clean console"
known() {	# known CONSOLE-TEXT...: console-check's verdict after console-known
	printf '%s\n' "$clean" "$@" > "$tmp/log"
	"$rig/console-known.sh" "$tmp/log" 2> /dev/null > "$tmp/log.k" &&
		"$rig/console-check.sh" "$tmp/log.k" > /dev/null
}
known "$known_leak"
ok $? "console-known: the 6.1 sysfs_slab_add() leak is left out, and its kmemleak line"
known "$other_leak"
[ $? -eq 1 ]
ok $? "console-known: another leak stays (console-check fails)"
known "$known_leak" "$other_leak"
[ $? -eq 1 ]
ok $? "console-known: another leak beside the known one stays"
echo "KRELOC-TEST-END rig-log-checkers rc=0"
# rig/ktap.sh itself: every planned result counted once (its own block).
"$(dirname "$0")/test_ktap.sh"
