#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""optcheck.py TOP KRELOC [COMMAND]: the options each document lists agree.

For COMMAND: the options in the "Usage:" lines of `kreloc COMMAND --help`,
in the SYNOPSIS of Documentation/kreloc-COMMAND.8, in what the bash
completion offers after `kreloc COMMAND -`, and in the `kreloc COMMAND`
lines of Documentation/cli.md's synopsis must be the same set (--help and
-h, which every command has, aside), and kreloc must accept each of them
(no "unknown option").  Without COMMAND: the commands (kreloc --help's
table, kreloc(8), the completion, cli.md, the man pages present) and the
global options (kreloc --help, kreloc(8)'s SYNOPSIS and OPTIONS, the
completion, cli.md).  Prints one line; exit 1 if they differ.
"""
import os
import re
import subprocess
import sys

OPT = re.compile(r"(?<![\w-])(--[a-z][a-z-]*[a-z]|-[a-zA-Z])(?![\w])")
HELP = {"--help", "-h"}


def opts(text):
    return set(OPT.findall(text))


def run(k, *args):
    p = subprocess.run([k, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def usage_block(text):
    """The Usage: line and its continuations (indented or more Usage: lines)."""
    out, on = [], False
    for line in text.splitlines():
        if line.startswith("Usage:"):
            on = True
        elif on and not line.startswith(" "):
            break
        if on:
            out.append(line)
    return "\n".join(out)


def man_section(path, name):
    text = open(path).read().replace("\\-", "-").replace("\\(aq", "'")
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % name, text, re.S | re.M)
    return re.sub(r"\\f[BIRP]", "", m.group(1)) if m else ""


def completion(top, words):
    script = r'''
_init_completion() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
_filedir() { :; }
. "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kreloc
printf '%s\n' "${COMPREPLY[@]}"
'''
    p = subprocess.run(["bash", "-c", script, "bash",
                        os.path.join(top, "tools/cli/bash-completion/kreloc"), *words],
                       capture_output=True, text=True)
    return p.stdout.split()


def readme_lines(top):
    text = open(os.path.join(top, "Documentation/cli.md")).read()
    m = re.search(r"^# The `kreloc` command-line tool.*?(?=^## )", text, re.S | re.M)
    sec = m.group(0) if m else ""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", sec, re.S):
        for line in block.splitlines():
            line = line.split("#")[0]
            if line.startswith("kreloc "):
                lines.append(line)
            elif line.startswith(" ") and lines and line.strip():
                lines[-1] += " " + line.strip()	# a continued synopsis
    return lines


def check_command(top, k, cmd):
    rc, out, err = run(k, cmd, "--help")
    if rc:
        return False, "%s --help exits %d" % (cmd, rc)
    page = os.path.join(top, "tools/cli/Documentation/kreloc-%s.8" % cmd)
    if os.path.exists(page):
        man = man_section(page, "SYNOPSIS")
    else:
        # version and help: their entry in kreloc(8)'s COMMANDS
        m = re.search(r"^\.TP\n\.B %s\n(.*?)(?=^\.TP|\Z)" % cmd,
                      man_section(os.path.join(top, "tools/cli/Documentation/kreloc.8"), "COMMANDS"),
                      re.S | re.M)
        man = m.group(1) if m else ""
    src = {
        "--help": opts(usage_block(out)),
        "man": opts(man),
        "completion": {w for w in completion(top, ["kreloc", cmd, "-"]) if OPT.fullmatch(w)},
        "cli.md": set().union(*[opts(l) for l in readme_lines(top)
                                if l.split()[1:2] == [cmd]] or [set()]),
    }
    for name in src:
        src[name] -= HELP
    union = set().union(*src.values())
    bad = ["%s lacks %s" % (n, " ".join(sorted(union - s))) for n, s in src.items() if union - s]
    for o in sorted(union):
        _, _, e = run(k, cmd, o)
        if "unknown option" in e:
            bad.append("kreloc %s does not take %s" % (cmd, o))
    if bad:
        return False, "%s: %s" % (cmd, "; ".join(bad))
    return True, "%s: %s" % (cmd, " ".join(sorted(union)))


def check_global(top, k):
    _, out, _ = run(k, "--help")
    table = re.search(r"^Commands.*?\n(.*?)\n\n", out, re.S | re.M)
    cmds = {l.split()[0] for l in table.group(1).splitlines()} if table else set()
    man = open(os.path.join(top, "tools/cli/Documentation/kreloc.8")).read().replace("\\-", "-")
    syn = re.search(r"COMMAND \" := \{(.*?)\}", man)
    src_c = {
        "kreloc --help": cmds,
        "kreloc(8) SYNOPSIS": set(re.findall(r"\b([a-z]+)\b", syn.group(1))) if syn else set(),
        "kreloc(8) COMMANDS": set(re.findall(r"^\.TP\n\.B ([a-z]+)$",
                                             man_section(os.path.join(top, "tools/cli/Documentation/kreloc.8"), "COMMANDS"), re.M)),
        "completion": set(completion(top, ["kreloc", ""])),
        "cli.md": {l.split()[1] for l in readme_lines(top) if l.split()[1][0].isalpha()},
    }
    union = set().union(*src_c.values())
    bad = ["%s lacks %s" % (n, " ".join(sorted(union - s))) for n, s in src_c.items() if union - s]
    pages = {c for c in cmds if c not in ("help", "version")}
    missing = [c for c in sorted(pages)
               if not os.path.exists(os.path.join(top, "tools/cli/Documentation/kreloc-%s.8" % c))]
    if missing:
        bad.append("no man page for %s" % " ".join(missing))
    usage = re.search(r"^Options:(.*)$", out, re.M)
    src_o = {
        "kreloc --help": opts(usage.group(1)) if usage else set(),
        "kreloc(8) SYNOPSIS+OPTIONS": opts(man_section(os.path.join(top, "tools/cli/Documentation/kreloc.8"), "OPTIONS")),
        "completion": {w for w in completion(top, ["kreloc", "-"]) if OPT.fullmatch(w)},
        "cli.md": set().union(*[opts(l.split(" COMMAND")[0]) for l in readme_lines(top)
                                if " COMMAND" in l] or [set()]),
    }
    ounion = set().union(*src_o.values())
    bad += ["%s lacks %s" % (n, " ".join(sorted(ounion - s))) for n, s in src_o.items() if ounion - s]
    if bad:
        return False, "; ".join(bad)
    return True, "commands %s; options %s" % (" ".join(sorted(union)), " ".join(sorted(ounion)))


def main():
    top, k = sys.argv[1], sys.argv[2]
    ok, msg = check_command(top, k, sys.argv[3]) if len(sys.argv) > 3 else check_global(top, k)
    print(msg)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
