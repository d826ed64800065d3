#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qmp.py SOCKET COMMAND [JSON-ARGS]...: run QMP commands on a QEMU.

Connects to the QMP unix socket QEMU was started with (-qmp
unix:SOCKET,server=on,wait=off), leaves capabilities negotiation, then runs
each COMMAND with its JSON arguments ('{}' for none) in turn and prints
each "return" as JSON.  Exits 1 on the first "error" (printed to stderr),
on a closed socket or after --timeout seconds (default 600).  Used by
rig/vm-vmcore.sh for dump-guest-memory and quit.
"""
import json
import socket
import sys
import time


def main():
    args = sys.argv[1:]
    timeout = 600.0
    if len(args) >= 2 and args[0] == "--timeout":
        timeout = float(args[1])
        args = args[2:]
    if len(args) < 2 or len(args) % 2 == 0:
        sys.exit("usage: qmp.py [--timeout S] SOCKET COMMAND JSON-ARGS [COMMAND JSON-ARGS]...")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock.connect(args[0])
            break
        except OSError:
            if time.monotonic() > deadline:
                sys.exit("qmp.py: cannot connect to %s" % args[0])
            time.sleep(0.2)
    sock.settimeout(timeout)
    f = sock.makefile("rw")

    def answer():
        while True:
            line = f.readline()
            if not line:
                sys.exit("qmp.py: QEMU closed the socket")
            msg = json.loads(line)
            if "return" in msg or "error" in msg:
                return msg

    greeting = json.loads(f.readline() or "null")
    if not greeting or "QMP" not in greeting:
        sys.exit("qmp.py: no QMP greeting")
    cmds = [("qmp_capabilities", "{}")] + list(zip(args[1::2], args[2::2]))
    for i, (cmd, arg) in enumerate(cmds):
        f.write(json.dumps({"execute": cmd, "arguments": json.loads(arg)}) + "\n")
        f.flush()
        if cmd == "quit":
            # QEMU may close the socket before or after it answers.
            f.readline()
            return
        msg = answer()
        if "error" in msg:
            sys.exit("qmp.py: %s: %s" % (cmd, msg["error"].get("desc", msg["error"])))
        if i:
            print(json.dumps(msg["return"]))


if __name__ == "__main__":
    main()
