#!/usr/bin/env python3
"""The host's own count of the guest's flushes, for tests/vm/run.sh.

Usage: blockstats.py QMP-SOCKET OUT. Connects to QEMU's QMP socket, asks QEMU to keep a
latency histogram of every drive's writes and flushes (block-latency-histogram-set),
and, every half second until QEMU goes, writes OUT afresh (by rename): one line per
drive, "DRIVE FLUSH-OPERATIONS FLUSH-TOTAL-TIME-NS WRITE-MEDIAN-NS FLUSH-MEDIAN-NS",
from query-blockstats; a median is -1 when there is no histogram or nothing in it. The
last file written is the state just before the guest powered off."""
import json
import os
import socket
import sys
import time

# Histogram bounds in ns: 2 us steps to 2 ms (a tenth of vbench's flush margin), then
# 100 us steps to 100 ms; slower requests land in the last bin.
BOUNDS = list(range(2000, 2000001, 2000)) + list(range(2100000, 100000001, 100000))


def median(h):
    """The middle of the bin that holds the median request, or -1."""
    if not h:
        return -1
    bins, bounds = h.get("bins", []), h.get("boundaries", [])
    n = sum(bins)
    if n == 0 or len(bins) != len(bounds) + 1:
        return -1
    seen = 0
    for i, c in enumerate(bins):
        seen += c
        if 2 * seen >= n:
            lo = bounds[i - 1] if i > 0 else 0
            hi = bounds[i] if i < len(bounds) else lo
            return (lo + hi) // 2
    return -1


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

    def ask(command, args=None):
        m = {"execute": command}
        if args:
            m["arguments"] = args
        f.write(json.dumps(m) + "\n")
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
        # the command names a guest device (its QOM path), not the drive
        for d in ask("query-blockstats").get("return", []):
            if d.get("qdev"):
                ask("block-latency-histogram-set", {"id": d["qdev"],
                                                    "boundaries-write": BOUNDS,
                                                    "boundaries-flush": BOUNDS})
        while True:
            m = ask("query-blockstats")
            with open(out + ".new", "w") as o:
                for d in m.get("return", []):
                    st = d.get("stats", {})
                    o.write("%s %d %d %d %d\n" % (d.get("device") or d.get("qdev", "?"),
                                                  st.get("flush_operations", 0),
                                                  st.get("flush_total_time_ns", 0),
                                                  median(st.get("wr_latency_histogram")),
                                                  median(st.get("flush_latency_histogram"))))
            os.rename(out + ".new", out)
            time.sleep(0.5)
    except (EOFError, OSError, ValueError):
        return 0


sys.exit(main())
