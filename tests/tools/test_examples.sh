#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_examples.sh KRELOC WORKDIR: every shell example of README.md and of
# the man pages (tools/cli/Documentation/*.8), read from those files now
# (tests/tools/examples.py), one KTAP document on stdout.  The examples
# that can run on the host run here, with KRELOC as `kreloc`, against two
# real boots of Debian's 6.1 (tests/tools/data, see their CAPTURE files):
#   boot1.snap, boot1.krs   the snapshot of data/amd64-6.1's boot, written
#                           now from its captured debugfs files
#   root/                   a fake / of that boot: kreloc's debugfs files,
#                           /proc/kallsyms, the kprobe blacklist, tracefs
#                           (plain files), /lib/modules/RELEASE/*.ko.xz, and
#                           the other boot's trace_pipe
#   boot.snap, ks, oops     data/amd64-6.1-text's snapshot, /proc/kallsyms
#                           and Oops; `dmesg` prints that Oops, a bare
#                           `perf script` its perf script, `uname -r` the
#                           release
#   System.map              that build's link-time map: the nokaslr boot's
#                           (rig/groundtruth.sh) when cached, otherwise
#                           the captured kallsyms moved back by the offset
#                           kallsyms' _text shows against the image's
#   vmlinux                 rig/vmlinux-symbols.sh's, when cached
#   modules/, mods/         the .ko.xz files both boots loaded
#   addrs                   runtime addresses of boot1 (kallsyms + offsets)
# The examples that need a live kernel are listed with where they run.
set -uo pipefail
K="$1" W="$2"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
exec 3>&1
TD="$here/data/amd64-6.1-text"
T="$W/template" S="$W/shims"
mkdir -p "$T/modules" "$S"

mkroot "$T/root"
cp "$TD/trace_pipe" "$T/root/sys/kernel/tracing/trace_pipe"
mkdir -p "$T/root/lib/modules/$KVER"
cp "$DATA"/modules/* "$TD"/modules/* "$T/modules/"
cp "$T"/modules/* "$T/root/lib/modules/$KVER/"
ln -s modules "$T/mods"
"$K" --root "$T/root" snapshot -o "$T/boot1.snap" 2> "$W/snap.err" ||
	{ echo "TAP version 13"; echo "1..1"; echo "not ok 1 examples: a snapshot of the captured boot"; diag < "$W/snap.err"; exit 1; }
cp "$T/boot1.snap" "$T/boot1.krs"
cp "$TD/snapshot" "$T/boot.snap"
cp "$TD/oops" "$T/oops"
xz -dc "$TD/kallsyms.xz" > "$T/ks"
if [ -s "$MAP" ]; then
	ln -s "$MAP" "$T/System.map"
else
	# kallsyms' _text against the image's (the anchor's LINKED, from the
	# vmlinuz): every address of that boot moved back by the difference.
	kallsyms_full "$W/ks1"
	python3 - "$W/ks1" "$DATA/debugfs/anchors" > "$T/System.map" <<'PY' || exit 1
import sys
syms = [l.split() for l in open(sys.argv[1]) if "\t" not in l]
run = next(int(a, 16) for a, t, n in (s[:3] for s in syms) if n == "_text")
lnk = next(int(l.split()[1], 16) for l in open(sys.argv[2]) if l.split()[0] == "_text")
for a, t, n in sorted((int(s[0], 16) - (run - lnk), s[1], s[2]) for s in syms):
    print(f"{a:016x} {t} {n}")
PY
fi
v="$CACHE/maps/$KVER.vmlinux"
[ -s "$v" ] && ln -s "$v" "$T/vmlinux"
# boot1's addresses: core functions and vfat's, a few bytes in, from its /proc/kallsyms
xz -dc "$DATA/kallsyms.xz" | python3 -c '
import sys
want = {("vfs_read", ""), ("do_sys_openat2", ""), ("ksys_write", ""), ("vfat_lookup", "[vfat]")}
for l in sys.stdin:
    f = l.split()
    if (f[2], f[3] if len(f) > 3 else "") in want:
        print(hex(int(f[0], 16) + 5))' > "$T/addrs"
[ "$(wc -l < "$T/addrs")" -eq 4 ] || { echo "TAP version 13"; echo "1..1"; echo "not ok 1 examples: boot1's addresses"; exit 1; }

ln -s "$K" "$S/kreloc"
printf '#!/bin/sh\ncat "%s"\n' "$TD/oops" > "$S/dmesg"
printf '#!/bin/sh\n[ "$*" = script ] && exec cat "%s"\necho "perf: only a bare perf script is shimmed" >&2; exit 127\n' "$TD/perf-script" > "$S/perf"
printf '#!/bin/sh\n[ "$*" = -r ] && exec echo "%s"\nexec /bin/uname "$@"\n' "$KVER" > "$S/uname"
chmod +x "$S"/*

echo "TAP version 13"
man=("$top"/tools/cli/Documentation/*.8)
python3 "$here/examples.py" run "$T" "$S" "$top/README.md" "${man[@]}"
