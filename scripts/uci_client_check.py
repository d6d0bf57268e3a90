#!/usr/bin/env python3
"""A real UCI client (python-chess) drives the engine: self-play games with a
clock, an infinite analysis stopped from outside, a MultiPV analysis, a
game on two threads, WDL reports and a game at limited strength.

Usage: scripts/uci_client_check.py ENGINE_PATH [--games N]
Exits non-zero on any protocol error, illegal move, or time loss.
"""
import argparse
import sys
import time

import chess
import chess.engine


def play_game(engine, base, inc, max_plies):
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engine.play(board, limit)
        spent = time.monotonic() - start
        side = board.turn
        clocks[side] -= spent
        if clocks[side] < 0:
            raise RuntimeError(f"time loss at ply {board.ply()}: {board.fen()}")
        clocks[side] += inc
        # python-chess rejects an illegal bestmove itself; check anyway.
        if result.move not in board.legal_moves:
            raise RuntimeError(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    return board


def analyse(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with engine.analysis(board) as analysis:
        time.sleep(0.5)
        analysis.stop()
        best = analysis.wait()
    if best.move is None or best.move not in board.legal_moves:
        raise RuntimeError(f"analysis gave no legal move: {best}")
    depth = analysis.info.get("depth", 0)
    return f"bestmove {best.move} after depth {depth}"


def analyse_multipv(engine):
    """python-chess's analyse(..., multipv=N): N lines, distinct legal first
    moves, best first; and a position with fewer legal moves than N."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    lines = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    if len(lines) != 3:
        raise RuntimeError(f"{len(lines)} lines for multipv 3")
    firsts = [info["pv"][0] for info in lines]
    if len(set(firsts)) != 3 or any(m not in board.legal_moves for m in firsts):
        raise RuntimeError(f"first moves not distinct and legal: {firsts}")
    scores = [info["score"].relative.score(mate_score=100000) for info in lines]
    if scores != sorted(scores, reverse=True):
        raise RuntimeError(f"lines not best first: {scores}")
    # Two legal moves only (the king is in check from the rook on a2).
    few = chess.Board("7k/8/8/8/8/8/r7/K7 w - - 0 1")
    lines = engine.analyse(few, chess.engine.Limit(depth=4), multipv=5)
    if sorted(str(info["pv"][0]) for info in lines) != sorted(str(m) for m in few.legal_moves):
        raise RuntimeError(f"fewer moves than multipv: {[info['pv'] for info in lines]}")
    return f"{', '.join(map(str, firsts))} with scores {scores}"


def show_wdl(engine):
    """python-chess reads `wdl W D L` into a Wdl object; White a rook up
    should be winning."""
    engine.configure({"UCI_ShowWDL": True})
    try:
        board = chess.Board("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w Q - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=5))
    finally:
        engine.configure({"UCI_ShowWDL": False})
    wdl = info.get("wdl")
    if wdl is None or wdl.relative.total() != 1000 or wdl.relative.wins <= 600:
        raise RuntimeError(f"wdl {wdl} with score {info.get('score')}")
    return f"score {info['score'].relative} wdl {wdl.relative}"


def limited_strength(engine):
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350})
    try:
        return play_game(engine, 5.0, 0.05, 80).result(claim_draw=True)
    finally:
        engine.configure({"UCI_LimitStrength": False})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    passed = failed = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine, timeout=30) as engine:
        checks = [("analysis", lambda: analyse(engine))]
        for g in range(args.games):
            checks.append((f"game {g + 1}",
                           lambda: play_game(engine, 5.0, 0.05, 120).result(claim_draw=True)))
        checks.append(("multipv", lambda: analyse_multipv(engine)))

        def two_threads():
            engine.configure({"Threads": 2})
            try:
                return play_game(engine, 5.0, 0.05, 80).result(claim_draw=True)
            finally:
                engine.configure({"Threads": 1})
        checks.append(("game on 2 threads", two_threads))
        checks.append(("UCI_ShowWDL", lambda: show_wdl(engine)))
        checks.append(("game at UCI_Elo 1350", lambda: limited_strength(engine)))
        for name, check in checks:
            try:
                print(f"{name}: ok ({check()})")
                passed += 1
            except Exception as exc:  # report every failure, then fail
                print(f"{name}: FAILED: {exc}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
