#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: fetch Debian bookworm's amd64 6.1 kernel, build kreloc for it
# the way a user would (Debian's /boot/System.map is a placeholder, so the
# link-time data comes from the vmlinux inside vmlinuz), boot it under QEMU
# with KASLR on, load kreloc, print info, sections and anchors, and compare
# them with /proc/kallsyms and the kernel's System.map.
#   KRELOC_DEMO_SERIES=6.12 to use the 6.12 kernel instead.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"

need_pkgs build-essential cpio busybox-static qemu-system-x86 xz-utils zstd dwarves libelf-dev bc
series="${KRELOC_DEMO_SERIES:-6.1}"
envf="$CACHE/tmp/demo-$series.env"
"$top/rig/kernel-amd64.sh" "$series" > "$envf"
# shellcheck disable=SC1090
. "$envf"
map=$("$top/rig/groundtruth.sh" "$envf")
work="$CACHE/run/demo-$KVER"
rm -rf "$work"
mkdir -p "$work/stage/kreloc"
log "building kreloc for $KVER (SYSTEM_MAP is Debian's placeholder, VMLINUZ the package's)"
"$top/rig/build-kreloc.sh" "$envf" "$work/build" \
	SYSTEM_MAP="$(dirname "$KIMAGE")/System.map-$KVER" VMLINUZ="$KIMAGE"
cp "$work/build/kreloc.ko" "$map" "$work/stage/kreloc/"
mv "$work/stage/kreloc/$(basename "$map")" "$work/stage/kreloc/System.map"
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
k=/sys/kernel/debug/kreloc
insmod ./kreloc.ko || exit 1
echo "== $k/info"; cat $k/info
echo; echo "== $k/sections"; cat $k/sections
echo; echo "== $k/anchors"; cat $k/anchors
ks() { awk -v s="$1" '$3 == s && NF == 3 {print "0x" $1; exit}' "$2"; }
echo; echo "== compared with /proc/kallsyms and System.map"
off=$(sed -n 's/^KERNELOFFSET=//p' $k/info)
kt=$(ks _text /proc/kallsyms); mt=$(ks _text System.map)
printf 'kallsyms _text %s - System.map _text %s = 0x%x; kreloc KERNELOFFSET=%s: %s\n' \
	"$kt" "$mt" $((kt - mt)) "$off" "$( [ $((kt - mt)) -eq $((off)) ] && echo MATCH || echo DIFFERENT)"
good=0 bad=0
while read -r sym linked runtime delta sec; do
	case "$sym" in \#*) continue ;; esac
	k=$(ks "$sym" /proc/kallsyms); m=$(ks "$sym" System.map)
	if [ "$k" = "" ] || [ $((k)) -ne $((runtime)) ] || [ $((m)) -ne $((linked)) ]; then
		echo "anchor $sym: kreloc $linked/$runtime, System.map $m, kallsyms $k: DIFFERENT"
		bad=$((bad + 1))
	else
		good=$((good + 1))
	fi
done < /sys/kernel/debug/kreloc/anchors
echo "anchors: $good match System.map and /proc/kallsyms exactly, $bad differ"
n=0 badsym=0
for s in $(awk '$2 ~ /^[Tt]$/ && NR % 97 == 0 {print $3}' System.map | head -200); do
	k=$(ks "$s" /proc/kallsyms); m=$(ks "$s" System.map)
	[ -n "$k" ] && [ -n "$m" ] || continue
	n=$((n + 1))
	[ $((m + off)) -eq $((k)) ] || badsym=$((badsym + 1))
done
echo "text symbols: $n sampled from System.map, $badsym differ from kallsyms after adding KERNELOFFSET"
rmmod kreloc
EOT
chmod +x "$work/stage/kreloc/job"
log "booting $KVER under QEMU (TCG, KASLR on)"
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/output.log"
tr -d '\r' < "$work/output.log"
