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
    module's text region must have one;
  - a number that several module records' memory held (the loader reuses
    freed memory; holders.py reads the snapshot's regions) must have
    " <ambiguous: SYMBOL+0xOFF [MODULE@GEN] | ...>" instead, naming each of
    those records, newest first, and nothing else; the candidate of a
    module /proc/kallsyms lists must be what it gives there.
The numbers are found here with a regular expression of its own, not with
kreloc's code.  Prints one line of counts; exit 1 on any mismatch.
"""
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import holders  # noqa: E402

TOK = re.compile(rb"(?<![0-9A-Za-z_])(?:0[xX])?([0-9a-fA-F]{1,16})(?![0-9A-Za-z_])[)\]>}]*")
ANN = re.compile(rb" <([^<>\s\[\]]+)\+0x([0-9a-f]+)(?: \[([A-Za-z0-9_-]+)(?:@[0-9]+)?\])?>")
AMB = re.compile(rb" <ambiguous: ([^<>]+)>")


def named(syms, v, sym, off, mod):
    """None if kallsyms has sym in mod at v - off with no symbol between; else what it gives."""
    table = syms.get(mod.replace(b"-", b"_"), [])
    addrs = [x for x, _ in table]
    k = bisect.bisect_right(addrs, v)
    if any(x == v - off and n == sym for x, n in table) and k > 0 and addrs[k - 1] == v - off:
        return None
    return "%s+0x%x" % (table[k - 1][1].decode(), v - addrs[k - 1]) if k else "nothing"


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
    recs = holders.records(snap_path)
    inp = open(in_path, "rb").read().split(b"\n")
    out = open(out_path, "rb").read().split(b"\n")
    errors, counts = [], {"core": 0, "module": 0, "numbers": 0, "ambiguous": 0}
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
            want = holders.holders(recs, v)
            amb = AMB.match(b, j)
            if len(want) > 1 or amb:
                cands = holders.split_candidates(amb.group(1).decode()) if amb else None
                why = holders.check_candidates(cands, want, None) if amb else "not marked ambiguous"
                for sym, off, modgen, _ in cands if not why else []:
                    mod = modgen.split("@")[0].encode()
                    if mod in syms:
                        wrong = named(syms, v, sym.encode(), off, mod)
                        if wrong:
                            why = "candidate %s+0x%x [%s] but kallsyms gives %s" % (sym, off, modgen, wrong)
                if why:
                    errors.append("line %d: %s, which %s held: %s" % (lineno, m.group(0).decode(), want, why))
                else:
                    counts["ambiguous"] += 1
                j = amb.end() if amb else j
                continue
            if not ann:
                if in_text:
                    errors.append("line %d: %s (kernel text) has no symbol" % (lineno, m.group(0).decode()))
                continue
            j = ann.end()
            sym, off, mod = ann.group(1), int(ann.group(2), 16), ann.group(3) or b""
            wrong = named(syms, v, sym, off, mod)
            if wrong:
                errors.append("line %d: %s: <%s> but kallsyms gives %s" %
                              (lineno, m.group(0).decode(), b[ann.start() + 2:ann.end() - 1].decode(), wrong))
            counts["module" if mod else "core"] += 1
        if a[i:] != b[j:]:
            errors.append("line %d differs from the input after byte %d: %r / %r" % (lineno, i, a[i:i + 40], b[j:j + 40]))
    if not counts["core"] + counts["module"]:
        errors.append("no address annotated")
    for e in errors[:8]:
        print(e, file=sys.stderr)
    print("%d numbers, %d core and %d module addresses named, %d ambiguous (several records held them), %d errors" %
          (counts["numbers"], counts["core"], counts["module"], counts["ambiguous"], len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
