#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""upstream-doc.py RUNS DOC: write the upstream target's times into DOC.

RUNS is $KRELOC_CACHE/upstream/runs, where tests/run-all.sh's run_upstream
keeps its newest run of each kind ("cold": rig/kernel-upstream.sh
checked the series and built kernel and perf in empty trees;
"incremental": it checked again in the trees of a run before; "warm": it
answered from its cache), each a
line "DATE COMMIT TOTAL KERNEL VM PASSED FAILED SKIPPED" (seconds).  DOC's
block between the lines "<!-- upstream-times: begin -->" and
"<!-- upstream-times: end -->" becomes a table of them, followed by the
results of the newest run's comparison ($KRELOC_CACHE/run/upstream-*/
compare.log, from rig/upstream-compare.py), as it printed them.
"""
import glob
import re
import os
import sys

BEGIN = "<!-- upstream-times: begin -->"
END = "<!-- upstream-times: end -->"


def minutes(s):
    s = int(s)
    return f"{s // 60} min {s % 60:02d} s"


def main():
    runs, doc = sys.argv[1], sys.argv[2]
    rows = []
    for kind in ("cold", "incremental", "warm"):
        try:
            with open(os.path.join(runs, kind), encoding="utf-8") as f:
                d, commit, total, kern, vm, p, fl, sk = f.read().split()[:8]
        except (OSError, ValueError):
            continue
        rows.append(f"| {kind} | {d} | {commit} | {minutes(total)} | {minutes(kern)} | "
                    f"{minutes(vm)} | {p} passed, {fl} failed, {sk} skipped |")
    if not rows:
        return 0
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print(f"upstream-doc.py: no {BEGIN} block in {doc}", file=sys.stderr)
        return 1
    logs = [p for p in glob.glob(os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(runs))), "run", "upstream-*", "compare.log")) if "-bench" not in p]
    compare = []
    if logs:
        newest = max(logs, key=os.path.getmtime)
        with open(newest, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^(ok|not ok) \d+ (.*)$", line.rstrip("\n"))
                if m:
                    compare.append(f"- {m.group(1)}: {m.group(2)}")
    table = "\n".join([
        BEGIN,
        "| run | date | commit | the target's job | checks and builds | boots and reports | results |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "The newest run's comparison (rig/upstream-compare.py):",
        "",
        *compare,
        END,
    ])
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(doc + ".tmp", "w", encoding="utf-8") as f:
        f.write(head + table + tail)
    os.replace(doc + ".tmp", doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
