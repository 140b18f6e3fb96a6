#!/usr/bin/env python3
"""The host's own count of the guest's flushes, for tests/vm/run.sh.

Usage: blockstats.py QMP-SOCKET OUT. Connects to QEMU's QMP socket and, every half
second until QEMU goes, writes OUT afresh (by rename): one line per drive, "DRIVE
FLUSH-OPERATIONS FLUSH-TOTAL-TIME-NS", from query-blockstats. The last file written is
the state just before the guest powered off."""
import json
import os
import socket
import sys
import time


def main():
    path, out = sys.argv[1], sys.argv[2]
    sock = None
    for _ in range(600):
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(path)
            break
        except OSError:
            sock = None
            time.sleep(0.1)
    if sock is None:
        return 1
    f = sock.makefile("rw")

    def ask(command):
        f.write(json.dumps({"execute": command}) + "\n")
        f.flush()
        while True:
            line = f.readline()
            if not line:
                raise EOFError
            m = json.loads(line)
            # events come in between; only the answer counts
            if "return" in m or "error" in m:
                return m

    try:
        f.readline()  # the greeting
        ask("qmp_capabilities")
        while True:
            m = ask("query-blockstats")
            with open(out + ".new", "w") as o:
                for d in m.get("return", []):
                    st = d.get("stats", {})
                    o.write("%s %d %d\n" % (d.get("device") or d.get("qdev", "?"),
                                            st.get("flush_operations", 0),
                                            st.get("flush_total_time_ns", 0)))
            os.rename(out + ".new", out)
            time.sleep(0.5)
    except (EOFError, OSError, ValueError):
        return 0


sys.exit(main())
