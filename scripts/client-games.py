#!/usr/bin/env python3
"""Fast games between our engine and Stockfish at Skill Level 0, refereed by python-chess.

    scripts/client-games.py [--engine CMD] [--stockfish CMD] [--games N]

python-chess is the GUI here: it starts both engines over UCI, sends clocks,
and parses every line they print. The check fails if our engine plays a move
that is not legal, runs out of its clock, dies, or prints anything python-chess
reports as malformed (it logs those as warnings or errors, collected below).
Games start from the start position and from tests/data/openings.epd, each
opening twice with colours swapped, and stop after --max-plies.

Exit status 0 if every game was clean, 1 otherwise, 2 if python-chess is missing.
"""

import argparse
import logging
import os
import shlex
import shutil
import sys
import threading
import time

try:
    import chess
    import chess.engine
except ImportError:
    print("client-games: python-chess is missing (pip install chess)", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Pipe and process-scheduling slack before a late move counts as a time loss.
CLOCK_SLACK = 0.25
# Seconds past its clock before a silent engine is declared stalled and closed.
STALL = 10.0


class Complaints(logging.Handler):
    """Collects what python-chess's engine layer warns about (bad lines, crashes)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def openings():
    fens = [chess.STARTING_FEN]
    path = os.path.join(ROOT, "tests", "data", "openings.epd")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                board, _ = chess.Board.from_epd(line)
                fens.append(board.fen())
    return fens


def play_game(index, fen, ours, stockfish, args):
    """Plays one game; returns (result text, list of failures)."""
    board = chess.Board(fen)
    ours_white = index % 2 == 0
    clocks = {chess.WHITE: args.clock, chess.BLACK: args.clock}
    failures = []
    for _ in range(args.max_plies):
        if board.is_game_over(claim_draw=True):
            break
        mover = board.turn
        is_ours = (mover == chess.WHITE) == ours_white
        engine = ours if is_ours else stockfish
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=args.inc, black_inc=args.inc,
        )
        started = time.monotonic()
        # python-chess waits forever for a bestmove under a clock limit; a
        # watchdog closes a silent engine so the check fails instead of hanging.
        watchdog = threading.Timer(clocks[mover] + args.inc + STALL, engine.close)
        watchdog.start()
        try:
            result = engine.play(board, limit, game=index, info=chess.engine.INFO_ALL)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as err:
            who = "ours" if is_ours else "stockfish"
            failures.append(f"{who} failed or stalled at {board.fen()}: {err!r}")
            return "*", failures
        finally:
            watchdog.cancel()
        spent = time.monotonic() - started
        clocks[mover] -= spent
        if clocks[mover] < -CLOCK_SLACK and is_ours:
            failures.append(f"ours lost on time at {board.fen()} ({clocks[mover]:.2f} s left)")
        clocks[mover] = max(clocks[mover], 0.0) + args.inc
        if result.move is None or result.move not in board.legal_moves:
            who = "ours" if is_ours else "stockfish"
            failures.append(f"{who} played {result.move} (not legal) at {board.fen()}")
            return "*", failures
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    text = f"{outcome.result()} ({outcome.termination.name.lower()})" if outcome else "* (ply cap)"
    return text, failures


def default_stockfish():
    return shutil.which("stockfish") or "/usr/games/stockfish"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "engine"),
                    help="our engine's command (default target/release/engine)")
    ap.add_argument("--stockfish", default=default_stockfish(), help="Stockfish command")
    ap.add_argument("--games", type=int, default=4, help="games to play (default 4)")
    ap.add_argument("--clock", type=float, default=2.0, help="seconds per side (default 2)")
    ap.add_argument("--inc", type=float, default=0.05, help="increment per move (default 0.05)")
    ap.add_argument("--max-plies", type=int, default=120, help="stop a game after N plies")
    args = ap.parse_args()

    complaints = Complaints()
    logging.getLogger("chess.engine").addHandler(complaints)
    fens = openings()
    ours = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    stockfish = chess.engine.SimpleEngine.popen_uci(shlex.split(args.stockfish))
    failures = []
    try:
        if "name" not in ours.id:
            failures.append("ours sent no 'id name'")
        stockfish.configure({"Skill Level": 0})
        for index in range(args.games):
            fen = fens[(index // 2) % len(fens)]
            result, bad = play_game(index, fen, ours, stockfish, args)
            white, black = ("ours", "stockfish") if index % 2 == 0 else ("stockfish", "ours")
            print(f"game {index + 1}: {white} vs {black}: {result}", flush=True)
            for failure in bad:
                print(f"  FAIL {failure}", flush=True)
            failures += bad
    finally:
        for engine in (ours, stockfish):
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                pass
    for message in complaints.messages:
        failures.append(f"python-chess: {message}")
        print(f"  FAIL python-chess: {message}")
    print(f"{args.games} games, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
