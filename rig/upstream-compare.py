#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""upstream-compare.py BUILTIN_OUTPUT MODULE_OUTPUT: compare the kreloc
files the two boots of rig/vm-upstream.sh dumped (KRELOC-DUMP-BEGIN NAME ...
KRELOC-DUMP-END), file by file, and print one KTAP block, "compare".

The boots ran the same scenario on the same kernel, the first with the
in-kernel kreloc, the second with kreloc=off and the out-of-tree kreloc.ko.
Each boot has its own KASLR offset and module addresses, so a core address
is compared as (address - KERNELOFFSET) and a module address as (address -
base of the region holding it, region).  What differs by design is listed
as a diagnostic, never silently dropped: the keys only the module has (how
it found the kernel's functions), the link-time source (the build vs
System.map), the module's own record, and the section sizes only the
kernel knows."""
import re
import sys

# info keys whose values differ by design, and keys only one side has.
BY_DESIGN = {"LINKED_SOURCE", "LINKED_FILE", "LINKED_BUILD_ID", "MODULE_LIST",
             "ANCHORS", "ANCHORS_RESOLVED", "GENERATION", "KALLSYMS_LOOKUP_NAME",
             "CALL_PATH"}
PER_BOOT = {"KERNELOFFSET", "REF_RUNTIME"}


def dumps(path):
    files, cur, lines = {}, None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("KRELOC-DUMP-BEGIN "):
                cur, lines = line[len("KRELOC-DUMP-BEGIN "):], []
            elif line == "KRELOC-DUMP-END" and cur is not None:
                files[cur] = lines
                cur = None
            elif cur is not None:
                lines.append(line)
    return files


def rows(lines):
    return [l.split() for l in lines if l and not l.startswith("#")]


def num(s):
    return None if s == "-" else int(s, 16)


class Side:
    def __init__(self, files):
        self.files = files
        self.info = {}
        for l in files.get("info", []):
            if "=" in l and not l.startswith("#"):
                k, v = l.split("=", 1)
                self.info[k] = v
        self.offset = int(self.info.get("KERNELOFFSET", "0x0"), 16)
        # Records per module name, oldest first: (load_gen, lines).
        self.records = {}
        for name, lines in files.items():
            m = re.match(r"module/([^@]+)@(\d+)$", name)
            if m and m.group(1) != "kreloc":
                self.records.setdefault(m.group(1), []).append((int(m.group(2)), lines))
        for recs in self.records.values():
            recs.sort()

    def regions(self, lines):
        return {r[1]: (num(r[2]), num(r[3]), r[4]) for r in rows(lines) if r[0] == "region"}

    def live_text(self, mod):
        """Text base of the newest record of @mod."""
        recs = self.records.get(mod)
        if not recs:
            return None
        reg = self.regions(recs[-1][1]).get("text")
        return reg[0] if reg else None


results = []


def check(ok, desc, notes=()):
    results.append((ok, desc, list(notes)))


def compare_info(b, m):
    bad, notes = [], []
    for k in sorted(set(b.info) | set(m.info)):
        bv, mv = b.info.get(k), m.info.get(k)
        if k in PER_BOOT or bv == mv:
            continue
        if k in BY_DESIGN or k.startswith("CALL("):
            notes.append("by design: %s builtin=%s module=%s" % (k, bv, mv))
        else:
            bad.append("%s: builtin=%s module=%s" % (k, bv, mv))
    for side, name in ((b, "builtin"), (m, "module")):
        i = side.info
        try:
            consistent = int(i["REF_RUNTIME"], 16) - int(i["KERNELOFFSET"], 16) == int(i["REF_LINKED"], 16)
        except (KeyError, ValueError):
            consistent = False
        if not consistent:
            bad.append("%s: REF_RUNTIME - KERNELOFFSET is not REF_LINKED" % name)
        notes.append("%s KERNELOFFSET=%s" % (name, i.get("KERNELOFFSET")))
    check(not bad and "info" in b.files and "info" in m.files,
          "info: every key equal but the boot's offset and what differs by design",
          bad + notes)


def compare_sections(b, m):
    bad = []
    br, mr = rows(b.files.get("sections", [])), rows(m.files.get("sections", []))
    if len(br) != 6 or len(mr) != 6:
        bad.append("not six sections each")
    for x, y in zip(br, mr):
        if x[0] != y[0] or x[1] != y[1] or x[3] != y[3] or x[5] != y[5]:
            bad.append("builtin %s / module %s" % (" ".join(x), " ".join(y)))
        for side, r in ((b, x), (m, y)):
            if num(r[2]) is None or num(r[2]) - side.offset != num(r[1]) or num(r[4]) != side.offset:
                bad.append("%s: RUNTIME is not LINKED + KERNELOFFSET" % r[0])
    check(not bad and br, "sections: NAME LINKED SIZE STATUS equal, RUNTIME - KERNELOFFSET equal", bad)


def compare_anchors(b, m):
    bad, notes = [], []
    ba = {r[0]: r for r in rows(b.files.get("anchors", []))}
    ma = {r[0]: r for r in rows(m.files.get("anchors", []))}
    for name, x in ba.items():
        y = ma.get(name)
        if not y:
            bad.append("%s: not among the module's anchors" % name)
            continue
        if x[1] != y[1] or x[4] != y[4] or num(x[3]) != b.offset or num(y[3]) != m.offset:
            bad.append("builtin %s / module %s" % (" ".join(x), " ".join(y)))
    notes.append("%d anchors in the kernel, %d in the module (System.map's markers and samples)"
                 % (len(ba), len(ma)))
    check(not bad and ba, "anchors: each of the kernel's is the module's, LINKED and SECTION equal", bad + notes)


def compare_modules(b, m):
    def lines(side):
        out = []
        for r in rows(side.files.get("modules", [])):
            if r[0] != "kreloc":
                out.append((r[0], r[1], r[3], r[6]))
        return out
    bl, ml = lines(b), lines(m)
    bad = ["builtin %s / module %s" % (x, y) for x, y in zip(bl, ml) if x != y]
    if len(bl) != len(ml):
        bad.append("%d records in the kernel, %d in the module" % (len(bl), len(ml)))
    check(not bad and bl, "modules: NAME STATE TEXT_SIZE BUILD_ID equal, record by record (%d)" % len(bl),
          bad + ["the module's own record (kreloc) is left out"])


def placed(side, lines):
    """Each item of a record: (kind, name) -> (region, offset in it, size, state)."""
    regs = side.regions(lines)
    out = {}
    for r in rows(lines):
        addr, size = num(r[2]), r[3]
        where = None
        for rn, (base, rsize, _) in regs.items():
            if base is not None and base <= addr < base + rsize:
                where = (rn, addr - base)
        if r[0] == "region":
            where = (r[1], 0)
        out[(r[0], r[1])] = (where, size, r[4])
    return out


def compare_records(b, m):
    bad, notes, n, sized = [], [], 0, 0
    for mod in sorted(set(b.records) | set(m.records)):
        br, mr = b.records.get(mod, []), m.records.get(mod, [])
        if len(br) != len(mr):
            bad.append("%s: %d records in the kernel, %d in the module" % (mod, len(br), len(mr)))
            continue
        for (bg, bl), (mg, ml) in zip(br, mr):
            n += 1
            # The header comment, generations left out (the module
            # prints "unload_gen  N", the kernel "unload_gen N").
            hb = " ".join(bl[0].split()[:5]) if bl else ""
            hm = " ".join(ml[0].split()[:5]) if ml else ""
            if hb != hm:
                bad.append("%s@%d/%d: %s / %s" % (mod, bg, mg, hb, hm))
            pb, pm = placed(b, bl), placed(m, ml)
            if set(pb) != set(pm):
                bad.append("%s: items only in the kernel %s, only in the module %s"
                           % (mod, sorted(set(pb) - set(pm)), sorted(set(pm) - set(pb))))
            for key in sorted(set(pb) & set(pm)):
                (wb, sb, stb), (wm, sm, stm) = pb[key], pm[key]
                percpu = key[1] == ".data..percpu"
                if stb != stm or (not percpu and wb != wm):
                    bad.append("%s %s %s: kernel %s %s, module %s %s" % (mod, key[0], key[1], wb, stb, wm, stm))
                if key[0] == "region" and sb != sm:
                    bad.append("%s region %s: size %s / %s" % (mod, key[1], sb, sm))
                if key[0] == "section":
                    if sb == "-":
                        bad.append("%s section %s: the kernel gives no size" % (mod, key[1]))
                    elif sm == "-":
                        sized += 1
                    elif sb != sm:
                        bad.append("%s section %s: size %s / %s" % (mod, key[1], sb, sm))
        # module/NAME is the newest record.
        for side, recs, name in ((b, br, "kernel"), (m, mr, "module")):
            if recs and side.files.get("module/" + mod) != recs[-1][1]:
                bad.append("%s: module/%s is not its newest record in the %s" % (mod, mod, name))
    notes.append("%d section sizes only the kernel gives (the module shows -)" % sized)
    check(not bad and n, "module/NAME@GEN: every record's regions and sections placed alike, states equal (%d records)" % n,
          bad + notes)


def compare_lookups(b, m):
    bad, n = [], 0
    for name in sorted(f for f in b.files if f.startswith("lookup ")):
        bl, ml = b.files[name], m.files.get(name)
        n += 1
        if ml is None or len(bl) != 1 or len(ml) != 1:
            bad.append("%s: builtin %s / module %s" % (name, bl, ml))
            continue
        x, y = bl[0].split(), ml[0].split()
        if x[0] == "ERR" or y[0] == "ERR":
            if bl[0] != ml[0]:
                bad.append("%s: %s / %s" % (name, bl[0], ml[0]))
            continue

        def rel(side, f):
            base = side.offset if f[3] == "vmlinux" else side.live_text(f[3])
            return None if base is None else (int(f[1], 16) - base, int(f[2], 16) - int(f[1], 16))
        if len(x) != 5 or len(y) != 5 or x[0] != y[0] or x[3:] != y[3:] or rel(b, x) != rel(m, y):
            bad.append("%s: %s / %s" % (name, bl[0], ml[0]))
    check(not bad and n, "lookup: %d answers equal (addresses relative to the offset or the module's text)" % n, bad)


def check_history(b, m):
    """Each boot keeps at most HISTORY_MAX unloaded records, and has a
    module/NAME@GEN file for each record and for no other."""
    bad, notes = [], []
    for side, name in ((b, "kernel"), (m, "module")):
        recs = rows(side.files.get("modules", []))
        unloaded = [r for r in recs if r[1] in ("going", "gone")]
        limit = int(side.info.get("HISTORY_MAX", "-1"))
        if len(unloaded) > limit:
            bad.append("%s: %d unloaded records, HISTORY_MAX=%d" % (name, len(unloaded), limit))
        want = {"module/%s@%s" % (r[0], r[4]) for r in recs}
        have = {f for f in side.files if re.match(r"module/[^@]+@\d+$", f)}
        if want != have:
            bad.append("%s: files without a record %s, records without a file %s"
                       % (name, sorted(have - want), sorted(want - have)))
        notes.append("%s: HISTORY_MAX=%d, %d unloaded records kept" % (name, limit, len(unloaded)))
    check(not bad and b.files and m.files,
          "history: at most HISTORY_MAX unloaded records, one module/NAME@GEN file per record", bad + notes)


def main():
    b, m = Side(dumps(sys.argv[1])), Side(dumps(sys.argv[2]))
    compare_info(b, m)
    compare_sections(b, m)
    compare_anchors(b, m)
    compare_modules(b, m)
    compare_records(b, m)
    compare_lookups(b, m)
    check_history(b, m)
    print("KRELOC-TEST-BEGIN compare")
    print("1..%d" % len(results))
    for i, (ok, desc, notes) in enumerate(results, 1):
        print("%sok %d %s" % ("" if ok else "not ", i, desc))
        for note in notes:
            print("# " + note)
    print("KRELOC-TEST-END compare rc=0")


main()
