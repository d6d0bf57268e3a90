//! Lazy SMP: more threads still give legal moves, the same forced mates, and
//! stop when told.

use movegen::{Game, Position};
use search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn run(fen: &str, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let pos = Position::from_fen(fen).unwrap();
    let mut infos = Vec::new();
    let result = Searcher::new(8).search(
        &Game::new(pos),
        &limits,
        &SearchControl::default(),
        &mut |i| infos.push(i.clone()),
    );
    if let Some(mv) = result.best {
        assert!(pos.is_legal(mv), "illegal best move {mv} in {fen}");
    }
    (result, infos)
}

fn threads(n: usize, limits: Limits) -> Limits {
    Limits {
        threads: n,
        ..limits
    }
}

#[test]
fn two_threads_play_legal_moves() {
    let fens = [
        movegen::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    for fen in fens {
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let (result, infos) = run(fen, threads(2, limits));
        assert!(result.best.is_some(), "{fen}");
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, [1, 2, 3, 4, 5, 6], "{fen}");
    }
}

#[test]
fn two_threads_find_the_same_forced_mates() {
    // Mate distances confirmed with Stockfish 15.1 (see tests/search.rs).
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
        ("6rk/6pp/8/6N1/8/8/8/6QK w - - 0 1", 1, "g5f7"),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, ""),
        ("7k/8/5K2/8/8/8/8/R7 w - - 0 1", 2, ""),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, ""),
    ];
    for n_threads in [2, 3] {
        for (fen, n, best) in cases {
            let limits = Limits {
                depth: Some(2 * n + 2),
                ..Limits::default()
            };
            let (result, infos) = run(fen, threads(n_threads, limits));
            assert_eq!(infos.last().unwrap().score, Score::Mate(n as i32), "{fen}");
            if !best.is_empty() {
                assert_eq!(result.best.unwrap().to_string(), best, "{fen}");
            }
        }
    }
}

#[test]
fn stop_reaches_every_thread() {
    let pos = Position::startpos();
    let control = SearchControl::default();
    let flag = control.stop.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::SeqCst);
    });
    let start = Instant::now();
    let limits = threads(
        4,
        Limits {
            infinite: true,
            ..Limits::default()
        },
    );
    // The search returns only after every helper thread has ended.
    let result = Searcher::new(8).search(&Game::new(pos), &limits, &control, &mut |_| {});
    stopper.join().unwrap();
    assert!(result.best.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn time_limit_reaches_every_thread() {
    let start = Instant::now();
    let limits = Limits {
        movetime: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let (result, _) = run(movegen::STARTPOS_FEN, threads(2, limits));
    assert!(result.best.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn node_limit_counts_every_thread() {
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let (_, infos) = run(movegen::STARTPOS_FEN, threads(2, limits));
    let last = infos.last().unwrap();
    // Each thread adds its count to the total every 2048 nodes.
    assert!(last.nodes <= 50_000 + 2 * 2048, "{}", last.nodes);
}
