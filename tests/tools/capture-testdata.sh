#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# capture-testdata.sh OUTDIR [OLD_KRELOC]: record the host CLI tests' data
# from a real kernel, once.  Boots the rig's newest Debian amd64 6.1 kernel
# (KASLR on) with kreloc built from its vmlinuz, loads vfat (with fat),
# loads and unloads dummy (a history record from a real unload, the newest
# record in its address range), and saves:
#   debugfs/          every file of /sys/kernel/debug/kreloc, as read
#   kallsyms.xz       /proc/kallsyms of that boot, its text symbols and
#                     section markers (the ground truth)
#   blacklist         /sys/kernel/debug/kprobes/blacklist
#   notes/NAME        /sys/module/NAME/notes/.note.gnu.build-id (hex)
#   sections/NAME     /sys/module/NAME/sections/* as "NAME ADDRESS"
#   snapshot-v1       the snapshot OLD_KRELOC (a static kreloc of snapshot
#                     format 1) wrote in that boot, if given
#   modules/...ko.xz  the .ko files those modules were loaded from
#   CAPTURE           kernel, date and how
# The tests read this directory; nothing in it is made up.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/rig/lib.sh"

out="$1" old="${2:-}"
envf="$CACHE/tmp/capture-cli.env"
"$top/rig/kernel-amd64.sh" 6.1 > "$envf"
# shellcheck disable=SC1090
. "$envf"
work="$CACHE/run/cli-capture"
rm -rf "$work"
mkdir -p "$work/stage/kreloc"
"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
[ -n "$old" ] && cp "$old" "$work/stage/kreloc/kreloc-v1"
modroot=$(mod_root "$MODDIR")
"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" dummy vfat

cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
emit() { echo "FILE-BEGIN $1"; cat "$2"; echo "FILE-END $1"; }
insmod ./kreloc.ko
modprobe vfat
modprobe dummy && rmmod dummy
d=/sys/kernel/debug/kreloc
if [ -x ./kreloc-v1 ]; then
	# The format-1 CLI rejects the BUILD_ID column of modules (it takes no
	# extra column): give it a copy of the files without it.
	./kreloc-v1 snapshot > /dev/null 2> /tmp/v1.err
	emit v1-on-live-debugfs.err /tmp/v1.err
	mkdir -p /tmp/v1/sys/kernel/debug /tmp/v1/proc
	cp -r $d /tmp/v1/sys/kernel/debug/
	awk '/^#/ {print; next} {print $1, $2, $3, $4, $5, $6}' $d/modules > /tmp/v1/sys/kernel/debug/kreloc/modules
	./kreloc-v1 --root /tmp/v1 snapshot -o /tmp/snap.v1 && emit snapshot-v1 /tmp/snap.v1
fi
for f in info sections anchors modules; do emit "debugfs/$f" "$d/$f"; done
for f in "$d"/module/*; do emit "debugfs/module/${f##*/}" "$f"; done
for m in /sys/module/*/notes/.note.gnu.build-id; do
	n=${m#/sys/module/}; n=${n%%/*}
	echo "FILE-BEGIN notes/$n"; od -An -v -tx1 "$m" | tr -d ' \n'; echo; echo "FILE-END notes/$n"
done
for m in fat vfat; do
	echo "FILE-BEGIN sections/$m"
	for s in /sys/module/$m/sections/.[!.]* /sys/module/$m/sections/*; do
		[ -f "$s" ] && echo "${s##*/} $(cat "$s")"
	done
	echo "FILE-END sections/$m"
done
emit blacklist /sys/kernel/debug/kprobes/blacklist
emit kallsyms /proc/kallsyms
EOT
chmod +x "$work/stage/kreloc/job"
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
tr -d '\r' < "$work/out.log" | awk -v dir="$out.tmp" '
	/^FILE-BEGIN / { f = dir "/" $2; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); printf "" > f; next }
	/^FILE-END / { close(f); f = ""; next }
	f != "" { print >> f }'
# Text symbols (what the tests resolve and probe) and the section markers:
# about a third of the whole, 360 KB compressed.
awk '$2 ~ /^[tTwW]$/ || $3 ~ /^(_text|_stext|_etext|_sinittext|_einittext|__start_rodata|__end_rodata|_sdata|_edata|__bss_start|__bss_stop)$/' \
	"$out.tmp/kallsyms" | xz -9e > "$out.tmp/kallsyms.xz"
rm "$out.tmp/kallsyms"
mkdir -p "$out.tmp/modules"
for m in dummy fat vfat; do
	ko=$(find "$modroot/lib/modules/$KVER/kernel" -name "$m.ko*" | head -1)
	case "$ko" in
	*.xz) cp "$ko" "$out.tmp/modules/$m.ko.xz" ;;
	*) xz -9e -c "$ko" > "$out.tmp/modules/$m.ko.xz" ;;
	esac
done
{
	echo "Captured by tests/tools/capture-testdata.sh on $(date -u +%Y-%m-%d)"
	echo "kernel: Debian $KVER ($(basename "$KIMAGE")), QEMU TCG, KASLR on"
	echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the vmlinuz"
	echo "job: insmod kreloc.ko; modprobe vfat; modprobe dummy; rmmod dummy"
	[ -n "$old" ] && echo "snapshot-v1: written in that boot by the kreloc CLI of snapshot format 1, from" &&
		echo "  a copy of the debugfs files without the modules BUILD_ID column, which it" &&
		echo "  rejects (v1-on-live-debugfs.err)"
} > "$out.tmp/CAPTURE"
rm -rf "$out"
mv "$out.tmp" "$out"
log "test data in $out"
