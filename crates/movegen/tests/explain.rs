//! Every claim `explain_move` judges agrees with the generator, and every
//! rejected claim gets a named reason: all from-to pairs (with promotion
//! letters for pawns) in the suite positions and the positions one move on.

use movegen::{explain_move, CastlingMode, Illegal, Piece, Position, Square};
use std::collections::HashSet;

fn suite(name: &str, limit: usize) -> Vec<(String, CastlingMode)> {
    let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mode = CastlingMode::from_chess960(name.contains("960"));
    text.lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .take(limit)
        .map(|f| (f.to_string(), mode))
        .collect()
}

/// Claims every move of the side to move's pieces could be written as.
fn check_all_claims(pos: &Position) -> usize {
    let mode = pos.castling_mode();
    let legal: HashSet<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    let mut claims = 1;
    assert_eq!(explain_move(pos, "0000"), Err(Illegal::NullMove), "{pos}");
    for from in pos.colored(pos.side_to_move()) {
        // Every piece also with a letter: castling-shaped king moves with
        // one were once left unexplained.
        let promos: &[&str] = if pos.piece_on(from) == Some(Piece::Pawn) {
            &["", "q", "n"]
        } else {
            &["", "r"]
        };
        for to in 0..64 {
            let to = Square::from_index(to).unwrap();
            for promo in promos {
                let text = format!("{from}{to}{promo}");
                claims += 1;
                match explain_move(pos, &text) {
                    // Standard notation also takes castling as king-takes-rook.
                    Ok(mv) => assert!(
                        mv.to_uci(mode).to_string() == text
                            || (mv.is_castle()
                                && mv.to_uci(CastlingMode::Chess960).to_string() == text),
                        "{pos} {text}: read as {mv}"
                    ),
                    Err(Illegal::Unexplained) => panic!("{pos} {text}: no reason found"),
                    Err(_) => assert!(!legal.contains(&text), "{pos} {text} is legal"),
                }
            }
        }
    }
    claims
}

#[test]
fn every_claim_is_judged_like_the_generator_with_a_reason() {
    let mut positions = suite("thesis_positions.epd", usize::MAX);
    positions.extend(suite("perft_standard.epd", usize::MAX));
    positions.extend(suite("perft_chess960.epd", 100));
    let mut claims = 0;
    let mut checked = 0;
    for (fen, mode) in &positions {
        let root = Position::from_fen(fen)
            .unwrap()
            .with_castling_mode(*mode)
            .unwrap();
        for pos in std::iter::once(root).chain(root.legal_moves().iter().map(|&m| root.play(m))) {
            claims += check_all_claims(&pos);
            checked += 1;
        }
    }
    assert!(
        checked > 3000 && claims > 1_000_000,
        "{checked} positions, {claims} claims"
    );
}

#[test]
fn other_side_and_empty_squares_are_named() {
    let pos = Position::startpos();
    for from in 0..64 {
        let from = Square::from_index(from).unwrap();
        if pos.colored(pos.side_to_move()).has(from) {
            continue;
        }
        let err = explain_move(&pos, &format!("{from}a4")).unwrap_err();
        assert!(
            matches!(err, Illegal::NoPiece(s) | Illegal::NotYourTurn(s, _) if s == from),
            "{from}: {err:?}"
        );
    }
}

#[test]
fn the_null_move_is_refused_with_its_reason_not_a_panic() {
    let fens = [
        movegen::STARTPOS_FEN,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "bnnrqkrb/pppppppp/8/8/8/8/PPPPPPPP/BNNRQRKB b gd - 1 1",
        "4k3/8/8/8/8/8/8/4K2q w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(explain_move(&pos, "0000"), Err(Illegal::NullMove), "{fen}");
        assert_eq!(
            Illegal::NullMove.reason(&pos).to_string(),
            "0000 is the null move (a pass), which is never legal"
        );
    }
}

#[test]
fn castling_with_a_promotion_letter_is_a_promotion_not_allowed() {
    let cases = [
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            &["e1g1q", "e1h1q", "e1c1n", "e1a1r"][..],
        ),
        (
            "bnnrqkrb/pppppppp/8/8/8/8/PPPPPPPP/BNNRQRKB b gd - 1 1",
            &["f8g8r", "f8d8q"],
        ),
        // Castling that is illegal anyway: the letter is the first fault.
        (
            "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1",
            &["e1g1q", "e1c1b"],
        ),
        // Ordinary king, knight and rook moves with a letter.
        (
            "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1",
            &["e1e2q", "b1c3n", "a1a8q"],
        ),
    ];
    for (fen, texts) in cases {
        let pos = Position::from_fen(fen).unwrap();
        for text in texts {
            assert_eq!(
                explain_move(&pos, text),
                Err(Illegal::PromotionNotAllowed),
                "{fen} {text}"
            );
        }
    }
}
