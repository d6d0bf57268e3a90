#!/usr/bin/env bash
# Calibration of UCI_Elo: the release engine at UCI_LimitStrength/UCI_Elo X
# against Stockfish 15.1 (Debian's /usr/games/stockfish, Threads 1) at the same
# UCI_Elo, with cutechess-cli.
#
# Usage: scripts/strength-match.sh ELO [ROUNDS]     (2 games a round, colours swapped)
# Conditions as in docs/strength-levels.md: 10+0.1 with 3 s of time margin and a Move
# Overhead of 200 ms for both (the shared machine was heavily loaded; without
# them Stockfish lost most games on time), openings from tests/data/openings.epd
# in random order, resign at 8 pawns for 4 moves by both, draw after move 50
# at |score| <= 0.10 for 10 moves. Games go to strength-ELO.pgn.
#
# Environment:
#   CONCURRENCY  games at once, default 1. Up to 2100 both sides are limited by
#                nodes or depth, not by the clock, so more games than cores are
#                fair there; above, one game per core with nothing else running.
#   NODES        a node cap for Pinmask on top of the level's budget, to probe a
#                budget before it goes into crates/search/src/strength.rs.
#   SRAND        cutechess-cli's seed for the order of the openings, default 1:
#                give each match of one level its own, or two matches play the
#                same openings.
set -euo pipefail
cd "$(dirname "$0")/.."
elo=${1:?usage: scripts/strength-match.sh ELO [ROUNDS]}
rounds=${2:-30}
command -v cutechess-cli >/dev/null || { echo "cutechess-cli is not installed (see scripts/match.sh)" >&2; exit 3; }
cargo build --release --quiet
concurrency=${CONCURRENCY:-1}
extra=()
[ -z "${NODES:-}" ] || extra+=(nodes="$NODES")
engine=$(mktemp -d)/pinmask
cp target/release/engine "$engine"
cutechess-cli \
  -engine cmd="$engine" name="Pinmask-$elo" option.UCI_LimitStrength=true option.UCI_Elo="$elo" "${extra[@]}" \
  -engine cmd=/usr/games/stockfish name="SF15.1-$elo" option.Threads=1 option.Hash=16 \
      option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
  -each proto=uci tc=10+0.1 timemargin=3000 "option.Move Overhead=200" \
  -openings file=tests/data/openings.epd format=epd order=random \
  -games 2 -rounds "$rounds" -repeat -concurrency "$concurrency" -recover -srand "${SRAND:-1}" \
  -resign movecount=4 score=800 twosided=true -draw movenumber=50 movecount=10 score=10 \
  -pgnout "strength-$elo.pgn"
