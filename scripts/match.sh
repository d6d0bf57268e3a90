#!/usr/bin/env bash
# A gauntlet of the release engine against Debian's engines with cutechess-cli.
#
# Usage: scripts/match.sh [GAMES_PER_OPPONENT] [TC] [OPPONENT...]
#   defaults: 20 games, tc 5+0.05, opponents fairymax hoichess
#   opponents known here: fairymax hoichess sjeng phalanx gnuchess stockfish
#   (stockfish plays at Skill Level 0), and toga2 glaurung ethereal-chess (UCI,
#   one thread, Hash 16, no own book), the gauntlet of docs/nnue.md.
# Environment: CONCURRENCY (games at once, default 1; at most the number of
# cores, with nothing else running), SRAND (the seed of the openings' order).
# Openings: tests/data/openings.epd, random order, each played with colours swapped.
# Games go to match-<opponent>.pgn; the last lines of each match show W/D/L and Elo.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cutechess-cli >/dev/null; then
    cat >&2 <<'MSG'
cutechess-cli is not installed. It is not packaged for Debian; build it from the
public cutechess source (github.com/cutechess/cutechess):
    apt-get install cmake g++ qt6-base-dev libqt6svg6-dev qt6-5compat-dev
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
        toga2) opp_args=(cmd=toga2 name=toga2 proto=uci option.OwnBook=false "option.Number of Threads=1" option.Hash=16) ;;
        glaurung) opp_args=(cmd=glaurung name=glaurung proto=uci option.OwnBook=false option.Threads=1 option.Hash=16) ;;
        ethereal-chess) opp_args=(cmd=ethereal-chess name=ethereal-chess proto=uci option.Threads=1 option.Hash=16) ;;
        *) opp_args=(cmd="$opp" name="$opp" proto=uci) ;;
    esac
    cutechess-cli \
        -engine cmd="$engine" name=Pinmask proto=uci option.Hash=16 \
        -engine "${opp_args[@]}" \
        -each tc="$tc" \
        -openings file=tests/data/openings.epd format=epd order=random -repeat \
        -games 2 -rounds $(( (games + 1) / 2 )) -concurrency "${CONCURRENCY:-1}" -recover -srand "${SRAND:-1}" \
        -pgnout "match-$opp.pgn" | grep -E '^(Score of|Elo difference)|forfeit|illegal|disconnect|stall|on time' || true
done
