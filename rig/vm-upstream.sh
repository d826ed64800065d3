#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-upstream.sh ENV RESULTS: the upstream target's boots (ENV from
# rig/kernel-upstream.sh); appends "passed failed skipped" to RESULTS.
# vm-upstream.sh --bench ENV: `make bench` on that kernel instead.
#
# First the series checks kernel-upstream.sh recorded (git am, checkpatch
# --strict per patch, the build after each patch).  Then the same kernel
# boots twice, KASLR on, with the same job:
#   builtin  the in-kernel kreloc of the series;
#   module   kreloc=off (the built-in publishes nothing) and the
#            out-of-tree kreloc.ko of this tree, built for that kernel from
#            its System.map, loaded first.
# In each boot the job runs one scenario of module loads and unloads and
# dumps every kreloc file and a set of lookups, then runs the series'
# kselftest (tools/testing/selftests/kreloc), which ends with lockdown.
# Both keep two unloaded records (kreloc.history=2, history=2), so that
# the scenario makes both trim their history.
# rig/upstream-compare.py then compares the two dumps file by file, each
# boot's KASLR offset and module addresses taken out.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bench=
[ "${1:-}" = --bench ] && { bench=1; shift; }
envf="$1" results="${2:-/dev/null}"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
work="$CACHE/run/upstream-$KVER${bench:+-bench}"
rm -rf "$work"
mkdir -p "$work/stage/kreloc"
need_pkgs python3

# The out-of-tree module, as a user of this kernel would build it: from its
# System.map (the rig's other targets test the other link-time sources).
"$top/rig/build-kreloc.sh" "$envf" "$work/build" LINKED_SOURCE=system.map SYSTEM_MAP="$SYSTEM_MAP"
s="$work/stage/kreloc"
# The kselftest as its Makefile installs it: test-kreloc.sh, kreloc_test
# and test_modules/ in one directory.
mkdir -p "$s/selftest/test_modules"
cp "$SELFTEST/kreloc_test" "$SELFTEST/test-kreloc.sh" "$s/selftest/"
cp "$SELFTEST/test_modules/test_kreloc.ko" "$s/selftest/test_modules/"
cp "$work/build/kreloc.ko" "$SELFTEST/test_modules/test_kreloc.ko" "$SYSTEM_MAP" "$s/"
gcc -O2 -Wall -Wextra -Werror -static -o "$s/upstream-bench" "$top/rig/upstream-bench.c"
"$top/rig/stage-modules.sh" "$MODDIR" "$KVER" "$work/stage" dummy vfat

if [ -n "$bench" ]; then
	cat > "$s/job" <<'EOT'
#!/bin/sh
# make bench: the built-in's boot-time cost and the module's insmod.
if grep -qw kreloc=off /proc/cmdline; then
	./upstream-bench module kreloc.ko test_kreloc.ko
else
	./upstream-bench builtin test_kreloc.ko
fi
EOT
	chmod +x "$s/job"
	echo "== $KVER (the upstream target's kernel: $BASE + upstream/, x86_64, QEMU TCG)"
	for boot in builtin module; do
		append="initcall_debug"
		[ $boot = builtin ] || append="$append kreloc=off"
		"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console-$boot.log" "$append" \
			"$work/output-$boot.log"
		tr -d '\r' < "$work/output-$boot.log" | grep '^BENCH'
	done
	# The built-in's whole boot cost next to one insmod of the module.
	cat "$work/output-builtin.log" "$work/output-module.log" | tr -d '\r' |
		awk '/^BENCH upstream builtin: boot cost/ { us = $6 }
		     /^BENCH upstream module: insmod kreloc.ko/ { ms = $6 }
		     END { if (us != "" && ms != "" && us > 0)
			printf "BENCH upstream: the built-in costs the boot %.3f ms, insmod kreloc.ko %.3f ms: %.1fx\n",
			       us / 1e3, ms, ms * 1e3 / us }'
	exit 0
fi

cat > "$s/job" <<'EOT'
#!/bin/sh
# Runs inside the VM, in both boots.
run() {
	name="$1"
	shift
	echo "KRELOC-TEST-BEGIN $name"
	"$@"
	echo "KRELOC-TEST-END $name rc=$?"
}
d=/sys/kernel/debug/kreloc
boot=builtin
grep -qw kreloc=off /proc/cmdline && boot=module
if [ $boot = module ]; then
	echo "KRELOC-TEST-BEGIN module-load"
	echo "1..2"
	if [ -e $d ]; then echo "not ok 1 kreloc=off: $d exists"; else echo "ok 1 kreloc=off: no $d"; fi
	if insmod ./kreloc.ko history=2; then echo "ok 2 insmod kreloc.ko history=2 (out of tree)"; else echo "not ok 2 insmod kreloc.ko"; fi
	echo "KRELOC-TEST-END module-load rc=0"
fi

# The scenario: the same loads and unloads in both boots.
modprobe dummy
modprobe vfat
insmod ./test_kreloc.ko
rmmod dummy
modprobe dummy
rmmod test_kreloc
insmod ./test_kreloc.ko fail_init=1 2>/dev/null
sleep 1

dump() {
	echo "KRELOC-DUMP-BEGIN $1"
	cat "$2"
	echo "KRELOC-DUMP-END"
}
for f in info sections anchors modules; do
	dump "$f" "$d/$f"
done
for f in $(ls $d/module); do
	dump "module/$f" "$d/module/$f"
done
# Lookups: fixed specs, each module's first text symbol by name, a
# duplicate name, and the errors.
dup=$(awk '$2 == "t" && NF == 3 { if (seen[$3]++ == 1) { print $3; exit } }' /proc/kallsyms)
specs="schedule schedule+0x3 vfs_read _text jiffies kreloc_no_such_symbol bad! schedule+0x100000 :x $dup"
for m in dummy vfat fat; do
	sym=$(awk -v m="[$m]" '$4 == m && ($2 == "t" || $2 == "T") { print $3 }' /proc/kallsyms | sort | head -1)
	[ -n "$sym" ] && specs="$specs $m:$sym"
done
for spec in $specs; do
	echo "KRELOC-DUMP-BEGIN lookup $spec"
	exec 3<> $d/lookup
	printf '%s' "$spec" >&3 2>/dev/null
	cat <&3
	exec 3>&-
	echo "KRELOC-DUMP-END"
done
rmmod vfat fat dummy

# The series' kselftest, by its entry point; it ends with lockdown, which
# stays raised.
run "kselftest-$boot" env KRELOC_MAP=./System.map ./selftest/test-kreloc.sh
EOT
chmod +x "$s/job"

{
	echo "KRELOC-TEST-BEGIN series"
	echo "1..$(grep -c '^\(not \)\?ok ' "$CHECKS")"
	cat "$CHECKS"
	echo "KRELOC-TEST-END series rc=0"
} > "$work/series.log"
KRELOC_TAG="upstream $BASE" "$top/rig/ktap.sh" "$work/series.log" /dev/null "$results"

rc=0
for boot in builtin module; do
	# Two unloaded records kept (the module gets history=2): the scenario
	# makes more, so both trim their history and its files.
	append="kreloc.history=2"
	[ $boot = builtin ] || append="kreloc=off"
	log "booting $KVER ($boot)"
	"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console-$boot.log" "$append" \
		"$work/output-$boot.log" || rc=1
	plan="kselftest-$boot"
	[ $boot = builtin ] || plan="module-load $plan"
	KRELOC_PLAN="$plan" KRELOC_TAG="upstream $KVER ($boot)" \
		"$top/rig/ktap.sh" "$work/output-$boot.log" "$work/console-$boot.log" "$results"
done
python3 "$top/rig/upstream-compare.py" "$work/output-builtin.log" "$work/output-module.log" \
	> "$work/compare.log"
KRELOC_PLAN="compare" KRELOC_TAG="upstream $KVER (builtin vs module)" \
	"$top/rig/ktap.sh" "$work/compare.log" /dev/null "$results"
if [ $rc -ne 0 ]; then
	echo "not ok - upstream $KVER: a VM run failed (see $work/console-*.log)"
	echo "0 1 0" >> "$results"
fi
