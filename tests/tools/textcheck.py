#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""textcheck.py KALLSYMS SNAPSHOT INPUT OUTPUT: check `kreloc resolve --text`.

INPUT is text captured from a guest (trace_pipe, perf script, an Oops),
OUTPUT what `kreloc resolve --text` made of it, KALLSYMS that boot's
/proc/kallsyms (or the lines of it the numbers of INPUT fall on and after),
SNAPSHOT that boot's snapshot (for where module text lies).  OUTPUT must be
INPUT byte for byte, with " <SYMBOL+0xOFF>" or " <SYMBOL+0xOFF [MODULE]>"
inserted after numbers (past the brackets closing them), and:
  - each inserted SYMBOL must be the symbol /proc/kallsyms had at
    NUMBER - OFF, in that MODULE (or the core kernel), with no symbol of it
    between there and NUMBER;
  - each number in the core kernel's text (_stext.._etext) or a loaded
    module's text region must have one.
The numbers are found here with a regular expression of its own, not with
kreloc's code.  Prints one line of counts; exit 1 on any mismatch.
"""
import bisect
import re
import sys

TOK = re.compile(rb"(?<![0-9A-Za-z_])(?:0[xX])?([0-9a-fA-F]{1,16})(?![0-9A-Za-z_])[)\]>}]*")
ANN = re.compile(rb" <([^<>\s\[\]]+)\+0x([0-9a-f]+)(?: \[([A-Za-z0-9_-]+)(?:@[0-9]+)?\])?>")


def load_kallsyms(path):
    syms = {}
    for line in open(path, "rb"):
        f = line.split()
        if len(f) < 3:
            continue
        mod = f[3].strip(b"[]") if len(f) > 3 else b""
        syms.setdefault(mod, []).append((int(f[0], 16), f[2]))
    for v in syms.values():
        v.sort()
    return syms


def module_text(path):
    """The text regions of the live module records: (lo, hi, name)."""
    out, mod, live = [], None, False
    for line in open(path, "rb"):
        f = line.split()
        if f and f[0] == b"module":
            mod, live = f[1], f[2] == b"live"
        elif f and f[0] == b"region" and f[1] == b"text" and live and f[2] != b"-":
            lo = int(f[2], 16)
            out.append((lo, lo + int(f[3], 16), mod))
    return out


def main():
    ks_path, snap_path, in_path, out_path = sys.argv[1:5]
    syms = load_kallsyms(ks_path)
    core = syms.get(b"", [])
    names = {a: n for a, n in core}
    by_name = {n: a for a, n in core}
    stext, etext = by_name.get(b"_stext"), by_name.get(b"_etext")
    mtext = module_text(snap_path)
    inp = open(in_path, "rb").read().split(b"\n")
    out = open(out_path, "rb").read().split(b"\n")
    errors, counts = [], {"core": 0, "module": 0, "numbers": 0}
    if len(inp) != len(out):
        errors.append("%d lines in, %d out" % (len(inp), len(out)))
    for lineno, (a, b) in enumerate(zip(inp, out), 1):
        i = j = 0
        for m in TOK.finditer(a):
            e = m.end()
            if a[i:e] != b[j:j + e - i]:
                break
            j += e - i
            i = e
            counts["numbers"] += 1
            v = int(m.group(1), 16)
            ann = ANN.match(b, j)
            in_text = (stext is not None and etext is not None and stext <= v < etext) or \
                any(lo <= v < hi for lo, hi, _ in mtext)
            if not ann:
                if in_text:
                    errors.append("line %d: %s (kernel text) has no symbol" % (lineno, m.group(0).decode()))
                continue
            j = ann.end()
            sym, off, mod = ann.group(1), int(ann.group(2), 16), ann.group(3) or b""
            table = syms.get(mod.replace(b"-", b"_"), [])
            addrs = [x for x, _ in table]
            k = bisect.bisect_right(addrs, v)
            ok = any(x == v - off and n == sym for x, n in table) and k > 0 and addrs[k - 1] == v - off
            if not ok:
                want = "%s+0x%x" % (table[k - 1][1].decode(), v - addrs[k - 1]) if k else "nothing"
                errors.append("line %d: %s: <%s> but kallsyms gives %s" %
                              (lineno, m.group(0).decode(), b[ann.start() + 2:ann.end() - 1].decode(), want))
            counts["module" if mod else "core"] += 1
        if a[i:] != b[j:]:
            errors.append("line %d differs from the input after byte %d: %r / %r" % (lineno, i, a[i:i + 40], b[j:j + 40]))
    if not counts["core"] + counts["module"]:
        errors.append("no address annotated")
    for e in errors[:8]:
        print(e, file=sys.stderr)
    print("%d numbers, %d core and %d module addresses named, %d errors" %
          (counts["numbers"], counts["core"], counts["module"], len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
