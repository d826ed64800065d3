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

# ---------------------------------------------------------------- libkreloc, warm
# The library's resolve on warm data (one core: this thread's CPU time),
# next to eu-addr2line (elfutils) and llvm-symbolizer on the same vmlinux
# (the rig's ELF with the symbols of the map, rig/vmlinux-symbols.sh) and
# the same addresses, as link-time ones (minus KERNELOFFSET: x86_64 moves
# the image as one).  Their rates leave their start (reading the vmlinux's
# symbols) out: (N - 1) / (time of N - time of 1).  Names compared with
# the ones gen.c picked from the map.
. "$top/rig/lib.sh"
need_pkgs elfutils llvm debuginfod pkg-config
envf="$W/env61"
VSYM=""
if "$top/rig/kernel-amd64.sh" 6.1 > "$envf" 2>/dev/null; then
	VSYM=$("$top/rig/vmlinux-symbols.sh" "$envf" 2>/dev/null) || VSYM=""
fi
if [ ! -s "$VSYM" ]; then
	echo "libkreloc: no vmlinux with symbols for $KVER (rig/vmlinux-symbols.sh): skipped"
	exit 0
fi
make -s -C "$top/tools/lib/kreloc" shared || exit 1
cc -std=c11 -O2 -Wall -Wextra -Werror -I"$top/tools/lib/kreloc/include" -o "$W/libbench" \
	"$here/libbench.c" -L"$top/tools/lib/kreloc" -lkreloc -Wl,-rpath,"$top/tools/lib/kreloc" || exit 1
LN="${BENCH_LIB_N:-100000}" LREP="${BENCH_LIB_REPEAT:-200}"
"$GEN" core "$LN" 2 "$KOFF" < "$MAP" > "$W/lb.lines"
awk '{print $1}' "$W/lb.lines" > "$W/lb.addrs"
awk '{print $2}' "$W/lb.lines" > "$W/lb.want"
while read -r a; do printf '0x%x\n' $((a - KOFF)); done < "$W/lb.addrs" > "$W/lb.link"
head -1 "$W/lb.link" > "$W/lb.one"
out=$("$W/libbench" "$W/snap" vmlinux "$VSYM" "$W/lb.addrs" "$LREP" "$W/lb.k.names") || exit 1
rate=$(sed -n 's/.* rate_per_s=\([0-9]*\) .*/\1/p' <<<"$out")
same() { paste -d' ' "$1" "$2" | awk '$1 == $2 {s++} END {print s + 0}'; }
echo "libkreloc resolve, warm, one core: $(awk -v r="$rate" 'BEGIN {printf "%.1f", r / 1e6}')M addresses/s ($(sed 's/^LIBBENCH //; s/ (sink.*//' <<<"$out"); goal >= 20M/s); names as the map's for $(same "$W/lb.k.names" "$W/lb.want") of $LN"
# rate_of CPU_N CPU_1: addresses per CPU-second past the start
rate_of() { awk -v n="$LN" -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", (a > b) ? (n - 1) / (a - b) : 0}'; }
read -r ec _ < <(cpu sh -c "eu-addr2line -S -e '$VSYM' < '$W/lb.link'")
read -r e1 _ < <(cpu sh -c "eu-addr2line -S -e '$VSYM' < '$W/lb.one'")
eu-addr2line -S -e "$VSYM" < "$W/lb.link" | awk 'NR % 2 == 1 {sub(/\+0x[0-9a-f]*$/, ""); print}' > "$W/lb.e.names"
erate=$(rate_of "$ec" "$e1")
echo "eu-addr2line -S (elfutils): $(awk -v r="$erate" 'BEGIN {printf "%.2f", r / 1e6}')M addresses/s ($LN in $ec s CPU, $e1 s of it the start); names as libkreloc's for $(same "$W/lb.e.names" "$W/lb.k.names") of $LN"
read -r lc _ < <(cpu sh -c "llvm-symbolizer --obj='$VSYM' < '$W/lb.link'")
read -r l1 _ < <(cpu sh -c "llvm-symbolizer --obj='$VSYM' < '$W/lb.one'")
llvm-symbolizer --obj="$VSYM" < "$W/lb.link" | awk 'BEGIN {RS = ""} {print $1}' > "$W/lb.l.names"
lrate=$(rate_of "$lc" "$l1")
echo "llvm-symbolizer ($(llvm-symbolizer --version 2>/dev/null | grep -o 'version [0-9.]*' | head -1)): $(awk -v r="$lrate" 'BEGIN {printf "%.2f", r / 1e6}')M addresses/s ($LN in $lc s CPU, $l1 s of it the start); names as libkreloc's for $(same "$W/lb.l.names" "$W/lb.k.names") of $LN"
echo "ratio libkreloc / the faster of the two: $(awk -v k="$rate" -v e="$erate" -v l="$lrate" 'BEGIN {f = e > l ? e : l; printf "%.0f", f ? k / f : 0}')x (goal >= 10x)"

# ---------------------------------------------------------------- debuginfod: first and second run
# A debuginfod on 127.0.0.1 serving that vmlinux; kreloc resolve of one
# address with no map: the first run fetches it (69 MB) into an empty
# DEBUGINFOD_CACHE_PATH, the second finds it there.  Wall time.
mkdir -p "$W/dd"
cp "$VSYM" "$W/dd/vmlinux"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod -p "$port" -d "$W/dd.sqlite" -t0 -g0 -F "$W/dd" > "$W/dd.log" 2>&1 &
dpid=$!
for _ in $(seq 60); do
	python3 -c "import urllib.request, sys; t = urllib.request.urlopen('http://127.0.0.1:$port/metrics').read().decode(); sys.exit(0 if 'found_executable_total{source=\"files\"} 1' in t else 1)" 2>/dev/null && break
	sleep 0.5
done
a1=$(head -1 "$W/lb.addrs")
for run in first second; do
	read -r _ w < <(cpu env DEBUGINFOD_URLS="http://127.0.0.1:$port" DEBUGINFOD_CACHE_PATH="$W/dd.cache" \
		"$K" resolve --snapshot "$W/snap" "$a1")
	echo "debuginfod, $run run (vmlinux $([ $run = first ] && echo fetched || echo from the cache)): $(awk -v t="$w" 'BEGIN {printf "%.0f", t * 1000}') ms wall for one address"
done
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null
