#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""timecheck.py: what a guest saw when, and `kreloc resolve` checked against it.

DATA is a capture of tests/tools/capture-testdata.sh reuse: a module A
(kreloc_busy) loaded, unloaded, B (kreloc_gone) loaded at A's old address,
unloaded, A loaded again (A2), with a trace_marker line at each stage in
two ftrace buffers, trace-perf (trace_clock perf: local_clock()) and
trace-mono (CLOCK_MONOTONIC).  The ground truth comes from the guest and
its kernel, never from kreloc:
  - which stage a time belongs to: the markers "before", "gap-AB" and
    "gap-BA" were written when no module held A's memory; the module
    loaded after one of them and unloaded before the next (A, B, A2) is
    the only one that held it in between;
  - which record a stage is: debugfs modules, by LOAD_GEN (A and A2 are
    kreloc_busy's first and second records, B kreloc_gone's);
  - the symbol at an address: that stage's /proc/kallsyms lines (kallsyms-A,
    -B, -A2), and for init code, freed before they were read, the .ko's
    symbol table at the record's sections as the kernel listed them.

  timecheck.py marks DATA CLOCK
      print "STAGE SECONDS" for each marker of trace-CLOCK (perf or mono)
  timecheck.py records DATA
      print "STAGE NAME@GEN STATE" for A, B and A2
  timecheck.py name DATA STAGE ADDR
      print "SYMBOL+0xOFF [NAME@GEN] SECTION": what the ground truth names
      ADDR at that stage (the record's section from its debugfs file)
  timecheck.py straddle DATA CLOCK
      print "SECONDS FIRST SECOND": a time with fewer digits whose window
      holds a marker of stage FIRST and one of stage SECOND, and no time
      outside the two (between the gap markers around them)
  timecheck.py text DATA INPUT OUTPUT CLOCK|-
      OUTPUT is `kreloc resolve --text [--clock CLOCK]` of INPUT, a text
      whose lines carry perf script's or ftrace's timestamps in CLOCK:
      INPUT byte for byte, every number that lies in a module record's
      memory followed by an annotation; with CLOCK, " <SYM+0xOFF [MOD]>"
      (MOD@GEN for an unloaded record) of the record that held it at the
      line's time, SYM+0xOFF as the ground truth names it; with "-",
      " <ambiguous: ...>" naming every record that ever held it
      (holders.py), that one among them.  Prints counts; exit 1 on any
      mismatch.
"""
import bisect
import lzma
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import holders  # noqa: E402

MARK = re.compile(r"\s(\d+)\.(\d+): tracing_mark_write: kreloc-stage (\S+)")
LINE_TIME = re.compile(rb"(?:^|\s)(\d+)\.(\d+):(?:\s|$)")
NUM = re.compile(rb"(?<![0-9A-Za-z_])(?:0[xX])?([0-9a-fA-F]{16})(?![0-9A-Za-z_])[)\]>}]*")
ANN = re.compile(rb" <([^<>\s\[\]]+)\+0x([0-9a-f]+) \[([A-Za-z0-9_-]+)(@[0-9]+)?\]>")
AMB = re.compile(rb" <ambiguous: ([^<>]+)>")
# A stage: the marker before it (no module held the memory then) and its name.
OPENERS = {"before": "A", "gap-AB": "B", "gap-BA": "A2"}


def ns(sec, frac):
    return int(sec) * 10**9 + int((frac + "000000000")[:9])


def marks(data, clock):
    out = []
    for line in open(os.path.join(data, "trace-" + clock)):
        m = MARK.search(line)
        if m:
            out.append((m.group(3), m.group(1) + "." + m.group(2), ns(m.group(1), m.group(2))))
    return out


def records(data):
    """{stage: (name, gen, state)} from debugfs modules, by LOAD_GEN."""
    recs = []
    for line in open(os.path.join(data, "debugfs/modules")):
        f = line.split()
        if f and not f[0].startswith("#") and f[0] in ("kreloc_busy", "kreloc_gone"):
            recs.append((int(f[4]), f[0], f[1]))
    recs.sort()
    busy = [r for r in recs if r[1] == "kreloc_busy"]
    gone = [r for r in recs if r[1] == "kreloc_gone"]
    assert len(busy) == 2 and len(gone) == 1, recs
    return {s: (r[1], r[0], r[2]) for s, r in (("A", busy[0]), ("B", gone[0]), ("A2", busy[1]))}


def stage_at(mk, t):
    """The stage time t (ns) lies in, by the markers, or None."""
    st = None
    for name, _, tm in mk:
        if tm > t:
            break
        if name in OPENERS:
            st = OPENERS[name]
    return st


def symtab(data, stage, rec):
    """Sorted [(address, name)]: the stage's kallsyms text lines, and the .ko's
    functions at the record's sections as debugfs lists them."""
    name, gen, _ = rec
    out = []
    for line in open(os.path.join(data, "kallsyms-" + stage)):
        f = line.split()
        if len(f) >= 3 and f[1] in "tT":
            out.append((int(f[0], 16), f[2]))
    sec = {}
    for line in open(os.path.join(data, "debugfs/module/%s@%d" % (name, gen))):
        f = line.split()
        if len(f) >= 3 and f[0] == "section" and f[2] != "-":
            sec[f[1]] = int(f[2], 16)
    with tempfile.NamedTemporaryFile(suffix=".ko") as ko:
        ko.write(lzma.open(os.path.join(data, "modules", name + ".ko.xz")).read())
        ko.flush()
        r = subprocess.run(["readelf", "-SsW", ko.name], capture_output=True, text=True, check=True).stdout
    shn = {}
    for line in r.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)", line)
        if m:
            shn[m.group(1)] = m.group(2)
    for line in r.splitlines():
        f = line.split()
        if len(f) == 8 and f[3] == "FUNC" and f[6] in shn and shn[f[6]] in sec:
            out.append((sec[shn[f[6]]] + int(f[1], 16), f[7]))
    return sorted(set(out))


def named(table, v, sym, off):
    """None if table has sym at v - off and nothing between; else what it gives."""
    addrs = [a for a, _ in table]
    k = bisect.bisect_right(addrs, v)
    if k and addrs[k - 1] == v - off and any(a == v - off and n == sym for a, n in table):
        return None
    return "%s+0x%x" % (table[k - 1][1], v - addrs[k - 1]) if k else "nothing"


def straddle(data, clock):
    """A window of fewer digits holding markers of two stages and nothing else."""
    mk = marks(data, clock)
    t = {n: (s, tm) for n, s, tm in mk}
    for first, last, second, lo, hi in (("A", "A-last", "B", "before", "gap-BA"),
                                        ("B", "B-last", "A2", "gap-AB", "end")):
        a, b = t[last][0], t[second][0]
        for digits in range(6, -1, -1):
            cut = lambda s: s.split(".")[0] + ("." + s.split(".")[1][:digits] if digits else "")
            if cut(a) == cut(b):
                w = cut(a)
                w0 = ns(*(w.split(".") + [""])[:2])
                if t[lo][1] < w0 and w0 + 10**(9 - digits) - 1 < t[hi][1]:
                    return w, first, second
                break
    return None


def check_text(data, inp, out, clock):
    recs = records(data)
    mk = marks(data, clock) if clock != "-" else None
    hrecs = holders.records(os.path.join(data, "debugfs/module"))
    tables = {s: symtab(data, s, recs[s]) for s in recs}
    a = open(inp, "rb").read().split(b"\n")
    b = open(out, "rb").read().split(b"\n")
    errors, n = [], {"named": 0, "ambiguous": 0, "other": 0, "stages": set()}
    if len(a) != len(b):
        errors.append("%d lines in, %d out" % (len(a), len(b)))
    for lineno, (x, y) in enumerate(zip(a, b), 1):
        tm = LINE_TIME.search(x)
        t = ns(tm.group(1).decode(), tm.group(2).decode()) if tm else None
        i = j = 0
        for m in NUM.finditer(x):
            v = int(m.group(1), 16)
            held = holders.holders(hrecs, v)
            if not held:
                continue
            e = m.end()
            if x[i:e] != y[j:j + e - i]:
                break
            j += e - i
            i = e
            if len(held) == 1 and held[0] not in ["%s@%d" % r[:2] for r in recs.values()]:
                # Memory only another record ever held (kreloc's own text):
                # named by it, with or without a time (no file: no symbol).
                ann = ANN.match(y, j)
                live = [r for r in open(os.path.join(data, "debugfs/modules")) if r.split()[:1] ==
                        [held[0].split("@")[0]] and r.split()[4] == held[0].split("@")[1]]
                want = held[0].split("@")[0] if live and live[0].split()[1] == "live" else held[0]
                if not ann or ann.group(3).decode() + (ann.group(4) or b"").decode() != want:
                    errors.append("line %d: %s, which only %s held, is not named by it" %
                                  (lineno, m.group(1).decode(), held[0]))
                    continue
                j = ann.end()
                n["other"] += 1
                continue
            st = stage_at(mk, t) if mk and t is not None else None
            if mk and st is None:
                errors.append("line %d: %s at %s: in no stage" % (lineno, m.group(1).decode(), t))
                continue
            if mk:
                name, gen, state = recs[st]
                ann = ANN.match(y, j)
                if not ann:
                    errors.append("line %d: %s (%s, stage %s) has no single name: %r" %
                                  (lineno, m.group(1).decode(), t, st, y[j:j + 60]))
                    continue
                j = ann.end()
                sym, off = ann.group(1).decode(), int(ann.group(2), 16)
                tag = ann.group(3).decode() + (ann.group(4) or b"").decode()
                want = name if state == "live" else "%s@%d" % (name, gen)
                wrong = named(tables[st], v, sym, off)
                if tag != want or wrong:
                    errors.append("line %d: %s at stage %s: <%s+0x%x [%s]>, but it was %s's: %s" %
                                  (lineno, m.group(1).decode(), st, sym, off, tag, want, wrong or "%s+0x%x" % (sym, off)))
                    continue
                n["named"] += 1
                n["stages"].add(st)
            else:
                amb = AMB.match(y, j)
                cands = holders.split_candidates(amb.group(1).decode()) if amb else None
                why = holders.check_candidates(cands, held, None) if amb else "not marked ambiguous"
                if not why and not any(c[2] == "%s@%d" % recs[s][:2] and not named(tables[s], v, c[0], c[1])
                                       for c in cands for s in recs):
                    why = "no candidate is a record's symbol as the ground truth names it"
                if why:
                    errors.append("line %d: %s, which %s held: %s" % (lineno, m.group(1).decode(), held, why))
                    continue
                j = amb.end()
                n["ambiguous"] += 1
        if x[i:] != y[j:]:
            errors.append("line %d differs from the input after byte %d: %r / %r" % (lineno, i, x[i:i + 40], y[j:j + 40]))
    if not n["named"] + n["ambiguous"]:
        errors.append("no module address annotated")
    for e in errors[:8]:
        print(e, file=sys.stderr)
    print("%d module addresses named by the record of their time (stages %s), %d ambiguous, "
          "%d of a record alone at its address, %d errors" %
          (n["named"], ",".join(sorted(n["stages"])) or "-", n["ambiguous"], n["other"], len(errors)))
    return 1 if errors else 0


def main():
    mode, data = sys.argv[1], sys.argv[2]
    if mode == "marks":
        for name, s, _ in marks(data, sys.argv[3]):
            print(name, s)
    elif mode == "records":
        for s, (name, gen, state) in records(data).items():
            print(s, "%s@%d" % (name, gen), state)
    elif mode == "name":
        st, v = sys.argv[3], int(sys.argv[4], 16)
        name, gen, _ = records(data)[st]
        table = symtab(data, st, (name, gen, None))
        k = bisect.bisect_right([a for a, _ in table], v)
        secs = []
        for line in open(os.path.join(data, "debugfs/module/%s@%d" % (name, gen))):
            f = line.split()
            if len(f) >= 3 and f[0] == "section" and f[2] != "-" and int(f[2], 16) <= v:
                secs.append((int(f[2], 16), f[1]))
        if not k or not secs:
            return 1
        print("%s+0x%x [%s@%d] %s" % (table[k - 1][1], v - table[k - 1][0], name, gen, max(secs)[1]))
    elif mode == "straddle":
        w = straddle(data, sys.argv[3])
        if not w:
            print("no window of fewer digits holds two stages' markers alone", file=sys.stderr)
            return 1
        print(*w)
    elif mode == "text":
        return check_text(data, sys.argv[3], sys.argv[4], sys.argv[5])
    return 0


if __name__ == "__main__":
    sys.exit(main())
