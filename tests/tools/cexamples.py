#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cexamples.py OUTDIR FILE...: the C examples of man pages and Markdown.

Every C program shown to libkreloc's users is written out to be built:
in a man page, each .nf/.fi block that includes <kreloc/kreloc.h>, its
groff escapes undone; in Markdown, each ```c block.  Each is written to
OUTDIR/BASENAME-LINE.c, and one line "OUTDIR/BASENAME-LINE.c FILE:LINE"
is printed for it.  test_lib.sh builds each against the installed
library with -Wall -Wextra -Werror.
"""
import os
import re
import sys

GROFF = [(r'\e', '\\'), (r'\-', '-'), (r'\&', ''), (r'\(aq', "'"), (r'\(dq', '"')]


def blocks(path):
    lines = open(path).read().split('\n')
    man = not path.endswith('.md')
    start, cur = None, []
    for n, line in enumerate(lines, 1):
        if start is None:
            if (man and line.startswith('.nf')) or (not man and re.match(r'^```c\s*$', line)):
                start, cur = n + 1, []
            continue
        if (man and line.startswith('.fi')) or (not man and line.startswith('```')):
            text = '\n'.join(cur) + '\n'
            if not man or '#include <kreloc/kreloc.h>' in text:
                yield start, text
            start = None
            continue
        if man:
            if line.startswith('.') and not line.startswith('..'):
                continue        # a request inside the block (.B, .BI ...)
            for a, b in GROFF:
                line = line.replace(a, b)
        cur.append(line)


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for f in sys.argv[2:]:
    for line, text in blocks(f):
        name = os.path.join(out, '%s-%d.c' % (os.path.basename(f).replace('.', '_'), line))
        with open(name, 'w') as o:
            o.write(text)
        print(name, '%s:%d' % (f, line))
