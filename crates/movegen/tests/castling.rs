//! Castling legality where the generator takes shortcuts: the king's path is
//! checked against the enemy's whole attack set, and only an enemy rook or
//! queen on the back rank (which the castling rook might be shielding the
//! path from) takes the exact square-by-square test. Expected moves were
//! checked with python-chess.

use movegen::{CastlingMode, Position};

/// The castling moves of `fen`, in king-takes-rook notation.
fn castles(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    pos.legal_moves()
        .iter()
        .filter(|mv| mv.is_castle())
        .map(|mv| mv.to_uci(CastlingMode::Chess960).to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn a_castling_rook_shielding_the_path_is_lifted() {
    // King f1 castles long with the rook on b1 (to c1 and d1): the black rook
    // on a1 sees the path once the b1 rook has moved.
    assert_eq!(
        castles("4k3/8/8/8/8/8/8/rR3K2 w B - 0 1"),
        Vec::<String>::new()
    );
    // The same rook one rank up attacks nothing on the path.
    assert_eq!(castles("4k3/8/8/8/8/8/r7/1R3K2 w B - 0 1"), ["f1b1"]);
    // Attacking the castling rook itself does not matter.
    assert_eq!(castles("1r2k3/8/8/8/8/8/8/1R3K2 w B - 0 1"), ["f1b1"]);
}

#[test]
fn attacked_path_squares_forbid_castling_on_that_side_only() {
    // The bishop on a6 covers f1: no short castling; long is free.
    assert_eq!(castles("r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1"), ["e1a1"]);
    // A knight on c2 covers e1 (check) and a1, b4, d4, e3: no castling at all.
    assert_eq!(
        castles("r3k2r/8/8/8/8/8/2n5/R3K2R w KQkq - 0 1"),
        Vec::<String>::new()
    );
    // A black pawn on g2 covers f1 and h1: no short castling.
    assert_eq!(castles("4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1"), ["e1a1"]);
    // Only b1 attacked (by the rook on b8): the king does not cross it, so
    // both sides are legal.
    assert_eq!(
        castles("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
        ["e1a1", "e1h1"]
    );
}
