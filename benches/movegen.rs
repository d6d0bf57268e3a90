//! Legal move generation and copy-make over a fixed set of positions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use movegen::Position;

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // In check (one and two checkers) and a pinned en-passant capture.
    "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
];

fn positions() -> Vec<Position> {
    FENS.iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

fn bench_generation(c: &mut Criterion) {
    let positions = positions();
    let moves: u64 = positions.iter().map(|p| p.legal_moves().len() as u64).sum();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    group.bench_function("count_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_moves())
                .sum::<usize>()
        })
    });
    group.bench_function("play_every_move", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for p in &positions {
                for &mv in p.legal_moves().iter() {
                    keys ^= black_box(p).play_unchecked(mv).key();
                }
            }
            keys
        })
    });
    group.finish();
}

criterion_group!(benches, bench_generation);
criterion_main!(benches);
