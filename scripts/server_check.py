#!/usr/bin/env python3
"""The board server's promises, checked against the running binary.

Usage: scripts/server_check.py ENGINE

- Typed requests: every documented field of every JSON body, sent with a
  wrong type, is a 400 whose `error` names the field; an unknown field, a
  non-object body and a body that is not JSON are 400s too.
- Tokens: no token or an invalid one (forged in either role's shape) is
  401, a valid token of the wrong role is 403, `/api/crowd/me` answers any
  valid token.
- Play per person: two sessions play two games at once (moves, clocks,
  undo, new game, PGN) and neither sees or changes the other's.
- Restart: after SIGTERM (a clean shutdown, exit status 0, the database's
  log checkpointed) and after
  SIGKILL, a new server on the same database resumes both games where they
  were, with the clocks that were left.
- Pushed events: the play stream gives the engine's move and the end; the
  crowd stream gives the leaderboard after a join.
- Host and Origin: a foreign Host, or a write from a foreign Origin, is 403.
- HTTP/1.1: two requests on one kept-alive connection; `Connection: close`
  is honoured (the server closes the socket); a 413 on a chunked body
  closes the connection and the rest of the body is never answered.
"""
import http.client
import json
import re
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import chess
from gui_server import start_gui

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def start(engine, db, token_file, extra=()):
    cases = Path(db).with_suffix(".epd")
    return start_gui(engine, "--db", db, "--cases", cases, "--organiser-token-file", token_file,
                     "--engine-threads", 2, *extra)


class Browser:
    """One browser: its own connection and cookie jar."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None, raw=None, token=None):
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if data is not None:
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        res = self.conn.getresponse()
        text = res.read().decode()
        for value in res.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";")[0]
            self.last_cookie = value
        kind = res.headers.get("Content-Type", "")
        return res.status, (json.loads(text) if kind.startswith("application/json") else text)


def wait_for_engine(b, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, s = b.call("GET", "/api/play/state")
        if not s["thinking"] or s["end"]:
            return s
        time.sleep(0.05)
    raise SystemExit("the engine did not answer")


# Each body field documented, with a value of the wrong type.
WRONG_TYPES = [
    ("/api/play/new", {"fen": 5}, "fen"),
    ("/api/play/new", {"chess960": "518"}, "chess960"),
    ("/api/play/new", {"color": 5}, "color"),
    ("/api/play/new", {"color": "purple"}, "color"),
    ("/api/play/new", {"strength": 5}, "strength"),
    ("/api/play/new", {"base": "300"}, "base"),
    ("/api/play/new", {"inc": [3]}, "inc"),
    ("/api/play/move", {"move": 1}, "move"),
    ("/api/crowd/join", {"name": 7}, "name"),
    ("/api/crowd/submit", {"task": "1", "moves": []}, "task"),
    ("/api/crowd/submit", {"task": 1, "moves": "e2e4"}, "moves"),
    ("/api/crowd/submit", {"task": 1, "moves": [1]}, "moves"),
    ("/api/crowd/tasks", {"suite": 1}, "suite"),
    ("/api/crowd/tasks", {"fens": "8/8"}, "fens"),
    ("/api/crowd/tasks", {"epd": 1}, "epd"),
    ("/api/crowd/tasks", {"suite": "thesis", "chess960": "yes"}, "chess960"),
    ("/api/crowd/close", {"task": 1.5}, "task"),
    ("/api/cases", {"fen": 1, "moves": []}, "fen"),
    ("/api/cases", {"fen": chess.STARTING_FEN, "moves": {}}, "moves"),
    ("/api/cases", {"fen": chess.STARTING_FEN, "moves": [], "chess960": 1}, "chess960"),
]
UNKNOWN = [
    ("/api/play/new", {"colour": "black"}, "colour"),
    ("/api/play/move", {"move": "e2e4", "promote": "q"}, "promote"),
    ("/api/play/undo", {"all": True}, "all"),
    ("/api/play/resign", {"now": 1}, "now"),
    ("/api/crowd/join", {"name": "a", "admin": True}, "admin"),
    ("/api/crowd/submit", {"task": 1, "moves": [], "x": 1}, "x"),
    ("/api/crowd/tasks", {"suite": "thesis", "fen": "x"}, "fen"),
    ("/api/crowd/close", {"task": 1, "why": "x"}, "why"),
    ("/api/cases", {"fen": chess.STARTING_FEN, "moves": [], "note": ""}, "note"),
]


def typed_requests(port, organiser, expert):
    b = Browser(port)
    b.call("POST", "/api/play/new", {})  # a session, so Play's routes read their bodies
    for path, body, field in WRONG_TYPES:
        token = organiser if path in ("/api/crowd/tasks", "/api/crowd/close") else expert
        status, r = b.call("POST", path, body, token=token)
        # A list's item is named with its index: "moves[0]".
        named = isinstance(r, dict) and re.search(rf'"{field}(\[\d+\])?"', r.get("error", ""))
        check(status == 400 and named, f"{path} {json.dumps(body)}: 400 naming {field} ({status} {r})")
    for path, body, extra in UNKNOWN:
        token = organiser if path in ("/api/crowd/tasks", "/api/crowd/close") else expert
        status, r = b.call("POST", path, body, token=token)
        named = isinstance(r, dict) and f"`{extra}`" in r.get("error", "")
        check(status == 400 and named, f"{path}: unknown field {extra} is a 400 naming it ({status} {r})")
    for raw in [b"[1, 2]", b"null", b"5", b'"x"', b"{"]:
        status, r = b.call("POST", "/api/play/new", raw=raw)
        check(status == 400 and "error" in r, f"/api/play/new body {raw!r}: 400 ({status})")
    status, r = b.call("POST", "/api/play/new", {"color": "black", "strength": "movetime:50"})
    check(status == 200 and r["person"] == "black", "a correct body still starts the game asked for")


def tokens(port, organiser, expert):
    b = Browser(port)
    hexes = "ab" * 32
    forged = [f"organiser.{hexes}", f"1.{hexes}", f"999.{hexes}", "garbage", f"x.{hexes}"]
    for path, method in [("/api/crowd/tasks", "GET"), ("/api/crowd/export", "GET"), ("/api/crowd/next", "POST"),
                         ("/api/crowd/me", "GET")]:
        for token in forged:
            status, _ = b.call(method, path, {} if method == "POST" else None, token=token)
            check(status == 401, f"{method} {path} with forged token {token[:14]}...: 401 ({status})")
    status, _ = b.call("GET", "/api/crowd/tasks")
    check(status == 401, f"organiser route without a token: 401 ({status})")
    status, _ = b.call("POST", "/api/crowd/next", {})
    check(status == 401, f"expert route without a token: 401 ({status})")
    status, _ = b.call("GET", "/api/crowd/tasks", token=expert)
    check(status == 403, f"an expert's token on an organiser route: 403 ({status})")
    status, _ = b.call("POST", "/api/crowd/next", {}, token=organiser)
    check(status == 403, f"the organiser's token on an expert route: 403 ({status})")
    status, r = b.call("GET", "/api/crowd/me", token=organiser)
    check(status == 200 and r["organiser"] is True and r["expert"] is None, f"/me with the organiser's token ({status} {r})")
    status, r = b.call("GET", "/api/crowd/me", token=expert)
    check(status == 200 and r["expert"]["name"] == "checker", f"/me with an expert's token ({status} {r})")
    status, r = b.call("GET", "/api/crowd/me")
    check(status == 200 and r["expert"] is None, "/me without a token")


def play_one(b, board):
    s = b.call("GET", "/api/play/state")[1]
    move = sorted(s["position"]["legal"])[0]
    status, r = b.call("POST", "/api/play/move", {"move": move})
    assert status == 200, (status, r)
    return move


def sessions(port):
    a, b = Browser(port), Browser(port)
    status, ga = a.call("POST", "/api/play/new", {"color": "white", "strength": "movetime:50", "base": 300, "inc": 2})
    check("HttpOnly" in a.last_cookie and "SameSite=Strict" in a.last_cookie, f"session cookie flags: {a.last_cookie}")
    status, gb = b.call("POST", "/api/play/new", {"color": "black", "strength": "movetime:50", "base": 60})
    check(a.cookies != b.cookies, "each browser gets its own session")
    check(ga["game"] != gb["game"], "two games")
    wait_for_engine(b)  # the engine opened b's game
    for _ in range(3):
        # Both engines think at once.
        play_one(a, None)
        play_one(b, None)
        wait_for_engine(a)
        wait_for_engine(b)
    # b's moves do not touch a's clock: while b plays, only a's own
    # running side loses time.
    t0, before = time.time(), a.call("GET", "/api/play/state")[1]
    play_one(b, None)
    wait_for_engine(b)
    after, spent = a.call("GET", "/api/play/state")[1], (time.time() - t0) * 1000
    ca, cb = before["clock"], after["clock"]
    check(after["moves"] == before["moves"] and ca["running"] == cb["running"] == "white"
          and ca["black_ms"] == cb["black_ms"] and 0 <= ca["white_ms"] - cb["white_ms"] <= spent + 50,
          f"another session's moves leave this clock alone ({ca} -> {cb}, {spent:.0f} ms)")
    sa, sb = a.call("GET", "/api/play/state")[1], b.call("GET", "/api/play/state")[1]
    check(len(sa["moves"]) == 6 and len(sb["moves"]) == 9, f"moves counted apart ({len(sa['moves'])}, {len(sb['moves'])})")
    check(sa["person"] == "white" and sb["person"] == "black", "each game keeps its side")
    check(sa["clock"]["base_ms"] == 300000 and sb["clock"]["base_ms"] == 60000, "each game keeps its clock")
    # Undo in a: b untouched.
    a.call("POST", "/api/play/undo", {})
    sa2, sb2 = a.call("GET", "/api/play/state")[1], b.call("GET", "/api/play/state")[1]
    check(len(sa2["moves"]) == 4 and [m["uci"] for m in sb2["moves"]] == [m["uci"] for m in sb["moves"]],
          "undo takes back only this session's moves")
    # New game in b: a untouched.
    status, nb = b.call("POST", "/api/play/new", {"color": "white", "strength": "movetime:50"})
    sa3 = a.call("GET", "/api/play/state")[1]
    check(nb["moves"] == [] and nb["game"] != sb["game"] and sa3["game"] == sa["game"]
          and len(sa3["moves"]) == 4, "a new game replaces only this session's game")
    pa, pb = a.call("GET", "/api/play/pgn")[1], b.call("GET", "/api/play/pgn")[1]
    check('[White "Player"]' in pa and '[Black "Player"]' not in pa and "1." in pa and "1." not in pb.split("\n\n", 1)[1],
          "each PGN is its own game")
    # A browser without a session sees no game and cannot move in anyone's.
    c = Browser(port)
    check(c.call("GET", "/api/play/state")[1] == {"game": None}, "no cookie: no game")
    status, _ = c.call("POST", "/api/play/move", {"move": "e2e4"})
    check(status == 409, f"no cookie: a move is 409 ({status})")
    c.cookies = {"pinmask_play": "f" * 64}
    status, _ = c.call("POST", "/api/play/move", {"move": "e2e4"})
    check(status == 409, f"an unknown session id: 409 ({status})")
    return a, b


def restart(engine, db, token_file, proc, port, a, b, how):
    before_a = a.call("GET", "/api/play/state")[1]
    before_b = b.call("GET", "/api/play/state")[1]
    if how == "term":
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        check(code == 0, f"SIGTERM: a clean exit ({code})")
        wal = Path(str(db) + "-wal")
        check(not wal.exists() or wal.stat().st_size == 0, "SIGTERM: the database closed (its log checkpointed)")
    else:
        proc.kill()
        proc.wait()
    down = 1.0
    time.sleep(down)
    proc, port = start(engine, db, token_file)
    for browser in (a, b):
        browser.port = port
        browser.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    after_a = a.call("GET", "/api/play/state")[1]
    after_b = b.call("GET", "/api/play/state")[1]
    for name, before, after in [("a", before_a, after_a), ("b", before_b, after_b)]:
        same = all(before[k] == after[k] for k in ("game", "moves", "person", "strength", "start_fen", "end"))
        check(same, f"{how}: game {name} resumed with its moves")
        if before["clock"]:
            side = before["clock"]["running"]
            spent = {c: before["clock"][f"{c}_ms"] - after["clock"][f"{c}_ms"] for c in ("white", "black")}
            # Paused while down: never charged the downtime. After a clean
            # shutdown the time left is the time at the shutdown; after a
            # kill, the time saved at the game's last change (so the
            # running side may get back the moments since then).
            low = -1 if how == "term" else -2000
            ok = all(low <= v < down * 1000 - 200 for v in spent.values()) or side is None
            check(ok, f"{how}: game {name}'s clock paused while the server was down (spent {spent})")
    return proc, port


def http_behaviour(port):
    host = f"Host: 127.0.0.1:{port}\r\n"
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/config HTTP/1.1\r\n{host}\r\nGET /api/suites HTTP/1.1\r\n{host}\r\n".encode())
    data = b""
    while data.count(b"HTTP/1.1 200") < 2:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    check(data.count(b"HTTP/1.1 200") == 2 and b"connection: close" not in data.lower(),
          "two pipelined requests on one kept-alive connection")
    s.sendall(f"GET /api/config HTTP/1.1\r\n{host}Connection: close\r\n\r\n".encode())
    rest = b""
    s.settimeout(5)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
        closed = True
    except socket.timeout:
        closed = False
    check(closed and (data + rest).count(b"HTTP/1.1 200") == 3, "Connection: close: answered, then the server closes")
    s.close()
    # A chunked body over 64 KiB: 413, and what follows is never a request.
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    inner = f"GET /api/config HTTP/1.1\r\n{host}\r\n".encode()
    chunk = b"x" * 70000
    s.sendall(f"POST /api/cases HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n".encode()
              + f"{len(chunk):x}\r\n".encode() + chunk[:30000])
    s.sendall(chunk[30000:] + inner + b"\r\n0\r\n\r\n")
    got = b""
    s.settimeout(5)
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            got += c
    except (socket.timeout, ConnectionResetError):
        pass
    s.close()
    check(got.startswith(b"HTTP/1.1 413") and got.count(b"HTTP/1.1") == 1,
          f"413 on a chunked body, the rest not answered ({got.count(b'HTTP/1.1')} replies)")


class Stream:
    """A Server-Sent Events stream read from a raw socket."""

    def __init__(self, port, path, cookies=None):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        cookie = f"Cookie: {'; '.join(f'{k}={v}' for k, v in cookies.items())}\r\n" if cookies else ""
        self.s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{cookie}\r\n".encode())
        self.buf = b""
        head = self._until(b"\r\n\r\n")
        self.ok = head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head.lower()

    def _until(self, mark):
        while mark not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("the stream ended")
            self.buf += chunk
        out, self.buf = self.buf.split(mark, 1)
        return out

    def event(self):
        """The next (name, data) event; chunked framing lines and comments skipped."""
        name, data = None, []
        while True:
            line = self._until(b"\n").decode().rstrip("\r")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and name:
                return name, json.loads("".join(data))


def pushed_events(port, organiser):
    b = Browser(port)
    status, g = b.call("POST", "/api/play/new", {"strength": "movetime:50"})
    play = Stream(port, "/api/play/events", b.cookies)
    name, first = play.event()
    check(play.ok and name == "state" and first["game"] == g["game"], "the play stream starts with the game's state")
    b.call("POST", "/api/play/move", {"move": "e2e4"})
    seen = []
    deadline = time.time() + 20
    while time.time() < deadline:
        name, state = play.event()
        seen.append(name)
        if name == "move" and len(state["moves"]) == 2:
            break
    # (A reader that falls behind skips to the newest state, so the
    # `clock` event before it may or may not be seen.)
    check(seen[-1] == "move", f"the engine's move pushed ({seen})")
    b.call("POST", "/api/play/resign", {})
    while True:
        name, state = play.event()
        if name == "end":
            break
    check(state["end"]["reason"] == "resignation", "the game's end pushed")
    # A flag falls with nobody asking: the end is pushed.
    b.call("POST", "/api/play/new", {"strength": "movetime:50", "base": 1})
    t = time.time()
    while True:
        name, state = play.event()
        if name == "end":
            break
    took = time.time() - t
    check(state["end"]["reason"] == "time" and 0.9 < took < 3, f"a flag fall pushed with nobody asking ({took:.2f} s)")
    play.s.close()
    status, r = Browser(port).call("GET", "/api/play/events")
    check(status == 409, f"no session: the play stream is 409 ({status})")
    crowd = Stream(port, "/api/crowd/events")
    name, board = crowd.event()
    before = len(board["experts"])
    check(crowd.ok and name == "leaderboard" and "tasks" in board, "the crowd stream starts with the leaderboard")
    Browser(port).call("POST", "/api/crowd/join", {"name": "late"})
    t = time.time()
    name, board = crowd.event()
    check(name == "leaderboard" and len(board["experts"]) == before + 1 and time.time() - t < 2,
          "a join pushes the leaderboard")
    crowd.s.close()


def site_checks(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/api/config", headers={"Host": "evil.example"})
    r = c.getresponse()
    body = json.loads(r.read())
    check(r.status == 403 and "error" in body, f"a foreign Host is 403 with a JSON error ({r.status})")
    c.request("POST", "/api/play/new", body=b"{}", headers={"Host": f"127.0.0.1:{port}", "Origin": "http://evil.example"})
    r = c.getresponse()
    r.read()
    check(r.status == 403, f"a write from a foreign Origin is 403 ({r.status})")
    c.close()


def main():
    engine = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        db, token_file = Path(tmp) / "room.sqlite", Path(tmp) / "organiser.token"
        proc, port = start(engine, db, token_file)
        try:
            organiser = token_file.read_text().strip()
            b = Browser(port)
            b.call("POST", "/api/crowd/tasks", {"suite": "thesis"}, token=organiser)
            expert = b.call("POST", "/api/crowd/join", {"name": "checker"})[1]["token"]
            typed_requests(port, organiser, expert)
            tokens(port, organiser, expert)
            a, b = sessions(port)
            http_behaviour(port)
            site_checks(port)
            pushed_events(port, organiser)
            proc, port = restart(engine, db, token_file, proc, port, a, b, "term")
            play_one(a, None)
            wait_for_engine(a)
            proc, port = restart(engine, db, token_file, proc, port, a, b, "kill")
            s = wait_for_engine(a)
            check(len(s["moves"]) == 6, "after the restarts the game goes on")
        finally:
            proc.kill()
            proc.wait()
        conn = __import__("sqlite3").connect(db)
        check(conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "the database is sound")
    print(f"{len(failures)} failures" if failures else "all checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
