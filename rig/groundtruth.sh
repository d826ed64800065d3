#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# groundtruth.sh ENV: print the path of the kernel's link-time symbol map,
# derived once and cached.  Debian's /boot/System.map is a placeholder (the
# real one is in the ~860 MB -dbg package), but on x86_64 a boot with
# nokaslr runs at the link addresses, so that boot's /proc/kallsyms (core
# kernel lines) is the System.map.  A kernel built here has a real one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1"
# shellcheck disable=SC1090
. "$envf"
if [ -n "${SYSTEM_MAP:-}" ] && [ -s "$SYSTEM_MAP" ]; then
	echo "$SYSTEM_MAP"
	exit 0
fi
[ "$UNAME_M" = x86_64 ] || die "no System.map for $KVER and nokaslr is not link-time on $UNAME_M"
# One map per kernel release, wherever the env file was copied to.
mkdir -p "$CACHE/maps"
out="$CACHE/maps/$KVER.System.map"
if [ ! -s "$out" ]; then
	stage=$(mktemp -d "$CACHE/tmp/gt.XXXXXX")
	mkdir -p "$stage/kreloc"
	cat > "$stage/kreloc/job" <<'EOT'
#!/bin/sh
echo 0 > /proc/sys/kernel/kptr_restrict
cat /proc/kallsyms
echo "KALLSYMS-LINES $(wc -l < /proc/kallsyms)" > /dev/console
EOT
	chmod +x "$stage/kreloc/job"
	raw="$out.raw"
	log "deriving the link-time map of $KVER from a nokaslr boot"
	"$(dirname "$0")/run-vm.sh" "$envf" "$stage" "$out.log" "nokaslr" "$raw"
	rm -rf "$stage"
	# Core kernel only: module symbols carry a [module] suffix.
	tr -d '\r' < "$raw" | awk 'NF == 3' > "$out.tmp"
	want=$(sed -n 's/.*KALLSYMS-LINES \([0-9]*\).*/\1/p' "$out.log" | tr -d '\r')
	got=$(tr -d '\r' < "$raw" | wc -l)
	[ -n "$want" ] && [ "$got" -ge "$want" ] || die "kallsyms dump truncated ($got of $want lines)"
	grep -q ' _text$' "$out.tmp" || die "no _text in the nokaslr kallsyms dump"
	rm -f "$raw"
	mv "$out.tmp" "$out"
fi
echo "$out"
