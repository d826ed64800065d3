#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kreloc_drgn - tell drgn where every module of a kreloc snapshot was.

drgn finds a kernel's modules by walking its ``modules`` list, which needs
vmlinux's debug info and knows only the modules still loaded.  A kreloc
snapshot (``kreloc snapshot``, or ``kreloc snapshot --vmcore DUMP`` after a
crash) has every module record, unloaded ones included, with its build id
and the address of each ELF section.  This makes one drgn module per
record (drgn 0.0.31's ``Program.relocatable_module()``), named as the
record is (``NAME``, or ``NAME@LOAD_GEN (unloaded)``), with the record's
section addresses, text range and build id, and gives it the ``.ko`` of
that build id found under the directories given.  drgn then names, and
types, an address of any of them from the ``.ko``'s symbols and DWARF.

As a drgn script (``prog`` is drgn's)::

    drgn -c vmcore /usr/share/kreloc/kreloc_drgn.py --snapshot SNAP --modules-dir DIR [ADDR...]

on its own (it opens the dump itself)::

    python3 kreloc_drgn.py --vmcore vmcore --snapshot SNAP --modules-dir DIR [ADDR...]

or from Python: ``kreloc_drgn.add_records(prog, "SNAP", ["DIR"])``.  Each
ADDR is printed as ``ADDR SYMBOL+0xOFF [MODULE] FILE:LINE``, the line of
the instruction at ADDR (with --return-addresses, of the call before it).

drgn older than 0.0.31 (Debian 12 has 0.0.22) has no way to be told where a
module is: this says so and stops (exit 3).
"""

import argparse
import gzip
import lzma
import os
import shutil
import subprocess
import sys
import tempfile

EXIT_FAIL, EXIT_USAGE, EXIT_OLD_DRGN = 1, 2, 3


class Record:
    """One module record of a snapshot (tools/cli/SNAPSHOT.md)."""

    def __init__(self, tok):
        self.name, self.state = tok[0], tok[1]
        self.load_gen = None if tok[4] == "-" else int(tok[4])
        self.build_id = None if len(tok) < 7 or tok[6] == "-" else tok[6]
        self.regions = {}  # name -> (address, size)
        self.sections = {}  # name -> address

    @property
    def unloaded(self):
        return self.state in ("gone", "going")

    @property
    def drgn_name(self):
        if self.unloaded:
            return "%s@%s (unloaded)" % (self.name, self.load_gen)
        return self.name

    def text_range(self):
        """The text region, grown by the core regions that touch it (6.1's
        core_layout is one block; 6.4's mem[] are apart: text alone, as
        drgn's own kernel module support takes it)."""
        if "text" not in self.regions:
            return None
        lo, size = self.regions["text"]
        hi = lo + size
        core = [r for n, r in self.regions.items() if not n.startswith("init.")]
        grown = True
        while grown:
            grown = False
            for a, s in core:
                if a == hi:
                    hi, grown = a + s, True
                elif a + s == lo:
                    lo, grown = a, True
        return lo, hi


def read_snapshot(path):
    """The module records of a snapshot file, in its order."""
    records = []
    with open(path) as f:
        first = f.readline().split()
        if len(first) != 2 or first[0] != "KRELOC-SNAPSHOT":
            raise ValueError("%s: not a kreloc snapshot" % path)
        for line in f:
            tok = line.split()
            if not tok or tok[0].startswith("#"):
                continue
            if tok[0] == "module" and len(tok) >= 7:
                records.append(Record(tok[1:]))
            elif tok[0] in ("region", "section") and records and len(tok) >= 5:
                if tok[2] == "-":
                    continue
                if tok[0] == "region":
                    records[-1].regions[tok[1]] = (int(tok[2], 16), int(tok[3], 16))
                else:
                    records[-1].sections[tok[1]] = int(tok[2], 16)
    return records


def overlaps(a, b):
    ra, rb = a.text_range(), b.text_range()
    return ra and rb and ra[0] < rb[1] and rb[0] < ra[1]


class KoFinder:
    """The .ko files of a name under some directories, decompressed."""

    def __init__(self, dirs, files):
        self.by_name = {}
        self.tmp = None
        for path in files:
            self._add(path)
        for d in dirs:
            for root, _, names in os.walk(d):
                for n in names:
                    self._add(os.path.join(root, n))

    def _add(self, path):
        base = os.path.basename(path)
        for ext in (".ko", ".ko.xz", ".ko.gz", ".ko.zst"):
            if base.endswith(ext):
                name = base[: -len(ext)].replace("-", "_")
                self.by_name.setdefault(name, []).append(path)

    def candidates(self, name):
        for path in self.by_name.get(name.replace("-", "_"), []):
            plain = self._plain(path)
            if plain:
                yield path, plain

    def _plain(self, path):
        if path.endswith(".ko"):
            return path
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp(prefix="kreloc_drgn.")
        out = os.path.join(self.tmp, "%d.ko" % len(os.listdir(self.tmp)))
        try:
            if path.endswith(".xz"):
                with lzma.open(path) as src, open(out, "wb") as dst:
                    shutil.copyfileobj(src, dst)
            elif path.endswith(".gz"):
                with gzip.open(path) as src, open(out, "wb") as dst:
                    shutil.copyfileobj(src, dst)
            else:
                with open(out, "wb") as dst:
                    subprocess.run(["zstd", "-dcq", path], stdout=dst, check=True)
        except (OSError, lzma.LZMAError, subprocess.CalledProcessError) as e:
            print("kreloc_drgn: %s: %s" % (path, e), file=sys.stderr)
            return None
        return out

    def close(self):
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


def check_drgn(prog=None):
    """Stop, saying why, with a drgn that cannot be told where a module is."""
    try:
        import drgn
    except ImportError:
        print("kreloc_drgn: no drgn for this python3 (Debian: python3-drgn)", file=sys.stderr)
        sys.exit(EXIT_FAIL)

    if not hasattr(drgn.Program, "relocatable_module"):
        print("kreloc_drgn: drgn %s has no Program.relocatable_module(): it cannot be told "
              "where a module was (drgn 0.0.31 or later has it: Debian 13's python3-drgn)"
              % getattr(drgn, "__version__", "?"), file=sys.stderr)
        sys.exit(EXIT_OLD_DRGN)


def add_records(prog, snapshot, modules_dirs=(), ko_files=(), log=None):
    """Make a drgn module of each record of the snapshot and give it its
    .ko.  Returns [(record, module or None, what happened)]."""
    from drgn import ModuleFileStatus

    check_drgn(prog)
    records = read_snapshot(snapshot)
    finder = KoFinder(modules_dirs, ko_files)
    done = []
    try:
        for i, rec in enumerate(records):
            rng = rec.text_range()
            if not rng:
                done.append((rec, None, "no text region in the snapshot"))
                continue
            try:
                mod = prog.relocatable_module(rec.drgn_name, rng[0])
                if mod.loaded_file_status == ModuleFileStatus.HAVE:
                    done.append((rec, mod, "drgn has it already"))
                    continue
            except LookupError:
                mod = prog.relocatable_module(rec.drgn_name, rng[0], create=True)
            # The loader reuses memory: an address goes to the newest record
            # that held it (drgn keeps one module per address).
            newer = [r for r in records[i + 1:]
                     if r.load_gen is not None and rec.load_gen is not None
                     and r.load_gen > rec.load_gen and overlaps(rec, r)]
            if newer:
                mod.address_range = (0, 0)
                why = "its memory went to %s@%s: no address range" % (newer[0].name,
                                                                      newer[0].load_gen)
            else:
                mod.address_range = rng
                why = "at 0x%x-0x%x" % rng
            for name, addr in rec.sections.items():
                mod.section_addresses[name] = addr
            if rec.build_id:
                mod.build_id = bytes.fromhex(rec.build_id)
            for path, plain in finder.candidates(rec.name):
                mod.try_file(plain)
                if ModuleFileStatus.HAVE in (mod.loaded_file_status, mod.debug_file_status):
                    why += ", " + path
                    break
            else:
                why += ", no .ko of build id %s" % (rec.build_id or "-")
            done.append((rec, mod, why))
            if log:
                log("%s: %s" % (rec.drgn_name, why))
    finally:
        finder.close()
    return done


def describe(prog, addr, returns=False):
    """ADDR SYMBOL+0xOFF [MODULE] FILE:LINE, from drgn: the line of the
    instruction at ADDR (a program counter), or with returns of the call
    before it (ADDR a return address, as a stack trace shows it)."""
    out = "0x%x" % addr
    try:
        sym = prog.symbol(addr)
        out += " %s+0x%x" % (sym.name, addr - sym.address)
    except LookupError:
        out += " ?"
    try:
        out += " [%s]" % prog.module(addr).name
    except LookupError:
        out += " [?]"
    try:
        # stack_trace_from_pcs() takes every pc for a return address and
        # looks up pc - 1: one byte on, that is the instruction at addr.
        frame = prog.stack_trace_from_pcs([addr if returns else addr + 1])[0]
        path, line, _ = frame.source()
        out += " %s:%d" % (path, line)
    except (LookupError, IndexError, ValueError):
        out += " ?:?"
    return out


def main(argv, prog=None):
    p = argparse.ArgumentParser(prog="kreloc_drgn",
                                description="drgn told where every module of a kreloc "
                                "snapshot was, unloaded ones included")
    p.add_argument("--snapshot", required=True, help="a kreloc snapshot of the boot")
    p.add_argument("--vmcore", help="the crash dump (when not run by drgn -c)")
    p.add_argument("--modules-dir", action="append", default=[],
                   help="where the .ko files are (searched below; repeatable)")
    p.add_argument("--ko", action="append", default=[], help="a .ko file (repeatable)")
    p.add_argument("-q", "--quiet", action="store_true", help="do not list the modules made")
    p.add_argument("--return-addresses", action="store_true",
                   help="the ADDRs are return addresses (from a stack): give the line of "
                   "the call before each, not of the instruction at it")
    p.add_argument("addr", nargs="*", help="addresses to name (hex)")
    args = p.parse_args(argv)
    check_drgn()
    import drgn

    if prog is None:
        if not args.vmcore:
            p.error("--vmcore DUMP is needed outside drgn")
        prog = drgn.Program()
        prog.set_core_dump(args.vmcore)
    log = None if args.quiet else lambda m: print("# " + m)
    try:
        add_records(prog, args.snapshot, args.modules_dir, args.ko, log)
    except (OSError, ValueError) as e:
        print("kreloc_drgn: %s" % e, file=sys.stderr)
        return EXIT_FAIL
    for a in args.addr:
        try:
            print(describe(prog, int(a, 16), args.return_addresses))
        except ValueError:
            print("kreloc_drgn: %s is not a hex address" % a, file=sys.stderr)
            return EXIT_USAGE
    return 0


if __name__ == "__main__":
    # drgn -c DUMP kreloc_drgn.py ... runs this with drgn's prog defined.
    sys.exit(main(sys.argv[1:], globals().get("prog")))
