#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sizecheck.py: symbol and section sizes, and addresses past a symbol's end.

  sizecheck.py addrs-mod KO RECORD...     addresses to resolve
  sizecheck.py check-mod KO RECORD... -- JSON
  sizecheck.py addrs-core VMLINUX         vmlinux:0xLINKED inputs
  sizecheck.py check-core VMLINUX -- JSON
  sizecheck.py check-sections KO RECORD... -- LIBCONTRACT_SECTIONS_OUTPUT

Ground truth is the ELF file's own tables (readelf -sW, -SW) and, for a
module, where the kernel put each section (RECORD: kreloc's debugfs
module file as the guest read it).  For each function or object with a
size, in a live section of a live region, and with no other symbol
starting inside it:
  - its last byte is that symbol (or an alias at its start), at
    offset size - 1, with its st_size as symbol_size and, for a module,
    its section's sh_size as section_size;
  - its first byte past the end, if no symbol starts there, is in no
    symbol: symbol null, past_symbol it (or an alias), past_offset and
    past_size its size; inside its section that section, past the end
    of the module's last section in the region the region itself (its
    padding: section_size the region's), and for a symbol that another
    starts right after, that one at offset 0.
JSON is `kreloc resolve --json` of the addresses.  Prints one line of
counts; exit 1 and the first mismatches if any answer differs.
"""
import json
import re
import subprocess
import sys

SKIP_NAMES = ('.L', '$', '__efistub_', '__kcfi_typeid_')


def readelf(path, opt):
    return subprocess.run(['readelf', opt, '-W', path], capture_output=True, text=True,
                          check=True).stdout


def elf(path):
    """(sections by index: (name, size, flags)), [symbols (name, value, size, type, ndx)]"""
    secs = {}
    for line in readelf(path, '-S').splitlines():
        m = re.match(r'\s*\[\s*(\d+)\]\s+(\S*)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+'
                     r'[0-9a-f]+\s+(\S*)', line)
        if m:
            secs[int(m.group(1))] = (m.group(2), int(m.group(3), 16), m.group(4))
    syms = []
    for line in readelf(path, '-s').splitlines():
        f = line.split()
        if len(f) == 8 and f[0].endswith(':') and f[6].isdigit() and \
           f[3] in ('FUNC', 'OBJECT', 'NOTYPE') and not f[7].startswith(SKIP_NAMES):
            syms.append((f[7], int(f[1], 16), int(f[2], 0), f[3], int(f[6])))
    return secs, syms


def record(paths):
    """The kernel's record of a module: regions [(name, addr, size, state)], sections name -> (addr, state)."""
    regions, sections = [], {}
    for p in paths:
        for line in open(p):
            f = line.split()
            if len(f) == 5 and f[0] == 'region' and f[3] != '-':
                regions.append((f[1], int(f[2], 16), int(f[3], 16), f[4]))
            elif len(f) == 5 and f[0] == 'section':
                sections[f[1]] = (int(f[2], 16), f[4])
    return regions, sections


def region_of(regions, a):
    for r in regions:
        if r[1] <= a < r[1] + r[2]:
            return r
    return None


def cases_mod(ko, recs):
    """[(address, expectation)] for a module's .ko placed as its record says."""
    secs, syms = elf(ko)
    regions, placed = record(recs)
    at = {}         # runtime address -> symbols starting there
    out = []
    for s in syms:
        name = secs.get(s[4], ('',))[0]
        if name in placed:
            at.setdefault(placed[name][0] + s[1], []).append(s)
    starts = sorted(at)
    sec_at = {a: n for n, (a, st) in placed.items()}
    for s in syms:
        sname, ssize, _ = secs.get(s[4], ('', 0, ''))
        if s[3] not in ('FUNC', 'OBJECT') or not s[2] or sname not in placed:
            continue
        base, state = placed[sname]
        a = base + s[1]
        reg = region_of(regions, a)
        if state != 'live' or not reg or reg[3] != 'live' or reg[0].startswith('init'):
            continue
        inside = [x for x in starts if a < x < a + s[2]]
        if inside:
            continue
        aliases = sorted({x[0] for x in at[a]})
        sizes = sorted({x[2] for x in at[a] if x[2]})
        out.append((a + s[2] - 1, {'kind': 'in', 'symbol': aliases, 'offset': s[2] - 1,
                                   'symbol_size': sizes, 'section': sname, 'section_size': ssize}))
        p = a + s[2]
        if p in at:
            out.append((p, {'kind': 'next', 'symbol': sorted({x[0] for x in at[p]}), 'offset': 0}))
        elif p < base + ssize:
            out.append((p, {'kind': 'past', 'past_symbol': aliases, 'past_offset': s[2],
                            'past_size': sizes, 'section': sname, 'section_size': ssize}))
        elif p not in sec_at and region_of(regions, p) == reg:
            out.append((p, {'kind': 'padding', 'past_symbol': aliases, 'past_offset': s[2],
                            'section': reg[0], 'offset': p - reg[1], 'section_size': reg[2]}))
    return out


def cases_core(vmlinux, every=150):
    """[(linked address, expectation)] for every every-th function of .text with a size."""
    secs, syms = elf(vmlinux)
    text = [i for i, v in secs.items() if v[0] == '.text']
    if not text:
        return []
    at = {}
    for s in syms:
        at.setdefault(s[1], []).append(s)
    starts = sorted(at)
    import bisect
    funcs = sorted((s for s in syms if s[3] == 'FUNC' and s[2] > 1 and s[4] == text[0]),
                   key=lambda s: s[1])
    out = []
    for s in funcs[::every]:
        a, size = s[1], s[2]
        i = bisect.bisect_right(starts, a)
        if i < len(starts) and starts[i] <= a + size:
            continue    # another symbol inside it, or right after it
        aliases = sorted({x[0] for x in at[a]})
        sizes = sorted({x[2] for x in at[a] if x[2]})
        out.append((a + size - 1, {'kind': 'in', 'symbol': aliases, 'offset': size - 1,
                                   'symbol_size': sizes}))
        out.append((a + size, {'kind': 'past', 'past_symbol': aliases, 'past_offset': size,
                               'past_size': sizes}))
    return out


def check(cases, results, core):
    got = {}
    for r in results:
        a = r['input'][len('vmlinux:'):] if core else r['input']
        got[int(a, 16)] = r
    bad, n = [], {}
    for a, w in cases:
        r = got.get(a)
        n[w['kind']] = n.get(w['kind'], 0) + 1
        why = None
        if not r or not r.get('resolved'):
            why = 'not resolved'
        elif w['kind'] in ('in', 'next'):
            if r.get('symbol') not in w['symbol'] or int(r['offset'], 16) != w['offset']:
                why = 'symbol'
            elif w['kind'] == 'in' and int(r.get('symbol_size', '0x0'), 16) not in w['symbol_size']:
                why = 'symbol_size'
        else:
            if r.get('symbol') is not None or r.get('past_symbol') not in w['past_symbol'] or \
               int(r.get('past_offset', '0x0'), 16) != w['past_offset']:
                why = 'past_symbol'
            elif 'past_size' in w and int(r.get('past_size', '0x0'), 16) not in w['past_size']:
                why = 'past_size'
            elif 'offset' in w and int(r['offset'], 16) != w['offset']:
                why = 'offset'
        if not why and 'section' in w and r.get('section') != w['section']:
            why = 'section'
        if not why and 'section_size' in w and int(r.get('section_size', '0x0'), 16) != w['section_size']:
            why = 'section_size'
        if why:
            bad.append('0x%x: %s: want %s, got %s' % (a, why, w, json.dumps(r)))
    print('%d addresses: %s' % (len(cases), ', '.join('%d %s' % (v, k) for k, v in sorted(n.items()))))
    for b in bad[:8]:
        print('  ' + b)
    return 1 if bad or not cases else 0


def check_sections(ko, recs, lines):
    """kreloc_resolver_module_sections()'s sizes: the .ko's sh_size, where the loader keeps it."""
    secs, _ = elf(ko)
    size = {v[0]: v[1] for v in secs.values()}
    regions, placed = record(recs)
    bad, n = [], 0
    for line in lines:
        f = line.split()
        if len(f) != 4 or f[0] != 'section':
            continue
        n += 1
        name, addr, got = f[1], int(f[2], 16), int(f[3], 16)
        arch = name in ('.plt', '.init.plt', '.stubs', '.text.ftrace_trampoline', '.got', '.got.plt')
        want = 0 if arch or name in ('.symtab', '.strtab') else size.get(name)
        if placed.get(name, (None,))[0] != addr or got != want:
            bad.append('%s at 0x%x: size 0x%x, the .ko says 0x%x' % (name, addr, got, want or 0))
    print('%d sections, their sizes the .ko\'s' % n)
    for b in bad[:8]:
        print('  ' + b)
    return 1 if bad or not n else 0


def main():
    mode = sys.argv[1]
    args = sys.argv[2:]
    after = None
    if '--' in args:
        after = args[args.index('--') + 1]
        args = args[:args.index('--')]
    if mode == 'check-sections':
        return check_sections(args[0], args[1:], open(after))
    if mode in ('addrs-mod', 'check-mod'):
        cases = cases_mod(args[0], args[1:])
    else:
        cases = cases_core(args[0])
    if mode.startswith('addrs'):
        for a, _ in cases:
            print(('vmlinux:0x%x' if mode == 'addrs-core' else '0x%x') % a)
        return 0
    return check(cases, json.load(open(after))['results'], mode == 'check-core')


sys.exit(main())
