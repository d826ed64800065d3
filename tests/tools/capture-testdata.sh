#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# capture-testdata.sh [PROFILE] OUTDIR [OLD_KRELOC]: record the host CLI
# tests' data from a real kernel, once.  Nothing in OUTDIR is made up: each
# file is what a QEMU boot of a Debian kernel printed.  PROFILE:
#
#   cli (default; data/amd64-6.1)  the newest Debian amd64 6.1 kernel (KASLR
#       on) with kreloc built from its vmlinuz; loads vfat (with fat), loads
#       and unloads dummy (a history record from a real unload, the newest
#       record in its address range), and saves:
#         debugfs/          every file of /sys/kernel/debug/kreloc, as read
#         kallsyms.xz       /proc/kallsyms of that boot, its text symbols and
#                           section markers (the ground truth)
#         blacklist         /sys/kernel/debug/kprobes/blacklist
#         notes/NAME        /sys/module/NAME/notes/.note.gnu.build-id (hex)
#         sections/NAME     /sys/module/NAME/sections/* as "NAME ADDRESS"
#         snapshot-v1       the snapshot OLD_KRELOC (a static kreloc of
#                           snapshot format 1) wrote in that boot, if given
#         modules/...ko.xz  the .ko files those modules were loaded from
#         CAPTURE           kernel, date and how
#
#   rust (data/amd64-7-map)  trixie-backports' newest 7.x (Rust, KSYM_NAME_LEN
#       512) with kreloc built from the link-time map (rig/groundtruth.sh),
#       as a user with the -dbg package's System.map builds it: its anchors
#       include Rust names of more than 128 characters.  Loads the Rust PHY
#       driver ax88796b_rust and loads and unloads dummy; saves debugfs/,
#       blacklist, notes/, sections/, modules/ax88796b_rust.ko.xz and a
#       kallsyms.xz of the lines the tests use: every name of 128 characters
#       or more, the section markers and the anchors.
#
#   text (data/amd64-6.1-text)  the 6.1 kernel as for cli, with vfat and the
#       test module kreloc_busy (tests/dbgtools/module) loaded; records what
#       `kreloc resolve --text` reads:
#         snapshot          `kreloc snapshot` in that boot (this tree's CLI)
#         trace_pipe        tracefs trace_pipe: kprobes with %ip and the
#                           return address, a kretprobe, a probe in
#                           kreloc_busy, the function tracer with sym-addr
#         perf-script       `perf script` of `perf record -a -g`
#         oops              the kernel log of an Oops in kreloc_busy_oops()
#         kallsyms.xz       the lines of that boot's /proc/kallsyms the
#                           numbers in those texts fall on or after, with
#                           the next ones, the markers and the anchors
#         modules/kreloc_busy.ko.xz  the module as loaded (built here)
#         CAPTURE
#
#   fleet (data/amd64-6.1-fleet)  the 6.1 kernel as for cli, for the
#       debuginfod tests: vfat (Debian's stripped .ko, which no debuginfod
#       serves), kreloc_busy loaded, then kreloc_gone (tests/tools/gone-module)
#       loaded and unloaded again (a history record with init code; module
#       memory freed earlier may be reused: an address two records held is
#       ambiguous without a time); then `kreloc snapshot`:
#         snapshot          the snapshot (this tree's CLI)
#         kallsyms.xz       /proc/kallsyms of that boot: the module lines,
#                           every 16th core text line, the init text, the
#                           markers and the anchors
#         kallsyms-gone     kreloc_gone's lines of /proc/kallsyms while it
#                           was loaded
#         sections/NAME     as for cli, kreloc_gone's read while it was loaded
#         modules/NAME.ko.xz  kreloc_busy and kreloc_gone as built here,
#                           with their DWARF (what a -dbg package holds)
#         CAPTURE
#
#   reuse (data/amd64-6.1-reuse)  the 6.1 kernel as for cli, for the times
#       kreloc records (snapshot format 3): one module's memory held by
#       another after it.  Under `perf record -a`, with kprobes on the two
#       modules' functions (init and text) traced in two ftrace buffers
#       (trace_clock perf, which is local_clock(), and an instance in mono,
#       CLOCK_MONOTONIC) and a trace_marker line at each stage: loads
#       kreloc_busy (A), spins in it, unloads it, loads kreloc_gone (B; the
#       loader puts it at A's old address, which is checked here), unloads
#       it, loads kreloc_busy again (A2) and spins; then `kreloc snapshot`.
#       Each buffer is read while the module its events fell in is loaded
#       (ftrace names addresses when it prints them).  Saves:
#         snapshot          `kreloc snapshot` at the end (this tree's CLI)
#         debugfs/          every file of /sys/kernel/debug/kreloc after it
#         kallsyms-A, -B, -A2  the module's /proc/kallsyms lines while it
#                           was loaded (the ground truth of each stage)
#         trace-perf, trace-mono  the two buffers: markers "kreloc-stage
#                           NAME" (before, A, A-last, gap-AB, B, B-last,
#                           gap-BA, A2, end), each probe hit with its %ip
#         perf-script       `perf script -F comm,tid,cpu,time,event,ip,sym,dso`,
#                           the samples whose ip lies in a module record
#         kallsyms.xz       /proc/kallsyms at the end: the module lines,
#                           the markers and the anchors
#         notes/NAME        as for cli
#         modules/NAME.ko.xz  kreloc_busy and kreloc_gone as built here,
#                           without their DWARF
#         CAPTURE
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/rig/lib.sh"

profile=cli
case "${1:-}" in cli | rust | text | fleet | reuse) profile="$1"; shift ;; esac
out="$1" old="${2:-}"
envf="$CACHE/tmp/capture-$profile.env"
case $profile in
rust) "$top/rig/kernel-amd64.sh" 7 > "$envf" ;;
*) "$top/rig/kernel-amd64.sh" 6.1 > "$envf" ;;
esac
# shellcheck disable=SC1090
. "$envf"
work="$CACHE/run/capture-$profile"
rm -rf "$work"
mkdir -p "$work/stage/kreloc"
modroot=$(mod_root "$MODDIR")
case $profile in
rust)
	map=$("$top/rig/groundtruth.sh" "$envf")
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" LINKED_SOURCE=system.map SYSTEM_MAP="$map"
	"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" dummy ax88796b_rust
	;;
*)
	"$top/rig/build-kreloc.sh" "$envf" "$work/build" VMLINUZ="$KIMAGE" SYSTEM_MAP=/nonexistent
	"$top/rig/stage-modules.sh" "$modroot" "$KVER" "$work/stage" dummy vfat
	;;
esac
cp "$work/build/kreloc.ko" "$work/stage/kreloc/"
[ -n "$old" ] && cp "$old" "$work/stage/kreloc/kreloc-v1"
if [ $profile = text ] || [ $profile = fleet ] || [ $profile = reuse ]; then
	mkdir -p "$work/busy" "$work/src"
	cp "$top/tests/dbgtools/module/"*.c "$top/tests/dbgtools/module/Kbuild" "$work/busy/"
	make -s -C "$KDIR" M="$work/busy" modules >/dev/null
	cp "$work/busy/kreloc_busy.ko" "$work/stage/kreloc/"
	cp -r "$top/tools" "$top/lib" "$top/dkms.conf" "$work/src/"
	make -s -C "$work/src/tools/cli" kreloc-static >&2
	cp "$work/src/tools/cli/kreloc-static" "$work/stage/kreloc/kreloc"
fi
if [ $profile = text ] || [ $profile = reuse ]; then "$top/rig/stage-perf.sh" "$work/stage" > /dev/null; fi
if [ $profile = fleet ] || [ $profile = reuse ]; then
	mkdir -p "$work/gone"
	cp "$top/tests/tools/gone-module/"*.c "$top/tests/tools/gone-module/Kbuild" "$work/gone/"
	make -s -C "$KDIR" M="$work/gone" modules >/dev/null
	cp "$work/gone/kreloc_gone.ko" "$work/stage/kreloc/"
fi

# The guest prints each file between FILE-BEGIN NAME and FILE-END NAME.
cat > "$work/stage/kreloc/job" <<'EOT'
#!/bin/sh
emit() { echo "FILE-BEGIN $1"; cat "$2"; echo "FILE-END $1"; }
d=/sys/kernel/debug/kreloc
insmod ./kreloc.ko
echo 0 > /proc/sys/kernel/kptr_restrict
EOT
case $profile in
cli) cat >> "$work/stage/kreloc/job" <<'EOT'
modprobe vfat
modprobe dummy && rmmod dummy
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
mods="fat vfat"
EOT
;;
rust) cat >> "$work/stage/kreloc/job" <<'EOT'
modprobe ax88796b_rust
modprobe dummy && rmmod dummy
mods="ax88796b_rust"
EOT
;;
text) cat >> "$work/stage/kreloc/job" <<'EOT'
modprobe vfat
insmod ./kreloc_busy.ko
./kreloc snapshot -o /tmp/snap && emit snapshot /tmp/snap
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
# kprobes: the probed address (%ip) and, at entry, the return address on
# the stack; a kretprobe (its "<- caller"); one in the module.
echo 'p:kt/read vfs_read ip=%ip ret=+0(%sp):x64' >> $T/kprobe_events
echo 'r:kt/read_ret vfs_read rv=$retval' >> $T/kprobe_events
echo 'p:kt/spin kreloc_busy:kreloc_busy_spin ip=%ip ret=+0(%sp):x64' >> $T/kprobe_events
# the function tracer, addresses printed beside the names (sym-addr)
echo vfs_write > $T/set_ftrace_filter
echo 1 > $T/options/sym-addr
# Tracing only while the workload runs: the reader of trace_pipe reads
# and writes too, and would trace itself.
echo 0 > $T/tracing_on
echo 1 > $T/events/kt/enable
echo function > $T/current_tracer
echo 1 > $T/tracing_on
# (busybox cat copies with sendfile: head calls read)
for i in 1 2; do head -c 200 /proc/version > /dev/null; done
echo 20 > /sys/kernel/debug/kreloc_busy/spin
echo 0 > $T/tracing_on
timeout 3 cat $T/trace_pipe | head -c 100000 > /tmp/trace_pipe
echo nop > $T/current_tracer
echo 0 > $T/events/kt/enable
emit trace_pipe /tmp/trace_pipe
# perf, with call chains, the busy loop in kreloc_busy sampled
echo -1 > /proc/sys/kernel/perf_event_paranoid
perf record -q -e cpu-clock -F 200 -a -g -o /tmp/perf.data -- \
	sh -c 'echo 400 > /sys/kernel/debug/kreloc_busy/spin; cat /proc/kallsyms > /dev/null' 2>/dev/null
perf script -i /tmp/perf.data 2>/dev/null | head -c 150000 > /tmp/perf.txt
emit perf-script /tmp/perf.txt
# an Oops in the module; the writer is killed, the kernel lives on
dmesg -c > /dev/null
sh -c 'echo 1 > /sys/kernel/debug/kreloc_busy/oops' 2>/dev/null
dmesg > /tmp/oops
emit oops /tmp/oops
mods=""
EOT
;;
fleet) cat >> "$work/stage/kreloc/job" <<'EOT'
modprobe vfat
insmod ./kreloc_busy.ko
insmod ./kreloc_gone.ko
echo "FILE-BEGIN sections/kreloc_gone"
for s in /sys/module/kreloc_gone/sections/.[!.]* /sys/module/kreloc_gone/sections/*; do
	[ -f "$s" ] && echo "${s##*/} $(cat "$s")"
done
echo "FILE-END sections/kreloc_gone"
echo "FILE-BEGIN kallsyms-gone"; grep '\[kreloc_gone\]' /proc/kallsyms; echo "FILE-END kallsyms-gone"
rmmod kreloc_gone
./kreloc snapshot -o /tmp/snap && emit snapshot /tmp/snap
mods="kreloc_busy vfat fat"
EOT
;;
reuse) cat >> "$work/stage/kreloc/job" <<'EOT'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
# One buffer per clock kreloc records: the top one in perf's clock
# (local_clock()), an instance in CLOCK_MONOTONIC.
mkdir $T/instances/mono
echo perf > $T/trace_clock
echo mono > $T/instances/mono/trace_clock
# Probes on functions of both modules, armed by the kernel as each loads
# (at MODULE_STATE_COMING: their init functions too).  The event's name
# says whose function the kernel found at %ip.
echo 'p:kr/busy_init kreloc_busy:kreloc_busy_init ip=%ip' >> $T/kprobe_events
echo 'p:kr/busy_spin kreloc_busy:kreloc_busy_spin ip=%ip' >> $T/kprobe_events
echo 'p:kr/spin_write kreloc_busy:spin_write ip=%ip' >> $T/kprobe_events
echo 'p:kr/gone_init kreloc_gone:kreloc_gone_init ip=%ip' >> $T/kprobe_events
echo 1 > $T/events/kr/enable
echo 1 > $T/instances/mono/events/kr/enable
cat > /tmp/stages <<'EOS'
T=/sys/kernel/tracing
mark() { echo "kreloc-stage $1" > $T/trace_marker; echo "kreloc-stage $1" > $T/instances/mono/trace_marker; }
# Read while the module the events fell in is loaded: ftrace names an
# address when it prints it.
drain() {
	grep -v '^#' $T/trace >> /tmp/trace-perf; echo > $T/trace
	grep -v '^#' $T/instances/mono/trace >> /tmp/trace-mono; echo > $T/instances/mono/trace
}
ks() { echo "FILE-BEGIN kallsyms-$1"; grep "\[$2\]" /proc/kallsyms; echo "FILE-END kallsyms-$1"; }
mark before
insmod ./kreloc_busy.ko
mark A
echo 300 > /sys/kernel/debug/kreloc_busy/spin
ks A kreloc_busy
drain
mark A-last
rmmod kreloc_busy
mark gap-AB
insmod ./kreloc_gone.ko
mark B
ks B kreloc_gone
drain
mark B-last
rmmod kreloc_gone
mark gap-BA
drain
insmod ./kreloc_busy.ko
mark A2
echo 300 > /sys/kernel/debug/kreloc_busy/spin
ks A2 kreloc_busy
drain
mark end
drain
EOS
echo -1 > /proc/sys/kernel/perf_event_paranoid
perf record -q -e cpu-clock -F 500 -a -o /tmp/perf.data -- sh /tmp/stages
perf script -i /tmp/perf.data -F comm,tid,cpu,time,event,ip,sym,dso 2>/dev/null > /tmp/perf.txt
emit perf-script /tmp/perf.txt
emit trace-perf /tmp/trace-perf
emit trace-mono /tmp/trace-mono
./kreloc snapshot -o /tmp/snap && emit snapshot /tmp/snap
mods=""
EOT
;;
esac
cat >> "$work/stage/kreloc/job" <<'EOT'
for f in info sections anchors modules; do emit "debugfs/$f" "$d/$f"; done
for f in "$d"/module/*; do emit "debugfs/module/${f##*/}" "$f"; done
for m in /sys/module/*/notes/.note.gnu.build-id; do
	n=${m#/sys/module/}; n=${n%%/*}
	echo "FILE-BEGIN notes/$n"; od -An -v -tx1 "$m" | tr -d ' \n'; echo; echo "FILE-END notes/$n"
done
for m in $mods; do
	echo "FILE-BEGIN sections/$m"
	for s in /sys/module/$m/sections/.[!.]* /sys/module/$m/sections/*; do
		[ -f "$s" ] && echo "${s##*/} $(cat "$s")"
	done
	echo "FILE-END sections/$m"
done
emit blacklist /sys/kernel/debug/kprobes/blacklist
# compressed: the serial port moves about 100 KB/s under TCG
echo "FILE-BEGIN kallsyms.gz.b64"; gzip -1 -c /proc/kallsyms | base64; echo "FILE-END kallsyms.gz.b64"
EOT
chmod +x "$work/stage/kreloc/job"
KRELOC_VM_TIMEOUT=900 "$top/rig/run-vm.sh" "$envf" "$work/stage" "$work/console.log" "" "$work/out.log"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
tr -d '\r' < "$work/out.log" | awk -v dir="$out.tmp" '
	/^FILE-BEGIN / { f = dir "/" $2; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); printf "" > f; next }
	/^FILE-END / { close(f); f = ""; next }
	f != "" { print >> f }'
base64 -d < "$out.tmp/kallsyms.gz.b64" | gzip -dc > "$out.tmp/kallsyms"
rm "$out.tmp/kallsyms.gz.b64"
markers='^(_text|_stext|_etext|_sinittext|_einittext|__start_rodata|__end_rodata|_sdata|_edata|__bss_start|__bss_stop)$'
case $profile in
cli)
	# Text symbols (what the tests resolve and probe) and the section
	# markers: about a third of the whole, 360 KB compressed.
	awk -v m="$markers" '$2 ~ /^[tTwW]$/ || $3 ~ m' "$out.tmp/kallsyms" | xz -9e > "$out.tmp/kallsyms.xz"
	;;
rust)
	awk -v m="$markers" 'NR == FNR { if (!/^#/) a[$1] = 1; next }
		length($3) >= 128 || $3 ~ m || ($3 in a)' \
		"$out.tmp/debugfs/anchors" "$out.tmp/kallsyms" | xz -9e > "$out.tmp/kallsyms.xz"
	;;
text)
	# The lines each number of the texts falls on or after, and the next
	# ones (so a checker knows where that symbol ends), markers, anchors.
	python3 - "$out.tmp" "$markers" <<'EOPY'
import re, sys
d, markers = sys.argv[1], re.compile(sys.argv[2])
lines = [l.rstrip("\n") for l in open(d + "/kallsyms")]
syms = sorted((int(l.split()[0], 16), i) for i, l in enumerate(lines) if l.split()[0] != "0" * 16)
addrs = [a for a, _ in syms]
keep = set()
anchors = {l.split()[0] for l in open(d + "/debugfs/anchors") if not l.startswith("#")}
for i, l in enumerate(lines):
    f = l.split()
    if markers.match(f[2]) or f[2] in anchors:
        keep.add(i)
tok = re.compile(rb"(?<![0-9A-Za-z_])(?:0[xX])?([0-9a-fA-F]{1,16})(?![0-9A-Za-z_])")
import bisect
for name in ("trace_pipe", "perf-script", "oops"):
    for m in tok.finditer(open(d + "/" + name, "rb").read()):
        v = int(m.group(1), 16)
        k = bisect.bisect_right(addrs, v)
        if k == 0:
            continue
        lo = addrs[k - 1]
        j = k - 1
        while j >= 0 and addrs[j] == lo:
            keep.add(syms[j][1]); j -= 1
        j = k
        if j < len(addrs):
            hi = addrs[j]
            while j < len(addrs) and addrs[j] == hi:
                keep.add(syms[j][1]); j += 1
with open(d + "/kallsyms.sel", "w") as f:
    for i in sorted(keep, key=lambda i: (int(lines[i].split()[0], 16), i)):
        f.write(lines[i] + "\n")
EOPY
	xz -9e < "$out.tmp/kallsyms.sel" > "$out.tmp/kallsyms.xz"
	rm "$out.tmp/kallsyms.sel"
	;;
reuse)
	awk -v m="$markers" 'NR == FNR { if (!/^#/) a[$1] = 1; next }
		$4 != "" || $3 ~ m || ($3 in a)' \
		"$out.tmp/debugfs/anchors" "$out.tmp/kallsyms" | xz -9e > "$out.tmp/kallsyms.xz"
	# B at A's old address, as the loader reuses freed memory: the point of it.
	ta=$(awk '$1 == "region" && $2 == "text" {print $3}' "$out.tmp/debugfs/module/kreloc_busy@"* | sort -u)
	tb=$(awk '$1 == "region" && $2 == "text" {print $3}' "$out.tmp/debugfs/module/kreloc_gone@"*)
	[ "$ta" = "$tb" ] || die "reuse: kreloc_busy's .text at $(echo $ta), kreloc_gone's at $tb: not one address"
	# The samples in module memory (the tests resolve those), not the whole machine's.
	python3 - "$out.tmp" <<'EOPY'
import sys
d = sys.argv[1]
regions = []
for l in open(d + "/snapshot"):
    f = l.split()
    if f[:1] == ["region"] and f[2] != "-" and f[3] != "-":
        regions.append((int(f[2], 16), int(f[2], 16) + int(f[3], 16)))
keep = []
for l in open(d + "/perf-script"):
    f = l.split()
    ip = [int(w, 16) for w in f if len(w) == 16 and all(c in "0123456789abcdef" for c in w)]
    if ip and any(lo <= ip[0] < hi for lo, hi in regions):
        keep.append(l)
open(d + "/perf-script", "w").writelines(keep)
EOPY
	rm -f "$out.tmp/blacklist"
	;;
fleet)
	awk -v m="$markers" 'NR == FNR { if (!/^#/) a[$1] = 1; next }
		$3 == "_sinittext" { init = 1 }
		$3 == "_einittext" { init = 0 }
		$4 != "" || $3 ~ m || ($3 in a) || init || ($2 ~ /^[tT]$/ && ++n % 16 == 0)' \
		"$out.tmp/debugfs/anchors" "$out.tmp/kallsyms" | xz -9e > "$out.tmp/kallsyms.xz"
	;;
esac
rm "$out.tmp/kallsyms"
mkdir -p "$out.tmp/modules"
case $profile in
cli) mods="dummy fat vfat" ;;
rust) mods="ax88796b_rust" ;;
text | fleet | reuse) mods="" ;;
esac
for m in $mods; do
	ko=$(find "$modroot/lib/modules/$KVER/kernel" -name "$m.ko*" | head -1)
	case "$ko" in
	*.xz) cp "$ko" "$out.tmp/modules/$m.ko.xz" ;;
	*) xz -9e -c "$ko" > "$out.tmp/modules/$m.ko.xz" ;;
	esac
done
# Without its DWARF (the build id and the symbol table stay): what resolve reads.
[ $profile = text ] && objcopy --strip-debug "$work/busy/kreloc_busy.ko" "$work/busy/kreloc_busy.stripped.ko" &&
	xz -9e -c "$work/busy/kreloc_busy.stripped.ko" > "$out.tmp/modules/kreloc_busy.ko.xz"
if [ $profile = reuse ]; then
	for m in busy/kreloc_busy gone/kreloc_gone; do
		objcopy --strip-debug "$work/$m.ko" "$work/$m.stripped.ko"
		xz -9e -c "$work/$m.stripped.ko" > "$out.tmp/modules/${m#*/}.ko.xz"
	done
fi
if [ $profile = fleet ]; then
	xz -9e -c "$work/busy/kreloc_busy.ko" > "$out.tmp/modules/kreloc_busy.ko.xz"
	xz -9e -c "$work/gone/kreloc_gone.ko" > "$out.tmp/modules/kreloc_gone.ko.xz"
fi
{
	echo "Captured by tests/tools/capture-testdata.sh $profile on $(date -u +%Y-%m-%d)"
	echo "kernel: Debian $KVER ($(basename "$KIMAGE")), QEMU TCG, KASLR on"
	case $profile in
	rust)
		echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the map of a nokaslr boot (rig/groundtruth.sh)"
		echo "job: insmod kreloc.ko; modprobe ax88796b_rust; modprobe dummy; rmmod dummy" ;;
	fleet)
		echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the vmlinuz"
		echo "job: insmod kreloc.ko; modprobe vfat; insmod kreloc_busy.ko; insmod kreloc_gone.ko;"
		echo "  rmmod kreloc_gone; kreloc snapshot" ;;
	reuse)
		echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the vmlinuz"
		echo "job: insmod kreloc.ko; ftrace kprobes on both modules, trace_clock perf (and mono in an instance);"
		echo "  under perf record -a: insmod kreloc_busy.ko, spin 300 ms, rmmod; insmod kreloc_gone.ko"
		echo "  (at kreloc_busy's old address), rmmod; insmod kreloc_busy.ko, spin 300 ms; kreloc snapshot" ;;
	text)
		echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the vmlinuz"
		echo "job: insmod kreloc.ko; modprobe vfat; insmod kreloc_busy.ko; kreloc snapshot; kprobes and"
		echo "  the function tracer (trace_pipe); perf record -a -g, perf script; an Oops in kreloc_busy" ;;
	*)
		echo "kreloc.ko: built from this tree at $(git -C "$top" rev-parse --short HEAD), link-time data from the vmlinuz"
		echo "job: insmod kreloc.ko; modprobe vfat; modprobe dummy; rmmod dummy" ;;
	esac
	[ -n "$old" ] && echo "snapshot-v1: written in that boot by the kreloc CLI of snapshot format 1, from" &&
		echo "  a copy of the debugfs files without the modules BUILD_ID column, which it" &&
		echo "  rejects (v1-on-live-debugfs.err)"
	true
} > "$out.tmp/CAPTURE"
rm -rf "$out"
mv "$out.tmp" "$out"
log "test data in $out"
