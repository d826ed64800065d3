#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# badinput.sh KRELOC GUEST MODS WORK PIPE: kreloc inject refuses what it
# cannot inject right, says why, exits 1 (2 for a usage error), writes
# nothing and leaves its input as it was.  The inputs are the guest's real
# recordings and snapshots (rig/vm-inject.sh), or copies of them changed
# the one way a case needs:
#   realtime.data      a real recording with perf record -k realtime
#   snap.early         a real snapshot taken before the recording ended
#   truncated          plain.data cut in the middle of its data
#   pipe mode          PIPE: plain.data as `perf inject -o -` wrote it
#   other byte order   the magic byte-swapped
#   version 1          the old PERFFILE magic
#   unknown header     a header size perf never wrote
#   another arch       its arch feature says aarch64
#   another boot       the snapshot's _text moved
#   no times           the snapshot without its times (format 3's keys gone)
# Prints KTAP results, no plan (10 of them).
set -uo pipefail
K="$1" G="$2" M="$3" W="$4" pipe="$5"
n=0
mkdir -p "$W"

# case NAME INPUT SNAPSHOT EXIT REGEX
case_() {
	local name="$1" in="$2" snap="$3" want="$4" re="$5" before after rc
	before=$(md5sum < "$in")
	rm -rf "$W/out" "$W/out.kreloc"
	"$K" inject -i "$in" -o "$W/out" --snapshot "$snap" --modules-dir "$M" \
		> "$W/$name.out" 2> "$W/$name.err"
	rc=$?
	after=$(md5sum < "$in")
	n=$((n + 1))
	if [ "$rc" = "$want" ] && grep -qE -e "$re" "$W/$name.err" && [ "$before" = "$after" ] &&
	   [ ! -e "$W/out" ] && [ ! -e "$W/out.kreloc" ]; then
		echo "ok $n $name: refused, exit $rc: $(head -1 "$W/$name.err"); input unchanged, nothing written"
	else
		echo "not ok $n $name: exit $rc (want $want), input $([ "$before" = "$after" ] && echo unchanged || echo CHANGED), output $([ -e "$W/out" ] && echo WRITTEN || echo none)"
		sed 's/^/# /' "$W/$name.err"
	fi
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place.
patch() {
	printf "$(sed 's/../\\x&/g' <<<"$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

S="$G/snapshot" P="$G/plain.data"
case_ "a recording in perf record -k realtime" "$G/realtime.data" "$S" 1 \
	"-k realtime .clockid 0.: kreloc records local_clock"
case_ "a snapshot taken before the recording ended" "$P" "$G/snap.early" 1 \
	"after the snapshot was taken"
size=$(stat -c %s "$P")
head -c $((size / 2)) "$P" > "$W/truncated.data"
case_ "a truncated perf.data" "$W/truncated.data" "$S" 1 "truncated"
case_ "a perf.data of a pipe (perf inject -o -)" "$pipe" "$S" 1 "of a pipe"
cp "$P" "$W/swapped.data"
patch "$W/swapped.data" 0 "32454c4946524550"
case_ "a perf.data of the other byte order" "$W/swapped.data" "$S" 1 "other byte order"
cp "$P" "$W/v1.data"
patch "$W/v1.data" 0 "5045524646494c45"
case_ "a perf.data of version 1 (PERFFILE)" "$W/v1.data" "$S" 1 "version 1"
cp "$P" "$W/hdr.data"
patch "$W/hdr.data" 8 "c800000000000000"
case_ "a perf.data whose header kreloc does not know" "$W/hdr.data" "$S" 1 "header of 200 bytes"
# The arch feature: its string rewritten (same room) to aarch64.
cp "$P" "$W/arch.data"
python3 - "$W/arch.data" <<'EOT'
import struct, sys
f = open(sys.argv[1], "r+b")
d = f.read()
doff, dsize = struct.unpack_from("<QQ", d, 40)
feats = struct.unpack_from("<4Q", d, 72)
at, bit = doff + dsize, 0
for bit in range(256):
    if feats[bit // 64] >> (bit % 64) & 1:
        off, size = struct.unpack_from("<QQ", d, at)
        at += 16
        if bit == 6:    # HEADER_ARCH
            n, = struct.unpack_from("<I", d, off)
            f.seek(off + 4)
            f.write(b"aarch64".ljust(n, b"\0"))
EOT
case_ "a perf.data recorded on another arch" "$W/arch.data" "$S" 1 "recorded on aarch64"
# (another KASLR slot: one bit of _text's 2 MiB-aligned place flipped)
python3 -c 'import sys
for l in open(sys.argv[1]):
    w = l.split()
    if w and w[0] == "REF_RUNTIME":
        l = "REF_RUNTIME 0x%x\n" % (int(w[1], 16) ^ 0x40000000)
    sys.stdout.write(l)' "$S" > "$W/boot.snap"
case_ "a snapshot of another boot (_text elsewhere)" "$P" "$W/boot.snap" 1 "recorded on another boot"
# Format 3 without the times, as an older kreloc module leaves it.
awk '!/^(TAKEN|SINCE|INIT_FREED_BY)_/ && !/^end / {print; n++} END {print "end " n + 1}' \
	"$S" > "$W/untimed.snap"
case_ "a snapshot without times" "$P" "$W/untimed.snap" 1 "no times"
