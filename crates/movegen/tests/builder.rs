//! `PositionBuilder::from_position(&pos).build()` gives `pos` back: the
//! same pieces, castling rooks, en passant, clocks and castling mode, on the
//! suite positions, the positions a few random moves on from them, and all
//! 960 Chess960 starts.

#[path = "support/suite.rs"]
mod suite;
use suite::suite;

use movegen::rng::SplitMix64;
use movegen::{Position, PositionBuilder};

fn assert_round_trip(pos: &Position) {
    let back = PositionBuilder::from_position(pos)
        .build()
        .unwrap_or_else(|e| panic!("{pos}: {e}"));
    assert_eq!(back, *pos, "{pos}");
    assert_eq!(back.fen(), pos.fen());
    assert_eq!(back.castling_mode(), pos.castling_mode(), "{pos}");
    assert_eq!(back.key(), pos.key(), "{pos}");
    assert_eq!(back.polyglot_key(), pos.polyglot_key(), "{pos}");
}

#[test]
fn a_castling_right_stays_with_its_own_rook() {
    for fen in [
        "4k3/8/8/8/8/8/8/4KR1R w F - 0 1",
        "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1",
        "r1r1k3/8/8/8/8/8/8/4K3 b c - 0 1",
        "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_round_trip(&pos);
    }
}

#[test]
fn from_position_then_build_is_the_identity() {
    let mut roots = suite("perft_standard.epd");
    roots.extend(suite("thesis_positions.epd"));
    roots.extend(suite("perft_chess960.epd"));
    roots.extend((0..960).map(|n| Position::chess960(n).unwrap()));
    let mut rng = SplitMix64::new(4);
    let mut checked = 0;
    for root in roots {
        let mut pos = root;
        for _ in 0..12 {
            assert_round_trip(&pos);
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 20_000, "{checked}");
}
