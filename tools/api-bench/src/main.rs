//! Ours against cozy-chess, shakmaty and chess through each crate's public
//! API, interleaved in one process, single-threaded:
//!
//! - `moves`: the legal move list of every position of a seeded random walk
//!   (standard chess; `chess` has no Chess960);
//! - `san`: the SAN of every legal move of those positions (cozy-chess
//!   through `util::display_san_move`; `chess` writes no SAN);
//! - `count`: the number of legal moves of each walked position, by each
//!   crate's cheapest public way (ours `count_moves`, cozy-chess summing its
//!   move sets, shakmaty and chess the length of their lists);
//! - `user perft`: perft 4 from the six standard positions written by a
//!   user against each crate's public list-and-play API (bulk count at the
//!   last ply, `play_unchecked` or the like);
//! - `perft`: perft 5 from the six standard positions, each crate's own
//!   perft where it has one (cozy-chess: the bulk-counting loop of its
//!   example; ours with the `fast-perft` feature).
//!
//! Each round runs every crate on every task once, in turn; the best time of
//! each over the rounds is kept. Results are checked to agree (move counts,
//! SAN text, node counts) before any time is reported.
//!
//! Usage: cargo run --release [-- ROUNDS [POSITIONS]]

use std::fmt::Write;
use std::hint::black_box;
use std::str::FromStr;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position as _};

const SIX: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// FENs of a seeded random walk from the start position, games of at most
/// 200 plies, until `n` positions.
fn walk(n: usize, mut seed: u64) -> Vec<String> {
    let mut fens = Vec::with_capacity(n);
    while fens.len() < n {
        let mut game = movegen::Game::default();
        while fens.len() < n && game.moves().len() < 200 && game.outcome().is_none() {
            fens.push(game.position().to_string());
            let moves = game.position().legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(moves[(seed % moves.len() as u64) as usize])
                .unwrap();
        }
    }
    fens
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

/// The positions in each crate's own type.
struct Sets {
    ours: Vec<movegen::Position>,
    cozy: Vec<cozy_chess::Board>,
    shak: Vec<Chess>,
    chess: Vec<chess::Board>,
}

fn shak(fen: &str) -> Chess {
    Fen::from_str(fen)
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

impl Sets {
    fn new(fens: &[String]) -> Sets {
        Sets {
            ours: fens.iter().map(|f| f.parse().unwrap()).collect(),
            cozy: fens.iter().map(|f| f.parse().unwrap()).collect(),
            shak: fens.iter().map(|f| shak(f)).collect(),
            chess: fens
                .iter()
                .map(|f| chess::Board::from_str(f).unwrap())
                .collect(),
        }
    }
}

/// One task for each crate; each returns a checksum the others must match.
type Task<'a> = Box<dyn Fn() -> u64 + 'a>;

fn moves_tasks(s: &Sets) -> Vec<(&'static str, Task<'_>)> {
    vec![
        (
            "ours",
            Box::new(|| s.ours.iter().map(|p| p.legal_moves().len() as u64).sum()),
        ),
        (
            "cozy-chess",
            Box::new(|| {
                let mut list = Vec::with_capacity(256);
                let mut n = 0;
                for b in &s.cozy {
                    list.clear();
                    b.generate_moves(|moves| {
                        list.extend(moves);
                        false
                    });
                    n += black_box(&list).len() as u64;
                }
                n
            }),
        ),
        (
            "shakmaty",
            Box::new(|| s.shak.iter().map(|p| p.legal_moves().len() as u64).sum()),
        ),
        (
            "chess",
            Box::new(|| {
                let mut list = Vec::with_capacity(256);
                let mut n = 0;
                for b in &s.chess {
                    list.clear();
                    list.extend(chess::MoveGen::new_legal(b));
                    n += black_box(&list).len() as u64;
                }
                n
            }),
        ),
    ]
}

/// Adds a hash of `text` to `sum`: the total does not depend on the order
/// in which each crate lists its moves.
fn digest(text: &str, sum: &mut u64) {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    *sum = sum.wrapping_add(h);
}

fn san_tasks(s: &Sets) -> Vec<(&'static str, Task<'_>)> {
    vec![
        (
            "ours",
            Box::new(|| {
                let (mut text, mut h) = (String::new(), 0);
                for p in &s.ours {
                    for mv in p.legal_moves() {
                        text.clear();
                        write!(text, "{}", p.san(mv).unwrap()).unwrap();
                        digest(&text, &mut h);
                    }
                }
                h
            }),
        ),
        (
            "cozy-chess",
            Box::new(|| {
                let (mut text, mut h) = (String::new(), 0);
                for b in &s.cozy {
                    b.generate_moves(|moves| {
                        for mv in moves {
                            text.clear();
                            write!(text, "{}", cozy_chess::util::display_san_move(b, mv)).unwrap();
                            digest(&text, &mut h);
                        }
                        false
                    });
                }
                h
            }),
        ),
        (
            "shakmaty",
            Box::new(|| {
                let (mut text, mut h) = (String::new(), 0);
                for p in &s.shak {
                    for m in p.legal_moves() {
                        text.clear();
                        write!(text, "{}", SanPlus::from_move(p.clone(), m)).unwrap();
                        digest(&text, &mut h);
                    }
                }
                h
            }),
        ),
    ]
}

fn count_tasks(s: &Sets) -> Vec<(&'static str, Task<'_>)> {
    vec![
        (
            "ours",
            Box::new(|| s.ours.iter().map(|p| p.count_moves() as u64).sum()),
        ),
        (
            "cozy-chess",
            Box::new(|| {
                let mut n = 0;
                for b in &s.cozy {
                    b.generate_moves(|moves| {
                        n += moves.len() as u64;
                        false
                    });
                }
                n
            }),
        ),
        (
            "shakmaty",
            Box::new(|| s.shak.iter().map(|p| p.legal_moves().len() as u64).sum()),
        ),
        (
            "chess",
            Box::new(|| {
                s.chess
                    .iter()
                    .map(|b| chess::MoveGen::new_legal(b).len() as u64)
                    .sum()
            }),
        ),
    ]
}

fn user_perft_ours(p: &movegen::Position, depth: u32) -> u64 {
    if depth == 1 {
        return p.count_moves() as u64;
    }
    p.legal_moves()
        .iter()
        .map(|&m| user_perft_ours(&p.play_unchecked(m), depth - 1))
        .sum()
}

fn user_perft_shak(p: &Chess, depth: u32) -> u64 {
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = p.clone();
            child.play_unchecked(*m);
            user_perft_shak(&child, depth - 1)
        })
        .sum()
}

fn user_perft_chess(b: &chess::Board, depth: u32) -> u64 {
    let moves = chess::MoveGen::new_legal(b);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .map(|m| user_perft_chess(&b.make_move_new(m), depth - 1))
        .sum()
}

fn user_perft_tasks(s: &Sets) -> Vec<(&'static str, Task<'_>)> {
    vec![
        (
            "ours",
            Box::new(|| s.ours.iter().map(|p| user_perft_ours(p, 4)).sum()),
        ),
        (
            "cozy-chess",
            Box::new(|| s.cozy.iter().map(|b| cozy_perft(b, 4)).sum()),
        ),
        (
            "shakmaty",
            Box::new(|| s.shak.iter().map(|p| user_perft_shak(p, 4)).sum()),
        ),
        (
            "chess",
            Box::new(|| s.chess.iter().map(|b| user_perft_chess(b, 4)).sum()),
        ),
    ]
}

fn perft_tasks(s: &Sets) -> Vec<(&'static str, Task<'_>)> {
    vec![
        (
            "ours",
            Box::new(|| s.ours.iter().map(|p| movegen::perft::perft(p, 5)).sum()),
        ),
        (
            "cozy-chess",
            Box::new(|| s.cozy.iter().map(|b| cozy_perft(b, 5)).sum()),
        ),
        (
            "shakmaty",
            Box::new(|| s.shak.iter().map(|p| shakmaty::perft(p, 5)).sum()),
        ),
        (
            "chess",
            Box::new(|| {
                s.chess
                    .iter()
                    .map(|b| chess::MoveGen::movegen_perft_test(b, 5) as u64)
                    .sum()
            }),
        ),
    ]
}

/// Runs every task `rounds` times in turn; prints each one's best time and
/// its ratio to ours (above 1: ours is faster).
fn compare(name: &str, tasks: &[(&str, Task)], rounds: usize, unit: u64) {
    let mut best = vec![Duration::MAX; tasks.len()];
    let mut sums = vec![0; tasks.len()];
    for _ in 0..rounds {
        for (i, (_, task)) in tasks.iter().enumerate() {
            let start = Instant::now();
            sums[i] = black_box(task());
            best[i] = best[i].min(start.elapsed());
        }
    }
    for (i, (who, _)) in tasks.iter().enumerate() {
        assert_eq!(sums[i], sums[0], "{name}: {who} disagrees with ours");
    }
    println!("{name} ({unit} items, checksum {}):", sums[0]);
    for (i, (who, _)) in tasks.iter().enumerate() {
        println!(
            "  {who:<11} {:>9.3} ms  {:>7.1} ns/item  ours {:.2}x faster",
            best[i].as_secs_f64() * 1e3,
            best[i].as_secs_f64() * 1e9 / unit as f64,
            best[i].as_secs_f64() / best[0].as_secs_f64()
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let fens = walk(n, 0x5EED);
    let walked = Sets::new(&fens);
    let six = Sets::new(&SIX.map(String::from));
    let moves: u64 = walked
        .ours
        .iter()
        .map(|p| p.legal_moves().len() as u64)
        .sum();
    compare("legal move lists", &moves_tasks(&walked), rounds, n as u64);
    compare("move counts", &count_tasks(&walked), rounds, n as u64);
    compare(
        "SAN of every legal move",
        &san_tasks(&walked),
        rounds,
        moves,
    );
    let nodes4: u64 = six.ours.iter().map(|p| user_perft_ours(p, 4)).sum();
    compare(
        "user-written perft 4, six positions",
        &user_perft_tasks(&six),
        rounds,
        nodes4,
    );
    let nodes: u64 = six.ours.iter().map(|p| movegen::perft::perft(p, 5)).sum();
    compare("perft 5, six positions", &perft_tasks(&six), rounds, nodes);
}
