#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""nullargs.py HEADER: what <kreloc/kreloc.h> says of each pointer argument.

One line per pointer parameter (a '*' in its type, or a *_fn_t callback) of
each KRELOC_API function: "FUNC PARAM nullable" when its kernel-doc line
says "or NULL", "FUNC PARAM required" otherwise, "FUNC PARAM undocumented"
without one; "FUNC - -" for a function without pointer parameters.  The
header is the contract (its conventions: "A pointer argument may be NULL
only where its description says so"); libcontract.c's NULL table must be
exactly these pairs.
"""
import re
import sys

src = open(sys.argv[1]).read()
for m in re.finditer(r'/\*\*\n(.*?)\*/\nKRELOC_API\s+[^(]*?\b(\w+)\(([^)]*)\);', src, re.S):
    doc, fn, params = m.group(1), m.group(2), m.group(3)
    desc, cur, ptrs = {}, None, 0
    for line in doc.splitlines():
        line = re.sub(r'^\s*\*\s?', '', line)
        p = re.match(r'@(\w+):\s*(.*)', line)
        if p:
            cur = p.group(1)
            desc[cur] = p.group(2)
        elif cur and line.strip() and line.startswith('\t'):
            desc[cur] += ' ' + line.strip()
        else:
            cur = None
    for p in params.split(',') if params.strip() != 'void' else []:
        p = ' '.join(p.split())
        name = re.search(r'(\w+)$', p).group(1)
        if '*' in p or re.search(r'_fn_t\b', p):
            ptrs += 1
            d = desc.get(name)
            print(fn, name, 'undocumented' if d is None else
                  'nullable' if re.search(r'\bor NULL\b', d) else 'required')
    if not ptrs:
        print(fn, '-', '-')
