#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""blob.py flip DUMP NAME | blob.py put DUMP OFFSET BYTE

flip: change one byte in the middle of the text of kreloc's record of
module NAME in the ELF vmcore DUMP, in place, and print "OFFSET BYTE" (the
file offset and the byte it held, for put).  put: write BYTE (decimal)
back at OFFSET.

The crash dump test (rig/vm-vmcore.sh) makes a record torn this way, as a
dump that lost or garbled part of kreloc's memory would have it, and
checks that `kreloc snapshot --vmcore` leaves it out.  This reads the
layout of lib/kreloc_dump.h on its own, from the documentation, not with
libkreloc's code: ELF64 program headers, the descriptor at a 4 KiB
boundary whose self address is where it is, its table, the blobs.
"""
import struct
import sys

MAGIC = b"\x7fKRELOC-VMCORE\x9c\x41"


def segments(f, end):
    f.seek(0)
    ident = f.read(16)
    if ident[:4] != b"\x7fELF" or ident[4] != 2:
        sys.exit("blob.py: not an ELF64 file")
    e = end
    hdr = f.read(48)
    phoff, = struct.unpack(e + "Q", hdr[16:24])
    phentsize, phnum = struct.unpack(e + "HH", hdr[38:42])
    segs = []
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        p_type, _, off, _, paddr, filesz = struct.unpack(e + "IIQQQQ", f.read(40))
        if p_type == 1:
            segs.append((paddr, off, filesz))
    return segs


def offset_of(segs, pa):
    for paddr, off, size in segs:
        if paddr <= pa < paddr + size:
            return off + pa - paddr
    sys.exit("blob.py: physical 0x%x is not in the dump" % pa)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "put":
        with open(sys.argv[2], "r+b") as f:
            f.seek(int(sys.argv[3]))
            f.write(bytes([int(sys.argv[4])]))
        return
    if len(sys.argv) != 4 or sys.argv[1] != "flip":
        sys.exit(__doc__)
    path, name = sys.argv[2], sys.argv[3].encode()
    with open(path, "r+b") as f:
        end = ">" if f.read(6)[5] == 2 else "<"
        segs = segments(f, end)
        for paddr, off, size in segs:
            pa = (paddr + 4095) & ~4095
            while pa + 16 <= paddr + size:
                f.seek(off + pa - paddr)
                if f.read(16) == MAGIC:
                    d = f.read(160 - 16)
                    self_pa, = struct.unpack(end + "Q", d[16:24])
                    if self_pa == pa:
                        table, = struct.unpack(end + "Q", d[32:40])
                        break
                pa += 4096
            else:
                continue
            break
        else:
            sys.exit("blob.py: no kreloc descriptor")
        f.seek(offset_of(segs, table))
        _, nr, _, _, _ = struct.unpack(end + "IIQII", f.read(24))
        slots = struct.unpack(end + "%dQ" % nr, f.read(8 * nr))
        for pa in slots[3:]:
            if not pa:
                continue
            text_at = offset_of(segs, pa) + 40
            f.seek(offset_of(segs, pa) + 32)
            length, = struct.unpack(end + "I", f.read(4))
            f.seek(text_at)
            text = f.read(length)
            if text.startswith(name + b" "):
                at = text_at + length // 2
                old = text[length // 2]
                f.seek(at)
                f.write(bytes([old ^ 0x20]))
                print(at, old)
                return
    sys.exit("blob.py: no record of %s" % name.decode())


if __name__ == "__main__":
    main()
