#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_jobs.sh: the job pool of `make check` (rig/jobs.sh) on fake jobs, as
# one KTAP block: two jobs run at once, output comes in declaration order
# whatever order the jobs end in, and a job that crashes or leaves no
# result counts as failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/rig/lib.sh"
. "$top/rig/jobs.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-jobs.XXXXXX")
trap 'rm -rf "$W"' EXIT

# meet A B: succeed only if the job waiting as B runs while this one does.
meet() {
	local i
	touch "$W/here.$1"
	for i in $(seq 1 300); do
		[ -e "$W/here.$2" ] && { echo "met $2"; echo "1 0 0" >> "$RESULTS"; return 0; }
		sleep 0.1
	done
	echo "never met $2"
	echo "0 1 0" >> "$RESULTS"
}
late() { sleep 1; echo "late job done"; echo "1 0 0" >> "$RESULTS"; }
early() { echo "early job done"; echo "2 0 1" >> "$RESULTS"; }
crash() { echo "partial output"; exit 3; }
silent() { :; }

job "meet-a" meet a b
job "meet-b" meet b a
job "late" late
job "early" early
job "crash" crash
job "silent" silent
run_jobs 2 "$W" > "$W/out" 2> "$W/err"

t_plan jobs 5
sed 's/^/# /' "$W/out"
t "two jobs run at once (each saw the other running)" \
	test "$(grep -c '^met ' "$W/out")" -eq 2
t "output in declaration order, whatever order the jobs ended in" \
	test "$(grep -o '^== [a-z-]*' "$W/out" | tr '\n' ' ')" = \
	"== meet-a == meet-b == late == early == crash == silent "
t "each job's output follows its own header" \
	awk '/^== late/ { getline; ok = ($0 == "late job done") } END { exit !ok }' "$W/out"
t "a job that crashes or leaves no result counts as failed, with the reason" \
	sh -c 'grep -q "^not ok - crash: the job ended with exit code 3 and no result" "$1" &&
		grep -q "^not ok - silent: the job ended with exit code 0 and no result" "$1"' sh "$W/out"
t "the results add up: 5 passed, 2 failed, 1 skipped" \
	test "$(awk '{p += $1; f += $2; s += $3} END {print p, f, s}' "$W/results")" = "5 2 1"
t_done
