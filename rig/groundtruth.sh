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
# KALLSYMS_ALL, so the map starts its text at _stext.  Without KALLSYMS_ALL
# the map also lacks the head of the module list ("modules", which kreloc
# needs to scan the modules loaded before it): with dummy the only module
# loaded, dummy's list.next and list.prev both point at it, read from
# /proc/kcore (rig/kcore-peek.c) at dummy's .gnu.linkonce.this_module
# (struct module: state, then list).  The map gets "ADDRESS d modules".
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
# One derivation per release, however many jobs ask for it at once.
exec 9> "$out.lock"
flock -w 1800 9 || die "cannot lock $out"
# An arm64 map made before it got the module list head is made again.
if [ "$UNAME_M" = aarch64 ] && [ -s "$out" ] && ! grep -q ' [dDbB] modules$' "$out"; then
	rm -f "$out"
fi
if [ ! -s "$out" ]; then
	stage=$(mktemp -d "$CACHE/tmp/gt.XXXXXX")
	mkdir -p "$stage/kreloc"
	modroot=$(mod_root "${MODDIR:-}")
	if [ "$UNAME_M" = aarch64 ] && [ -n "$modroot" ]; then
		"${CROSS_COMPILE:-}gcc" -std=c11 -O2 -Wall -Wextra -Werror -static \
			-o "$stage/kreloc/kcore-peek" "$(dirname "$0")/kcore-peek.c"
		"$(dirname "$0")/stage-modules.sh" "$modroot" "$KVER" "$stage" dummy
	fi
	cat > "$stage/kreloc/job" <<'EOT'
#!/bin/sh
echo 0 > /proc/sys/kernel/kptr_restrict
# Compressed (base64: the port is a tty): the emulated UARTs move about
# 125 KB/s, and a 7.x map is 11 MB.
gzip -1 < /proc/kallsyms | base64
echo "KALLSYMS-LINES $(wc -l < /proc/kallsyms)" > /dev/console
# VMCOREINFO, from the note in /proc/kcore's first pages.
head -c 65536 /proc/kcore | tr '\0' '\n' |
	grep -E '^(KERNELOFFSET|SYMBOL\(_stext\))=' | sed 's/^/VMCOREINFO /' > /dev/console
# The module list head, where kallsyms has no data symbols (see above).
if [ -x ./kcore-peek ] && ! grep -q ' [dDbB] modules$' /proc/kallsyms && modprobe dummy > /dev/null 2>&1; then
	m=$(cat /sys/module/dummy/sections/.gnu.linkonce.this_module)
	echo "MODLIST $(./kcore-peek "$m" 3 | tr '\n' ' ')" > /dev/console
fi
EOT
	chmod +x "$stage/kreloc/job"
	raw="$out.raw"
	log "deriving the link-time map of $KVER from a nokaslr boot"
	"$(dirname "$0")/run-vm.sh" "$envf" "$stage" "$out.log" "nokaslr" "$raw"
	rm -rf "$stage"
	tr -d '\r' < "$raw" | base64 -d | gzip -dc > "$raw.txt" ||
		die "the kallsyms dump of the nokaslr boot is cut short (see $out.log)"
	mv "$raw.txt" "$raw"
	# Core kernel only: module symbols carry a [module] suffix.
	awk 'NF == 3' "$raw" > "$out.tmp"
	want=$(sed -n 's/.*KALLSYMS-LINES \([0-9]*\).*/\1/p' "$out.log" | tr -d '\r')
	got=$(wc -l < "$raw")
	[ -n "$want" ] && [ "$got" -ge "$want" ] || die "kallsyms dump truncated ($got of $want lines)"
	if [ "$UNAME_M" = aarch64 ]; then
		koff=$(tr -d '\r' < "$out.log" | sed -n 's/^VMCOREINFO KERNELOFFSET=//p')
		kst=$(tr -d '\r' < "$out.log" | sed -n 's/^VMCOREINFO SYMBOL(_stext)=//p')
		mst=$(awk '$3 == "_stext" {print $1}' "$out.tmp")
		[ "$koff" = 0 ] || die "the nokaslr boot's VMCOREINFO says KERNELOFFSET=${koff:-none}"
		[ -n "$mst" ] && [ "$kst" = "$mst" ] ||
			die "VMCOREINFO _stext ${kst:-none} is not kallsyms' _stext ${mst:-none}"
		if ! grep -q ' [dDbB] modules$' "$out.tmp"; then
			read -r _ next prev < <(tr -d '\r' < "$out.log" | sed -n 's/^MODLIST //p') || true
			eit=$(awk '$3 == "_einittext" {print $1}' "$out.tmp")
			# The head is kernel data (after init on arm64), and the
			# only module's both neighbours.
			[ -n "${next:-}" ] && [ "$next" = "${prev:-}" ] && [ -n "$eit" ] &&
				[ $(( next - 0x$eit )) -gt 0 ] ||
				die "no module list head from the nokaslr boot (next ${next:-none}, prev ${prev:-none})"
			{ cat "$out.tmp"; printf '%s d modules\n' "${next#0x}"; } |
				LC_ALL=C sort -s -k1,1 > "$out.tmp2"
			mv "$out.tmp2" "$out.tmp"
		fi
	else
		grep -q ' _text$' "$out.tmp" || die "no _text in the nokaslr kallsyms dump"
	fi
	rm -f "$raw"
	mv "$out.tmp" "$out"
fi
echo "$out"
