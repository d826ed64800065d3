#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-upstream.sh ENV RESULTS: the upstream target's boots (ENV from
# rig/kernel-upstream.sh); appends "passed failed skipped" to RESULTS.
# vm-upstream.sh --bench ENV: `make bench` on that kernel instead.
#
# First the series checks kernel-upstream.sh recorded (git am, format-patch,
# checkpatch, sign-offs, a build after each patch, W=1, the config
# variants, arm64, perf test on the host).  Then two boots under QEMU TCG,
# KASLR on, two CPUs (rig/upstream-job.sh is the job):
#   series   the kernel of the series: its kselftest (and that the system
#            is as it was after it), the new perf test, then the scenario;
#   debian   Debian's own kernel of that version, without the series: the
#            scenario.
# The scenario, recorded at once by the perf of the series and by Debian's
# of the same version (linux-perf 7.3 from trixie-backports), each
# `perf record -a`: module upa (tests/upstream/module) is loaded, spins in
# its init for two seconds, spins in its text for two seconds (a write to
# its spin_ms parameter), and is unloaded; then upb, a module with other
# function names, is loaded where upa was, and does the same.
# /proc/kallsyms is saved while each is in its init (init symbols
# included), and the pid of each phase is noted.
# On the host, rig/upstream-compare.py names what each sample should be
# from those alone, with no perf output but the sample's pid and address,
# and counts what plain `perf script` and `perf report` of each recording
# named, run here as another machine would (a fresh HOME, no build-id
# cache, no kallsyms, no .ko, no kreloc).
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
mkdir -p "$work"
need_pkgs python3 busybox-static

# Debian's kernel and perf of the base's version: the kernel from the rig's
# amd64-7 target, the perf from trixie-backports in the trixie root (where
# Debian's perf and its libraries run, here and, staged, in the guests).
debenv="$work/debian.env"
"$top/rig/kernel-amd64.sh" "$DEBIAN_SERIES" > "$debenv"
# shellcheck disable=SC1090
deb_kver=$(. "$debenv" && echo "$KVER")
case "$deb_kver" in
"$DEBIAN_VERSION"+*) ;;
*) die "Debian's newest 7.x kernel is $deb_kver, the series is on $DEBIAN_VERSION" ;;
esac
perfdeb="$CACHE/debs/linux-perf_${DEBIAN_PERF//:/%3a}_amd64.deb"
if [ ! -s "$perfdeb" ]; then
	(cd "$CACHE/debs" && rel_apt trixie apt-get download -qq "linux-perf=$DEBIAN_PERF" >&2) ||
		die "cannot download linux-perf $DEBIAN_PERF (trixie-backports)"
fi
troot=$("$top/rig/root.sh" trixie "$perfdeb")

# stage_bin ROOT BIN STAGE PREFIX: BIN (a path inside ROOT, "" for this
# machine) with the libraries it needs, under STAGE/PREFIX.
stage_bin() {
	local root="$1" bin="$2" stage="$3" prefix="$4" lib
	mkdir -p "$stage$prefix$(dirname "$bin")"
	cp -L "$root$bin" "$stage$prefix$bin"
	if [ -n "$root" ]; then
		in_root "$root" ldd "$bin"
	else
		ldd "$bin"
	fi | awk '/=> \// {print $3} /^\t\/[^ ]+ \(/ {print $1}' | while read -r lib; do
		mkdir -p "$stage$prefix$(dirname "$lib")"
		cp -L "$root$lib" "$stage$prefix$lib"
	done
}

# stage KDIR KVER DIR: the initramfs files for a boot of that kernel: the
# test modules built for it, the perf of the series (with this machine's
# libraries) and Debian's (with trixie's, under /trixie, run by its own
# loader).
stage() {
	local kdir="$1" kver="$2" dir="$3" m="$work/modules-$2"

	mkdir -p "$dir/kreloc" "$m"
	cp "$top/tests/upstream/module/"* "$m/"
	(
		# shellcheck disable=SC1090
		[ "$kver" = "$KVER" ] || . "$debenv"
		kmake -s -C "$kdir" M="$m" modules
	) >&2 || die "cannot build the test modules for $kver"
	cp "$m/upa.ko" "$m/upb.ko" "$m/upk.ko" "$dir/kreloc/"
	stage_bin "" "$PERF" "$dir" ""
	mkdir -p "$dir/usr/bin"
	mv "$dir$PERF" "$dir/usr/bin/perf"
	stage_bin "$troot" /usr/bin/perf "$dir" /trixie
	cat > "$dir/usr/bin/perf-debian" <<'EOT'
#!/bin/sh
exec /trixie/lib64/ld-linux-x86-64.so.2 --library-path \
	/trixie/lib/x86_64-linux-gnu:/trixie/usr/lib/x86_64-linux-gnu /trixie/usr/bin/perf "$@"
EOT
	chmod +x "$dir/usr/bin/perf-debian"
	cp "$top/rig/upstream-job.sh" "$dir/kreloc/job"
}

if [ -n "$bench" ]; then
	stage "$KDIR" "$KVER" "$work/stage-series"
	gcc -O2 -Wall -Wextra -Werror -static -I "$KDIR/usr/include" \
		-o "$work/stage-series/kreloc/upstream-bench" "$top/rig/upstream-bench.c"
	printf '#!/bin/sh\necho "BENCH upstream: clocksource %s"\nexec ./upstream-bench ./upa.ko upa\n' \
		'$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)' > "$work/stage-series/kreloc/job"
	# This kernel has no ACPI, so no HPET or PM timer to calibrate its TSC
	# against: it marks the TSC unstable and keeps jiffies as its clock
	# (4 ms steps at HZ=250, too coarse for what is measured here).  Under
	# TCG the guest's TSC counts at the host's rate, so with a constant
	# host TSC the bench boot is given that rate and trusts it.
	tsc=
	if grep -qw constant_tsc /proc/cpuinfo; then
		tsc=$(awk -F': *' '/^cpu MHz/ { printf "tsc_early_khz=%d tsc=reliable", $2 * 1000; exit }' /proc/cpuinfo)
	fi
	echo "== $KVER (the upstream target's kernel: $BASE + upstream/, x86_64, QEMU TCG${tsc:+, $tsc})"
	"$top/rig/run-vm.sh" "$envf" "$work/stage-series" "$work/console-bench.log" "$tsc" \
		"$work/output-bench.log"
	tr -d '\r' < "$work/output-bench.log" | grep '^BENCH'
	exit 0
fi

{
	echo "KRELOC-TEST-BEGIN series"
	echo "1..$(grep -c '^\(not \)\?ok ' "$CHECKS")"
	cat "$CHECKS"
	echo "KRELOC-TEST-END series rc=0"
} > "$work/series.log"
KRELOC_TAG="upstream $BASE" "$top/rig/ktap.sh" "$work/series.log" /dev/null "$results"

stage "$KDIR" "$KVER" "$work/stage-series"
mkdir -p "$work/stage-series/kreloc/selftest/test_modules"
cp "$SELFTEST/module_mem" "$work/stage-series/kreloc/selftest/"
cp "$SELFTEST/test_modules/test_module_mem.ko" "$work/stage-series/kreloc/selftest/test_modules/"
deb_kdir=$(. "$debenv" && echo "$KDIR")
stage "$deb_kdir" "$deb_kver" "$work/stage-debian"

rc=0
for boot in series debian; do
	e="$envf"
	[ $boot = series ] || e="$debenv"
	log "booting $boot ($([ $boot = series ] && echo "$KVER" || echo "$deb_kver"))"
	"$top/rig/run-vm.sh" "$e" "$work/stage-$boot" "$work/console-$boot.log" \
		"krelocboot=$boot" "$work/output-$boot.log" || rc=1
	tr -d '\r' < "$work/output-$boot.log" > "$work/out-$boot"
	plan="scenario"
	[ $boot = series ] && plan="kselftest kselftest-state perf-test $plan"
	KRELOC_PLAN="$plan" KRELOC_TAG="upstream $boot" \
		"$top/rig/ktap.sh" "$work/out-$boot" "$work/console-$boot.log" "$results"
done

# Each recording, reported here as another machine would: the perf of the
# series from this machine, Debian's in the trixie root; HOME empty.
report() {	# BOOT TAG
	local d="$work/$1-$2" data="$work/$1-$2/perf.data" p
	mkdir -p "$d/home"
	sed -n "/^DATA-BEGIN $2\$/,/^DATA-END $2\$/p" "$work/out-$1" | sed '1d;$d' |
		base64 -d > "$data" 2>/dev/null || true
	for f in upa.init upb.init; do
		sed -n "/^FILE-BEGIN $2.$f\$/,/^FILE-END $2.$f\$/p" "$work/out-$1" | sed '1d;$d' > "$d/$f"
	done
	grep "^PHASES $2 " "$work/out-$1" > "$d/phases" || true
	grep "^RECORD $2 " "$work/out-$1" > "$d/record" || true
	for p in patched debian; do
		if [ $p = patched ]; then
			HOME="$d/home" "$PERF" script -i "$data" -F pid,ip,sym,symoff,dso \
				> "$d/script-$p" 2> "$d/script-$p.err"
			echo "rc=$?" >> "$d/script-$p.err"
			HOME="$d/home" "$PERF" report -i "$data" --stdio -n --sort dso,sym \
				> "$d/report-$p" 2> "$d/report-$p.err"
			echo "rc=$?" >> "$d/report-$p.err"
			HOME="$d/home" "$PERF" report -i "$data" -D 2>/dev/null |
				awk '/PERF_RECORD_MODULE_MEM/ { m++ } /PERF_RECORD_KSYMBOL.* type 3 / { k++ }
				     END { printf "module_mem %d ksymbol_module %d\n", m, k }' > "$d/records"
			HOME="$d/home" "$PERF" evlist -v -i "$data" 2>/dev/null |
				grep -o 'module_mem: [0-9]' | sort -u > "$d/attr" || true
		else
			mkdir -p "$troot/tmp/upstream"
			cp "$data" "$troot/tmp/upstream/perf.data"
			in_root "$troot" sh -c 'HOME=/tmp/upstream/home perf script -i /tmp/upstream/perf.data \
				-F pid,ip,sym,symoff,dso 2> /tmp/upstream/script.err; echo "rc=$?" >> /tmp/upstream/script.err' \
				> "$d/script-$p"
			in_root "$troot" sh -c 'HOME=/tmp/upstream/home perf report -i /tmp/upstream/perf.data \
				--stdio -n --sort dso,sym 2> /tmp/upstream/report.err; echo "rc=$?" >> /tmp/upstream/report.err' \
				> "$d/report-$p"
			cp "$troot/tmp/upstream/script.err" "$d/script-$p.err"
			cp "$troot/tmp/upstream/report.err" "$d/report-$p.err"
			rm -rf "$troot/tmp/upstream"
		fi
	done
}
for boot in series debian; do
	for tag in patched debian; do
		report $boot $tag
	done
done
python3 "$top/rig/upstream-compare.py" "$work" > "$work/compare.log"
KRELOC_PLAN="compare" KRELOC_TAG="upstream perf" \
	"$top/rig/ktap.sh" "$work/compare.log" /dev/null "$results"
if [ $rc -ne 0 ]; then
	echo "not ok - upstream $KVER: a VM run failed (see $work/console-*.log)"
	echo "0 1 0" >> "$results"
fi
