# SPDX-License-Identifier: GPL-2.0
#
# gdb_check.py: run by gdb (-batch -x gdb_check.py) once the symbols are
# loaded (by `kreloc gdb`'s script, or naively for the control run) and the
# target is connected (QEMU's gdbstub).  Reports to $KRELOC_GDB_OUT:
#   BREAK ADDR...      where gdb put the breakpoint on kreloc_busy_spin
#   HITS N             how often it hit within $KRELOC_GDB_WAIT seconds
#   PC ADDR / BT ...   where the guest stopped
#   DUMP FILE          a vmcore of the stopped guest ($KRELOC_GDB_DUMP)
#   SYM ADDR ANSWER    `info symbol ADDR` for each address of $KRELOC_GDB_ADDRS
#   STOP ok|error ...  the write of 1 to kreloc_busy_stop ($KRELOC_GDB_STOP=1)
# then removes the breakpoint and detaches, so the guest runs on.
import os
import signal
import threading

import gdb

out = open(os.environ["KRELOC_GDB_OUT"], "w")


def say(*words):
    print(*words, file=out, flush=True)


def run_for(seconds):
    """Continue until a stop or until SIGINT (gdb's Ctrl-C) after seconds."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        gdb.execute("continue", to_string=True)
    except (gdb.error, KeyboardInterrupt) as e:
        say("# continue:", str(e).replace("\n", " "))
    timer.cancel()


gdb.execute("set pagination off")
gdb.execute("set confirm off")
try:
    bp = gdb.Breakpoint("kreloc_busy_spin")
    locs = [hex(loc.address) for loc in getattr(bp, "locations", [])]
    if not locs:
        locs = [gdb.execute("info breakpoints", to_string=True).split("\n")[1]]
    say("BREAK", *locs)
    run_for(float(os.environ.get("KRELOC_GDB_WAIT", "20")))
    say("HITS", bp.hit_count)
    if bp.hit_count:
        say("PC", hex(int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFFFFFFFFFF))
        for line in gdb.execute("bt 4", to_string=True).splitlines():
            say("BT", line)
        dump = os.environ.get("KRELOC_GDB_DUMP")
        if dump:
            # QEMU's monitor through the gdbstub: a kdump-compressed vmcore
            gdb.execute("monitor dump-guest-memory -z " + dump, to_string=True)
            say("DUMP", dump)
except gdb.error as e:
    say("BREAK error", str(e).replace("\n", " "))
    say("HITS 0")

addrs = os.environ.get("KRELOC_GDB_ADDRS")
if addrs:
    with open(addrs) as f:
        for line in f:
            a = line.split()[0]
            try:
                ans = gdb.execute("info symbol " + a, to_string=True).strip()
            except gdb.error as e:
                ans = "error " + str(e)
            say("SYM", a, ans.replace("\n", " "))

if os.environ.get("KRELOC_GDB_STOP") == "1":
    try:
        # the module's .bss, through the placed symbol (no DWARF needed)
        gdb.execute("set {unsigned int}&kreloc_busy_stop = 1")
        say("STOP ok", gdb.execute("info symbol &kreloc_busy_stop", to_string=True).strip())
    except gdb.error as e:
        say("STOP error", str(e).replace("\n", " "))

gdb.execute("delete")
gdb.execute("detach")
say("DONE")
