#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: the debug kernel's long run (rig/vm-debug.sh soak): 1,000
# module churn cycles under readers and lookup fuzzing, more faulted loads,
# then the lockdown boots.  Ends with "N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"
results="$CACHE/tmp/soak-results.$$"
: > "$results"
"$top/rig/vm-debug.sh" "$results" soak || {
	echo "not ok - debug kernel soak: rig failed"; echo "0 1 0" >> "$results"; }
read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$results")
rm -f "$results"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
