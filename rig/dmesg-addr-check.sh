#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dmesg-addr-check.sh LOG [OFFSET...]: exit 1, listing the lines, if a line
# kreloc printed ("kreloc: ..." in a console log or dmesg) holds a kernel
# address or one of the given KASLR offsets (hex, with or without 0x, or
# decimal).  Addresses: 16 hex digits (a pointer, raw or hashed) or 0x and
# 8 or more hex digits.  Exit 0 if no kreloc line does.
set -uo pipefail

log="$1"
shift
[ -r "$log" ] || { echo "dmesg-addr-check: cannot read $log" >&2; exit 2; }
pat='(^|[^0-9A-Fa-fx])(0x)?[0-9A-Fa-f]{16}([^0-9A-Fa-f]|$)|0x[0-9A-Fa-f]{8,}'
for off in "$@"; do
	h=${off#0x}
	h=${h#0X}
	h=$(printf '%x' "$((16#$h))")
	[ "$h" = 0 ] && continue	# offset 0 (nokaslr, ppc64) is no secret
	pat+="|(^|[^0-9A-Fa-fx])(0x)?0*$h([^0-9A-Fa-f]|\$)|(^|[^0-9])$((16#$h))([^0-9]|\$)"
done
lines=$(tr -d '\r' < "$log" | grep -nE '(^|[^A-Za-z0-9_])kreloc: ' | grep -iE "$pat")
if [ -n "$lines" ]; then
	printf '%s\n' "$lines" | head -20
	exit 1
fi
exit 0
