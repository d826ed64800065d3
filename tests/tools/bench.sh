#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/tools/bench.sh: kreloc resolve throughput and map load time on the
# Debian 6.1 amd64 link-time map (~94k symbols), and kreloc vs
# `addr2line -f` for the same module addresses.  Not a test: prints numbers.
#   BENCH_N      core addresses (default 10000000)
#   BENCH_MOD_N  module addresses (default 20000)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/fixtures.sh"
N="${BENCH_N:-10000000}" MN="${BENCH_MOD_N:-20000}"
[ -s "$MAP" ] || { echo "bench: no $MAP (rig/groundtruth.sh on amd64-6.1 makes it)"; exit 4; }
W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
make -s -C "$top/tools/cli" kreloc || exit 1
K="$top/tools/cli/kreloc"
cc -std=c11 -O2 -o "$W/gen" "$here/gen.c" || exit 1
export GEN="$W/gen"

# "CPU WALL" seconds of a command (CPU = user + sys).
cpu() { local TIMEFORMAT='%3U %3S %3R'; { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{printf "%.3f %.3f\n", $1 + $2, $3}'; }

# The captured boot (fixtures.sh): its snapshot, and fat.ko for the
# comparison with addr2line.
mkroot "$W/root"
"$K" --root "$W/root" snapshot -o "$W/snap" || exit 1
KOFF=$(kval "$DATA/debugfs/info" KERNELOFFSET)
mname=fat
ko="$W/fat.ko"
xz -dc "$DATA/modules/fat.ko.xz" > "$ko"
MODDIR="$DATA/modules"
fatrec=$(ls "$W/root/sys/kernel/debug/kreloc/module/"fat@* | head -1)
echo "map: $MAP ($(wc -l < "$MAP") lines), snapshot $(wc -c < "$W/snap") bytes"
# Map load: resolve one address, best of 5.
best=9
for _ in 1 2 3 4 5; do
	t=$(cpu "$K" resolve --snapshot "$W/snap" --system-map "$MAP" 0xffffffff9f200000 | awk '{print $2}')
	best=$(awk -v a="$best" -v b="$t" 'BEGIN {print (b < a) ? b : a}')
done
echo "map load + 1 address: $(awk -v t="$best" 'BEGIN {printf "%.1f", t * 1000}') ms wall (best of 5; goal <= 50 ms)"

"$GEN" core 100000 1 "$KOFF" < "$MAP" | "$GEN" repeat "$N" > "$W/addrs"
read -r c r < <(cpu sh -c "'$K' resolve --snapshot '$W/snap' --system-map '$MAP' - < '$W/addrs'")
echo "resolve: $N core addresses (100k distinct, random over all text): $c s CPU, $r s wall"
echo "resolve throughput: $(awk -v n="$N" -v c="$c" 'BEGIN {printf "%.1f", n / c / 1e6}')M addresses/s per CPU-second (goal >= 10M; includes map load and I/O)"

# Module addresses: kreloc (its ELF reader, .ko.xz) vs addr2line -f on the same .ko.
sec=$(readelf -SW "$ko" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p')
text=$(awk '$2 == ".text" {print $3}' "$fatrec")
readelf -sW "$ko" | awk -v sec="$sec" '$4 == "FUNC" && $7 == sec && $3 > 4 {print $2}' | sort -u > "$W/funcs"
nf=$(wc -l < "$W/funcs")
awk -v n="$MN" -v nf="$nf" 'NR == FNR {f[NR] = $1; next} END {srand(3); for (i = 0; i < n; i++) print f[int(rand() * nf) + 1]}' "$W/funcs" /dev/null > "$W/mrel"
while read -r v; do printf '0x%x\n' $((text + 0x$v + 2)); done < "$W/mrel" > "$W/maddr"
while read -r v; do printf '0x%x\n' $((0x$v + 2)); done < "$W/mrel" > "$W/mrel2"
read -r kc kr < <(cpu sh -c "'$K' resolve --snapshot '$W/snap' --system-map '$MAP' --modules-dir '$MODDIR' - < '$W/maddr'")
read -r ac ar < <(cpu sh -c "addr2line -f -j .text -e '$ko' < '$W/mrel2'")
# Same answers?
"$K" resolve --snapshot "$W/snap" --system-map "$MAP" --modules-dir "$MODDIR" - < "$W/maddr" | awk '{sub(/\+.*/, "", $2); print $2}' > "$W/k.names"
addr2line -f -j .text -e "$ko" < "$W/mrel2" | awk 'NR % 2 == 1' > "$W/a.names"
same=$(paste -d' ' "$W/k.names" "$W/a.names" | awk '$1 == $2 {s++} END {print s + 0}')
echo "module $mname.ko ($nf .text functions), $MN addresses:"
echo "  kreloc resolve --modules-dir: $kc s CPU ($kr s wall, includes map load and the .ko search)"
echo "  addr2line -f -j .text:        $ac s CPU ($ar s wall)"
echo "  ratio addr2line/kreloc: $(awk -v a="$ac" -v k="$kc" 'BEGIN {printf "%.1f", (k > 0) ? a / k : 0}')x; same function name for $same of $MN"
