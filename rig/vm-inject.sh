#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-inject.sh ENV RESULTS: perf names every module sample of a recording
# after `kreloc inject`, with the real perf, reported on the host (another
# machine).  One boot (x86_64, KASLR on) with the perf of the kernel's
# Debian release copied into the initramfs; in it, twice (a plain `perf
# record -a`, then `perf record -a -g -k monotonic`):
#   kreloc and kreloc_spin_p loaded before the recording (kreloc_spin_p
#   spins in its .text and .text.unlikely in it: a module perf has a map of);
#   kreloc_spin_a loaded after `perf record` started, busy in its init
#   text, its .text and its .text.unlikely, then unloaded;
#   kreloc_spin_b loaded (the loader gives it kreloc_spin_a's memory),
#   busy, unloaded; kreloc_spin_a loaded again, busy, unloaded.
# Each load and unload is bracketed by tests/perf/clockstamp (perf's clock
# and CLOCK_MONOTONIC, read by the guest itself), and each module's
# /proc/kallsyms lines are saved while it is loaded, its init symbols while
# its ->init runs: that, never kreloc's output, is the ground truth.  Then
# `kreloc snapshot`.  On the host, tests/perf/check.py compares what perf
# script names each sample with the ground truth: after `kreloc inject`
# (>= 99% of each module's samples right), and perf alone, perf with the
# guest's /proc/kallsyms and with `kreloc kallsyms`, and `kreloc resolve
# --text` with and without the line's time, as the tables of
# Documentation/perf.md report them.
# KRELOC_RUN_TAG=NAME puts the work dir apart from another tree's run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1" results="$2"
# shellcheck disable=SC1090
. "$envf"
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$UNAME_M" = x86_64 ] || die "vm-inject.sh runs an x86_64 perf in the VM"
need_pkgs libelf-dev zlib1g-dev kmod python3
work="$CACHE/run/${KRELOC_RUN_TAG:+$KRELOC_RUN_TAG-}inject-$KVER"
rm -rf "$work"
t0=$(date +%s)
mkdir -p "$work/stage/kreloc" "$work/src" "$work/mods"

# kreloc.ko as a Debian user builds it (the System.map is a placeholder).
"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
# The test modules, built as DKMS on that release would.
cp "$top/tests/perf/module/"* "$work/mods/"
IN_ROOT_CACHE=1 kmake -s -C "$KDIR" M="$work/mods" modules > "$work/mods.log" 2>&1 ||
	{ cat "$work/mods.log" >&2; die "cannot build the test modules for $KVER"; }
cp "$work/mods/"*.ko "$work/stage/kreloc/"
# The CLI, static for the guest and for the host, in a copy of the tree.
cp -r "$top/tools" "$top/lib" "$work/src/"
make -s -C "$work/src/tools/cli" clean >/dev/null
make -s -C "$work/src/tools/cli" kreloc kreloc-static >&2
cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
${CC:-cc} -static -O2 -Wall -Wextra -Werror -std=gnu11 -I"$top/selftests/kreloc" \
	-o "$work/stage/kreloc/clockstamp" "$top/tests/perf/clockstamp.c" \
	"$top/selftests/kreloc/kreloc_util.c" "$top/lib/kreloc_note.c"
# The perf of the kernel's release: the host's (bookworm) for 6.1, the
# root's linux-perf of the same series for the others.
perf_series=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$KVER")
perfbin=$("$top/rig/stage-perf.sh" "$work/stage" ${BUILD_ROOT:+"$BUILD_ROOT" "$perf_series"})
build_s=$(( $(date +%s) - t0 ))

cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
D=/sys/kernel/debug
# section NAME: what follows, to the next section, is NAME's (gzip, base64).
section() { echo "FILE-BEGIN $1"; gzip -1 -c "$2" | base64; echo "FILE-END $1"; }
stamp() { ./clockstamp "$1" >> /tmp/stamps; }
kallsyms() { grep "\[$1\]" /proc/kallsyms > "/tmp/$2.kallsyms"; }
# load TAG MODULE [PARAMS]: load it, its init symbols saved while ->init spins.
load() {
	stamp "$1.load-before"
	insmod "./$2.ko" $3 &
	p=$!
	sleep 0.3
	kallsyms "$2" "$1.init"
	wait $p || echo "# insmod $2 failed"
	stamp "$1.load-after"
	kallsyms "$2" "$1"
	for s in .text .text.unlikely .init.text; do
		echo "$s $(cat "/sys/module/$2/sections/$s" 2>/dev/null)"
	done > "/tmp/$1.sections"
}
unload() {
	stamp "$1.unload-before"
	rmmod "$2"
	stamp "$1.unload-after"
}
busy() {
	echo 400 > "$D/$1/spin"
	echo 250 > "$D/$1/cold"
}
insmod ./kreloc.ko
insmod ./kreloc_spin_p.ko
kallsyms kreloc_spin_p p
for s in .text .text.unlikely .init.text; do
	echo "$s $(cat "/sys/module/kreloc_spin_p/sections/$s" 2>/dev/null)"
done > /tmp/p.sections
mkfifo /tmp/ctl /tmp/ack
for rec in plain g-mono; do
	case $rec in
	plain) opts="-a" ;;
	g-mono) opts="-a -g -k monotonic" ;;
	esac
	: > /tmp/stamps
	# Started disabled, enabled through perf's control fifo: every step
	# below is certainly recorded.
	perf record $opts -e cpu-clock -F 499 -D -1 --control fifo:/tmp/ctl,/tmp/ack \
		-o /tmp/$rec.data > /tmp/$rec.log 2>&1 &
	pid=$!
	echo enable > /tmp/ctl
	read -r ack < /tmp/ack
	stamp start
	busy kreloc_spin_p
	load a1 kreloc_spin_a init_ms=600
	busy kreloc_spin_a
	# A snapshot taken before the recording ends: one kreloc inject must refuse.
	[ $rec = plain ] && ./kreloc snapshot -o /tmp/snap.early
	unload a1 kreloc_spin_a
	load b kreloc_spin_b init_ms=300
	busy kreloc_spin_b
	unload b kreloc_spin_b
	load a2 kreloc_spin_a init_ms=300
	busy kreloc_spin_a
	unload a2 kreloc_spin_a
	stamp end
	kill -INT $pid
	wait $pid
	echo "# perf record ($rec: $opts) exit $?: $(tail -1 /tmp/$rec.log)"
	section $rec.data /tmp/$rec.data
	for t in a1 b a2; do
		cat /tmp/$t.init.kallsyms /tmp/$t.kallsyms | sort -u > /tmp/$rec.$t.kallsyms
		section $rec.$t.kallsyms /tmp/$rec.$t.kallsyms
		section $rec.$t.sections /tmp/$t.sections
	done
	section $rec.stamps /tmp/stamps
done
# A recording in a clock kreloc does not record.
perf record -k realtime -e cpu-clock -a -o /tmp/realtime.data -- sleep 0.2 > /tmp/rt.log 2>&1
echo "# perf record -k realtime exit $?: $(tail -1 /tmp/rt.log)"
section realtime.data /tmp/realtime.data
section snap.early /tmp/snap.early
section p.kallsyms /tmp/p.kallsyms
section p.sections /tmp/p.sections
# The guest's own /proc/kallsyms, saved after the recordings (perf's
# --kallsyms of a user who saved it).
section proc.kallsyms /proc/kallsyms
./kreloc snapshot -o /tmp/snap
echo "# kreloc snapshot exit $?"
section snapshot /tmp/snap
EOT
chmod +x "$work/stage/kreloc/job"
# An int3 Oops of the kernel patching its own text (a static key of
# perf's that perf_event_open() or the last close flips), with no kreloc
# frame in its trace, is multi-threaded TCG's (rig/run-vm.sh: seen before
# /init too; in two of the last three runs of this job on 7.3.4): boot
# once more, on single-threaded TCG, where one vCPU's patch is whole
# before another runs; keep the first console, and say so.  Any other
# failure, or a second one, fails.
tcg_int3() {
	awk '/Oops: int3/ { o = 1 } o && /\[kreloc/ { k = 1 } o && /end trace/ { exit }
	     END { exit !(o && !k) }' "$1"
}
int3_retry=""
if ! "$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log"; then
	tcg_int3 "$work/console.log" || exit 1
	mv "$work/console.log" "$work/console.log.int3"
	echo "rig: an int3 Oops in the kernel's own text patching, no kreloc frame (see $work/console.log.int3): booting once more" >&2
	int3_retry=1
	KRELOC_QEMU_EXTRA="${KRELOC_QEMU_EXTRA:-} -accel tcg,thread=single" \
		"$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log"
fi
tr -d '\r' < "$work/out.log" > "$work/out"
mkdir -p "$work/guest"
awk -v dir="$work/guest" '
	/^FILE-BEGIN / { f = dir "/" $2 ".b64"; next }
	/^FILE-END / { close(f); f = ""; next }
	f { print > f }' "$work/out"
for f in "$work/guest/"*.b64; do
	base64 -d < "$f" | gzip -dc > "${f%.b64}" && rm -f "$f"
done
echo "# guest run: $(grep -c '^# ' "$work/out") notes; files: $(ls "$work/guest" | wc -l); build ${build_s}s${int3_retry:+; booted twice, the second on single-threaded TCG: the first died of an int3 Oops in text patching}"

# --- on the host: another machine, as a user would report it ---------------
# perf of the same release: the host's (bookworm) for 6.1, the root's
# linux-perf of the series otherwise (run in the root).
hperf() {
	if [ -n "${BUILD_ROOT:-}" ]; then
		IN_ROOT_CACHE=1 in_root "$BUILD_ROOT" "$perfbin" "$@"
	else
		"$perfbin" "$@"
	fi
}
map=$("$top/rig/groundtruth.sh" "$envf")
K="$work/src/tools/cli/kreloc"
G="$work/guest" H="$work/host"
mkdir -p "$H"
cp "$work/build/kreloc.ko" "$work/mods/"
# Every step below is a result of its own: none stops the others.
set +e
{
	echo "KRELOC-TEST-BEGIN dbgtools-inject"
	echo "TAP version 13"
	n=0
	tap() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi; }
	grep '^# ' "$work/out" || true
	for rec in plain g-mono; do
		clock=perf
		[ $rec = plain ] || clock=mono
		script=(script --ns -G -F time,ip,sym,symoff,dso)
		# kreloc inject, then plain perf on its output
		"$K" inject -i "$G/$rec.data" -o "$H/$rec.inj" --snapshot "$G/snapshot" \
			--modules-dir "$work/mods" > "$H/$rec.inject.out" 2> "$H/$rec.inject.err"
		rc=$?
		tap $rc "$rec: kreloc inject writes $(wc -l < "$H/$rec.inject.out") lines of summary, exit $rc"
		sed 's/^/#   /' "$H/$rec.inject.err"
		hperf "${script[@]}" -i "$H/$rec.inj" --kallsyms "$G/proc.kallsyms" \
			> "$H/$rec.inject.txt" 2> "$H/$rec.inject.script.err"
		hperf script -D -i "$H/$rec.inj" > "$H/$rec.dump.txt" 2>/dev/null
		hperf report -i "$H/$rec.inj" --kallsyms "$G/proc.kallsyms" --stdio --sort dso,sym \
			> "$H/$rec.report.txt" 2> "$H/$rec.report.err"
		rc=$?
		warn=$(grep -ciE 'warning|problem|out of order|unordered|error' "$H/$rec.report.err" \
			"$H/$rec.inject.script.err" | awk -F: '{s += $NF} END {print s + 0}')
		tap $(( rc != 0 || warn != 0 )) "$rec: perf report and perf script of the injected file: exit $rc, $warn warnings"
		head -5 "$H/$rec.report.err" "$H/$rec.inject.script.err" | sed 's/^/#   /'
		grep -E '\[kreloc_spin' "$H/$rec.report.txt" | head -8 | sed 's/^/#   report: /'
		# the same recording without kreloc inject
		hperf "${script[@]}" -i "$G/$rec.data" > "$H/$rec.alone.txt" 2>/dev/null
		hperf "${script[@]}" -i "$G/$rec.data" --kallsyms "$G/proc.kallsyms" \
			> "$H/$rec.proc.txt" 2>/dev/null
		"$K" kallsyms --snapshot "$G/snapshot" --system-map "$map" --modules-dir "$work/mods" \
			-o "$H/kallsyms" 2> "$H/kallsyms.err"
		hperf "${script[@]}" -i "$G/$rec.data" --kallsyms "$H/kallsyms" \
			> "$H/$rec.kallsyms.txt" 2>/dev/null
		# every .ko in perf's build-id cache, as perf archive would bring them
		rm -rf "$H/buildid"
		for ko in "$work/mods/"kreloc_spin_*.ko; do
			hperf --buildid-dir "$H/buildid" buildid-cache -a "$ko" 2>/dev/null
		done
		hperf --buildid-dir "$H/buildid" "${script[@]}" -i "$G/$rec.data" \
			> "$H/$rec.buildid.txt" 2>/dev/null
		"$K" resolve --snapshot "$G/snapshot" --system-map "$map" --modules-dir "$work/mods" \
			--text < "$H/$rec.alone.txt" > "$H/$rec.resolve.txt" 2>/dev/null
		"$K" resolve --snapshot "$G/snapshot" --system-map "$map" --modules-dir "$work/mods" \
			--text --clock $clock < "$H/$rec.alone.txt" > "$H/$rec.resolve-time.txt" 2>/dev/null
	done
	hperf inject -i "$G/plain.data" -o - > "$H/pipe.data" 2>/dev/null
	"$top/tests/perf/badinput.sh" "$K" "$G" "$work/mods" "$work/bad" "$H/pipe.data" | awk -v n=$n '
		/^(not )?ok / { sub(/^ok [0-9]+/, "ok " ++n); sub(/^not ok [0-9]+/, "not ok " n) } { print }'
	n=$((n + 10))
	python3 "$top/tests/perf/check.py" "$work" plain g-mono | awk -v n=$n '
		/^(not )?ok / { sub(/^ok [0-9]+/, "ok " ++n); sub(/^not ok [0-9]+/, "not ok " n) } { print }'
} > "$work/ktap.raw"
# 2 results per recording here, 10 refusals (badinput.sh), 9 per recording
# from check.py (the loader's reuse, perf script -D, four module loads,
# perf alone, resolve without and with times) and 2 of kreloc kallsyms
{
	sed -n '1,2p' "$work/ktap.raw"
	echo "1..34"
	echo "# stage took ${build_s}s to build"
	sed '1,2d' "$work/ktap.raw"
	echo "KRELOC-TEST-END dbgtools-inject rc=0"
} > "$work/ktap"
cat "$work/ktap"
# The table, for Documentation/results.md (rig/results.py), beside the job's results.
if [ -s "$work/table.md" ]; then
	{
		echo "### perf $perf_series on $KVER: module samples named right, by how they were named"
		echo
		echo "Samples per module load: kreloc_spin_p loaded before the recording,"
		echo "kreloc_spin_a (a1), kreloc_spin_b at its freed address (b), kreloc_spin_a"
		echo "again (a2) loaded and unloaded during it (rig/vm-inject.sh, tests/perf/check.py)."
		echo
		cat "$work/table.md"
	} > "$(dirname "$results")/table.inject-$KVER.md"
fi
KRELOC_PLAN=dbgtools-inject:34 KRELOC_TAG="$UNAME_M $KVER" \
	"$top/rig/ktap.sh" "$work/ktap" "$work/console.log" "$results"
