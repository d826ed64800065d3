#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vmlinux-symbols.sh ENV: print the path of a vmlinux with symbols for the
# kernel of ENV, made once and cached.  An env that names one (VMLINUX, a
# kernel built here) gets it back.  Debian ships its vmlinux with symbols
# only in the ~860 MB -dbg package; this is the cheap equivalent for gdb
# without DWARF:
#   - the ELF vmlinux inside the image (tools/kreloc-extract-vmlinux, the
#     scripts/extract-vmlinux method): the very bytes the kernel runs, with
#     its section headers and its build-id note, stripped of .symtab;
#   - the symbols of the link-time map (rig/groundtruth.sh: a nokaslr boot's
#     /proc/kallsyms of the same image), each added by objcopy --add-symbol
#     to the section that holds its address (t/T/w/W functions, the others
#     objects; lower case local).  Absolute symbols (the per-CPU offsets)
#     and addresses outside every section are left out.
# objcopy does not touch .notes: the result keeps the image's build id, which
# `kreloc gdb` compares with the running kernel's.  The symbols have no size
# (kallsyms has none): gdb names an address by the symbol before it, as
# /proc/kallsyms does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envf="$1"
# shellcheck disable=SC1090
. "$envf"
if [ -n "${VMLINUX:-}" ] && [ -s "$VMLINUX" ]; then
	echo "$VMLINUX"
	exit 0
fi
top=$(cd "$(dirname "$0")/.." && pwd)
need_pkgs binutils python3 xz-utils zstd
map=$("$top/rig/groundtruth.sh" "$envf")
out="$CACHE/maps/$KVER.vmlinux"
exec 9> "$out.lock"
flock -w 1800 9 || die "cannot lock $out"
if [ -s "$out" ] && [ "$out" -nt "$map" ]; then
	echo "$out"
	exit 0
fi
"$top/tools/kreloc-extract-vmlinux" "${VMLINUZ:-$KIMAGE}" "$out.raw" ||
	die "no vmlinux ELF in ${VMLINUZ:-$KIMAGE}"
if readelf -SW "$out.raw" | grep -q ' \.symtab '; then
	mv "$out.raw" "$out"	# not stripped: nothing to add
	echo "$out"
	exit 0
fi
readelf -SW "$out.raw" | sed -n 's/^ *\[ *[0-9]*\] //p' |
	awk '$2 ~ /^(PROGBITS|NOBITS|NOTE)$/ && $3 !~ /^0+$/ {print $1, $3, $5}' > "$out.secs"
python3 - "$out.secs" "$map" "$out.args" "$out.want" <<'EOF'
import sys

secs = []
for line in open(sys.argv[1]):
    name, addr, size = line.split()
    secs.append((name, int(addr, 16), int(addr, 16) + int(size, 16)))
added = skipped = 0
with open(sys.argv[3], "w") as out, open(sys.argv[4], "w") as want:
    for line in open(sys.argv[2]):
        addr, typ, name = line.split()[:3]
        a = int(addr, 16)
        # a symbol at a section's end belongs to it (_etext, __bss_stop)
        sec = next((s for s in secs if s[1] <= a <= s[2]), None)
        if typ in "aAuUNn?" or not sec:
            skipped += 1
            continue
        kind = "function" if typ in "tTwW" else "object"
        bind = "weak" if typ in "wWvV" else "local" if typ.islower() else "global"
        out.write("--add-symbol %s=%s:0x%x,%s,%s\n" % (name, sec[0], a - sec[1], bind, kind))
        want.write("%016x %s\n" % (a, name))
        added += 1
print("vmlinux-symbols: %d symbols added, %d left out (absolute or outside the sections)"
      % (added, skipped), file=sys.stderr)
EOF
objcopy @"$out.args" "$out.raw" "$out.tmp"
# Every symbol where the map has it, and the map and the image one build:
# the map's _text is where the image links .text.
nm "$out.tmp" | awk '{print $1, $3}' | LC_ALL=C sort > "$out.got"
LC_ALL=C sort "$out.want" | cmp -s - "$out.got" ||
	die "$out.tmp: the symbols are not the map's (see $out.want, $out.got)"
text=$(awk '$3 == "_text" {print $1}' "$map")
[ "$(awk '$1 == ".text" {print $2}' "$out.secs")" = "$text" ] ||
	die "$out.tmp: .text does not link at the map's _text $text"
rm -f "$out.raw" "$out.secs" "$out.args" "$out.want" "$out.got"
mv "$out.tmp" "$out"
echo "$out"
