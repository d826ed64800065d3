#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-tools.sh ENV RESULTS: the kreloc CLI against a real kernel (x86_64
# with libelf in the VM; ppc64 and arm64 with a static cross build without
# it).
#   Boot 1 (KASLR): load kreloc, vfat and bridge; `kreloc snapshot`; save
#   /proc/kallsyms.  Boot 2 (another KASLR offset): `kreloc probe` places a
#   probe on a syscall path function and one on a function of the dummy
#   module, each fires and is removed; a blacklisted function and a freed
#   __init function are refused.  Then, on the host, 10,000 addresses from
#   boot 1's kallsyms (core and modules) are resolved offline with boot 1's
#   snapshot and must all be right, and vfat's text must have moved between
#   the boots by another amount than the core kernel: module addresses can
#   only come from the per-module records.
# Appends "passed failed skipped" to RESULTS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
need_pkgs libelf-dev zlib1g-dev kmod
map=$("$top/rig/groundtruth.sh" "$envf")
work="$CACHE/run/tools-$KVER"
rm -rf "$work"
mkdir -p "$work/stage/kreloc"
make -s -C "$top/tools/cli" kreloc >&2
if [ "$KARCH" = x86 ]; then
	# As a Debian user would: Debian's System.map is a placeholder.
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
	make -s -C "$top/tools/cli" kreloc-static >&2
	cp "$top/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
else
	# ppc64: the vmlinux alone leaves init.text unknown; the map has it.
	# arm64: the Image holds no vmlinux.
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" LINKED_SOURCE=system.map SYSTEM_MAP="$map"
	# In a copy: runs for other targets may build theirs at the same time.
	mkdir -p "$work/src"
	cp -r "$top/tools" "$work/src/"
	rm -f "$work/src/tools/cli/kreloc-static-nolibelf"
	make -s -C "$work/src/tools/cli" kreloc-static-nolibelf CROSS_COMPILE="$CROSS_COMPILE" >&2
	mv "$work/src/tools/cli/kreloc-static-nolibelf" "$work/stage/kreloc/kreloc"
fi
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
modroot=$(mod_root "${MODDIR:-}")
have_mods=0
if [ -n "$modroot" ] && [ -n "$(find "$modroot/lib/modules/$KVER/kernel" -name 'vfat.ko*' 2>/dev/null)" ]; then
	"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" vfat bridge dummy
	have_mods=1
fi
gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$top/tools" -o "$work/addrcheck" \
	"$top/tests/tools/addrcheck.c" "$top/tools/sysmap.c"

# Boot 1: the snapshot and the ground truth.
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
insmod ./kreloc.ko
modprobe vfat && modprobe bridge
./kreloc snapshot -o /tmp/snap && echo "SNAPSHOT-BEGIN" && cat /tmp/snap && echo "SNAPSHOT-END"
echo "KALLSYMS-BEGIN"; cat /proc/kallsyms; echo "KALLSYMS-END"
echo "VFAT-TEXT $(cat /sys/module/vfat/sections/.text 2>/dev/null)"
EOT
chmod +x "$work/stage/kreloc/job"
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console1.log" "" "$work/out1.log"
tr -d '\r' < "$work/out1.log" | sed -n '/^SNAPSHOT-BEGIN$/,/^SNAPSHOT-END$/p' | sed '1d;$d' > "$work/snap"
tr -d '\r' < "$work/out1.log" | sed -n '/^KALLSYMS-BEGIN$/,/^KALLSYMS-END$/p' | sed '1d;$d' > "$work/kallsyms1"

# Boot 2: probes.
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
insmod ./kreloc.ko
modprobe vfat
modprobe dummy
echo "KRELOC-TEST-BEGIN tools-probe"
echo "TAP version 13"
echo "1..9"
t=/sys/kernel/tracing
if ./kreloc probe --group kreloc --event openat do_sys_openat2 > /tmp/p.out 2>&1; then
	echo "ok 1 kreloc probe do_sys_openat2 registers"
else
	echo "not ok 1 kreloc probe do_sys_openat2 registers"
fi
sed 's/^/# /' /tmp/p.out
grep kreloc/openat $t/kprobe_events | sed 's/^/# kprobe_events: /'
echo 1 > $t/events/kreloc/openat/enable
cat /proc/version /proc/cmdline > /dev/null
echo 0 > $t/events/kreloc/openat/enable
hits=$(grep -c 'openat:' $t/trace)
[ "$hits" -ge 2 ] && echo "ok 2 the probe fires ($hits hits)" || echo "not ok 2 the probe fires ($hits hits)"
./kreloc probe --remove kreloc/openat && ! grep -q kreloc/openat $t/kprobe_events &&
	echo "ok 3 kreloc probe --remove kreloc/openat" || echo "not ok 3 kreloc probe --remove kreloc/openat"
bl=$(awk '{print $2}' /sys/kernel/debug/kprobes/blacklist | grep -v '^_' | head -1)
./kreloc probe --dry-run "$bl" > /tmp/b.out 2>&1; rc=$?
sed 's/^/# /' /tmp/b.out
[ $rc -eq 3 ] && grep -qi blacklist /tmp/b.out &&
	echo "ok 4 blacklisted $bl refused with the reason (exit 3)" ||
	echo "not ok 4 blacklisted $bl refused with the reason (exit $rc)"
./kreloc probe --dry-run start_kernel > /tmp/i.out 2>&1; rc=$?
sed 's/^/# /' /tmp/i.out
[ $rc -eq 3 ] && grep -qi 'init' /tmp/i.out &&
	echo "ok 5 freed __init start_kernel refused with the reason (exit 3)" ||
	echo "not ok 5 freed __init start_kernel refused with the reason (exit $rc)"
# A module function: reading /proc/net/dev asks every device for its stats.
if [ ! -d /sys/module/dummy ]; then
	for i in 6 7 8; do echo "ok $i module probe # SKIP no dummy module"; done
else
	if ./kreloc probe --group kreloc --event dstats dummy:dummy_get_stats64 > /tmp/m.out 2>&1; then
		echo "ok 6 kreloc probe dummy:dummy_get_stats64 registers"
	else
		echo "not ok 6 kreloc probe dummy:dummy_get_stats64 registers"
	fi
	sed 's/^/# /' /tmp/m.out
	grep kreloc/dstats $t/kprobe_events | sed 's/^/# kprobe_events: /'
	echo > $t/trace
	echo 1 > $t/events/kreloc/dstats/enable
	cat /proc/net/dev /proc/net/dev > /dev/null
	echo 0 > $t/events/kreloc/dstats/enable
	hits=$(grep -c 'dstats:' $t/trace)
	[ "$hits" -ge 2 ] && echo "ok 7 the module probe fires ($hits hits)" ||
		echo "not ok 7 the module probe fires ($hits hits)"
	./kreloc probe --remove kreloc/dstats && ! grep -q kreloc/dstats $t/kprobe_events &&
		echo "ok 8 kreloc probe --remove kreloc/dstats" ||
		echo "not ok 8 kreloc probe --remove kreloc/dstats"
fi
# dummy, loaded after vfat's init memory was freed, may sit in it (seen on
# arm64): lookup must still name dummy's live text, not vfat's init.text.
if [ -d /sys/module/dummy ]; then
	grep '^region init.text' /sys/kernel/debug/kreloc/module/vfat | sed 's/^/# vfat /'
	echo "# dummy .text $(cat /sys/module/dummy/sections/.text)"
	# The answer belongs to the open file: write and read on one.
	a=$(sh -c 'printf %s dummy:dummy_get_stats64 >&0 && cat' \
		<> /sys/kernel/debug/kreloc/lookup 2>&1)
	echo "# lookup: $a"
	[ "$(echo "$a" | awk '{print $4, $5}')" = "dummy text" ] &&
		echo "ok 9 lookup dummy:dummy_get_stats64: MODULE dummy, TYPE text" ||
		echo "not ok 9 lookup dummy:dummy_get_stats64: MODULE dummy, TYPE text"
else
	echo "ok 9 lookup of a module function # SKIP no dummy module"
fi
echo "KRELOC-TEST-END tools-probe rc=0"
grep -E '^KERNELOFFSET=' /sys/kernel/debug/kreloc/info | sed 's/^/# boot 2 /'
echo "# boot 2 VFAT-TEXT $(cat /sys/module/vfat/sections/.text 2>/dev/null)"
EOT
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console2.log" "" "$work/out2.log"

# Host: resolve boot 1's addresses offline.
{
	echo "KRELOC-TEST-BEGIN tools-resolve"
	echo "TAP version 13"
	echo "1..4"
	n=$(wc -l < "$work/kallsyms1")
	off1=$(sed -n 's/^KERNELOFFSET //p' "$work/snap")
	off2=$(tr -d '\r' < "$work/out2.log" | sed -n 's/^# boot 2 KERNELOFFSET=//p')
	echo "# boot 1 KERNELOFFSET $off1, boot 2 $off2; $n kallsyms lines; snapshot $(wc -c < "$work/snap") bytes"
	if [ -s "$work/snap" ] && [ "$n" -gt 10000 ] &&
	   { [ $have_mods = 0 ] || grep -q '\[bridge\]' "$work/kallsyms1"; }; then
		echo "ok 1 boot 1 gave a snapshot and its /proc/kallsyms (module symbols: $have_mods)"
	else
		echo "not ok 1 boot 1 gave a snapshot and its /proc/kallsyms (module symbols: $have_mods)"
	fi
	"$work/addrcheck" gen "$work/kallsyms1" 10000 42 > "$work/addrs"
	"$top/tools/cli/kreloc" resolve --snapshot "$work/snap" --system-map "$map" \
		--modules-dir "$work/stage" - < "$work/addrs" > "$work/resolved" || true
	if res=$("$work/addrcheck" check "$work/kallsyms1" "$work/resolved" 2>&1); then
		echo "# $res" | head -8
		echo "ok 2 10000 addresses of boot 1 (core and modules) resolve offline, all right"
	else
		echo "$res" | head -8 | sed 's/^/# /'
		echo "not ok 2 10000 addresses of boot 1 (core and modules) resolve offline, all right"
	fi
	if [ "$KARCH" = powerpc ]; then
		echo "ok 3 the second boot had another KASLR offset # SKIP ppc64 runs at offset 0 ($off1, $off2)"
	elif [ -n "$off1" ] && [ -n "$off2" ] && [ "$off1" != "$off2" ]; then
		echo "ok 3 the second boot had another KASLR offset"
	else
		echo "not ok 3 the second boot had another KASLR offset"
	fi
	# Module placement is randomised apart from the image (arm64
	# module_alloc_base, x86 module_load_offset): if vfat moved by another
	# amount than the core, the right answers of check 2 for module
	# addresses came from the snapshot's module records.
	v1=$(tr -d '\r' < "$work/out1.log" | sed -n 's/^VFAT-TEXT //p')
	v2=$(tr -d '\r' < "$work/out2.log" | sed -n 's/^# boot 2 VFAT-TEXT //p')
	echo "# vfat .text: boot 1 $v1, boot 2 $v2"
	if [ $have_mods = 0 ] || [ "$off1" = "$off2" ]; then
		echo "ok 4 modules move apart from the core image # SKIP no modules, or one offset"
	elif [ -n "$v1" ] && [ -n "$v2" ] && [ -n "$off1" ] && [ -n "$off2" ] &&
	     [ $(( v1 - v2 )) -ne $(( off1 - off2 )) ]; then
		echo "ok 4 modules move apart from the core image (vfat by $(printf '%#x' $(( v1 - v2 ))), the core by $(printf '%#x' $(( off1 - off2 ))))"
	else
		echo "not ok 4 modules move apart from the core image"
	fi
	echo "KRELOC-TEST-END tools-resolve rc=0"
} > "$work/host.log"
tr -d '\r' < "$work/out2.log" >> "$work/host.log"
cat "$work/console1.log" "$work/console2.log" > "$work/console.log"
KRELOC_TAG="$UNAME_M $KVER" "$top/rig/ktap.sh" "$work/host.log" "$work/console.log" "$results"
