#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""truth.py KALLSYMS SECTIONS KO RIP STACK: what the crash's module addresses are.

KALLSYMS: the module's /proc/kallsyms lines, saved while it was loaded;
SECTIONS: "NAME ADDRESS" lines of its /sys/module/NAME/sections; KO: its
.ko; RIP: the Oops's RIP; STACK: the crashed thread's stack words, one hex
number a line.  Prints, for the RIP and for each stack word inside the
module's .text (its sysfs address, its size in the .ko), "ADDR NAME+0xOFF
FILE:LINE": the highest kallsyms text symbol at or below it, and the line
addr2line reads in the .ko at its offset in .text.  This is the ground
truth of rig/vm-vmcore.sh: the kernel's own lists and binutils, nothing of
kreloc or drgn.
"""
import subprocess
import sys


def main():
    ks, sect, ko, rip, stack = sys.argv[1:6]
    syms = []
    with open(ks) as f:
        for line in f:
            tok = line.split()
            if len(tok) >= 3 and tok[1] in ("t", "T"):
                syms.append((int(tok[0], 16), tok[2]))
    syms.sort()
    text = None
    with open(sect) as f:
        for line in f:
            tok = line.split()
            if len(tok) == 2 and tok[0] == ".text":
                text = int(tok[1], 16)
    out = subprocess.run(["readelf", "-SW", ko], capture_output=True, text=True,
                         check=True).stdout
    size = None
    for line in out.splitlines():
        tok = line.replace("[ ", "[").split()
        if len(tok) > 5 and tok[1] == ".text":
            size = int(tok[5], 16)
    if text is None or size is None or not syms:
        sys.exit("truth.py: no .text address, size or text symbols")
    addrs = [int(rip, 16)] if rip else []
    with open(stack) as f:
        for line in f:
            w = int(line, 16)
            if text <= w < text + size:
                addrs.append(w)
    for a in addrs:
        below = [s for s in syms if s[0] <= a]
        if not below:
            continue
        s = below[-1]
        line = subprocess.run(["addr2line", "-j", ".text", "-e", ko, "0x%x" % (a - text)],
                              capture_output=True, text=True, check=True).stdout.strip()
        print("0x%x %s+0x%x %s" % (a, s[1], a - s[0], line))


if __name__ == "__main__":
    main()
