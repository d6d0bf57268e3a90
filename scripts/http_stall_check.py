#!/usr/bin/env python3
"""Many browsers at once: every request to the board page is answered promptly.

Usage: scripts/http_stall_check.py ENGINE [--connections 50] [--rounds 5]
                                   [--deadline 5] [--threads 8]

--rounds times: starts `engine gui` on loopback (port 0, a fresh database,
so its connection pool starts cold), opens --connections TCP connections at
once, sends one GET on each,
and waits up to --deadline seconds for the answers. Each connection behaves
as a browser does: it keeps the connection open for later requests unless
the reply says `Connection: close`, in which case it closes it once the reply
is read. Connections are only closed at the end of the round.

Fails (exit 1) if any request is unanswered by the deadline, and prints the
slowest answer of each round. Only loopback is used; the run is bounded by
rounds x deadline seconds.
"""
import argparse
import re
import selectors
import socket
import sys
import tempfile
import time
from pathlib import Path
from gui_server import start_gui


def start(engine, work, threads):
    return start_gui(engine, "--db", work / "crowd.sqlite", "--threads", threads,
                     "--organiser-token-file", work / "organiser.token")


def complete(data):
    """The reply's head if `data` holds one whole reply (Content-Length body), else None."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return None
    length = re.search(rb"(?im)^content-length:\s*(\d+)\s*$", head)
    if length and len(body) < int(length.group(1)):
        return None
    return head


def round_trip(port, count, deadline):
    """Opens `count` connections at once, one GET each; returns (answered, slowest seconds)."""
    request = f"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    socks = [socket.create_connection(("127.0.0.1", port), timeout=deadline) for _ in range(count)]
    began = time.perf_counter()
    sel = selectors.DefaultSelector()
    for s in socks:
        s.sendall(request)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, bytearray())
    answered, slowest = 0, 0.0
    try:
        while answered < count:
            left = began + deadline - time.perf_counter()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                chunk = key.fileobj.recv(65536)
                key.data.extend(chunk)
                head = complete(bytes(key.data))
                if head is None and chunk:
                    continue
                sel.unregister(key.fileobj)
                if head is not None and head.startswith(b"HTTP/1.1 200"):
                    answered += 1
                    slowest = max(slowest, time.perf_counter() - began)
                if head is None or re.search(rb"(?im)^connection:\s*close", head):
                    key.fileobj.close()  # as a browser does; else it stays open
    finally:
        sel.close()
        for s in socks:
            s.close()
    return answered, slowest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    failed = 0
    for r in range(args.rounds):
        proc, port = start(args.engine, Path(tempfile.mkdtemp(prefix="http-stall-")), args.threads)
        try:
            answered, slowest = round_trip(port, args.connections, args.deadline)
        finally:
            proc.terminate()
            proc.wait()
        print(f"round {r + 1}: {answered} of {args.connections} answered within {args.deadline:g} s, "
              f"slowest {slowest * 1000:.0f} ms")
        failed += args.connections - answered
    if failed:
        print(f"FAIL: {failed} requests unanswered")
        return 1
    print("ok: every request answered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
