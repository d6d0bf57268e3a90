//! Untrusted moves against every public entry point that takes one: random
//! `Move` bits, legal moves of other positions, bit-flipped legal moves,
//! and random or mutated UCI and SAN text. Each call must return an error
//! or a position that keeps the crate's invariants: its FEN parses back to
//! the same position, its key is the key computed from scratch, and its
//! legal moves are those of the slow model in `support/reference.rs`
//! (which plays moves on a plain 64-square board of its own).
//!
//! `cargo test` runs 200,000 cases; `PINMASK_UNTRUSTED_CASES=5000000`
//! (or `cargo test --test untrusted_input -- --ignored`) runs millions.

#[path = "support/reference.rs"]
mod reference;
use movegen::rng::SplitMix64;
use movegen::{explain_move, CastlingMode, Game, Move, Position, UciMove, STARTPOS_FEN};
use reference::slow_legal_moves;
use std::collections::HashSet;

/// Start positions: the standard start, Kiwipete, positions with en
/// passant, promotions, Chess960 castling, and clocks at their limits.
const FENS: &[&str] = &[
    STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295",
    "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b KQkq e3 0 1",
];

/// Every position of short seeded random games from [`FENS`].
fn positions(rng: &mut SplitMix64) -> Vec<Position> {
    let mut out = Vec::new();
    for fen in FENS {
        let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..12 {
            let mut pos = start;
            for _ in 0..40 {
                out.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
    }
    out
}

/// A move to try: random bits, a legal move of another position, or a
/// legal move here with one or two bits flipped (a wrong kind, a square off).
fn random_move(rng: &mut SplitMix64, pos: &Position, all: &[Position]) -> Move {
    let legal_here = pos.legal_moves();
    match rng.below(4) {
        0 => Move::from_bits(rng.next_u64() as u16),
        1 => {
            let other = all[rng.below(all.len())].legal_moves();
            if other.is_empty() {
                return Move::NULL;
            }
            other[rng.below(other.len())]
        }
        _ if legal_here.is_empty() => Move::from_bits(rng.next_u64() as u16),
        _ => {
            let mut bits = legal_here[rng.below(legal_here.len())].bits();
            for _ in 0..1 + rng.below(2) {
                bits ^= 1 << rng.below(16);
            }
            Move::from_bits(bits)
        }
    }
}

/// Random UCI-looking text: squares and promotion letters, sometimes a
/// legal move's text with one character changed, sometimes junk.
fn random_uci(rng: &mut SplitMix64, pos: &Position) -> String {
    const CHARS: &[u8] = b"abcdefghi0123456789nbrqkpNBRQK -";
    let legal = pos.legal_moves();
    let mut text: Vec<u8> = if rng.below(2) == 0 && !legal.is_empty() {
        legal[rng.below(legal.len())]
            .to_uci(pos.castling_mode())
            .to_string()
            .into_bytes()
    } else {
        (0..rng.below(7))
            .map(|_| CHARS[rng.below(CHARS.len())])
            .collect()
    };
    if !text.is_empty() && rng.below(2) == 0 {
        let i = rng.below(text.len());
        text[i] = CHARS[rng.below(CHARS.len())];
    }
    String::from_utf8(text).expect("ASCII")
}

/// Random SAN-looking text: piece letters, origins, `x`, targets,
/// promotions and marks in a rough grammar, or a legal move's SAN changed.
fn random_san(rng: &mut SplitMix64, pos: &Position) -> String {
    const PARTS: &[&str] = &[
        "N", "B", "R", "Q", "K", "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5",
        "6", "7", "8", "x", "=", "Q", "N", "+", "#", "O-O", "O-O-O", "0-0", "-", "e.p.", "!", "?",
        " ", "(", ")", "é",
    ];
    let legal = pos.legal_moves();
    let mut text = if rng.below(2) == 0 && !legal.is_empty() {
        let mv = legal[rng.below(legal.len())];
        pos.san(mv).expect("a listed move is legal").to_string()
    } else {
        String::new()
    };
    for _ in 0..rng.below(4) {
        let part = PARTS[rng.below(PARTS.len())];
        if rng.below(2) == 0 || text.is_empty() {
            text.push_str(part);
        } else {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, part);
        }
    }
    text
}

/// Checks the invariants of a position an entry point returned, once per
/// distinct position (the slow model is slow).
struct Checker {
    seen: HashSet<String>,
    accepted: usize,
}

impl Checker {
    fn check(&mut self, pos: &Position, how: &str) {
        self.accepted += 1;
        let fen = pos.fen_with(CastlingMode::Chess960);
        if !self.seen.insert(fen.clone()) {
            return;
        }
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{how}: {fen}: {e}"));
        assert_eq!(
            back.fen_with(CastlingMode::Chess960),
            fen,
            "{how}: FEN round trip"
        );
        assert_eq!(back.key(), pos.key(), "{how}: key after parsing {fen}");
        assert_eq!(pos.key(), pos.compute_key(), "{how}: incremental key {fen}");
        assert_eq!(
            (back.checkers(), back.pinned()),
            (pos.checkers(), pos.pinned()),
            "{how}: check info {fen}"
        );
        let mut fast: Vec<u16> = pos.legal_moves().iter().map(|m| m.bits()).collect();
        let mut slow: Vec<u16> = slow_legal_moves(pos).iter().map(|m| m.bits()).collect();
        fast.sort_unstable();
        slow.sort_unstable();
        assert_eq!(fast, slow, "{how}: legal moves of {fen}");
    }
}

/// Feeds `cases` untrusted inputs, a few per entry point each round.
fn run(cases: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let all = positions(&mut rng);
    let mut checker = Checker {
        seen: HashSet::new(),
        accepted: 0,
    };
    let mut done = 0;
    while done < cases {
        let pos = all[rng.below(all.len())];
        // Either notation, where the castling rights allow standard's.
        let mode = CastlingMode::from_chess960(rng.below(2) == 0);
        let pos = pos.with_castling_mode(mode).unwrap_or(pos);
        let mode = pos.castling_mode();
        let mv = random_move(&mut rng, &pos, &all);
        let legal = pos.legal_moves().contains(&mv);
        assert_eq!(pos.is_legal(mv), legal, "is_legal({mv:?}) in {pos}");
        // Accessors and text of any bits.
        let _ = (
            mv.kind(),
            mv.promotion(),
            mv.king_destination(),
            mv.to_string(),
        );
        let _ = mv.to_uci(mode).to_string();
        match pos.try_play(mv) {
            Ok(next) => {
                assert!(legal, "try_play accepted {mv:?} in {pos}");
                checker.check(&next, "try_play");
            }
            Err(_) => assert!(!legal, "try_play refused legal {mv:?} in {pos}"),
        }
        assert_eq!(pos.san(mv).is_ok(), legal, "san({mv:?}) in {pos}");
        let mut game = Game::new(pos);
        assert_eq!(game.play(mv).is_ok(), legal, "Game::play({mv:?}) in {pos}");
        checker.check(game.position(), "Game::play");

        let uci = random_uci(&mut rng, &pos);
        if let Ok(found) = pos.parse_uci_move(&uci) {
            checker.check(&pos.play(found), "parse_uci_move");
        }
        if let Ok(parsed) = uci.parse::<UciMove>() {
            if let Ok(found) = parsed.to_move(&pos) {
                assert!(pos.is_legal(found), "UciMove::to_move {uci} in {pos}");
            }
        }
        if let Ok(found) = explain_move(&pos, &uci) {
            checker.check(&pos.play(found), "explain_move");
        }
        let mut game = Game::new(pos);
        if game.play_uci(&uci).is_ok() {
            checker.check(game.position(), "Game::play_uci");
        }

        let san = random_san(&mut rng, &pos);
        if let Ok(found) = pos.parse_san(&san) {
            checker.check(&pos.play(found), "parse_san");
        }
        let mut game = Game::new(pos);
        if game.play_san(&san).is_ok() {
            checker.check(game.position(), "Game::play_san");
        }
        if let Some(passed) = pos.play_null() {
            checker.check(&passed, "play_null");
        }
        done += 3;
    }
    // The invariants must have been checked often, not just the errors.
    assert!(
        checker.accepted > cases / 4,
        "only {} of {cases} inputs accepted",
        checker.accepted
    );
    eprintln!(
        "{cases} cases, {} accepted, {} distinct positions checked",
        checker.accepted,
        checker.seen.len()
    );
}

fn cases_from_env(default: usize) -> usize {
    std::env::var("PINMASK_UNTRUSTED_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn untrusted_moves_and_text_never_break_a_position() {
    run(cases_from_env(200_000), 33);
}

#[test]
#[ignore = "millions of cases: minutes"]
fn untrusted_moves_and_text_never_break_a_position_millions() {
    run(cases_from_env(5_000_000), 3333);
}
