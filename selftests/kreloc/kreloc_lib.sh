# SPDX-License-Identifier: GPL-2.0
# Shell helpers for the kreloc selftests (kselftest conventions: KTAP, 4 = skip).
ksft_skip() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}
