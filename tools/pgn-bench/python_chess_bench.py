#!/usr/bin/env python3
"""MB/s of python-chess reading a PGN file (chess.pgn.read_game: the whole
game tree, every move checked). Usage: python_chess_bench.py FILE"""

import io
import sys
import time

import chess.pgn

text = open(sys.argv[1], encoding="utf-8").read()
start = time.perf_counter()
handle, games = io.StringIO(text), 0
while chess.pgn.read_game(handle) is not None:
    games += 1
secs = time.perf_counter() - start
print(f"python-chess {chess.__version__}: {len(text.encode()) / 1e6 / secs:.2f} MB/s ({games} games)")
