//! Property tests over random reachable positions: seeded random games from the
//! start position and from every suite position (standard and Chess960), with a
//! fixed number of cases, so a failure always reproduces.
//!
//! The generator is checked against `support/reference.rs`, a slow model of the
//! rules that finds attacks by walking the board square by square.

#[path = "support/reference.rs"]
mod reference;
use movegen::rng::SplitMix64;
use movegen::{
    CastlingMode, CastlingRights, Move, MoveKind, Piece, Position, Square, STARTPOS_FEN,
};
use reference::{pseudo_legal_moves, slow_attacked, slow_attackers, slow_is_legal};

/// Random games per test and the plies each may last.
const GAMES: usize = 400;
const PLIES: usize = 60;

/// The FENs of the start position and both perft suites.
fn start_fens() -> Vec<String> {
    let mut fens = vec![STARTPOS_FEN.to_string()];
    for name in ["perft_standard.epd", "perft_chess960.epd"] {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            fens.push(line.split(';').next().unwrap_or("").trim().to_string());
        }
    }
    fens
}

/// Every position of `GAMES` seeded random games of up to `PLIES` plies.
fn random_positions(seed: u64) -> Vec<Position> {
    let fens = start_fens();
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..GAMES {
        let fen = &fens[rng.below(fens.len())];
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..PLIES {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        out.len() > GAMES * PLIES / 2,
        "walks too short: {}",
        out.len()
    );
    out
}

fn sorted(moves: &[Move]) -> Vec<u16> {
    let mut bits: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
    bits.sort_unstable();
    bits
}

#[test]
fn fen_print_parse_round_trip() {
    for pos in random_positions(1) {
        for (mode, other) in [
            (CastlingMode::Standard, CastlingMode::Chess960),
            (CastlingMode::Chess960, CastlingMode::Standard),
        ] {
            let fen = pos.fen_with(mode);
            let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(back, pos, "{fen}");
            assert_eq!(back.fen_with(mode), fen);
            assert_eq!(back.fen_with(other), pos.fen_with(other), "{fen}");
            assert_eq!(back.key(), pos.key(), "key after parsing {fen}");
            assert_eq!(back.checkers(), pos.checkers(), "{fen}");
            assert_eq!(back.pinned(), pos.pinned(), "{fen}");
            assert_eq!(
                sorted(&back.legal_moves()),
                sorted(&pos.legal_moves()),
                "{fen}"
            );
        }
        assert_eq!(pos.to_string(), pos.fen());
        // The position's own FEN also brings its castling mode back, while
        // a castling right is left to write it.
        let own = Position::from_fen(&pos.fen()).unwrap();
        assert_eq!(own.fen(), pos.fen());
        if pos.castling_rights() != CastlingRights::NONE {
            assert_eq!(own.castling_mode(), pos.castling_mode(), "{}", pos.fen());
        }
    }
}

#[test]
fn play_leaves_the_original_untouched_and_keys_incremental() {
    for pos in random_positions(2) {
        let (before, fen) = (pos, pos.fen_with(CastlingMode::Chess960));
        assert_eq!(pos.key(), pos.compute_key(), "{fen}");
        for &mv in pos.legal_moves().iter() {
            let next = pos.play(mv);
            assert_eq!(next.key(), next.compute_key(), "{fen} then {mv}");
            assert_eq!(next.side_to_move(), !pos.side_to_move());
            assert_ne!(
                next.key(),
                pos.key(),
                "{fen} then {mv}: the key did not change"
            );
        }
        // "Unmake" in copy-make is keeping the parent: it must be exactly as it was.
        assert_eq!(pos, before);
        assert_eq!(
            (pos.fen_with(CastlingMode::Chess960), pos.key()),
            (fen.clone(), before.key())
        );
        if !pos.in_check() && pos.ep_square().is_none() {
            let back = pos.play_null().unwrap().play_null().unwrap();
            assert_eq!(back.key(), pos.key(), "two null moves from {fen}");
        }
    }
}

#[test]
fn generated_moves_are_exactly_the_legal_pseudo_legal_moves() {
    let mut compared = 0;
    for pos in random_positions(3) {
        let fen = pos.fen_with(CastlingMode::Chess960);
        let us = pos.side_to_move();
        let king = pos.king(us);
        let checkers = slow_attackers(&pos, king, !us, pos.occupied());
        assert_eq!(pos.checkers(), checkers, "checkers in {fen}");
        let generated = pos.legal_moves();
        for &mv in generated.iter() {
            let next = pos.play(mv);
            let attacked = next.is_attacked(next.king(us), !us, next.occupied());
            assert!(
                !attacked,
                "{fen}: {mv} leaves the king attacked (is_attacked)"
            );
            assert!(
                slow_is_legal(&pos, mv),
                "{fen}: {mv} is illegal (slow check)"
            );
        }
        let expected: Vec<Move> = pseudo_legal_moves(&pos)
            .into_iter()
            .filter(|&mv| slow_is_legal(&pos, mv))
            .collect();
        assert_eq!(sorted(&generated), sorted(&expected), "{fen}");
        assert_eq!(pos.count_moves(), expected.len(), "{fen}");
        compared += 1;
    }
    assert!(compared > 10_000, "only {compared} positions");
}

#[test]
fn en_passant_square_is_kept_exactly_when_a_capture_is_legal() {
    let mut double_pushes = 0;
    let mut kept = 0;
    for pos in random_positions(4) {
        for &mv in pos.legal_moves().iter() {
            let (from, to) = (mv.from().index(), mv.to().index());
            if pos.piece_on(mv.from()) != Some(Piece::Pawn) || from.abs_diff(to) != 16 {
                continue;
            }
            let next = pos.play(mv);
            let passed = Square::from_index((from + to) / 2).expect("between two squares");
            // The same position with the en-passant square written in, which the
            // FEN parser accepts whether or not a capture is legal.
            let mut fields: Vec<String> = next
                .fen_with(CastlingMode::Chess960)
                .split(' ')
                .map(String::from)
                .collect();
            fields[3] = passed.to_string();
            let with_ep = Position::from_fen(&fields.join(" ")).expect("a valid FEN");
            let legal_capture = pseudo_legal_moves(&with_ep)
                .into_iter()
                .any(|m| m.kind() == MoveKind::EnPassant && slow_is_legal(&with_ep, m));
            let fen = pos.fen_with(CastlingMode::Chess960);
            assert_eq!(
                next.ep_square(),
                legal_capture.then_some(passed),
                "{fen} then {mv}"
            );
            double_pushes += 1;
            kept += usize::from(legal_capture);
        }
    }
    assert!(
        double_pushes > 1_000 && kept > 10,
        "{double_pushes} pushes, {kept} kept"
    );
}

#[test]
fn reference_attacks_agree_with_is_attacked() {
    for pos in random_positions(5).into_iter().step_by(7) {
        let occ = pos.occupied();
        for sq in (0..64).filter_map(Square::from_index) {
            for by in [movegen::Color::White, movegen::Color::Black] {
                let fast = pos.is_attacked(sq, by, occ);
                assert_eq!(
                    fast,
                    slow_attacked(&pos, sq, by, occ),
                    "{} {sq} {by:?}",
                    pos
                );
            }
        }
    }
}

#[test]
fn captures_are_exactly_the_captures_and_promotions_among_legal_moves() {
    let mut positions: Vec<Position> = start_fens()
        .iter()
        .map(|fen| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect();
    let children: Vec<Position> = positions
        .iter()
        .flat_map(|pos| {
            pos.legal_moves()
                .iter()
                .map(|&mv| pos.play(mv))
                .collect::<Vec<_>>()
        })
        .collect();
    positions.extend(children);
    positions.extend(random_positions(5));
    let (mut en_passant, mut quiet_promotions, mut in_check) = (0, 0, 0);
    for pos in &positions {
        let them = !pos.side_to_move();
        let expected: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| {
                mv.kind() == MoveKind::EnPassant
                    || mv.promotion().is_some()
                    || (!mv.is_castle() && pos.color_on(mv.to()) == Some(them))
            })
            .collect();
        let captures = pos.legal_captures();
        assert_eq!(
            sorted(&captures),
            sorted(&expected),
            "{}",
            pos.fen_with(CastlingMode::Chess960)
        );
        en_passant += captures
            .iter()
            .filter(|m| m.kind() == MoveKind::EnPassant)
            .count();
        quiet_promotions += captures
            .iter()
            .filter(|m| m.promotion().is_some() && pos.piece_on(m.to()).is_none())
            .count();
        in_check += usize::from(pos.in_check() && !captures.is_empty());
    }
    // The walk must reach the cases the captures-only mask treats specially.
    assert!(en_passant > 100, "{en_passant} en-passant captures");
    assert!(
        quiet_promotions > 100,
        "{quiet_promotions} quiet promotions"
    );
    assert!(
        in_check > 100,
        "{in_check} positions in check with captures"
    );
}
