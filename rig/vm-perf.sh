#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-perf.sh ENV RESULTS: perf names the samples of a module unloaded during
# the recording, with `kreloc kallsyms`, where perf alone cannot.  One boot
# (x86_64, KASLR on) with Debian's perf copied into the initramfs:
#   load kreloc and kreloc_busy (tests/dbgtools/module); save kreloc_busy's
#   /proc/kallsyms lines (ground truth); `perf record -e cpu-clock -a`;
#   spin 1.5 s in kreloc_busy_spin(); unload kreloc_busy; stop perf;
#   `kreloc snapshot`; `kreloc kallsyms`; `perf script` alone (it reads the
#   live /proc/kallsyms, the module gone) and with --kallsyms=FILE.
# On the host: the samples inside kreloc_busy_spin (by address, from the
# ground truth) are counted, and how many of them each perf run named; the
# file's core and kreloc_busy lines are compared with /proc/kallsyms.
# Appends "passed failed skipped" to RESULTS.  KRELOC_RUN_TAG=NAME puts the
# work dir at $CACHE/run/NAME-dbgtools-..., apart from another tree's run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$UNAME_M" = x86_64 ] || die "vm-perf.sh runs the host's x86_64 perf in the VM"
need_pkgs libelf-dev zlib1g-dev kmod linux-perf
map=$("$top/rig/groundtruth.sh" "$envf")
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}dbgtools-perf-$KVER"
rm -rf "$work"
stage_t0=$(date +%s)
mkdir -p "$work/stage/kreloc" "$work/src"

# kreloc.ko as a Debian user builds it (the System.map is a placeholder).
"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
mkdir -p "$work/busy"
cp "$top/tests/dbgtools/module/"*.c "$top/tests/dbgtools/module/Kbuild" "$work/busy/"
make -s -C "$KDIR" M="$work/busy" modules >/dev/null 2>&1 || die "cannot build kreloc_busy"
cp "$work/busy/kreloc_busy.ko" "$work/stage/kreloc/"
# The CLI, static for the initramfs and for the host, built in a copy of
# the tree (other stages build in tools/cli at the same time).
cp -r "$top/tools" "$top/lib" "$work/src/"
make -s -C "$work/src/tools/cli" clean >/dev/null
make -s -C "$work/src/tools/cli" kreloc kreloc-static >&2
cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
cp "$map" "$work/stage/kreloc/System.map"
"$top/rig/stage-perf.sh" "$work/stage"

build_s=$(( $(date +%s) - stage_t0 ))
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
insmod ./kreloc.ko
insmod ./kreloc_busy.ko
echo "BUSY-KALLSYMS-BEGIN"; grep '\[kreloc_busy\]' /proc/kallsyms; echo "BUSY-KALLSYMS-END"
# Recording starts disabled and is enabled through perf's control fifo, so
# the spin below is certainly recorded.
mkfifo /tmp/ctl /tmp/ack
perf record -e cpu-clock -F 1000 -a -D -1 --control fifo:/tmp/ctl,/tmp/ack \
	-o /tmp/perf.data > /tmp/record.log 2>&1 &
pid=$!
echo enable > /tmp/ctl
read -r ack < /tmp/ack
echo "# perf record: $ack"
echo 1500 > /sys/kernel/debug/kreloc_busy/spin
rmmod kreloc_busy
kill -INT $pid
wait $pid
echo "# perf record exit $?: $(tail -1 /tmp/record.log)"
./kreloc snapshot -o /tmp/snap
./kreloc kallsyms --snapshot /tmp/snap --system-map ./System.map --modules-dir /kreloc \
	-o /tmp/kallsyms 2> /tmp/kallsyms.err
echo "# kreloc kallsyms exit $?: $(wc -l < /tmp/kallsyms) lines, mode $(stat -c %a /tmp/kallsyms)"
sed 's/^/# /' /tmp/kallsyms.err
echo "KALLSYMS-MD5 $(md5sum < /tmp/kallsyms)"
echo "KALLSYMS-BUSY-BEGIN"; grep '\[kreloc_busy\]' /tmp/kallsyms; echo "KALLSYMS-BUSY-END"
# the core part against this boot's /proc/kallsyms
grep -v '\[' /proc/kallsyms | sort > /tmp/core.proc
grep -v '\[' /tmp/kallsyms | sort > /tmp/core.kreloc
echo "CORE $(wc -l < /tmp/core.proc) $(comm -13 /tmp/core.proc /tmp/core.kreloc | wc -l) $(comm -23 /tmp/core.proc /tmp/core.kreloc | wc -l)"
comm -23 /tmp/core.proc /tmp/core.kreloc | head -20 | sed 's/^/# only in \/proc\/kallsyms: /'
for run in alone kreloc; do
	set --
	[ $run = kreloc ] && set -- --kallsyms=/tmp/kallsyms
	perf script -i /tmp/perf.data -F ip,sym,symoff,dso "$@" > /tmp/$run.txt 2> /tmp/$run.err
	echo "# perf script ($run) exit $?: $(wc -l < /tmp/$run.txt) samples"
	echo "SCRIPT-$run-BEGIN"; grep -E '^ *ffffffffc' /tmp/$run.txt; echo "SCRIPT-$run-END"
done
echo "SNAPSHOT-BEGIN"; cat /tmp/snap; echo "SNAPSHOT-END"
# For comparison: the same with the .ko installed where perf looks for it
# (/lib/modules/RELEASE), as a distribution package or DKMS would.
mkdir -p /lib/modules/$(uname -r)/extra
cp ./kreloc_busy.ko /lib/modules/$(uname -r)/extra/
insmod /lib/modules/$(uname -r)/extra/kreloc_busy.ko
echo "BUSY2-KALLSYMS-BEGIN"; grep '\[kreloc_busy\]' /proc/kallsyms; echo "BUSY2-KALLSYMS-END"
perf record -e cpu-clock -F 1000 -a -D -1 --control fifo:/tmp/ctl,/tmp/ack \
	-o /tmp/perf2.data > /tmp/record2.log 2>&1 &
pid=$!
echo enable > /tmp/ctl
read -r ack < /tmp/ack
echo 500 > /sys/kernel/debug/kreloc_busy/spin
rmmod kreloc_busy
kill -INT $pid
wait $pid
perf script -i /tmp/perf2.data -F ip,sym,symoff,dso > /tmp/installed.txt 2> /tmp/installed.err
echo "SCRIPT-installed-BEGIN"; grep -E '^ *ffffffffc' /tmp/installed.txt; echo "SCRIPT-installed-END"
EOT
chmod +x "$work/stage/kreloc/job"
"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log"
tr -d '\r' < "$work/out.log" > "$work/out"

part() { sed -n "/^$1-BEGIN\$/,/^$1-END\$/p" "$work/out" | sed '1d;$d'; }
part BUSY-KALLSYMS > "$work/truth"
part KALLSYMS-BUSY > "$work/kreloc-busy"
part SNAPSHOT > "$work/snap"
part SCRIPT-alone > "$work/alone"
part SCRIPT-kreloc > "$work/with"

# The function's range from the ground truth: its address to the next symbol's.
read -r lo hi < <(sort "$work/truth" | awk '
	found && !hi { hi = $1 } $3 == "kreloc_busy_spin" { lo = $1; found = 1 }
	END { print lo, (hi ? hi : "x") }')
# Samples are "IP SYM (DSO)"; the IP is 16 hex digits like kallsyms: compare as text.
# A sample named SYM counts only at its true offset: SYM+0xOFF with OFF =
# IP - lo (perf script's symoff), so a file that places the function a few
# bytes off is caught too.
count() {	# FILE [SYM]: samples in [lo, hi), or those of them named SYM
	awk -v lo="$lo" -v hi="$hi" -v sym="${2:-}" '
		function hex(s,   i, v) {		# the low 32 bits of a hex string
			s = substr(s, length(s) > 8 ? length(s) - 7 : 1)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		$1 >= lo && $1 < hi {
			if (sym == "") { n++; next }
			name = $2; off = 0
			if (match(name, /\+0x[0-9a-f]+$/)) {
				off = hex(substr(name, RSTART + 3)); name = substr(name, 1, RSTART - 1)
			}
			if (name == sym && off == hex($1) - hex(lo)) n++
		}
		END { print n + 0 }' "$1"
}
n=$(count "$work/alone")
n_with=$(count "$work/with")
alone=$(count "$work/alone" kreloc_busy_spin)
named=$(count "$work/with" kreloc_busy_spin)
# the installed .ko run: its own load address
part BUSY2-KALLSYMS > "$work/truth2"
part SCRIPT-installed > "$work/installed"
read -r lo2 hi2 < <(sort "$work/truth2" | awk '
	found && !hi { hi = $1 } $3 == "kreloc_busy_spin" { lo = $1; found = 1 }
	END { print lo, (hi ? hi : "x") }')
n2=$(lo=$lo2 hi=$hi2 count "$work/installed")
named2=$(lo=$lo2 hi=$hi2 count "$work/installed" kreloc_busy_spin)
host_md5=$("$work/src/tools/cli/kreloc" kallsyms --snapshot "$work/snap" --system-map "$map" \
	--modules-dir "$work/stage/kreloc" 2>/dev/null | md5sum)
guest_md5=$(sed -n 's/^KALLSYMS-MD5 //p' "$work/out")
{
	echo "KRELOC-TEST-BEGIN dbgtools-perf"
	echo "TAP version 13"
	echo "1..6"
	echo "# stage took $(( $(date +%s) - stage_t0 ))s, building ${build_s}s of it"
	grep '^# ' "$work/out" || true
	echo "# kreloc_busy_spin at [$lo, $hi) in the boot's /proc/kallsyms; $n samples there"
	echo "# perf alone named $alone of them kreloc_busy_spin; with kreloc kallsyms $named"
	echo "# for comparison, the .ko installed in /lib/modules/$KVER/extra: perf alone named $named2 of $n2"
	echo "# perf alone: $(awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 < hi' "$work/alone" | head -1)"
	echo "# with kreloc: $(awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 < hi' "$work/with" | head -1)"
	if [ -n "$lo" ] && [ "$n" -gt 0 ] && [ "$n" = "$n_with" ]; then
		echo "ok 1 the recording has $n samples in kreloc_busy_spin (unloaded before perf script)"
	else
		echo "not ok 1 the recording has samples in kreloc_busy_spin ($n, $n_with)"
	fi
	if [ "$n" -gt 0 ] && [ "$alone" = 0 ]; then
		echo "ok 2 perf alone names 0 of the $n samples"
	else
		echo "not ok 2 perf alone names $alone of the $n samples"
	fi
	if [ "$n" -gt 0 ] && [ "$named" = "$n" ]; then
		echo "ok 3 perf --kallsyms from kreloc kallsyms names all $n samples kreloc_busy_spin+OFF, OFF their distance from its start"
	else
		echo "not ok 3 perf --kallsyms from kreloc kallsyms names $named of $n samples kreloc_busy_spin+OFF at their offsets"
	fi
	if [ -s "$work/truth" ] && diff <(sort "$work/truth") <(sort "$work/kreloc-busy") > "$work/busy.diff"; then
		echo "ok 4 kreloc kallsyms gives kreloc_busy's $(wc -l < "$work/truth") symbols as /proc/kallsyms did while it was loaded"
	else
		head -5 "$work/busy.diff" | sed 's/^/# /'
		echo "not ok 4 kreloc kallsyms gives kreloc_busy's symbols as /proc/kallsyms did while it was loaded"
	fi
	if [ -n "$guest_md5" ] && [ "$host_md5" = "$guest_md5" ]; then
		echo "ok 5 the same file from the snapshot on the host (offline)"
	else
		echo "not ok 5 the same file from the snapshot on the host (offline): $host_md5 vs $guest_md5"
	fi
	read -r core_n core_wrong core_missing < <(sed -n 's/^CORE //p' "$work/out")
	if [ "${core_n:-0}" -gt 10000 ] && [ "$core_wrong" = 0 ] && [ "$core_missing" -lt 64 ]; then
		echo "ok 6 its core symbols are /proc/kallsyms's: $core_n there, $core_missing not published (past the last section kreloc measures), 0 different"
	else
		echo "not ok 6 its core symbols are /proc/kallsyms's (${core_n:-?} there, ${core_wrong:-?} different, ${core_missing:-?} missing)"
	fi
	echo "KRELOC-TEST-END dbgtools-perf rc=0"
} > "$work/host.log"
KRELOC_PLAN=dbgtools-perf:6 KRELOC_TAG="$UNAME_M $KVER" "$top/rig/ktap.sh" "$work/host.log" "$work/console.log" "$results"
