#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# groundtruth.sh ENV: print the path of the kernel's link-time symbol map,
# derived once and cached.  Debian's /boot/System.map is a placeholder (the
# real one is in the ~860 MB -dbg package), but on x86_64 and arm64 a boot
# with nokaslr runs at the link addresses, so that boot's /proc/kallsyms
# (core kernel lines) is the System.map.  A kernel built here has a real one.
#
# arm64: the same boot must say so itself.  Its VMCOREINFO (the note crash
# dump tools read, in /proc/kcore) must have KERNELOFFSET=0 and SYMBOL(_stext)
# equal to kallsyms' _stext.  arm64's kallsyms has no _text without
# KALLSYMS_ALL, so the map starts its text at _stext.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1"
# shellcheck disable=SC1090
. "$envf"
if [ -n "${SYSTEM_MAP:-}" ] && [ -s "$SYSTEM_MAP" ]; then
	echo "$SYSTEM_MAP"
	exit 0
fi
case "$UNAME_M" in
x86_64 | aarch64) ;;
*) die "no System.map for $KVER and nokaslr is not link-time on $UNAME_M" ;;
esac
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
# VMCOREINFO, from the note in /proc/kcore's first pages.
head -c 65536 /proc/kcore | tr '\0' '\n' |
	grep -E '^(KERNELOFFSET|SYMBOL\(_stext\))=' | sed 's/^/VMCOREINFO /' > /dev/console
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
	if [ "$UNAME_M" = aarch64 ]; then
		koff=$(tr -d '\r' < "$out.log" | sed -n 's/^VMCOREINFO KERNELOFFSET=//p')
		kst=$(tr -d '\r' < "$out.log" | sed -n 's/^VMCOREINFO SYMBOL(_stext)=//p')
		mst=$(awk '$3 == "_stext" {print $1}' "$out.tmp")
		[ "$koff" = 0 ] || die "the nokaslr boot's VMCOREINFO says KERNELOFFSET=${koff:-none}"
		[ -n "$mst" ] && [ "$kst" = "$mst" ] ||
			die "VMCOREINFO _stext ${kst:-none} is not kallsyms' _stext ${mst:-none}"
	else
		grep -q ' _text$' "$out.tmp" || die "no _text in the nokaslr kallsyms dump"
	fi
	rm -f "$raw"
	mv "$out.tmp" "$out"
fi
echo "$out"
