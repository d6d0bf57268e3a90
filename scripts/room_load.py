#!/usr/bin/env python3
"""A room at once: players and crowd experts through real HTTP (`engine gui`).

Usage: scripts/room_load.py ENGINE [--players 40] [--moves 15] [--experts 50]
                            [--tasks 10] [--kill-after N] [--seed S]

Each player is a browser of its own (its own connection and cookie jar): a
new game at 0.05 s a move without a clock, then --moves moves, each a random
legal move; while the engine thinks it asks for the game's state every
100 ms (as the page did before pushed events, so the same client measures
an old server too). At the same time --experts crowd experts join and
submit --tasks move sets each (as scripts/crowd_load.py does).

Prints requests per second, the p50 and p99 latency of the state requests
made while engines think, and of all requests. With --kill-after N the
server is killed with SIGKILL once N moves are acknowledged (the experts
submitting meanwhile), started again on the same database, and every acknowledged
move must be in its player's game and every acknowledged submission in the
database; the count of lost ones is printed (and fails the run).

Runs against an older server too (one that has a single game for all and
no pushed events): the figures are then what that server gives the same
clients, and its conflicts between players are counted as refused moves.
"""
import argparse
import http.client
import json
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import crowd_load  # noqa: E402
from gui_server import start_gui

STATE_POLL = 0.1


def start(engine, db, token_file):
    return start_gui(engine, "--db", db, "--organiser-token-file", token_file)


class Browser:
    """One connection and one cookie jar; records each request's latency."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.latencies = []
        self.state_latencies = []

    def call(self, method, path, body=None):
        headers = {"Host": f"127.0.0.1:{self.port}", "Content-Type": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None if body is None else json.dumps(body).encode()
        t = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        res = self.conn.getresponse()
        text = res.read().decode()
        self.latencies.append(time.perf_counter() - t)
        for value in res.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";")[0]
        kind = res.headers.get("Content-Type", "")
        return res.status, (json.loads(text) if kind.startswith("application/json") else text)


def player(port, k, moves, seed, acked, lock, stop, browsers):
    rng = random.Random(seed * 7919 + k)
    b = Browser(port)
    b.index = k
    browsers.append(b)
    setup = {"color": "white", "strength": "movetime:50"}
    try:
        status, s = b.call("POST", "/api/play/new", setup)
        played = 0
        while played < moves and not stop.is_set():
            if s.get("end"):
                # The new game replaces this one on the server: its moves
                # can no longer be looked up after a restart.
                with lock:
                    acked["ended"].add((k, s.get("game")))
                status, s = b.call("POST", "/api/play/new", setup)
                continue
            if s.get("thinking") or s["position"]["side"] != "w":
                time.sleep(STATE_POLL)
                status, s = b.call("GET", "/api/play/state")
                b.state_latencies.append(b.latencies[-1])
                continue
            move = rng.choice(s["position"]["legal"])
            ply = len(s["moves"])
            status, r = b.call("POST", "/api/play/move", {"move": move})
            if status == 200:
                played += 1
                with lock:
                    acked["moves"].append((k, r["game"], ply, move))
                s = r
            else:
                with lock:
                    acked["refused"] += 1
                status, s = b.call("GET", "/api/play/state")
    except (OSError, http.client.HTTPException) as e:
        if not stop.is_set():
            with lock:
                acked["errors"].append(f"player {k}: {e}")
    except (KeyError, TypeError) as e:
        with lock:
            acked["errors"].append(f"player {k}: unexpected reply ({e})")
    finally:
        b.conn.close()


def pct(values, p):
    return crowd_load.percentile(values, p) * 1000 if values else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--experts", type=int, default=50)
    ap.add_argument("--tasks", type=int, default=10)
    ap.add_argument("--kill-after", type=int)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        db, token_file = Path(tmp) / "room.sqlite", Path(tmp) / "organiser.token"
        proc, port = start(args.engine, db, token_file)
        organiser = token_file.read_text().strip()
        setup = crowd_load.Client(port, organiser)
        for suite in ("thesis", "standard"):
            status, r = setup.call("POST", "/api/crowd/tasks", {"suite": suite})
            if status != 200:
                raise SystemExit(f"loading tasks: {status} {r}")
        setup.conn.close()
        acked = {"moves": [], "submissions": [], "tokens": [], "errors": [], "refused": 0,
                 "ended": set()}
        lock, stop = threading.Lock(), threading.Event()
        browsers, clients = [], []
        threads = [threading.Thread(target=player, args=(port, k, args.moves, args.seed, acked, lock, stop, browsers))
                   for k in range(args.players)]
        threads += [threading.Thread(target=crowd_load.expert,
                                     args=(port, k, args.tasks, args.seed, acked, lock, stop, clients))
                    for k in range(args.experts)]
        began = time.perf_counter()
        for t in threads:
            t.start()
        killed = False
        if args.kill_after:
            while any(t.is_alive() for t in threads):
                with lock:
                    done = len(acked["moves"])
                if done >= args.kill_after:
                    # Clients that see the connection drop from now on are
                    # not failing: the server is gone on purpose.
                    stop.set()
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    killed = True
                    break
                time.sleep(0.01)
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - began
        with lock:
            moves, subs = list(acked["moves"]), list(acked["submissions"])
        all_lat = [x for b in browsers for x in b.latencies] + [x for c in clients for x in c.latencies]
        state_lat = [x for b in browsers for x in b.state_latencies]
        print(f"{args.players} players x {args.moves} moves (0.05 s a move), {args.experts} experts x {args.tasks} tasks:"
              f" {elapsed:.1f} s{' until the kill' if killed else ''}")
        print(f"  requests: {len(all_lat)} ({len(all_lat) / elapsed:.0f}/s); all: p50 {pct(all_lat, 50):.1f} ms,"
              f" p99 {pct(all_lat, 99):.1f} ms")
        print(f"  state requests while engines think: {len(state_lat)}, p50 {pct(state_lat, 50):.1f} ms,"
              f" p99 {pct(state_lat, 99):.1f} ms")
        crowd_lat = [x for c in clients for x in c.latencies]
        print(f"  crowd requests: {len(crowd_lat)}, p50 {pct(crowd_lat, 50):.1f} ms, p99 {pct(crowd_lat, 99):.1f} ms")
        print(f"  acknowledged: {len(moves)} moves, {len(subs)} submissions; refused moves {acked['refused']};"
              f" errors {len(acked['errors'])}")
        for e in acked["errors"][:5]:
            print("   ", e)
        if not killed:
            proc.kill()
            proc.wait()
        # Every acknowledged move is in its player's game after a restart.
        proc, port = start(args.engine, db, token_file)
        try:
            for b in browsers:
                b.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                b.port = port
            lost_moves, replaced = check_moves(browsers, moves, acked["ended"])
            integrity, stored, missing = crowd_load.check_database(db, subs)
        finally:
            proc.kill()
            proc.wait()
        print(f"  after {'SIGKILL and ' if killed else ''}a restart: {lost_moves} of {len(moves)} acknowledged moves lost,"
              f" {len(missing)} of {len(subs)} acknowledged submissions lost; database {integrity}")
        if replaced:
            print(f"  {replaced} finished games replaced by a new one before the kill: their moves are not shown")
        if lost_moves or missing:
            failures.append("acknowledged work lost")
        if integrity != "ok":
            failures.append("database integrity")
        if acked["errors"]:
            failures.append(f"{len(acked['errors'])} client errors")
    print("ok" if not failures else "FAIL: " + "; ".join(failures))
    sys.exit(1 if failures else 0)


def check_moves(browsers, moves, ended):
    """Acknowledged moves of each player's current game missing after the restart.

    A player's last game counts as lost if another game shows instead, unless
    the player saw it end and asked for a new one (which may have been made
    just before the kill, replacing it)."""
    lost = 0
    replaced = set()
    per_player = {}
    for k, game, ply, move in moves:
        per_player.setdefault(k, []).append((game, ply, move))
    by_index = {b.index: b for b in browsers}
    for k, entries in per_player.items():
        try:
            status, s = by_index[k].call("GET", "/api/play/state")
        except (OSError, http.client.HTTPException):
            lost += len(entries)
            continue
        for game, ply, move in entries:
            if s.get("game") != game:
                # A later game replaced this one (after a game's end): only
                # the last game is kept, as the page shows it.
                if game == max(g for g, _, _ in entries):
                    if (k, game) in ended:
                        replaced.add((k, game))
                    else:
                        lost += 1
                continue
            if ply >= len(s["moves"]) or s["moves"][ply]["uci"] != move:
                lost += 1
    return lost, len(replaced)


if __name__ == "__main__":
    main()
