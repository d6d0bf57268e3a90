//! Fixed-depth searches of a few positions, each with a fresh table, so every
//! iteration does the same work (the node count is printed once).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use movegen::{Game, Position};
use search::{Limits, SearchControl, Searcher};

/// An opening, a tactical middlegame and an endgame.
const CASES: [(&str, &str, u32); 3] = [
    (
        "opening",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
        8,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        7,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 12),
];

/// Searches `pos` to `depth` with a fresh searcher; returns the node count.
fn search(pos: &Position, depth: u32) -> u64 {
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    searcher.search(
        &Game::new(*pos),
        &limits,
        &SearchControl::default(),
        &mut |i| nodes = i.nodes,
    );
    nodes
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in CASES {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        let nodes = search(&pos, depth);
        println!("search/{name}: depth {depth}, {nodes} nodes");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| search(&pos, depth)));
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
