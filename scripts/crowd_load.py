#!/usr/bin/env python3
"""Load and fault test of the crowd mode (`engine gui`) through its HTTP API.

Usage: scripts/crowd_load.py ENGINE [--experts 50] [--tasks 10] [--threads 8]
                             [--kill-after N] [--export FILE] [--seed S]

Starts the server on a fresh database, loads the thesis positions and the
standard perft suite as the organiser, then runs the simulated experts at
once, each on its own connection (kept alive, or reopened when the server
closes it; a reconnect counts in the latency): join, then up
to --tasks times ask for the next position and submit a move set. The sets come from
python-chess, not from the server: most experts submit every legal move;
one in ten shares a misconception (no en passant, no castling), and any
expert now and then forgets a move, so tasks end confirmed, flagged or open.

Afterwards every acknowledged submission must be in the database with the
moves sent, and `PRAGMA integrity_check` must say ok. Prints requests per
second and the p50/p99 latency. With --kill-after N the server is killed
with SIGKILL once N submissions are acknowledged, checked the same way, and
started again on the same file, which must serve the old tokens. --export
writes the organiser's EPD export (after the run) to FILE.
"""
import argparse
import http.client
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

import chess
from gui_server import start_gui

ROOT = Path(__file__).resolve().parent.parent

def start(engine, db, token_file, threads):
    return start_gui(engine, "--db", db, "--threads", threads, "--organiser-token-file", token_file)


class Client:
    """One HTTP connection, kept alive if the server allows; records each request's latency."""

    def __init__(self, port, token=None):
        self.port = port
        self.token = token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.latencies = []

    def call(self, method, path, body=None):
        headers = {"Host": f"127.0.0.1:{self.port}", "Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        # Bytes, so headers and body go in one send (no Nagle and delayed-ACK stall).
        data = None if body is None else json.dumps(body).encode()
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        res = self.conn.getresponse()
        text = res.read().decode()
        self.latencies.append(time.perf_counter() - start)
        reply = json.loads(text) if res.headers.get("Content-Type", "").startswith("application/json") else text
        return res.status, reply


def moves_for(position, expert, rng):
    """What simulated expert number `expert` submits for a position."""
    board = chess.Board(position["fen"], chess960=position["chess960"])
    moves = [m for m in board.legal_moves]
    if expert % 10 == 0:  # the shared misconception
        moves = [m for m in moves if not board.is_en_passant(m) and not board.is_castling(m)]
    names = sorted(m.uci() for m in moves)
    if names and rng.random() < 0.15:
        names.remove(rng.choice(names))
    return names


def expert(port, k, tasks, seed, acked, lock, stop, clients):
    rng = random.Random(seed * 1000 + k)
    c = Client(port)
    clients.append(c)
    try:
        status, me = c.call("POST", "/api/crowd/join", {"name": f"expert {k}"})
        if status != 200:
            raise RuntimeError(f"join: {status} {me}")
        c.token = me["token"]
        with lock:
            acked["tokens"].append(me["token"])
        for _ in range(tasks):
            if stop.is_set():
                return
            status, r = c.call("POST", "/api/crowd/next", {})
            if status != 200:
                raise RuntimeError(f"next: {status} {r}")
            if r["task"] is None:
                return
            task = r["task"]
            moves = moves_for(task["position"], k, rng)
            status, r = c.call("POST", "/api/crowd/submit", {"task": task["id"], "moves": moves})
            if status != 200:
                raise RuntimeError(f"submit: {status} {r}")
            with lock:
                acked["submissions"].append((me["id"], task["id"], " ".join(moves)))
    except (OSError, http.client.HTTPException) as e:
        if not stop.is_set():
            with lock:
                acked["errors"].append(f"expert {k}: {e}")
    except RuntimeError as e:
        with lock:
            acked["errors"].append(f"expert {k}: {e}")
    finally:
        # Done: close the connection, as a browser closes an idle one.
        c.conn.close()


def check_database(db, submissions):
    """Every acknowledged submission is there with its moves; the file is sound."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    stored = {(e, t): m for e, t, m in conn.execute("SELECT expert, task, moves FROM submissions")}
    conn.close()
    missing = [s for s in submissions if stored.get((s[0], s[1])) != s[2]]
    return integrity, len(stored), missing


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--experts", type=int, default=50)
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--kill-after", type=int, default=0)
    parser.add_argument("--export", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="crowd-load-"))
    db, token_file = work / "crowd.sqlite", work / "organiser.token"
    proc, port = start(args.engine, db, token_file, args.threads)
    failures = []
    try:
        organiser = Client(port, token_file.read_text().strip())
        for suite in ("thesis", "standard"):
            status, r = organiser.call("POST", "/api/crowd/tasks", {"suite": suite})
            assert status == 200, r
        # And 150 Chess960 positions: enough tasks that no expert runs out.
        fischer = (ROOT / "tests" / "data" / "perft_chess960.epd").read_text().splitlines()[:150]
        status, r = organiser.call("POST", "/api/crowd/tasks", {"epd": "\n".join(fischer), "chess960": True})
        assert status == 200, r
        acked = {"submissions": [], "tokens": [], "errors": []}
        lock, stop, clients = threading.Lock(), threading.Event(), []
        threads = [threading.Thread(target=expert, args=(port, k, args.tasks, args.seed, acked, lock, stop, clients))
                   for k in range(args.experts)]
        began = time.perf_counter()
        for t in threads:
            t.start()
        killed = False
        if args.kill_after:
            while any(t.is_alive() for t in threads) and len(acked["submissions"]) < args.kill_after:
                time.sleep(0.005)
            stop.set()
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - began
        latencies = [x for c in clients for x in c.latencies]
        submissions = list(acked["submissions"])
        print(f"{args.experts} experts x up to {args.tasks} tasks, {args.threads} server threads")
        print(f"requests {len(latencies)} in {elapsed:.2f} s: {len(latencies) / elapsed:.0f} req/s, "
              f"p50 {percentile(latencies, 50) * 1000:.1f} ms, p99 {percentile(latencies, 99) * 1000:.1f} ms, "
              f"max {max(latencies) * 1000:.0f} ms")
        print(f"acknowledged submissions {len(submissions)}")
        if acked["errors"] and not killed:
            failures.append(f"client errors: {acked['errors'][:5]}")
        if killed:
            print(f"killed with SIGKILL after {len(submissions)} acknowledged submissions")
        else:
            proc.terminate()
            proc.wait()
        integrity, stored, missing = check_database(db, submissions)
        print(f"integrity_check: {integrity}; rows in submissions: {stored}; acknowledged but missing: {len(missing)}")
        if integrity != "ok":
            failures.append(f"integrity_check says {integrity}")
        if missing:
            failures.append(f"acknowledged submissions missing: {missing[:5]}")
        if killed and stored < len(submissions):
            failures.append("fewer rows than acknowledged submissions")
        # Start again on the same file: old tokens work, the rows are served.
        proc, port = start(args.engine, db, token_file, args.threads)
        again = Client(port, acked["tokens"][0])
        status, me = again.call("GET", "/api/crowd/me")
        if status != 200 or me["expert"] is None:
            failures.append(f"an old token after the restart: {status} {me}")
        status, board = Client(port).call("GET", "/api/crowd/leaderboard")
        done = sum(e["tasks"] for e in board["experts"])
        print(f"after restart: {len(board['experts'])} experts, {done} submissions, tasks {board['tasks']}")
        if done != stored:
            failures.append(f"leaderboard counts {done} submissions, the table {stored}")
        if args.export:
            status, text = Client(port, token_file.read_text().strip()).call("GET", "/api/crowd/export")
            args.export.write_text(text)
            print(f"export: {len(text.splitlines())} lines to {args.export}")
    finally:
        proc.kill()
        proc.wait()
    if failures:
        for f in failures:
            print(f"FAIL: {f}", file=sys.stderr)
        sys.exit(1)
    print("crowd load test passed")


if __name__ == "__main__":
    main()
