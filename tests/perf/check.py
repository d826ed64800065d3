#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check.py WORK REC... -- how many module samples each way of naming them
gets right, against the guest's own ground truth (rig/vm-inject.sh).

WORK holds what the guest saved (guest/) and what the host made of it
(host/REC.METHOD.txt, one per way of naming the samples), and the modules
as loaded (mods/NAME.ko).  Ground truth, never kreloc's output:
  - when each module load held its memory: the guest's clockstamp lines
    around insmod and rmmod (guest/REC.stamps), in the recording's clock;
  - where its functions were: the /proc/kallsyms lines saved while it was
    loaded (guest/REC.TAG.kallsyms), and for its init functions, which
    kallsyms no longer lists once ->init returned, its sysfs .init.text
    address (guest/REC.TAG.sections) plus the .ko's ELF symbol values.
A sample counts for the load whose bracket holds its time, if its address
falls in that load's .text, .text.unlikely or .init.text; it is named
right when the method gives that function and the offset into it.

Also checks `kreloc kallsyms` (host/kallsyms) against the guest's own
/proc/kallsyms.  Prints KTAP results (no plan: vm-inject.sh adds it) and,
as '#' lines, the table of Documentation/perf.md; writes the table to
WORK/table.md.
"""
import os
import re
import subprocess
import sys

LOADS = [("a1", "kreloc_spin_a"), ("b", "kreloc_spin_b"), ("a2", "kreloc_spin_a")]
SECS = (".text", ".text.unlikely", ".init.text")
METHODS = [
    ("inject", "perf report/script after `kreloc inject`"),
    ("alone", "perf report/script alone"),
    ("proc", "--kallsyms= the guest's own /proc/kallsyms, saved after"),
    ("kallsyms", "--kallsyms= the file `kreloc kallsyms` wrote"),
    ("buildid", "every .ko in perf's build-id cache (as from perf archive)"),
    ("resolve", "perf script | kreloc resolve --text"),
    ("resolve-time", "perf script | kreloc resolve --text --clock"),
]


def elf(ko):
    """{section: size}, {section: [(value, size, name)]} of a .ko."""
    out = subprocess.run(["readelf", "-SsW", ko], capture_output=True, text=True,
                         check=True).stdout
    secs, idx, syms = {}, {}, {}
    for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)",
                         out, re.M):
        idx[m.group(1)] = m.group(2)
        secs[m.group(2)] = int(m.group(3), 16)
    for m in re.finditer(r"^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+\s+(\d+)\s+(\S+)",
                         out, re.M):
        s = idx.get(m.group(3))
        if s:
            syms.setdefault(s, []).append((int(m.group(1), 16), int(m.group(2)), m.group(4)))
    return secs, syms


def kallsyms(path):
    with open(path) as f:
        return [(int(a, 16), n) for a, t, n, *_ in (l.split() for l in f) if t in "tT"]


def sections(path):
    with open(path) as f:
        return {l.split()[0]: int(l.split()[1], 16) for l in f if len(l.split()) == 2}


class Load:
    def __init__(self, tag, mod, lo, hi, kall, secs, work, init=True):
        self.tag, self.mod, self.lo, self.hi = tag, mod, lo, hi
        size, esyms = elf(os.path.join(work, "mods", mod + ".ko"))
        # (A module loaded before the recording ran its init before: its init
        # memory held another module's init later.)
        self.ranges = [(secs[s], secs[s] + size[s], s) for s in SECS
                       if s in secs and s in size and (init or s != ".init.text")]
        # The sections this build of the module has (7.x links .text.unlikely into .text).
        self.has = {s for s in SECS if s in size}
        # Functions: kallsyms for what it lists, the .ko's init symbols at the
        # sysfs .init.text address; sizes from the .ko.
        sizes = {n: z for s in esyms.values() for _, z, n in s}
        self.funcs = [(a, a + sizes.get(n, 1), n) for a, n in kall]
        self.funcs += [(secs[".init.text"] + v, secs[".init.text"] + v + z, n)
                       for v, z, n in esyms.get(".init.text", []) if ".init.text" in secs]

    def section(self, ip):
        for lo, hi, s in self.ranges:
            if lo <= ip < hi:
                return s
        return None

    def truth(self, ip):
        """The functions holding ip (aliases share an address) and its offset."""
        best = [f for f in self.funcs if f[0] <= ip < f[1]]
        if not best:
            return set(), None
        start = max(f[0] for f in best)
        return {f[2] for f in best if f[0] == start}, ip - start


SAMPLE = re.compile(r"^\s*(?:\S.*?\s)?(\d+)\.(\d{9}):\s+([0-9a-f]{8,16})\s+(.*)$")
NAMED = re.compile(r"^(\S+)\+0x([0-9a-f]+)\s")
RESOLVED = re.compile(r"^<([^ >]+)\+0x([0-9a-f]+) \[[^]]+\]>")


def samples(path):
    """(time, ip, named, symbol, offset) of each sample line of perf script."""
    with open(path, errors="replace") as f:
        for line in f:
            m = SAMPLE.match(line)
            if not m:
                continue
            t = int(m.group(1)) * 10**9 + int(m.group(2))
            ip, rest = int(m.group(3), 16), m.group(4)
            r = RESOLVED.match(rest) or NAMED.match(rest)
            amb = rest.startswith("<ambiguous:")
            if r and r.group(1) != "[unknown]":
                yield t, ip, r.group(1), int(r.group(2), 16), amb
            else:
                yield t, ip, None, None, amb


def truth_loads(work, rec):
    col = 2 if rec == "plain" else 3
    stamps = {}
    with open(os.path.join(work, "guest", rec + ".stamps")) as f:
        for l in f:
            w = l.split()
            if len(w) == 4 and w[0] == "STAMP":
                stamps[w[1]] = int(w[col])
    g = lambda n: os.path.join(work, "guest", n)
    loads = [Load("p", "kreloc_spin_p", 0, float("inf"), kallsyms(g("p.kallsyms")),
                  sections(g("p.sections")), work, init=False)]
    for tag, mod in LOADS:
        loads.append(Load(tag, mod, stamps[tag + ".load-before"], stamps[tag + ".unload-after"],
                          kallsyms(g("%s.%s.kallsyms" % (rec, tag))),
                          sections(g("%s.%s.sections" % (rec, tag))), work))
    return loads


def score(work, rec, method, loads):
    """{tag: [samples, right, wrong, per-section samples]}."""
    res = {l.tag: [0, 0, 0, {}] for l in loads}
    path = os.path.join(work, "host", "%s.%s.txt" % (rec, method))
    if not os.path.exists(path):
        return None
    for t, ip, sym, off, amb in samples(path):
        owner = [l for l in loads if l.lo <= t <= l.hi and l.section(ip)]
        if not owner:
            continue
        l = owner[0]
        names, toff = l.truth(ip)
        r = res[l.tag]
        r[0] += 1
        s = l.section(ip)
        r[3][s] = r[3].get(s, 0) + 1
        if sym is not None and sym in names and off == toff:
            r[1] += 1
        elif sym is not None:
            r[2] += 1
    return res


DUMP = re.compile(r"^(\d+) (\d+) (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_(\w+)(.*)$")


def check_dump(work, rec):
    """perf script -D of the injected file: each of kreloc's events in the
    bracket of the guest's insmod or rmmod it stands for, and none put after
    a FINISHED_ROUND that flushed past its time.  (ok, description)."""
    col = 2 if rec == "plain" else 3
    brackets = []
    with open(os.path.join(work, "guest", rec + ".stamps")) as f:
        st = {w[1]: int(w[col]) for w in (l.split() for l in f) if len(w) == 4}
    for tag, mod in LOADS:
        brackets.append((mod, "load", st[tag + ".load-before"], st[tag + ".load-after"]))
        brackets.append((mod, "unload", st[tag + ".unload-before"], st[tag + ".unload-after"]))
    flushed = next_flush = cur = 0
    maps = unmaps = late = outside = 0
    with open(os.path.join(work, "host", rec + ".dump.txt"), errors="replace") as f:
        for line in f:
            m = DUMP.match(line)
            if not m:
                continue
            t, kind, rest = int(m.group(2)), m.group(4), m.group(5)
            if kind == "FINISHED_ROUND":
                flushed, next_flush = next_flush, cur
                continue
            ours = (kind == "MMAP2" and ".kreloc/" in rest) or \
                   (kind == "KSYMBOL" and " flags 0x1 " in rest)
            if ours:
                if t and t < flushed:
                    late += 1
                mod = re.search(r"(kreloc_spin_[ab])@\d+(\.init)?", rest)
                if mod:
                    want = "load" if kind == "MMAP2" or mod.group(2) else "unload"
                    maps += kind == "MMAP2"
                    unmaps += kind == "KSYMBOL"
                    if not any(b[0] == mod.group(1) and b[1] == want and b[2] <= t <= b[3]
                               for b in brackets):
                        outside += 1
            if t:
                cur = max(cur, t)
    good = maps >= 6 and unmaps >= 6 and not late and not outside
    return good, ("%s: perf script -D: kreloc's %d maps of kreloc_spin_a/b begin in their "
                  "insmod, %d end in their rmmod (init: insmod), %d outside, %d after a "
                  "round flushed past them" % (rec, maps, unmaps, outside, late))


def main():
    work, recs = sys.argv[1], sys.argv[2:]
    n = 0
    table = ["| recording | how the samples were named | " +
             " | ".join(t for t in ["p"] + [t for t, _ in LOADS]) + " |",
             "|---|---|" + "---|" * (1 + len(LOADS))]

    def ok(good, what):
        nonlocal n
        n += 1
        print("%sok %d %s" % ("" if good else "not ", n, what))

    for rec in recs:
        loads = truth_loads(work, rec)
        a1, b = loads[1], loads[2]
        same = a1.ranges and b.ranges and a1.ranges[0][0] == b.ranges[0][0]
        ok(same, "%s: the loader put kreloc_spin_b at kreloc_spin_a's freed .text (0x%x)"
           % (rec, a1.ranges[0][0] if a1.ranges else 0))
        ok(*check_dump(work, rec))
        results = {}
        for m, what in METHODS:
            res = score(work, rec, m, loads)
            if res is None:
                continue
            results[m] = res
            cells = []
            for l in loads:
                tot, right, wrong, _ = res[l.tag]
                cells.append("%d%% of %d%s" % (100 * right // tot if tot else 0, tot,
                                               ", %d wrong" % wrong if wrong else ""))
            table.append("| %s | %s | %s |" % (rec, what, " | ".join(cells)))
        inj = results.get("inject")
        if inj:
            for l in loads:
                tot, right, wrong, per = inj[l.tag]
                need = [s for s in SECS if s in l.has and (s != ".init.text" or l.tag != "p")]
                ok(tot and right * 100 >= 99 * tot and all(per.get(s) for s in need),
                   "%s: after kreloc inject, perf names %d of %d samples of %s (%s) right "
                   "(%s)" % (rec, right, tot, l.mod, l.tag,
                             ", ".join("%s %d" % (s, per.get(s, 0)) for s in need)))
        alone = results.get("alone")
        if alone:
            named = sum(alone[t][1] + alone[t][2] for t, _ in LOADS)
            ok(named == 0, "%s: perf alone names %d samples of the modules loaded during the "
               "recording (the 0%% kreloc inject is for)" % (rec, named))
        for m in ("resolve", "resolve-time"):
            res = results.get(m)
            if not res:
                continue
            wrong = sum(res[l.tag][2] for l in loads)
            right = sum(res[l.tag][1] for l in loads[1:])
            tot = sum(res[l.tag][0] for l in loads[1:])
            if m == "resolve":
                ok(wrong == 0, "%s: kreloc resolve --text without times names no sample "
                   "wrong (%d wrong; %d right, the rest ambiguous)" % (rec, wrong, right))
            else:
                ok(wrong == 0 and tot and right * 100 >= 99 * tot,
                   "%s: kreloc resolve --text --clock names %d of %d right, %d wrong"
                   % (rec, right, tot, wrong))
    # kreloc kallsyms (no time: not for perf's modules, but right for the rest)
    # against the guest's own /proc/kallsyms of the same boot.
    with open(os.path.join(work, "guest", "proc.kallsyms")) as f:
        proc = [l.rstrip("\n") for l in f]
    with open(os.path.join(work, "host", "kallsyms")) as f:
        mine = [l.rstrip("\n") for l in f]
    tagged = lambda lines: sorted(l for l in lines if l.endswith("\t[kreloc_spin_p]"))
    ok(tagged(proc) and tagged(proc) == tagged(mine),
       "kreloc kallsyms gives kreloc_spin_p's %d symbols as the guest's /proc/kallsyms"
       % len(tagged(proc)))
    core_p = {l for l in proc if "[" not in l}
    core_m = {l for l in mine if "[" not in l}
    ok(len(core_p) > 10000 and not core_m - core_p and len(core_p - core_m) < 64,
       "... and its core symbols: %d there, %d different, %d not published (past the "
       "last section kreloc measures)" % (len(core_p), len(core_m - core_p),
                                          len(core_p - core_m)))
    for line in table:
        print("# " + line)
    with open(os.path.join(work, "table.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
