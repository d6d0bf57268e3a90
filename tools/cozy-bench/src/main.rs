//! Single-thread bulk-counting perft, ours against cozy-chess's, on the six
//! standard positions, alternating runs and keeping each side's best time.
//!
//! Usage: cargo run --release [-- ROUNDS]
//!        cargo run --release -- quick [ROUNDS]   (one ply shallower)
//!        cargo run --release -- ours|cozy   (one shallow pass, for callgrind)

use std::time::{Duration, Instant};

const POSITIONS: [(&str, &str, u32); 6] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
];

/// cozy-chess's perft with bulk counting at the last ply, as its own example does it.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn timed(f: impl FnOnce() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let n = f();
    (n, start.elapsed())
}

/// `ours` or `cozy` alone, one ply shallower, once: a steady workload for
/// counting instructions under `valgrind --tool=callgrind`, which unlike
/// seconds does not depend on what else the machine is doing.
fn single(which: &str) {
    let mut total = 0;
    for (_, fen, depth) in POSITIONS {
        total += match which {
            "ours" => movegen::perft::perft(&movegen::Position::from_fen(fen).unwrap(), depth - 1),
            _ => cozy_perft(&fen.parse().unwrap(), depth - 1),
        };
    }
    println!("{which}: {total} nodes");
}

fn main() {
    let arg = std::env::args().nth(1);
    if let Some(which @ ("ours" | "cozy")) = arg.as_deref() {
        return single(which);
    }
    // `quick ROUNDS`: one ply shallower (about 0.1 s a run), many rounds; the
    // best of many short runs is steadier on a busy machine than few long ones.
    let quick = arg.as_deref() == Some("quick");
    let arg = if quick { std::env::args().nth(2) } else { arg };
    let rounds: usize = arg.and_then(|a| a.parse().ok()).unwrap_or(3);
    let (mut ours_total, mut cozy_total, mut nodes_total) = (Duration::ZERO, Duration::ZERO, 0);
    println!("{:<10} {:>12} {:>10} {:>10} {:>6}", "position", "nodes", "ours Mnps", "cozy Mnps", "ratio");
    for (name, fen, depth) in POSITIONS {
        let depth = if quick { depth - 1 } else { depth };
        let ours_pos = movegen::Position::from_fen(fen).unwrap();
        let cozy_pos: cozy_chess::Board = fen.parse().unwrap();
        let (mut ours, mut cozy) = (Duration::MAX, Duration::MAX);
        let mut nodes = 0;
        for _ in 0..rounds {
            let (a, ta) = timed(|| movegen::perft::perft(&ours_pos, depth));
            let (b, tb) = timed(|| cozy_perft(&cozy_pos, depth));
            assert_eq!(a, b, "{name}: counts differ");
            nodes = a;
            ours = ours.min(ta);
            cozy = cozy.min(tb);
        }
        let mnps = |t: Duration| nodes as f64 / t.as_secs_f64() / 1e6;
        println!(
            "{name:<10} {nodes:>12} {:>10.1} {:>10.1} {:>6.2}",
            mnps(ours),
            mnps(cozy),
            cozy.as_secs_f64() / ours.as_secs_f64()
        );
        ours_total += ours;
        cozy_total += cozy;
        nodes_total += nodes;
    }
    let mnps = |t: Duration| nodes_total as f64 / t.as_secs_f64() / 1e6;
    println!(
        "{:<10} {nodes_total:>12} {:>10.1} {:>10.1} {:>6.2}",
        "total",
        mnps(ours_total),
        mnps(cozy_total),
        cozy_total.as_secs_f64() / ours_total.as_secs_f64()
    );
}
