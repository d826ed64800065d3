#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""upstream-compare.py WORK: what perf named in the upstream target's
recordings, against what the kernel said while the modules were loaded.

WORK is rig/vm-upstream.sh's work directory.  For each boot (series: the
kernel of the series; debian: Debian's kernel without it) and each perf
that recorded there (patched: the perf of the series; debian: Debian's),
WORK/BOOT-PERF holds
  upa.init, upb.init   the module's lines of /proc/kallsyms, saved while
                       it was in its init (so with its init symbols)
  phases               "PHASES TAG MODULE PID_INIT PID_TEXT": the process
                       that ran the module's init, and the one that wrote
                       to its spin_ms parameter
  script-P, report-P   `perf script -F pid,ip,sym,symoff,dso` and `perf
                       report --stdio -n --sort dso,sym` of the recording
                       by perf P (patched, debian), with their stderr and
                       exit code in *.err
  records, attr        the MODULE_MEM and module KSYMBOL records in the
                       recording, and its attr's module_mem (patched perf)

The truth of a sample uses its pid and address alone: a sample of a
module's init or text process at a module address is that module's; its
name is the module's text symbol at or below the address, from the saved
kallsyms.  Prints one KTAP block, "compare".
"""
import os
import re
import sys

MODULES_VADDR = 0xffffffffc0000000
MODULES = ("upa", "upb")
SCRIPT_RE = re.compile(r"^\s*(\d+)\s+([0-9a-f]+)\s+(\S+)\s+\((.*)\)\s*$")
REPORT_RE = re.compile(r"^\s+([\d.]+)%\s+(\d+)\s+(\S+)\s+\[k\]\s+(\S+)")


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def kallsyms(path):
    """The module's text symbols, sorted: [(addr, name)]."""
    syms = []
    for line in read(path).splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("t", "T"):
            syms.append((int(parts[0], 16), parts[2]))
    return sorted(syms)


def truth_name(syms, ip):
    """(name, offset) of the symbol holding ip, or None."""
    best = None
    for addr, name in syms:
        if addr <= ip:
            best = (name, ip - addr)
        else:
            break
    return best


class Recording:
    def __init__(self, work, boot, perf):
        self.name = f"{boot}-{perf}"
        self.dir = os.path.join(work, self.name)
        self.syms = {m: kallsyms(os.path.join(self.dir, f"{m}.init")) for m in MODULES}
        self.pids = {}
        for line in read(os.path.join(self.dir, "phases")).splitlines():
            p = line.split()
            if len(p) == 5:
                self.pids[int(p[3])] = (p[2], "init")
                self.pids[int(p[4])] = (p[2], "text")

    def err(self, perf, what):
        """(exit code, lines of stderr that say error) of perf P's WHAT."""
        text = read(os.path.join(self.dir, f"{what}-{perf}.err"))
        m = re.search(r"^rc=(\d+)$", text, re.M)
        bad = [l for l in text.splitlines() if re.search(r"error", l, re.I)]
        return (int(m.group(1)) if m else -1), bad

    def samples(self, perf):
        """The module samples: [(module, phase, ip, named, sym, dso)]."""
        out = []
        for line in read(os.path.join(self.dir, f"script-{perf}")).splitlines():
            m = SCRIPT_RE.match(line)
            if not m:
                continue
            pid, ip = int(m.group(1)), int(m.group(2), 16)
            if pid not in self.pids or ip < MODULES_VADDR:
                continue
            mod, phase = self.pids[pid]
            sym, dso = m.group(3), m.group(4)
            want = truth_name(self.syms[mod], ip)
            named = False
            if want and dso == f"[{mod}]":
                name, off = want
                named = sym == f"{name}+0x{off:x}" or (off == 0 and sym == name)
            out.append((mod, phase, ip, named, want, dso))
        return out

    def report(self, perf):
        """{(dso, sym): samples} of perf report."""
        counts = {}
        for line in read(os.path.join(self.dir, f"report-{perf}")).splitlines():
            m = REPORT_RE.match(line)
            if m:
                key = (m.group(3), m.group(4))
                counts[key] = counts.get(key, 0) + int(m.group(2))
        return counts

    def text_range(self, mod):
        """The span of the module's core text symbols (no init ones)."""
        core = [a for a, n in self.syms[mod] if "init" not in n]
        return (min(core), max(core)) if core else None


results = []


def result(ok, desc, notes=()):
    for n in notes:
        results.append(f"# {n}")
    results.append(("ok" if ok else "not ok") + f" {len([r for r in results if not r.startswith('#')]) + 1} {desc}")


def named_share(rec, perf):
    """{module: (named, total, {phase: (named, total)})}"""
    share = {}
    for mod, phase, _ip, named, _want, _dso in rec.samples(perf):
        n, t, ph = share.get(mod, (0, 0, {}))
        pn, pt = ph.get(phase, (0, 0))
        ph[phase] = (pn + named, pt + 1)
        share[mod] = (n + named, t + 1, ph)
    return share


def labels(rec, perf):
    """What the module samples were named: the set of (symbol, DSO)."""
    out = set()
    for line in read(os.path.join(rec.dir, f"script-{perf}")).splitlines():
        m = SCRIPT_RE.match(line)
        if m and int(m.group(1)) in rec.pids and int(m.group(2), 16) >= MODULES_VADDR:
            out.add((m.group(3).split("+0x")[0], m.group(4)))
    return out


def describe(share, mod):
    n, t, ph = share.get(mod, (0, 0, {}))
    parts = ", ".join(f"{p} {a}/{b}" for p, (a, b) in sorted(ph.items()))
    pct = 100.0 * n / t if t else 0.0
    return pct, f"{mod}: {n} of {t} samples named right ({pct:.2f}%; {parts})"


def clean(rec, perf, what):
    rc, bad = rec.err(perf, what)
    return rc == 0 and not bad, f"{what} exit {rc}" + (f", {bad[0]}" if bad else "")


def main():
    work = sys.argv[1]
    sp = Recording(work, "series", "patched")
    sd = Recording(work, "series", "debian")
    dp = Recording(work, "debian", "patched")
    dd = Recording(work, "debian", "debian")

    # The recording of the series, by its perf, reported by its perf.
    ok_s, why_s = clean(sp, "patched", "script")
    ok_r, why_r = clean(sp, "patched", "report")
    result(ok_s and ok_r, "series kernel, perf of the series: script and report read the recording "
           f"with no error ({why_s}; {why_r})")
    ra, rb = sp.text_range("upa"), sp.text_range("upb")
    result(bool(ra and rb and ra[0] <= rb[1] and rb[0] <= ra[1]),
           "upb was loaded where upa had been (their text overlaps)",
           [f"upa text {ra[0]:#x}..{ra[1]:#x}, upb text {rb[0]:#x}..{rb[1]:#x}" if ra and rb
            else "no kallsyms of upa or upb"])
    share = named_share(sp, "patched")
    for mod in MODULES:
        pct, text = describe(share, mod)
        total = share.get(mod, (0, 0, {}))[1]
        bad = [f"{ip:#x} in {dso}, should be {want}" for m, _p, ip, named, want, dso
               in sp.samples("patched") if m == mod and not named][:3]
        result(total >= 100 and pct >= 99.0,
               f"perf script names >= 99% of {mod}'s samples, init and text: {text}", bad)
    counts = sp.report("patched")
    truth = {}
    for mod, _phase, _ip, _named, want, _dso in sp.samples("patched"):
        key = (f"[{mod}]", want[0] if want else "?")
        truth[key] = truth.get(key, 0) + 1
    total = sum(truth.values())
    matched = sum(min(c, counts.get(k, 0)) for k, c in truth.items())
    extra = {k: v for k, v in counts.items() if k[0] in ("[upa]", "[upb]") and k not in truth}
    pct = 100.0 * matched / total if total else 0.0
    result(total >= 200 and pct >= 99.0 and not extra,
           f"plain perf report gives each module function its samples: {matched} of {total} "
           f"({pct:.2f}%)",
           [f"{k[0]} {k[1]}: report {counts.get(k, 0)}, truth {c}" for k, c in sorted(truth.items())] +
           [f"not in the truth: {k} {v}" for k, v in extra.items()])
    recs = read(os.path.join(sp.dir, "records")).split()
    result(len(recs) == 4 and int(recs[1]) > 0 and int(recs[3]) > 0,
           "the recording holds PERF_RECORD_MODULE_MEM and module KSYMBOL records: " +
           " ".join(recs))

    # Debian's perf on the kernel of the series: old behaviour.
    recs = read(os.path.join(sd.dir, "records")).split()
    result(len(recs) == 4 and recs[1] == "0" and recs[3] == "0",
           "series kernel, Debian's perf: the kernel sent it no module records: " + " ".join(recs))
    oks = [clean(sd, "debian", w) for w in ("script", "report")]
    sh_sd, sh_dd = named_share(sd, "debian"), named_share(dd, "debian")
    named = sum(v[0] for v in sh_sd.values())
    total = sum(v[1] for v in sh_sd.values())
    old = labels(dd, "debian")
    result(all(o for o, _ in oks) and total >= 200 and named == 0 and
           sum(v[0] for v in sh_dd.values()) == 0 and labels(sd, "debian") == old,
           f"series kernel, Debian's perf: no error ({'; '.join(w for _, w in oks)}), and as on "
           f"Debian's kernel it names {named} of the {total} module samples, each as "
           f"{' or '.join(sorted(f'{a} ({b})' for a, b in old)) or 'nothing'}",
           [f"named {a} ({b}) here only" for a, b in labels(sd, "debian") - old])

    # The perf of the series on Debian's kernel: old behaviour.
    attr = read(os.path.join(dp.dir, "attr")).split()
    recs = read(os.path.join(dp.dir, "records")).split()
    result("module_mem: 1" not in " ".join(attr) and len(recs) == 4 and recs[1] == "0",
           "Debian's kernel, perf of the series: it fell back to no module_mem, no module "
           "records: " + " ".join(recs))
    oks = [clean(dp, "patched", w) for w in ("script", "report")]
    sh_dp = named_share(dp, "patched")
    named = sum(v[0] for v in sh_dp.values())
    total = sum(v[1] for v in sh_dp.values())
    named_dd = sum(v[0] for v in sh_dd.values())
    total_dd = sum(v[1] for v in sh_dd.values())
    result(all(o for o, _ in oks) and total >= 200 and named == named_dd == 0 and
           labels(dp, "patched") == labels(dd, "debian"),
           f"Debian's kernel, perf of the series: no error ({'; '.join(w for _, w in oks)}), "
           f"names {named} of {total} module samples, as Debian's perf does ({named_dd} of "
           f"{total_dd})")

    print("KRELOC-TEST-BEGIN compare")
    print(f"1..{len([r for r in results if not r.startswith('#')])}")
    for r in results:
        print(r)
    print("KRELOC-TEST-END compare rc=0")


if __name__ == "__main__":
    main()
