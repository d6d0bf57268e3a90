//! Perft on the six standard positions at small depths (bulk counting, one
//! thread, no hashing): the regression guard for move generation speed.
//! `scripts/perft-bench` measures the full depths against Stockfish.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use movegen::perft::perft;
use movegen::Position;

/// The six standard positions (chessprogramming wiki "Perft Results") and a
/// depth each that takes milliseconds.
pub const POSITIONS: [(&str, &str, u32); 6] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        3,
    ),
    (
        "position5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
    ),
    (
        "position6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        group.throughput(Throughput::Elements(perft(&pos, depth)));
        group.bench_function(name, |b| b.iter(|| perft(&pos, depth)));
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
