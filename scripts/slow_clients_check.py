#!/usr/bin/env python3
"""Slow and silent clients must not stall anyone else (`engine gui`).

Usage: scripts/slow_clients_check.py ENGINE [--silent 200] [--partial 100]
                                     [--requests 40] [--timeout 5]

Opens --silent connections that send nothing and --partial connections that
send half a request line, while the server is stopped (SIGSTOP: a server
busy elsewhere; none of them is accepted yet), so the kernel must hold them
all in the listen backlog: each must connect within 100 ms (an overflow
drops the SYN, and the client sends it again only after a second). Then it
resumes the server (SIGCONT) and makes --requests ordinary requests from
another client (half on new connections, half on one kept-alive
connection): each must be answered within 100 ms. Then every slow
connection must be closed by the server after the documented header
timeout (--timeout seconds; allowed: from that time to 3 s after it).
Only the standard library: sockets and http.client.
"""
import argparse
import http.client
import selectors
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from gui_server import start_gui

LIMIT = 0.100


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--silent", type=int, default=200)
    ap.add_argument("--partial", type=int, default=100)
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--timeout", type=float, default=5.0)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_gui(args.engine, "--db", Path(tmp) / "db.sqlite")
        try:
            host = f"127.0.0.1:{port}"
            slow = []
            proc.send_signal(signal.SIGSTOP)
            try:
                opened = time.monotonic()
                slowest = 0.0
                for k in range(args.silent + args.partial):
                    start = time.perf_counter()
                    try:
                        s = socket.create_connection(("127.0.0.1", port), timeout=3)
                    except OSError as e:
                        slowest = max(slowest, time.perf_counter() - start)
                        failures.append(f"connection {k} not made while the server was stopped ({e})")
                        break
                    slowest = max(slowest, time.perf_counter() - start)
                    if k >= args.silent:
                        s.sendall(b"GET /api/posi")
                    slow.append(s)
            finally:
                proc.send_signal(signal.SIGCONT)
            print(f"{len(slow)} of {args.silent} silent and {args.partial} half-request connections made"
                  f" (server stopped meanwhile; slowest connect {slowest * 1000:.1f} ms)")
            if slowest > LIMIT:
                failures.append(f"a connect took {slowest * 1000:.0f} ms while the server was stopped"
                                f" (limit {LIMIT * 1000:.0f} ms): the listen backlog overflowed")
            latencies = []
            keep = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            for k in range(args.requests):
                start = time.perf_counter()
                if k % 2 == 0:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                else:
                    c = keep
                c.request("GET", "/api/position", headers={"Host": host})
                res = c.getresponse()
                res.read()
                latencies.append(time.perf_counter() - start)
                if res.status != 200:
                    failures.append(f"request {k}: status {res.status}")
                if c is not keep:
                    c.close()
            keep.close()
            worst = max(latencies)
            print(f"{len(latencies)} ordinary requests: median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms,"
                  f" worst {worst * 1000:.1f} ms")
            if worst > LIMIT:
                failures.append(f"an ordinary request took {worst * 1000:.0f} ms (limit {LIMIT * 1000:.0f} ms)")
            # Now wait for the server to close every slow connection.
            sel = selectors.DefaultSelector()
            for s in slow:
                s.setblocking(False)
                sel.register(s, selectors.EVENT_READ)
            closed_at = []
            deadline = opened + args.timeout + 3
            while len(closed_at) < len(slow) and time.monotonic() < deadline:
                for key, _ in sel.select(timeout=0.2):
                    try:
                        data = key.fileobj.recv(4096)
                    except ConnectionResetError:
                        data = b""
                    if not data:
                        # Closed (a 408 may come first; the EOF is what counts).
                        closed_at.append(time.monotonic() - opened)
                        sel.unregister(key.fileobj)
                        key.fileobj.close()
            for key in list(sel.get_map().values()):
                key.fileobj.close()
            print(f"{len(closed_at)} of {len(slow)} slow connections closed by the server"
                  + (f", between {min(closed_at):.2f} s and {max(closed_at):.2f} s" if closed_at else ""))
            if len(closed_at) < len(slow):
                failures.append(f"{len(slow) - len(closed_at)} slow connections still open after {args.timeout + 3} s")
            if closed_at and min(closed_at) < args.timeout - 0.5:
                failures.append(f"a connection closed before the timeout ({min(closed_at):.2f} s)")
        finally:
            proc.kill()
            proc.wait()
    for f in failures:
        print("FAIL", f)
    print("ok" if not failures else f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
