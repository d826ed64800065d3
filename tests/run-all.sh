#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole kreloc test suite (`make check`): host unit tests, the CLI's host
# tests, the rig's log checkers and the module's layering, lint (checkpatch
# --strict, sparse), then per target kernel a QEMU boot running the
# selftests and two running the CLI, then the boot tests of the Debian
# packages (make deb, installed with apt: DKMS, the initramfs).  Installs
# its own prerequisites.
# Ends with one line "N passed, N failed, N skipped"; exits non-zero on any
# failure.
#
#   KRELOC_TARGETS  kernels to boot (default: every one below; "all" also
#                   stands for every one):
#                     amd64-5.10        Debian 11 bullseye-security (gcc-10)
#                     amd64-6.1         Debian 12 bookworm
#                     amd64-6.12        bookworm-security's 6.12 (+deb12)
#                     amd64-6.12-deb13  Debian 13 trixie's own 6.12 (gcc-14)
#                     amd64-7           trixie-backports' newest 7.x
#                     ppc64le-6.1       Debian bookworm ppc64el
#                     ppc64be-6.1       ppc64 ELF ABIv1, built here
#                     arm64-6.1         Debian bookworm arm64
#                     arm64-6.12        bookworm-security's 6.12 arm64
#                     arm64-7           trixie-backports' newest 7.x arm64
#                   (each the newest of its series that has headers; the
#                   5.10, trixie and 7.x ones built in a root of their
#                   release, rig/root.sh).  amd64-6.1 and amd64-7 include
#                   perf (that release's) with kreloc inject
#                   (rig/vm-inject.sh), amd64-6.1 gdb with a vmlinux
#                   made from the image and the map (rig/vm-gdb.sh) and,
#                   as a job of its own, a crash dumped by QEMU and read
#                   back (rig/vm-vmcore.sh: kreloc snapshot --vmcore,
#                   resolve --freed, drgn 0.0.31 in a trixie root).  The
#                   boot tests run with the kernels they use: bookworm's with
#                   amd64-6.1 and amd64-6.12, trixie's with amd64-7.  "debug"
#                   adds the debug-kernel stages (rig/vm-debug.sh, and gdb
#                   on it); it is not in the default: a cold run with it
#                   took 122 CPU-minutes on one machine, 148 minutes of
#                   lane time on another, more than two cores have in an
#                   hour (Documentation/test-rig.md).  "upstream" adds
#                   the upstream series (upstream/, Documentation/upstream.md:
#                   perf records of module memory): applied with git am to
#                   Debian's kernel source, checkpatch, a kernel and perf
#                   build after each patch, W=1, CONFIG_MODULES=n and arm64
#                   builds, then its kselftest and perf test, and recordings
#                   of modules that come and go, named by plain perf report
#                   on this machine, with Debian's perf and kernel of that
#                   version beside; not in the default either (its cold run
#                   builds the kernel once per patch, and three more times).
#   KRELOC_JOBS     jobs run at once (default 2: one per core)
#   KRELOC_CACHE    download/build cache (default ~/.cache/kreloc)
#   KRELOC_KEEP_RUN keep this run's job files ($KRELOC_CACHE/tmp/check.PID)
#   KRELOC_RESULTS_FILE  where each job's newest result is kept (default
#                   Documentation/results.md, rig/results.py; empty: nowhere)
#
# Jobs run KRELOC_JOBS at a time (rig/jobs.sh), each with its own output and
# result files, started in the order they are declared below (the longest
# first) and printed whole in that order.  A job is one line:
# `job NAME COMMAND...`, where COMMAND prints KTAP results (rig/ktap.sh) and
# appends "passed failed skipped" to "$RESULTS"; one that crashes counts as
# failed.  Two jobs may ask for one kernel at once: target_env serialises
# that, and the rig's fetchers and map derivation lock what they share.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/rig/lib.sh"
. "$top/rig/jobs.sh"

# (In the order the jobs start, below: ppc64be-6.1 builds its kernel, whose
# link-time map ppc64le-6.1 needs, so it goes well before ppc64le-6.1, which
# would otherwise hold a lane waiting for that build.)
all_targets="arm64-6.1 arm64-6.12 arm64-7 amd64-6.1 ppc64be-6.1 amd64-5.10 amd64-6.12 amd64-6.12-deb13 amd64-7 ppc64le-6.1"
targets="${KRELOC_TARGETS:-$all_targets}"
targets=$(for t in $targets; do [ "$t" = all ] && echo "$all_targets" || echo "$t"; done | xargs)
max_jobs="${KRELOC_JOBS:-2}"
results_file="${KRELOC_RESULTS_FILE-$top/Documentation/results.md}"
run="$CACHE/tmp/check.$$"
rm -rf "$run"
mkdir -p "$run"
start=$(date +%s)

need_pkgs build-essential cpio busybox-static qemu-system-x86 xz-utils zstd \
	dwarves libelf-dev zlib1g-dev bc sparse kmod clang binutils debootstrap python3

# --- what a job may use ---------------------------------------------------------

# target_env TARGET: the env file of a target kernel, fetched and cached
# (one job at a time per target: several jobs may want the same kernel).
target_env() {
	local envf="$run/$1.env"
	(
		flock 9
		[ -s "$envf" ] && exit 0
		case "$1" in
		amd64-*) "$top/rig/kernel-amd64.sh" "${1#amd64-}" > "$envf.tmp" ;;
		arm64-*) "$top/rig/kernel-arm64.sh" "${1#arm64-}" > "$envf.tmp" ;;
		ppc64le-6.1) cp "$("$top/rig/kernel-ppc64le.sh" | tail -1)" "$envf.tmp" ;;
		ppc64be-6.1) cp "$("$top/rig/kernel-ppc64be.sh" | tail -1)" "$envf.tmp" ;;
		*) exit 1 ;;
		esac && mv "$envf.tmp" "$envf"
	) 9> "$run/$1.env.lock" && echo "$envf"
}

# The link-time map of another release, for the must-refuse test.
other_of() {
	case "$1" in
	amd64-5.10) echo amd64-6.1 ;;
	amd64-6.1) echo amd64-6.12 ;;
	amd64-6.12) echo amd64-6.1 ;;
	amd64-6.12-deb13) echo amd64-6.12 ;;
	amd64-7) echo amd64-6.12-deb13 ;;
	ppc64le-6.1) echo ppc64be-6.1 ;;
	ppc64be-6.1) echo ppc64le-6.1 ;;
	arm64-6.1) echo arm64-6.12 ;;
	arm64-6.12) echo arm64-6.1 ;;
	arm64-7) echo arm64-6.12 ;;
	esac
}

fail() { echo "not ok - $*"; echo "0 1 0" >> "$RESULTS"; }

# --- the jobs -------------------------------------------------------------------

run_unit() {
	make -s -C "$top/tests/unit" > "$run/unit.out" 2>&1
	KRELOC_TAG=host "$top/rig/ktap.sh" "$run/unit.out" /dev/null "$RESULTS"
}

run_tools() {
	# Their real-kernel fixtures (the 6.1 link-time map, a .ko, a vmlinux
	# with symbols for the debuginfod server) come from the rig.
	local envf vml
	envf=$(target_env amd64-6.1)
	"$top/rig/groundtruth.sh" "$envf" > /dev/null ||
		echo "# no amd64 6.1 link-time map: the CLI tests that need it will skip"
	vml=$("$top/rig/vmlinux-symbols.sh" "$envf" 2>/dev/null) ||
		echo "# no amd64 6.1 vmlinux with symbols: the debuginfod tests will skip"
	KRELOC_TEST_VMLINUX="$vml" "$top/tests/tools/run.sh" > "$run/tools.out" 2>&1
	KRELOC_TAG=host "$top/rig/ktap.sh" "$run/tools.out" /dev/null "$RESULTS"
}

# The rig's log checkers and its job pool, and the module's layering
# (rig/check-layers.pl, seen failing on an upward call), on the host.
run_rig() {
	{ "$top/tests/rig/run.sh"; "$top/tests/rig/test_jobs.sh"; "$top/tests/rig/test_runvm.sh";
	  "$top/tests/rig/test_layers.sh"; "$top/tests/rig/test_results.sh"; } > "$run/rig.out" 2>&1
	KRELOC_TAG=host "$top/rig/ktap.sh" "$run/rig.out" /dev/null "$RESULTS"
}

run_lint() {
	"$top/rig/lint.sh" > "$run/lint.out" 2>&1
	KRELOC_TAG=lint "$top/rig/ktap.sh" "$run/lint.out" /dev/null "$RESULTS"
}

# run_target TARGET: the selftests (one boot) and the CLI (two boots).
run_target() {
	local t="$1" envf o omap
	envf=$(target_env "$t") || { fail "$t: cannot fetch kernel"; return; }
	o=$(other_of "$t")
	omap=$(oenv=$(target_env "$o") && "$top/rig/groundtruth.sh" "$oenv") || {
		fail "$t: no link-time map of $o"; return; }
	"$top/rig/vm-tests.sh" "$envf" "$omap" "$RESULTS" || fail "$t: rig failed"
	echo "# $t: the kreloc CLI (two boots)"
	"$top/rig/vm-tools.sh" "$envf" "$RESULTS" || fail "$t: CLI rig failed"
	if [ "$t" = amd64-6.1 ] || [ "$t" = amd64-7 ]; then
		echo "# $t: perf names every module sample after kreloc inject (perf of that release)"
		"$top/rig/vm-inject.sh" "$envf" "$RESULTS" || fail "$t: perf rig failed"
	fi
	if [ "$t" = amd64-6.1 ]; then
		echo "# $t: gdb with kreloc gdb's script (a vmlinux from the image and the map)"
		"$top/rig/vm-gdb.sh" "$envf" "$RESULTS" || fail "$t: gdb rig failed"
		echo "# $t: the examples of README.md and the man pages that need the live kernel"
		"$top/rig/vm-examples.sh" "$envf" "$RESULTS" || fail "$t: examples rig failed"
	fi
}

# run_boot FLAVOUR: the packages (make deb) installed, upgraded and purged
# with apt in a root of that release with its kernels, their initramfs-tools
# (and dracut on bookworm) images booted (tests/boot/).
run_boot() {
	local rc=0 w="$CACHE/boot/run-$1"
	KRELOC_BOOT_FLAVOUR="$1" "$top/tests/boot/run.sh" > "$run/boot-$1.out" 2> "$run/boot-$1.err" || rc=$?
	# An abort is a failure even when every block printed so far passed.
	[ $rc -eq 0 ] || printf 'KRELOC-TEST-BEGIN boot-run-%s\n1..1\nnot ok 1 tests/boot/run.sh stopped with exit %d (%s)\nKRELOC-TEST-END boot-run-%s rc=1\n' \
		"$1" "$rc" "$(tail -1 "$run/boot-$1.err")" "$1" >> "$run/boot-$1.out"
	mkdir -p "$w"
	touch "$w/console.log"
	KRELOC_TAG="boot $1" "$top/rig/ktap.sh" "$run/boot-$1.out" "$w/console.log" "$RESULTS"
}

run_debug() {
	local denv="$run/debug-gdb.env"

	"$top/rig/vm-debug.sh" "$RESULTS" check || fail "debug kernel: rig failed"
	echo "# x86_64 debug kernel, gdb with kreloc gdb's script"
	if "$top/rig/kernel-debug.sh" > "$denv"; then
		"$top/rig/vm-gdb.sh" "$denv" "$RESULTS" || fail "debug kernel: gdb rig failed"
	else
		fail "debug kernel: cannot build it for the gdb test"
	fi
}

# A crash dumped by QEMU: kreloc's records read from the dump (rig/vm-vmcore.sh).
run_vmcore() {
	local envf
	envf=$(target_env "$1") || { fail "$1: cannot fetch kernel"; return; }
	"$top/rig/vm-vmcore.sh" "$envf" "$RESULTS" || fail "$1: crash dump rig failed"
}

# The upstream series: rig/kernel-upstream.sh applies, checks and builds it,
# rig/vm-upstream.sh boots it and Debian's kernel, records with both perfs
# and compares what perf named with what the kernel said.
# Its times go to $CACHE/upstream/runs/{cold,incremental,warm} (cold: the
# kernel and perf built in empty trees; incremental: the checks run again
# in the trees of a run before; warm: answered from the cache), from which
# rig/upstream-doc.py writes the times in Documentation/upstream.md.
run_upstream() {
	local envf="$run/upstream.env" t0 t1 t2 kind=cold res p f s

	t0=$(date +%s)
	"$top/rig/kernel-upstream.sh" > "$envf" || { fail "upstream: the series did not apply or build"; return; }
	t1=$(date +%s)
	"$top/rig/vm-upstream.sh" "$envf" "$RESULTS" || fail "upstream: rig failed"
	t2=$(date +%s)
	res=$(sed -n 's/^RESULT=//p' "$envf")
	if [ "$(cat "$res/warm" 2>/dev/null || echo 0)" -ge "$t0" ]; then
		kind=warm
	elif [ "$(cat "$res/fresh" 2>/dev/null)" != 1 ]; then
		kind=incremental
	fi
	read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$RESULTS")
	mkdir -p "$CACHE/upstream/runs"
	echo "$(date -u +%F) $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo -) $((t2 - t0)) $((t1 - t0)) $((t2 - t1)) $p $f $s" \
		> "$CACHE/upstream/runs/$kind"
	if [ -n "$results_file" ]; then
		"$top/rig/upstream-doc.py" "$CACHE/upstream/runs" "$top/Documentation/upstream.md" ||
			echo "# could not write the times in Documentation/upstream.md" >&2
	fi
}

has_target() { [[ " $targets " == *" $1 "* ]]; }

# The jobs, started (and printed) in this order: the longest first, so that
# the two lanes end close together (arm64 boots slowest under TCG; amd64-6.1
# also runs perf and gdb).
for t in $targets; do
	case "$t" in arm64-* | amd64-6.1) job "QEMU: $t" run_target "$t" ;; esac
done
if has_target debug; then
	job "QEMU: x86_64 debug kernel (KASAN, lockdep, kmemleak, fault injection, lockdown, Secure Boot with the packages; gdb)" run_debug
fi
if has_target upstream; then
	job "QEMU: upstream (the perf series on Debian's kernel source: checks, builds, kselftest, perf test, perf names modules that came and went)" run_upstream
fi
has_target amd64-6.1 && has_target amd64-6.12 &&
	job "boot: make install, make deb, apt, DKMS, initramfs-tools, dracut (bookworm)" run_boot bookworm
has_target amd64-7 &&
	job "boot: apt, DKMS, initramfs-tools (trixie, trixie-backports' kernel)" run_boot trixie
has_target amd64-6.1 &&
	job "QEMU: amd64-6.1 crash dump (kreloc snapshot --vmcore, resolve, drgn)" run_vmcore amd64-6.1
for t in $targets; do
	case "$t" in arm64-* | amd64-6.1 | debug | upstream) ;; *) job "QEMU: $t" run_target "$t" ;; esac
done
job "host unit tests" run_unit
job "tools (host)" run_tools
job "rig log checkers, job pool, module layering (host)" run_rig
job "lint" run_lint

run_jobs "$max_jobs" "$run"
printf '\n== done (%ss)\n' "$(( $(date +%s) - start ))"
read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$run/results")
# The newest result of each job, for Documentation/results.md.
if [ -n "$results_file" ]; then
	"$top/rig/results.py" "$run" "$results_file" ||
		echo "# could not write $results_file" >&2
fi
[ -n "${KRELOC_KEEP_RUN:-}" ] || rm -rf "$run"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
