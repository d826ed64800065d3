#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_ktap.sh [KTAP_SH]: rig/ktap.sh counts every planned result once, as
# passed, failed or skipped.  Feeds it job outputs of each shape a real
# job can leave (a crash mid-block, a failure marked SKIP, a block that
# never ran...) and compares its "passed failed skipped" with the
# expected numbers.  Prints one KTAP block (rig-ktap; tests/rig/run.sh runs it).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ktap="${1:-$here/../../rig/ktap.sh}"
W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-ktap.XXXXXX")
trap 'rm -rf "$W"' EXIT
n=0 failed=0
res=()

# case NAME "P F S" [PLAN]: the output in $W/out (console $W/console) gives P F S.
case_() {
	local name="$1" want="$2" got
	: > "$W/results"
	KRELOC_PLAN="${3:-}" KRELOC_TAG=t "$ktap" "$W/out" "$W/console" "$W/results" > "$W/log" 2>&1
	got=$(cat "$W/results")
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		res+=("ok $n $name ($got)")
	else
		res+=("not ok $n $name: got '$got', want '$want'")
		while IFS= read -r l; do res+=("# $l"); done < "$W/log"
		failed=1
	fi
}
block() {	# block NAME RC LINES...: a whole framed block
	local name="$1" rc="$2"
	shift 2
	echo "KRELOC-TEST-BEGIN $name"
	printf '%s\n' "$@"
	echo "KRELOC-TEST-END $name rc=$rc"
}
: > "$W/console"

block a 0 "TAP version 13" "1..3" "ok 1 x" "ok 2 y" "ok 3 z # SKIP no z" > "$W/out"
case_ "plain block: passes and a skip" "2 0 1"

block a 1 "TAP version 13" "1..2" "ok 1 x" "not ok 2 y # SKIP not really" > "$W/out"
case_ "'not ok ... # SKIP' is a failure, never a skip" "1 1 0"

{ echo "KRELOC-TEST-BEGIN a"; printf '%s\n' "TAP version 13" "1..5" "ok 1 x" "ok 2 y"; } > "$W/out"
case_ "a block that crashed after 2 of 5 results: the 3 others failed" "2 3 0"

block a 0 "TAP version 13" "1..4" "ok 1 x" > "$W/out"
case_ "a block that ended after 1 of 4 results: the 3 others failed" "1 3 0"

block a 0 "TAP version 13" "ok 1 x" "ok 2 y" "1..2" > "$W/out"
case_ "a plan at the end of the block counts" "2 0 0"

block a 0 "TAP version 13" "ok 1 x" > "$W/out"
case_ "a block without a plan: one failure" "1 1 0"

block a 2 "TAP version 13" "1..1" "ok 1 x" > "$W/out"
case_ "exit code 2 with every result ok: one failure" "1 1 0"

block a 4 "TAP version 13" "1..0 # SKIP no modules" > "$W/out"
case_ "1..0 # SKIP: one skip" "0 0 1"

block a 0 "TAP version 13" "1..1" "ok 1 x" > "$W/out"
case_ "planned blocks that never began fail (b: 1, c: 4)" "1 5 0" "a b c:4"

{ echo "KRELOC-TEST-PLAN a b"; block a 0 "TAP version 13" "1..1" "ok 1 x"; } > "$W/out"
case_ "KRELOC-TEST-PLAN in the output: b never began" "1 1 0"

block a 0 "TAP version 13" "1..1" "ok 1 x" > "$W/out"
echo "BUG: kernel NULL pointer dereference" > "$W/console"
case_ "an Oops on the console: one failure" "1 1 0"
: > "$W/console"

: > "$W/out"
case_ "no output at all: one failure" "0 1 0"

echo "KRELOC-TEST-BEGIN rig-ktap"
echo "TAP version 13"
echo "1..$n"
printf '%s\n' "${res[@]}"
echo "KRELOC-TEST-END rig-ktap rc=$failed"
exit $failed
