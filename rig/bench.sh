#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: boot each kernel of the matrix once and run
# bench/kreloc_bench in it (module load cost next to Debian's dummy.ko and
# next to kreloc's twin, a module of kreloc's objects with an empty ->init
# built the same way; core offsets vs /proc/kallsyms, the full map vs
# kallsyms + sysfs sections), with vfat and bridge loaded so there are
# modules to map.  Ends with the insmod ratios of every kernel, then the
# host's benches: kreloc resolve (tests/tools/bench.sh) and kreloc inject
# next to perf inject -b (bench/inject.sh).  Not part of `make check`: numbers are reported,
# never asserted.  Under QEMU TCG absolute times are slow; the ratios,
# measured side by side in one run, are what to read.
#   KRELOC_BENCH_TARGETS  default: the amd64 and arm64 targets of make check
#                         (tests/run-all.sh); an arm64 Image holds no
#                         vmlinux, so kreloc is built from the link-time map;
#                         "upstream" (opt-in) benches the kernel of the
#                         upstream target: a module's load and unload with
#                         no perf event, with a ksymbol one, and with one
#                         that records module memory (rig/upstream-bench.c)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"

need_pkgs build-essential cpio busybox-static qemu-system-x86 xz-utils zstd dwarves libelf-dev kmod
for t in ${KRELOC_BENCH_TARGETS:-amd64-5.10 amd64-6.1 amd64-6.12 amd64-6.12-deb13 amd64-7 arm64-6.1 arm64-6.12 arm64-7}; do
	envf="$CACHE/tmp/bench-$t.env"
	if [ "$t" = upstream ]; then
		"$top/rig/kernel-upstream.sh" > "$envf"
		"$top/rig/vm-upstream.sh" --bench "$envf"
		continue
	fi
	unset CROSS_COMPILE BUILD_ROOT
	"$top/rig/kernel-${t%%-*}.sh" "${t#*-}" > "$envf"
	# shellcheck disable=SC1090
	. "$envf"
	work="$CACHE/run/bench-$KVER"
	rm -rf "$work"
	mkdir -p "$work/stage/kreloc"
	if [ "$KARCH" = arm64 ]; then
		src=(LINKED_SOURCE=system.map SYSTEM_MAP="$("$top/rig/groundtruth.sh" "$envf")")
	else
		src=(VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent)
	fi
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" "${src[@]}"
	"$top/rig/build-kreloc.sh" "$envf" "$work/build-hooks" "${src[@]}" KRELOC_TEST_HOOKS=1
	"$top/rig/build-kreloc.sh" "$envf" "$work/build-twin" "${src[@]}" KRELOC_BENCH_TWIN=1
	cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
	# As DKMS installs it: without debug info.
	mkdir -p "$work/stage/kreloc/stripped" "$work/stage/kreloc/hooks" \
		"$work/stage/kreloc/twin" "$work/stage/kreloc/twin-stripped"
	"${CROSS_COMPILE:-}strip" -g -o "$work/stage/kreloc/stripped/kreloc.ko" "$work/build/kreloc.ko"
	cp "$work/build-hooks/kreloc.ko" "$work/stage/kreloc/hooks/"
	cp "$work/build-twin/kreloc.ko" "$work/stage/kreloc/twin/"
	"${CROSS_COMPILE:-}strip" -g -o "$work/stage/kreloc/twin-stripped/kreloc.ko" \
		"$work/build-twin/kreloc.ko"
	"${CROSS_COMPILE:-}gcc" -std=gnu11 -O2 -Wall -Wextra -Werror -static \
		-o "$work/stage/kreloc/kreloc_bench" "$top/bench/kreloc_bench.c"
	"$top/rig/stage-modules.sh" "$(mod_root "$MODDIR")" "$KVER" "$work/stage" dummy vfat bridge
	cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
modprobe vfat && modprobe bridge
./kreloc_bench ./kreloc.ko stripped/kreloc.ko hooks/kreloc.ko \
	"$(find /lib/modules -name dummy.ko | head -1)" twin/kreloc.ko twin-stripped/kreloc.ko
EOT
	chmod +x "$work/stage/kreloc/job"
	# 5.10 searches kallsyms linearly: its bench takes about 10 minutes.
	"$top/rig/run-vm.sh" --timeout 1500 "$envf" "$work/stage" "$work/console.log" "" "$work/output.log"
	echo "== $KVER ($UNAME_M, QEMU TCG)"
	tr -d '\r' < "$work/output.log" | grep '^BENCH' | tee "$work/bench.out"
	sed -n "s/^BENCH module load (insmod).*dummy \([0-9.]*\) ms; kreloc.ko ([0-9]* bytes) \([0-9.]*\) ms, \([0-9.]*x\) dummy; its twin.*) \([0-9.]*\) ms, \([0-9.]*x\) dummy; kreloc \([0-9.]*x\) its twin/$KVER: kreloc \2 ms, \3 dummy (\1 ms); twin \4 ms, \5 dummy; kreloc \6 its twin/p" \
		"$work/bench.out" >> "$CACHE/tmp/bench-summary.$$"
done
echo "== insmod kreloc.ko next to Debian's dummy.ko and to kreloc's twin, per kernel"
cat "$CACHE/tmp/bench-summary.$$" 2>/dev/null || true
rm -f "$CACHE/tmp/bench-summary.$$"

echo "== kreloc resolve (host), next to addr2line"
"$top/tests/tools/bench.sh"

# kreloc inject on the recordings rig/vm-inject.sh takes in a 6.1 guest (a
# run of make check leaves them; else one is made here, results ignored).
echo "== kreloc inject (host), next to perf inject -b"
ienv="$CACHE/tmp/bench-inject.env"
"$top/rig/kernel-amd64.sh" 6.1 > "$ienv"
iwork="$CACHE/run/inject-$(sed -n 's/^KVER=//p' "$ienv")"
[ -s "$iwork/guest/snapshot" ] || "$top/rig/vm-inject.sh" "$ienv" /dev/null > /dev/null 2>&1
"$top/bench/inject.sh" "$iwork/guest" "$iwork/mods"
