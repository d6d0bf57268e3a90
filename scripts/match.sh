#!/usr/bin/env bash
# A gauntlet of the release engine against Debian's engines with cutechess-cli.
#
# Usage: scripts/match.sh [GAMES_PER_OPPONENT] [TC] [OPPONENT...]
#   defaults: 20 games, tc 5+0.05, opponents fairymax hoichess
#   opponents known here: fairymax hoichess sjeng phalanx gnuchess stockfish
#   (stockfish plays at Skill Level 0).
# Openings: tests/data/openings.epd, random order, each played with colours swapped.
# Games go to match-<opponent>.pgn; the last lines of each match show W/D/L and Elo.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cutechess-cli >/dev/null; then
    cat >&2 <<'MSG'
cutechess-cli is not installed. It is not packaged for Debian; build it from the
public cutechess source (github.com/cutechess/cutechess):
    apt-get install cmake g++ qt6-base-dev libqt6svg6-dev
    cmake -DCMAKE_BUILD_TYPE=Release <source dir> && make cli
then put the cutechess-cli binary on your PATH.
MSG
    exit 3
fi

games=${1:-20}
tc=${2:-5+0.05}
shift $(( $# > 2 ? 2 : $# ))
opponents=("$@")
[ ${#opponents[@]} -gt 0 ] || opponents=(fairymax hoichess)

cargo build --release --quiet
# A copy, so that a rebuild does not replace the binary under a running match.
engine=$(mktemp -d)/pinmask
cp target/release/engine "$engine"
export PATH="$PATH:/usr/games"

for opp in "${opponents[@]}"; do
    command -v "$opp" >/dev/null || { echo "skipping $opp: not installed (apt-get install $opp)"; continue; }
    case "$opp" in
        fairymax|hoichess|sjeng|gnuchess|phalanx) opp_args=(cmd="$opp" name="$opp" proto=xboard) ;;
        stockfish) opp_args=(cmd=stockfish name=stockfish-skill0 proto=uci "option.Skill Level=0") ;;
        *) opp_args=(cmd="$opp" name="$opp" proto=uci) ;;
    esac
    cutechess-cli \
        -engine cmd="$engine" name=Pinmask proto=uci \
        -engine "${opp_args[@]}" \
        -each tc="$tc" \
        -openings file=tests/data/openings.epd format=epd order=random -repeat \
        -games "$games" -concurrency 1 -recover \
        -pgnout "match-$opp.pgn" | grep -E '^(Score of|Elo difference)|forfeit|illegal|disconnect|stall|on time' || true
done
