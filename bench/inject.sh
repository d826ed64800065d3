#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/inject.sh GUEST MODS: `kreloc inject` next to `perf inject -b`
# (perf's own pass over a recording: it reads every event and marks the
# dsos hit) on the same recordings, those rig/vm-inject.sh took in a guest
# (GUEST: its guest/ directory; MODS: the modules' .ko).  For each
# recording: its size and samples, the wall and CPU time of each (median
# of 5 runs, after one to warm the page cache), their ratio, and kreloc
# inject's heap at its peak (valgrind massif: the memory it asks for; the
# recording is mapped from the page cache, not copied), which must not
# follow the number of samples.  Not a test: prints numbers.
set -uo pipefail
G="$1" M="$2"
top=$(cd "$(dirname "$0")/.." && pwd)
K="$top/tools/cli/kreloc"
W=$(mktemp -d "${TMPDIR:-/tmp}/kreloc-ibench.XXXXXX")
trap 'rm -rf "$W"' EXIT
make -s -C "$top/tools/cli" kreloc >/dev/null || exit 1

# median5 CMD...: "WALL CPU" seconds, the median run of 5 by wall time.
median5() {
	local i
	"$@" > /dev/null 2>&1
	for i in 1 2 3 4 5; do
		/usr/bin/time -f "%e %U %S" -o "$W/t" "$@" > /dev/null 2>&1
		awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$W/t"
	done | sort -n | sed -n 3p
}

for rec in plain g-mono; do
	in="$G/$rec.data"
	[ -s "$in" ] || continue
	samples=$(perf report -i "$in" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
	read -r kw kc < <(median5 "$K" inject -i "$in" -o "$W/out" --snapshot "$G/snapshot" \
		--modules-dir "$M")
	read -r pw pc < <(median5 perf inject -b -i "$in" -o "$W/perf.out")
	heap=$(valgrind --tool=massif --pages-as-heap=no --massif-out-file="$W/massif" \
		"$K" inject -i "$in" -o "$W/out" --snapshot "$G/snapshot" --modules-dir "$M" \
		> /dev/null 2>&1; awk -F= '/mem_heap_B=/ {if ($2 > m) m = $2} END {print m + 0}' "$W/massif")
	maps=$("$K" inject -i "$in" -o "$W/out" --snapshot "$G/snapshot" --modules-dir "$M" \
		2>/dev/null | grep -c '^\[')
	echo "BENCH inject $rec: $(stat -c %s "$in") bytes, ${samples:-?} samples, $maps module maps;" \
		"kreloc inject ${kw} s (${kc} s CPU), perf inject -b ${pw} s (${pc} s CPU):" \
		"$(awk -v a="$kw" -v b="$pw" 'BEGIN {printf "%.2fx", (b > 0 ? a / b : 0)}') perf inject -b's time;" \
		"kreloc inject's heap peak $((heap / 1024)) KiB"
done
