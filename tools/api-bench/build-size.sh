#!/usr/bin/env bash
# Clean release build time and `.text` size of a small program that uses
# each chess crate the same way (parse a FEN, list the moves, a perft 4 of
# its own, and the library's perft where it has one: ours, shakmaty), all
# in one run, so the figures share the machine's load. Each program is
# built with default features and cargo's default release profile, as a
# user's crate would be (our workspace's profiles do not reach it).
#
#   tools/api-bench/build-size.sh [label=path/to/pinmask-movegen ...]
#
# With no arguments it measures this checkout's crate; each extra argument
# adds another copy of ours (e.g. `before=/tmp/old/crates/movegen`). Fails
# if this checkout's build takes more than twice cozy-chess's (CI runs it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

ours=("pinmask-movegen=$root/crates/movegen" "$@")

make_crate() { # name dependency-line body
    mkdir -p "$work/$1/src"
    cat >"$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

[workspace]
TOML
    printf '%s\n' "$3" >"$work/$1/src/main.rs"
}

for entry in "${ours[@]}"; do
    label="${entry%%=*}"
    path="${entry#*=}"
    # The library's own perft: at the crate root before issue 33, in `perft` after.
    lib_perft="movegen::perft"
    if grep -q '^pub mod perft;' "$path/src/lib.rs"; then lib_perft="movegen::perft::perft"; fi
    make_crate "use-$label" "movegen = { package = \"pinmask-movegen\", path = \"$path\" }" '
fn main() {
    let fen = std::env::args().nth(1).unwrap_or(movegen::STARTPOS_FEN.to_string());
    let pos: movegen::Position = fen.parse().expect("a FEN");
    println!("{}", pos.legal_moves().len());
    fn perft(p: &movegen::Position, d: u32) -> u64 {
        if d == 0 { return 1; }
        p.legal_moves().iter().map(|&m| perft(&p.play(m), d - 1)).sum()
    }
    println!("{}", perft(&pos, 4));
    println!("{}", '"$lib_perft"'(&pos, 4));
}'
done
make_crate use-cozy-chess 'cozy-chess = "=0.3.4"' '
fn main() {
    let fen = std::env::args().nth(1).unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    let board: cozy_chess::Board = fen.parse().expect("a FEN");
    let mut n = 0;
    board.generate_moves(|m| { n += m.len(); false });
    println!("{n}");
    fn perft(b: &cozy_chess::Board, d: u32) -> u64 {
        if d == 0 { return 1; }
        let mut total = 0;
        b.generate_moves(|ms| { for m in ms { let mut c = b.clone(); c.play_unchecked(m); total += perft(&c, d - 1); } false });
        total
    }
    println!("{}", perft(&board, 4));
}'
make_crate use-shakmaty 'shakmaty = "=0.30.1"' '
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
fn main() {
    let fen = std::env::args().nth(1).unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    let pos: Chess = fen.parse::<Fen>().expect("a FEN").into_position(CastlingMode::Standard).expect("legal");
    println!("{}", pos.legal_moves().len());
    fn perft(p: &Chess, d: u32) -> u64 {
        if d == 0 { return 1; }
        p.legal_moves().iter().map(|m| { let mut c = p.clone(); c.play_unchecked(*m); perft(&c, d - 1) }).sum()
    }
    println!("{}", perft(&pos, 4));
    println!("{}", shakmaty::perft(&pos, 4));
}'

declare -A seconds
printf '%-24s %10s %12s %10s\n' crate "build (s)" ".text (B)" perft4
for dir in "$work"/use-*; do
    name="$(basename "$dir")"
    (cd "$dir" && cargo fetch -q)
    start=$(date +%s.%N)
    (cd "$dir" && cargo build -q --release)
    end=$(date +%s.%N)
    bin="$dir/target/release/$name"
    text=$(size -A "$bin" | awk '$1 == ".text" { print $2 }')
    nodes=$("$bin" | tail -1)
    seconds[${name#use-}]=$(echo "$end - $start" | bc)
    printf '%-24s %10.1f %12s %10s\n' "${name#use-}" "${seconds[${name#use-}]}" "$text" "$nodes"
done
ratio=$(echo "scale=2; ${seconds[pinmask-movegen]} / ${seconds[cozy-chess]}" | bc)
echo "pinmask-movegen / cozy-chess build time: ${ratio}x (at most 2x)"
[ "$(echo "$ratio <= 2" | bc)" = 1 ]
