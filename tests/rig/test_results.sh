#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_results.sh: rig/results.py, which keeps Documentation/results.md, on
# the job files of two fake runs (rig/jobs.sh's layout), as one KTAP block:
# a job's counts add up its result lines, a crash counts one failure, the
# kernel comes from the target's env file, and a second run replaces only
# the rows of the jobs it ran.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/rig/lib.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-results.XXXXXX")
trap 'rm -rf "$W"' EXIT
T_DIAG_FILE="$W/results.md"

# fake DIR I NAME RC SECONDS [RESULT-LINE...]: job I's files in DIR.
fake() {
	local d="$1" i="$2" name="$3" rc="$4" secs="$5" now
	shift 5
	mkdir -p "$d"
	now=$(date +%s)
	echo "$name" > "$d/job.$i.name"
	echo $((now - secs)) > "$d/job.$i.start"
	echo "$rc" > "$d/job.$i.rc"
	touch -d "@$now" "$d/job.$i.rc"
	printf '%s\n' "$@" | sed '/^$/d' > "$d/job.$i.results"
}
# row NAME: the table row of job NAME.
row() { grep -F "| $1 | " "$W/results.md"; }
# cols NAME: its kernel, passed, failed, skipped and seconds.
cols() { row "$1" | awk -F' \\| ' '{print $2, $3, $4, $5, $6}'; }

fake "$W/run1" 0 "QEMU: amd64-6.1" 0 120 "10 0 1" "5 1 0"
echo "KVER=6.1.0-57-amd64" > "$W/run1/amd64-6.1.env"
fake "$W/run1" 1 "lint" 3 7
fake "$W/run1" 2 "host unit tests" 0 3 "40 0 0"
"$top/rig/results.py" "$W/run1" "$W/results.md" > "$W/out" 2>&1
cp "$W/results.md" "$W/first.md"

fake "$W/run2" 0 "lint" 0 9 "4 0 0"
"$top/rig/results.py" "$W/run2" "$W/results.md" >> "$W/out" 2>&1

t_plan results 6
t "a job's counts add its result lines; its kernel from TARGET.env; its wall time" \
	test "$(cols "QEMU: amd64-6.1")" = "6.1.0-57-amd64 15 1 1 120"
t "the second run replaced the row of the job it ran (lint: 4 passed)" \
	test "$(cols lint)" = "- 4 0 0 9"
t "the first run's crashed lint had counted one failure" \
	sh -c 'grep -F "| lint | " "$1" | grep -q " | - | 0 | 1 | 0 | 7 | "' sh "$W/first.md"
t "the rows of jobs the second run did not run are kept as they were" \
	sh -c 'for j in "QEMU: amd64-6.1" "host unit tests"; do
		test "$(grep -F "| $j | " "$1")" = "$(grep -F "| $j | " "$2")" || exit 1; done' \
	sh "$W/first.md" "$W/results.md"
t "one row per job, between the markers, with the run's date and tree" \
	sh -c 'test "$(sed -n "/^<!-- results:/,/^<!-- end/p" "$1" | grep -v "^| job |" | grep -c "^| [a-zQ]")" = 3 &&
		row=$(grep -F "| lint | " "$1") && echo "$row" | grep -Eq " \| [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5} \| ([0-9a-f]{12}(-dirty)?|-) \|$"' \
	sh "$W/results.md"
t "the run wrote no error" test ! -s "$W/out"
t_done
