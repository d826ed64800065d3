#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""examples.py: the shell examples of README.md and the man pages, run.

  examples.py list FILE...            print each example: SOURCE:LINE, where it runs, the command
  examples.py run TEMPLATE SHIMS FILE...   run the host examples, KTAP results on stdout
  examples.py guest FILE...           a shell script running, in a guest, those that
                                      need the live kernel and can run there
  examples.py block FILE REGEX        the commands of the first block that has one
                                      matching REGEX: LINE<TAB>COMMAND each (the boot
                                      tests run README.md's install blocks so)

The examples are read from the files at test time: README.md's ```sh
blocks, and the .SH EXAMPLES .nf/.fi blocks of each man page (roff
escapes undone).  A command is one logical line (backslash continuations
joined, comments dropped).  Each command is either run here, in a copy of
TEMPLATE (a working directory that holds the captured boots' files under
the names the examples use, and root/, a fake / of a captured boot, with
/sys, /proc and /lib/modules rewritten to it and SHIMS first in PATH), or
needs a live kernel, and the table LIVE names where such a command runs.
A command that fits neither fails the test: a new example must say
where it runs.  The commands of one block share one copy of TEMPLATE, in
order, so a later command sees what an earlier one wrote.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (regex on the command, where it runs): commands that need a live kernel
# or a machine to install on.  The first match wins.
LIVE = [
    (r"^(apt-get|dkms|update-initramfs|dracut|mokutil)\b|^make (-C tools/cli )?install|^make deb\b",
     "tests/boot: README.md's install blocks as written (debs.sh: apt-get build-dep, "
     "make deb; run.sh: the apt-get install of ./deb/ in the dracut root, the by-hand "
     "block in the trixie root, command by command), then the images booted"),
    (r"^make (demo|check)\b", "the suite itself (.ci/run runs make check; make demo boots its own VM)"),
    (r"^(perf (record|report)|perf script\s+[^|\s]|perf script -i|sleep \d+; kill|kreloc inject\b)",
     "rig/vm-inject.sh: perf sessions with kreloc inject on amd64-6.1 and amd64-7"),
    (r"^gdb-multiarch\b", "rig/vm-gdb.sh: gdb on QEMU's gdbstub with kreloc gdb's script"),
    (r"--vmcore\b|kreloc_drgn\.py|--freed\b",
     "rig/vm-vmcore.sh: a crash of amd64-6.1 dumped by QEMU: kreloc snapshot --vmcore, "
     "resolve --freed (--text --clock perf of the console's Oops), drgn -c with "
     "kreloc_drgn.py (drgn 0.0.31, in a trixie root)"),
    (r"^echo .*>\s*/sys/kernel/tracing/", "rig/vm-examples.sh: in a boot of amd64-6.1, with the probe the block adds"),
]
# First words a host command's pipeline stages may have: kreloc itself, and
# readers of the fake root or shims of the captured text.
HOST_WORDS = {"kreloc", "cat", "head", "dmesg", "perf"}

ROFF = [(r"\-", "-"), (r"\e", "\\"), (r"\(aq", "'"), (r"\(dq", '"'), (r"\(ti", "~"), (r"\&", "")]


def strip_comment(line):
    """Drop a # comment outside quotes."""
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def blocks_of(path):
    """[(first line number, [(line number, text), ...]), ...] of shell examples."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, cur, start = [], None, 0
    if path.endswith(".md"):
        for n, l in enumerate(lines, 1):
            if cur is None and re.match(r"^```(sh|bash|shell)\s*$", l):
                cur, start = [], n + 1
            elif cur is not None and l.startswith("```"):
                out.append((start, cur))
                cur = None
            elif cur is not None:
                cur.append((n, l))
    else:
        in_ex = False
        for n, l in enumerate(lines, 1):
            if l.startswith(".SH"):
                in_ex = "EXAMPLE" in l
            elif in_ex and l.startswith(".nf"):
                cur, start = [], n + 1
            elif cur is not None and l.startswith(".fi"):
                out.append((start, cur))
                cur = None
            elif cur is not None:
                for a, b in ROFF:
                    l = l.replace(a, b)
                cur.append((n, l))
    return out


def commands_of(block):
    cmds, acc, first = [], "", 0
    for n, l in block:
        t = strip_comment(l) if not acc else l.rstrip()
        if not acc:
            first = n
        if t.endswith("\\"):
            acc += t[:-1].rstrip() + " "
            continue
        t = (acc + t.strip()).strip()
        acc = ""
        # a pipeline continued on the next line ends with |
        if t.endswith("|"):
            acc = t + " "
            continue
        t = strip_comment(t)
        if t:
            cmds.append((first, t))
    return cmds


def classify(cmd):
    for rx, where in LIVE:
        if re.search(rx, cmd):
            return "live", where
    stages = [s.strip() for s in re.split(r"\|(?!\|)", cmd)]
    for s in stages:
        w = s.split()[0] if s.split() else ""
        if w not in HOST_WORDS:
            return "unknown", "no place to run it is known (tests/tools/examples.py: LIVE, HOST_WORDS)"
        if w == "perf" and s != "perf script":
            return "unknown", "only a bare 'perf script' (the captured boot's) is known here"
    return "host", "here, against the captured boots in tests/tools/data"


def examples(files):
    for f in files:
        for start, block in blocks_of(f):
            yield f, start, [(n, c) + classify(c) for n, c in commands_of(block)]


def rewrite(cmd, root):
    """/sys, /proc and /lib/modules of the examples are the fake root's."""
    return re.sub(r"(?<![\w./$-])/(sys|proc|lib/modules)/", root + r"/\1/", cmd)


def guest_ok(cmd, written):
    """Whether a command can run in the rig's guest (rig/vm-examples.sh):
    it reads only the live kernel, what the guest stages (System.map,
    modules/) and files an earlier command of its block wrote; no address
    or file of the captured boots, no endless pipe, no vmlinux."""
    if re.search(r"[0-9a-f]{8,}|--vmlinux|[<|]|^(perf|gdb|dmesg|make|apt-get|dkms|sleep)\b", cmd):
        return False
    # what another rig job runs (LIVE: a recording to inject into, a crash
    # dump) is that job's
    where = next((w for p, w in LIVE if re.search(p, cmd)), "")
    if where and not where.startswith("rig/vm-examples.sh"):
        return False
    if re.match(r"^(update-initramfs|dracut|mokutil)\b", cmd):
        return False
    for f in re.findall(r"--snapshot\s+(\S+)", cmd):
        if f not in written:
            return False
    return True


def guest_script(files):
    """One sh function call per command: ex ID 'COMMAND' (rig/vm-examples.sh's job)."""
    out = []
    for f, start, cmds in examples(files):
        written = set()
        out.append(f"block {os.path.basename(f)}:{start}")
        for ln, c, kind, where in cmds:
            if kind == "unknown" or not guest_ok(c, written):
                continue
            m = re.search(r"(?:-o|--output)\s+(\S+)", c)
            if m:
                written.add(m.group(1))
            q = c.replace("'", "'\\''")
            out.append(f"ex {os.path.basename(f)}:{ln} '{q}'")
    return "\n".join(out) + "\n"


def main():
    if sys.argv[1] == "guest":
        sys.stdout.write(guest_script(sys.argv[2:]))
        return 0
    if sys.argv[1] == "block":
        for f, start, cmds in examples([sys.argv[2]]):
            if any(re.search(sys.argv[3], c) for n, c, kind, where in cmds):
                for n, c, kind, where in cmds:
                    print(f"{n}\t{c}")
                return 0
        print(f"examples.py: no block of {sys.argv[2]} has a command matching {sys.argv[3]}",
              file=sys.stderr)
        return 1
    if sys.argv[1] == "list":
        for f, start, cmds in examples(sys.argv[2:]):
            for n, c, kind, where in cmds:
                print(f"{os.path.relpath(f)}:{n}\t{kind}\t{c}\t{where}")
        return 0
    template, shims = sys.argv[2], sys.argv[3]
    env = dict(os.environ, PATH=shims + ":" + os.environ["PATH"])
    n = failed = 0
    counts = {"host": 0, "live": 0, "unknown": 0, "skip": 0}
    for f, start, cmds in examples(sys.argv[4:]):
        rel = os.path.relpath(f, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        work = tempfile.mkdtemp(prefix="ex.", dir=os.environ.get("TMPDIR", "/tmp"))
        shutil.rmtree(work)
        shutil.copytree(template, work, symlinks=True)
        root = os.path.join(work, "root")
        for ln, c, kind, where in cmds:
            n += 1
            desc = f"example {rel}:{ln}: {c}"
            if kind == "live":
                counts["live"] += 1
                print(f"ok {n} {desc} # SKIP needs a live kernel: {where}", flush=True)
                continue
            if kind == "unknown":
                counts["unknown"] += 1
                failed += 1
                print(f"not ok {n} {desc}\n# {where}", flush=True)
                continue
            m = re.search(r"(?:^|\s)(--vmlinux)\s+(\S+)", c)
            if m and not os.path.exists(os.path.join(work, m.group(2))):
                counts["skip"] += 1
                print(f"ok {n} {desc} # SKIP no vmlinux of the captured build in the cache "
                      f"(rig/vmlinux-symbols.sh amd64-6.1 makes it)", flush=True)
                continue
            counts["host"] += 1
            if f.endswith("README.md"):
                counts["readme"] = counts.get("readme", 0) + 1
            run = rewrite(c, root)
            p = subprocess.run(["bash", "-o", "pipefail", "-c", run], cwd=work,
                               env=dict(env, KRELOC_ROOT=root),
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
            out = p.stdout.decode("utf-8", "replace")
            err = p.stderr.decode("utf-8", "replace")
            why = []
            if p.returncode != 0:
                why.append(f"exit {p.returncode}")
            if re.search(r"AddressSanitizer|runtime error|LeakSanitizer", err):
                why.append("a sanitizer report")
            wrote = re.search(r"(?:-o|--output)\s+(\S+)", c)
            if wrote:
                if not os.path.isfile(os.path.join(work, wrote.group(1))) or \
                   os.path.getsize(os.path.join(work, wrote.group(1))) == 0:
                    why.append(f"no {wrote.group(1)} written")
            elif not out.strip() and not re.match(r"^kreloc probe --remove", c):
                why.append("no output")
            if re.match(r"^kreloc resolve", c) and "--text" not in c and " ? (" in out:
                why.append("an address of the example is not resolved")
            if re.match(r"^(\S+ .*\| *)?kreloc resolve", c) and "--text" in c and \
               not re.search(r"<[\w.$]+\+0x[0-9a-f]+", out):
                why.append("no address of the text was annotated")
            if why:
                failed += 1
                print(f"not ok {n} {desc}\n# " + "; ".join(why), flush=True)
                for l in (err.strip().split("\n")[:4] + out.strip().split("\n")[:3]):
                    print(f"#   {l}")
            else:
                print(f"ok {n} {desc}", flush=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"# examples: {counts['host']} run here, {counts['live']} need a live kernel, "
          f"{counts['skip']} skipped for want of cached files, {counts['unknown']} with no known place")
    # An extraction that finds nothing must not pass: README.md has examples.
    n += 1
    if not counts.get("readme"):
        failed += 1
        print(f"not ok {n} examples of README.md run here: none (its ```sh blocks read?)")
    else:
        print(f"ok {n} examples run here: {counts['host']}, {counts['readme']} of them README.md's")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
