//! Differential test against shakmaty, an independent Rust move generator:
//! on seeded random walks from the start position, from every position of
//! the perft suites and the thesis positions, and from all 960 Chess960
//! starts, both libraries must agree at every ply on
//!
//! - the set of legal moves (as king-takes-rook UCI text),
//! - the SAN of each legal move (check and mate marks included),
//! - the FEN after each legal move (en passant written only when the
//!   capture is legal, castling as X-FEN), and
//! - the outcome: checkmate, stalemate, insufficient material (both
//!   libraries' rule: neither side has the material to mate), and, for
//!   standard chess, the Polyglot key (shakmaty's with the en-passant
//!   file counted for a pseudo-legal capture, the Polyglot rule).
//!
//! The two walk in step: a random legal move of ours is found among
//! shakmaty's and played on both, so each side's incremental state is
//! checked, not a FEN read afresh. `cargo test` checks 40,000 positions
//! (5 s in the test profile on 2026-11-27, a 2-core AMD EPYC shared with
//! other builds, load about 17); `PINMASK_SHAKMATY_POSITIONS=300000`
//! checks more (48 s there), and
//! `PINMASK_SHAKMATY_SEED` changes the walks.

#[path = "support/suite.rs"]
mod suite;
use suite::suite;

use movegen::rng::SplitMix64;
use movegen::{CastlingMode, Move, Position};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position as _};
use std::collections::BTreeMap;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// shakmaty's position for ours, read from our FEN (in Shredder notation,
/// which says exactly which rook castles).
fn theirs_for(pos: &Position) -> Chess {
    let fen = pos.fen_with(CastlingMode::Chess960);
    let setup: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    setup
        .into_position(shakmaty::CastlingMode::Chess960)
        // A suite line has a check no last move could give; its moves are
        // still well defined.
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("{fen}: shakmaty refuses it: {e}"))
}

fn their_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Compares one position; returns shakmaty's moves by their UCI text.
fn compare(ours: &Position, theirs: &Chess, context: &str) -> BTreeMap<String, shakmaty::Move> {
    let fen = ours.fen_with(CastlingMode::Standard);
    assert_eq!(fen, their_fen(theirs), "{context}: FEN");
    let mut their_moves = BTreeMap::new();
    for m in theirs.legal_moves() {
        let text = UciMove::from_move(m, shakmaty::CastlingMode::Chess960).to_string();
        assert!(
            their_moves.insert(text, m).is_none(),
            "{fen}: shakmaty lists a move twice"
        );
    }
    let mut our_moves: BTreeMap<String, Move> = BTreeMap::new();
    for &mv in ours.legal_moves().iter() {
        let text = mv.to_uci(CastlingMode::Chess960).to_string();
        assert!(
            our_moves.insert(text, mv).is_none(),
            "{fen}: a move listed twice"
        );
    }
    let ours_only: Vec<&String> = our_moves
        .keys()
        .filter(|k| !their_moves.contains_key(*k))
        .collect();
    let theirs_only: Vec<&String> = their_moves
        .keys()
        .filter(|k| !our_moves.contains_key(*k))
        .collect();
    assert!(
        ours_only.is_empty() && theirs_only.is_empty(),
        "{context}: {fen}: moves only we list {ours_only:?}, only shakmaty lists {theirs_only:?}"
    );
    for (text, &mv) in &our_moves {
        let m = their_moves[text];
        let san = ours.san(mv).unwrap().to_string();
        assert_eq!(
            san,
            SanPlus::from_move(theirs.clone(), m).to_string(),
            "{fen} {text}: SAN"
        );
        let child = ours.play(mv);
        let mut their_child = theirs.clone();
        their_child.play_unchecked(m);
        assert_eq!(
            child.fen_with(CastlingMode::Standard),
            their_fen(&their_child),
            "{fen} {text}: FEN after"
        );
    }
    assert_eq!(ours.is_check(), theirs.is_check(), "{fen}: check");
    assert_eq!(
        ours.is_checkmate(),
        theirs.is_checkmate(),
        "{fen}: checkmate"
    );
    assert_eq!(
        ours.is_stalemate(),
        theirs.is_stalemate(),
        "{fen}: stalemate"
    );
    assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "{fen}: insufficient material"
    );
    if ours.castling_mode() == CastlingMode::Standard {
        let key: Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
        assert_eq!(ours.polyglot_key(), key.0, "{fen}: Polyglot key");
    }
    their_moves
}

/// Walks `plies` random moves from `root` on both, comparing at each ply;
/// returns the number of positions compared.
fn walk(root: Position, plies: usize, rng: &mut SplitMix64, tally: &mut Tally) -> usize {
    let mut ours = root;
    let mut theirs = theirs_for(&root);
    for ply in 0..=plies {
        let context = format!("{} after {ply} plies", root.fen());
        let their_moves = compare(&ours, &theirs, &context);
        tally.note(&ours);
        let moves = ours.legal_moves();
        if moves.is_empty() || ours.is_insufficient_material() {
            return ply + 1;
        }
        let mv = moves[rng.below(moves.len())];
        let m = their_moves[&mv.to_uci(CastlingMode::Chess960).to_string()];
        ours = ours.play(mv);
        theirs.play_unchecked(m);
    }
    plies + 1
}

/// What the walks covered, so a change that stops them reaching the
/// interesting cases fails.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    chess960: usize,
    mates: usize,
    stalemates: usize,
    insufficient: usize,
    en_passant: usize,
    castling: usize,
}

impl Tally {
    fn note(&mut self, pos: &Position) {
        self.positions += 1;
        self.chess960 += usize::from(pos.castling_mode() == CastlingMode::Chess960);
        self.mates += usize::from(pos.is_checkmate());
        self.stalemates += usize::from(pos.is_stalemate());
        self.insufficient += usize::from(pos.is_insufficient_material());
        self.en_passant += usize::from(pos.ep_square().is_some());
        self.castling += usize::from(pos.legal_moves().iter().any(|m| m.is_castle()));
    }
}

#[test]
fn moves_san_fen_and_outcome_agree_with_shakmaty() {
    let budget = env_number("PINMASK_SHAKMATY_POSITIONS", 40_000) as usize;
    let mut rng = SplitMix64::new(env_number("PINMASK_SHAKMATY_SEED", 46));
    let mut roots: Vec<(Position, usize)> = Vec::new();
    // Long games from the start: they reach endings, mates and stalemates.
    for _ in 0..12 {
        roots.push((Position::startpos(), 300));
    }
    for name in ["perft_standard.epd", "thesis_positions.epd"] {
        roots.extend(suite(name).into_iter().map(|p| (p, 8)));
    }
    roots.extend(
        suite("perft_chess960.epd")
            .into_iter()
            .step_by(8)
            .map(|p| (p, 8)),
    );
    roots.extend((0..960).map(|n| (Position::chess960(n).unwrap(), 4)));
    // Past the fixed roots, more long walks until the budget is spent.
    let mut tally = Tally::default();
    let mut checked = 0;
    let mut i = 0;
    while checked < budget {
        let (root, plies) = match roots.get(i) {
            Some(&root) => root,
            None if i % 2 == 0 => (Position::startpos(), 300),
            None => (Position::chess960(rng.below(960) as u32).unwrap(), 300),
        };
        checked += walk(root, plies, &mut rng, &mut tally);
        i += 1;
    }
    eprintln!("{tally:?}");
    assert!(tally.positions >= budget);
    assert!(tally.chess960 > budget / 8, "{tally:?}");
    assert!(tally.mates > 0 && tally.stalemates > 0, "{tally:?}");
    assert!(tally.insufficient > 5 && tally.en_passant > 20, "{tally:?}");
    assert!(tally.castling > 500, "{tally:?}");
}
