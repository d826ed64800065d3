#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-examples.sh ENV RESULTS: the examples of README.md and the man pages
# that need the live kernel, run as they are written in one boot (KASLR
# on) with kreloc, vfat and the static CLI as `kreloc` on PATH.  The
# commands are read from the files now (tests/tools/examples.py guest:
# those that read only the live kernel, the staged System.map and
# modules/, and what an earlier command of their block wrote); each block
# runs in a directory of its own, in order.  An example passes when it
# exits 0 and prints something (or writes its -o file).  Appends "passed
# failed skipped" to RESULTS.  The host runs the rest (tests/tools/
# test_examples.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
need_pkgs libelf-dev zlib1g-dev kmod python3
map=$("$top/rig/groundtruth.sh" "$envf")
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}examples-$KVER"
rm -rf "$work"
mkdir -p "$work/stage/kreloc/modules" "$work/src"

if [ "$KARCH" = x86 ]; then
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
else
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" LINKED_SOURCE=system.map SYSTEM_MAP="$map"
fi
cp -r "$top/tools" "$top/lib" "$work/src/"
make -s -C "$work/src/tools/cli" clean >/dev/null
make -s -C "$work/src/tools/cli" kreloc-static ${CROSS_COMPILE:+CROSS_COMPILE="$CROSS_COMPILE"} >&2
cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
cp "$map" "$work/stage/kreloc/System.map"
modroot=$(mod_root "${MODDIR:-}")
[ -n "$modroot" ] && "$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" vfat
# the .ko files the examples' --modules-dir names, as the guest loads them
find "$work/stage/lib/modules/$KVER" -name '*.ko*' -exec cp {} "$work/stage/kreloc/modules/" \; 2>/dev/null || true

python3 "$top/tests/tools/examples.py" guest "$top/README.md" "$top"/tools/cli/Documentation/*.8 \
	> "$work/stage/kreloc/examples"
planned=$(grep -c '^ex ' "$work/stage/kreloc/examples")
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
cd /kreloc
export PATH=/kreloc:$PATH
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
insmod ./kreloc.ko
[ -d /lib/modules ] && modprobe vfat
n=0 b=0
block() { b=$((b + 1)); mkdir -p /tmp/b$b; cd /tmp/b$b; ln -sf /kreloc/System.map /kreloc/modules .; }
ex() {
	n=$((n + 1))
	sh -c "$2" > /tmp/out 2> /tmp/err; rc=$?
	o=$(echo "$2" | sed -n 's/.* -o *\([^ ]*\).*/\1/p')
	if [ $rc = 0 ] && { if [ -n "$o" ]; then [ -s "$o" ]; else [ -s /tmp/out ] || echo "$2" | grep -q -- '--remove\|^echo'; fi; }; then
		echo "ok $n example $1 in the guest: $2"
	else
		echo "not ok $n example $1 in the guest: $2"
		echo "# exit $rc"; head -3 /tmp/err /tmp/out | sed 's/^/#   /'
	fi
}
echo "KRELOC-TEST-BEGIN examples-guest"
echo "TAP version 13"
. ./examples
echo "1..$n"
echo "KRELOC-TEST-END examples-guest rc=0"
EOT
chmod +x "$work/stage/kreloc/job"
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log" || true
tr -d '\r' < "$work/out.log" > "$work/out"
KRELOC_PLAN=examples-guest:$planned KRELOC_TAG="$UNAME_M $KVER" "$top/rig/ktap.sh" "$work/out" "$work/console.log" "$results"
