#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# console-known.sh CONSOLE: print the kernel console log without the
# reports of known bugs of the debug kernel that are not kreloc's, for
# rig/console-check.sh, and say on stderr how many it left out.  One so far:
#
#   6.1's SLUB sysfs_slab_add() does not free a cache's kobject name when
#   kobject_init_and_add() fails (upstream commit 2420baa8e046, "mm/slab:
#   Allow cache creation to proceed even if sysfs registration fails";
#   6.1.192 does not have it).  failslab in a module's init meets it
#   (kmem_cache_create("fat_cache") in fat's).  Its kmemleak report has
#   both functions in its backtrace; kreloc creates no slab cache.
#
# A report is an "unreferenced object" line and the indented lines after
# it.  The kernel's "kmemleak: N new suspected memory leaks" lines go too,
# but only when no other report is left: with one, they stay.
set -euo pipefail
[ -r "$1" ] || { echo "console-known: cannot read $1" >&2; exit 2; }
tr -d '\r' < "$1" | awk '
{ l[NR] = $0 }
END {
	for (i = 1; i <= NR; i++) {
		if (l[i] !~ /^unreferenced object 0x/)
			continue
		for (j = i + 1; j <= NR && l[j] ~ /^ /; j++)
			;
		b = ""
		for (k = i; k < j; k++)
			b = b l[k] "\n"
		if (b ~ /sysfs_slab_add/ && b ~ /kobject_init_and_add/) {
			for (k = i; k < j; k++)
				drop[k] = 1
			known++
		} else {
			other++
		}
		i = j - 1
	}
	for (i = 1; i <= NR; i++)
		if (!drop[i] && !(known && !other && l[i] ~ /kmemleak: [0-9]+ new suspected memory leak/))
			print l[i]
	if (known)
		printf "console-known: left out %d kmemleak report(s) of the 6.1 sysfs_slab_add() leak (upstream 2420baa8e046); %d other report(s)\n", known, other + 0 > "/dev/stderr"
}'
