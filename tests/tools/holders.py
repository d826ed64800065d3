#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""holders.py: which module records' memory held an address, by the kernel's own records.

The loader reuses freed module memory, so an address may have been held by
several module records over a boot (an unloaded module and one loaded after
it; a freed init region and a module loaded into it).  Without the time it
was seen, `kreloc resolve` must answer such an address "ambiguous" with every
one of them as a candidate, newest record first.  This reads the records as
the kernel printed them, with code of its own, not kreloc's:

  SRC  a directory of debugfs module/NAME@LOAD_GEN files (a capture's
       debugfs/module), or a snapshot written in the guest (its module and
       region lines repeat those files)

  holders.py list SRC ADDR...
      print "ADDR NAME@GEN..." for each, the records newest first
  holders.py line SRC OUT ADDR RIGHT
      OUT (kreloc resolve's output) has "ADDR ambiguous: C | C ...": each
      candidate "SYMBOL+0xOFF [NAME@GEN] SECTION", their records exactly
      the holders of ADDR, newest first, and RIGHT (a candidate as the
      ground truth gives it) among them
  holders.py json SRC OUT ADDR RIGHT
      the same for resolve --json: the result of ADDR is "resolved": false,
      "ambiguous": true, and its "candidates" are those records

Used by test_cli.sh, test_debuginfod.sh, test_times.sh and textcheck.py.
Exit 1 (with the reason on stderr) when a check fails.
"""
import json
import os
import re
import sys

CAND = re.compile(r"^(\S+)\+0x([0-9a-f]+) \[([A-Za-z0-9_-]+)@([0-9]+)\](?: (\S+))?$")


def records(src):
    """[(name, load_gen, [(lo, hi), ...])] of every module record of SRC."""
    out = []
    if os.path.isdir(src):
        for f in sorted(os.listdir(src)):
            if "@" not in f:
                continue
            name, gen = f.rsplit("@", 1)
            ranges = []
            for line in open(os.path.join(src, f)):
                t = line.split()
                if len(t) >= 4 and t[0] == "region" and t[2] != "-" and t[3] != "-":
                    lo = int(t[2], 16)
                    ranges.append((lo, lo + int(t[3], 16)))
            out.append((name, int(gen), ranges))
        return out
    for line in open(src):
        t = line.split()
        if len(t) >= 6 and t[0] == "module":
            out.append((t[1], int(t[5]) if t[5] != "-" else -1, []))
        elif len(t) >= 4 and t[0] == "region" and out and t[2] != "-" and t[3] != "-":
            lo = int(t[2], 16)
            out[-1][2].append((lo, lo + int(t[3], 16)))
    return out


def holders(recs, addr):
    """NAME@GEN of the records a region of which held addr, newest first."""
    held = [(g, n) for n, g, r in recs if any(lo <= addr < hi for lo, hi in r)]
    return ["%s@%d" % (n, g) for g, n in sorted(held, reverse=True)]


def split_candidates(text):
    """The candidates of "C | C ...", each (symbol, offset, NAME@GEN, section or None), or None."""
    out = []
    for c in text.split(" | "):
        m = CAND.match(c.strip())
        if not m:
            return None
        out.append((m.group(1), int(m.group(2), 16), "%s@%s" % (m.group(3), m.group(4)), m.group(5)))
    return out


def check_candidates(cands, want, right):
    """None if cands name exactly the records want (in order) and right is one; else why."""
    if cands is None:
        return "a candidate is not SYMBOL+0xOFF [NAME@GEN] SECTION"
    got = [c[2] for c in cands]
    if got != want:
        return "candidates %s, but the records that held it are %s (newest first)" % (got, want)
    if right is not None and right not in cands:
        return "the right answer %s is not among the candidates %s" % (right, cands)
    return None


def parse_right(s):
    c = split_candidates(s)
    if not c or len(c) != 1:
        sys.exit("holders.py: RIGHT must be one SYMBOL+0xOFF [NAME@GEN] SECTION: %r" % s)
    return c[0]


def main():
    mode, src = sys.argv[1], sys.argv[2]
    recs = records(src)
    if mode == "list":
        for a in sys.argv[3:]:
            print(a, *holders(recs, int(a, 16)))
        return 0
    out, addr, right = sys.argv[3], sys.argv[4], parse_right(sys.argv[5])
    want = holders(recs, int(addr, 16))
    if len(want) < 2:
        print("%s: only %s held it: not ambiguous" % (addr, want), file=sys.stderr)
        return 1
    if mode == "line":
        lines = [l.rstrip("\n") for l in open(out) if l.split()[:1] == [addr]]
        if len(lines) != 1 or not lines[0].startswith(addr + " ambiguous: "):
            why = "%d answers for %s, not one \"ambiguous:\": %s" % (len(lines), addr, lines[:2])
        else:
            why = check_candidates(split_candidates(lines[0][len(addr) + 12:]), want, right)
    else:
        res = [r for r in json.load(open(out))["results"] if r.get("address") == addr]
        if len(res) != 1 or res[0].get("resolved") is not False or res[0].get("ambiguous") is not True:
            why = "the result for %s is not one unresolved, ambiguous one: %s" % (addr, res)
        else:
            # (a candidate without a symbol is named by its section, as in text)
            cands = [(c["symbol"] if c["symbol"] is not None else c["section"], int(c["offset"], 16),
                      "%s@%d" % (c["module"], c["load_gen"]), c["section"]) for c in res[0]["candidates"]]
            why = check_candidates(cands, want, right)
    if why:
        print(why, file=sys.stderr)
        return 1
    print("%s: ambiguous between %s" % (addr, ", ".join(want)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
