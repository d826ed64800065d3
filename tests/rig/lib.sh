# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The host rig tests' KTAP helpers (tests/rig/test_*.sh).  Source, do not run.
#
#   t_plan NAME N    a block's header: KRELOC-TEST-BEGIN NAME, its plan
#   t DESC CMD...    one result, from CMD's exit status; on a failure the
#                    file T_DIAG_FILE names (if any) follows as diagnostics
#   t_done           the block's end line (rig/ktap.sh counts the results)

n=0
t_plan() {
	T_BLOCK="$1" n=0
	printf 'KRELOC-TEST-BEGIN %s\nTAP version 13\n1..%s\n' "$1" "$2"
}
t() {
	local desc="$1"
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		[ -z "${T_DIAG_FILE:-}" ] || sed 's/^/# /' "$T_DIAG_FILE"
	fi
}
t_done() { echo "KRELOC-TEST-END $T_BLOCK rc=0"; }
