#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# results.py RUNDIR FILE: write the newest measured result of each job of
# the test suite into FILE (Documentation/results.md), from the job files
# a run of tests/run-all.sh left in RUNDIR (rig/jobs.sh: job.I.name,
# .start, .rc, .results; TARGET.env for a target's kernel).
#
# FILE keeps one row per job: the rows of the jobs this run ran are
# replaced, the others stay as an earlier run measured them, each with the
# date and tree of its own run.  The rows live between two marker lines;
# everything else in FILE is written anew, so the file is never edited by
# hand.  A job's row says passed, failed and skipped as its KTAP blocks
# counted them (a job that crashed or left no result counts one failure,
# as rig/jobs.sh counts it), its wall time, and the kernel it booted.
#
# A job may also leave tables of what it measured, as RUNDIR/table.NAME.md
# (a "## title" line, then Markdown): each goes into FILE's tables
# section under its NAME, replacing the one an earlier run left there, with
# the date and tree of the run that measured it.
import datetime
import glob
import os
import re
import subprocess
import sys

BEGIN = "<!-- results: one row per job, written by rig/results.py -->"
END = "<!-- end of results -->"
TBEGIN = "<!-- tables: written by rig/results.py from the jobs' table.NAME.md -->"
TEND = "<!-- end of tables -->"
TMARK = re.compile(r"^<!-- table (\S+) -->$")
HEAD = "| job | kernel | passed | failed | skipped | seconds | run (UTC) | tree |"
SEP = "|---|---|---:|---:|---:|---:|---|---|"


def tree_id(top):
    """The tree's commit, with -dirty when it has changes, or '-'."""
    try:
        rev = subprocess.run(["git", "-C", top, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", top, "status", "--porcelain",
                                "--untracked-files=no", "--", ".",
                                ":!Documentation/results.md"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "-"


def kernel_of(rundir, name):
    """KVER of the target a job booted (its env file in the run), or '-'."""
    m = re.match(r"QEMU: (\S+)$", name)
    if not m:
        return "-"
    try:
        with open(os.path.join(rundir, m.group(1) + ".env")) as f:
            for line in f:
                if line.startswith("KVER="):
                    return line.strip()[5:]
    except OSError:
        pass
    return "-"


def cell(s):
    return s.replace("|", "\\|")


def this_run(rundir, when, tree):
    rows = {}
    for nf in glob.glob(os.path.join(rundir, "job.*.name")):
        base = nf[:-len(".name")]
        with open(nf) as f:
            name = f.read().strip()
        try:
            with open(base + ".rc") as f:
                rc = int(f.read().strip() or 255)
            start = int(open(base + ".start").read().strip())
            secs = int(os.stat(base + ".rc").st_mtime) - start
        except (OSError, ValueError):
            continue
        p = fl = s = 0
        lines = [ln.split() for ln in open(base + ".results") if ln.strip()]
        for ln in lines:
            p, fl, s = p + int(ln[0]), fl + int(ln[1]), s + int(ln[2])
        if rc != 0 or not lines:
            fl += 1
        rows[name] = "| %s | %s | %d | %d | %d | %d | %s | %s |" % (
            cell(name), kernel_of(rundir, name), p, fl, s, secs, when, tree)
    return rows


def old_rows(path):
    rows, inside = {}, False
    try:
        text = open(path).read().splitlines()
    except OSError:
        return rows
    for line in text:
        if line == BEGIN:
            inside = True
        elif line == END:
            inside = False
        elif inside and line.startswith("| ") and line not in (HEAD,):
            name = re.split(r"(?<!\\) \| ", line[2:], maxsplit=1)[0]
            rows[name] = line
    return rows


def old_tables(path):
    """{NAME: lines} of the tables section of FILE."""
    tables, name = {}, None
    try:
        text = open(path).read().splitlines()
    except OSError:
        return tables
    inside = False
    for line in text:
        if line == TBEGIN:
            inside = True
        elif line == TEND:
            inside = False
        elif inside:
            m = TMARK.match(line)
            if m:
                name = m.group(1)
                tables[name] = []
            elif name:
                tables[name].append(line)
    return tables


def new_tables(rundir, when, tree):
    tables = {}
    for tf in glob.glob(os.path.join(rundir, "table.*.md")):
        name = os.path.basename(tf)[len("table."):-len(".md")]
        lines = open(tf).read().rstrip("\n").splitlines()
        tables[name] = lines + ["", "(measured %s, tree %s)" % (when, tree), ""]
    return tables


def main():
    rundir, path = sys.argv[1], sys.argv[2]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    rows = old_rows(path)
    tables = old_tables(path)
    tables.update(new_tables(rundir, when, tree_id(top)))
    new = this_run(rundir, when, tree_id(top))
    rows.update({cell(k): v for k, v in new.items()})
    out = [
        "# Test results",
        "",
        "The newest result of each job of `make check` (tests/run-all.sh), written",
        "by the run itself (rig/results.py); a run replaces the rows of the jobs it",
        "ran and keeps the others, each with the date and the tree (commit;",
        "`-dirty` when the tree had changes) of the run that measured it.  Seconds",
        "are the job's wall time, beside one other job on a two-core machine.  The",
        "opt-in targets (`debug`, `upstream`) appear once a run has included them.",
        "",
        BEGIN,
        HEAD,
        SEP,
    ]
    out += [rows[k] for k in sorted(rows)]
    out += [END, ""]
    if tables:
        out += ["## Measured by the jobs", "", TBEGIN]
        for name in sorted(tables):
            out += ["<!-- table %s -->" % name] + tables[name]
        out += [TEND, ""]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out))
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
