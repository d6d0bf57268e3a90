use super::*;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn why(fen: &str, mv: &str) -> Illegal {
    let pos = Position::from_fen(fen).unwrap();
    explain_move(&pos, mv).expect_err(mv)
}

const START: &str = crate::STARTPOS_FEN;
const PINS: &str = "4r1k1/8/8/8/1b6/8/3NR3/4K3 w - - 0 1";
const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn each_rule_gives_its_reason() {
    use Illegal::*;
    let cases: &[(&str, &str, Illegal)] = &[
        (START, "e2e9", Malformed),
        (START, "e3e4", NoPiece(sq("e3"))),
        (START, "e7e5", NotYourTurn(sq("e7"), Color::Black)),
        (START, "d1d2", OwnPiece(sq("d2"))),
        (START, "g1g3", NotAMove(Piece::Knight, sq("g1"), sq("g3"))),
        (START, "f1c4", Blocked(sq("e2"))),
        (START, "a1a3", Blocked(sq("a2"))),
        (START, "e2d3", PawnNothingToTake(sq("d3"))),
        (START, "e2e5", NotAMove(Piece::Pawn, sq("e2"), sq("e5"))),
        (START, "e2e4q", PromotionNotAllowed),
        (START, "g1f3q", PromotionNotAllowed),
        (
            "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1",
            "e3e4",
            PawnBlocked(sq("e4")),
        ),
        (
            "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
            "e2e4",
            Blocked(sq("e3")),
        ),
        ("8/3KPk2/8/p7/8/8/8/8 w - - 0 1", "e7e8", PromotionMissing),
        (PINS, "d2f3", Pinned(sq("d2"), sq("b4"))),
        (PINS, "e2f2", Pinned(sq("e2"), sq("e8"))),
        (
            "4r1k1/8/8/8/8/8/8/3K4 w - - 0 1",
            "d1e1",
            IntoCheck(sq("e1"), sq("e8")),
        ),
        // Stepping back along the checking line: the king's old square no longer blocks.
        (
            "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
            "e1f1",
            IntoCheck(sq("f1"), sq("a1")),
        ),
        (
            "4k3/8/8/8/8/5p2/8/4K3 w - - 0 1",
            "e1e2",
            IntoCheck(sq("e2"), sq("f3")),
        ),
        (
            "4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1",
            "a2a3",
            LeavesCheck(sq("e8")),
        ),
        (
            "4r1k1/8/8/8/8/3n4/P7/4K3 w - - 0 1",
            "a2a3",
            DoubleCheck(sq("d3"), sq("e8")),
        ),
        (
            "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
            "b5c6",
            EnPassantExposes(sq("h5")),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
            "e1g1",
            CastleNoRight(CastleSide::Short),
        ),
        (
            "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1",
            "e1g1",
            CastleInCheck(sq("e2")),
        ),
        (START, "e1g1", CastleBlocked(sq("f1"))),
        (
            "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
            "e1c1",
            CastleBlocked(sq("b1")),
        ),
        (
            "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
            "e1g1",
            CastleThrough(sq("f1"), sq("f2")),
        ),
        (
            "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1",
            "e1g1",
            CastleInto(sq("g1"), sq("g2")),
        ),
        (
            "r3k2r/8/8/8/8/8/3r4/R3K2R w KQkq - 0 1",
            "e1c1",
            CastleThrough(sq("d1"), sq("d2")),
        ),
    ];
    for &(fen, mv, expected) in cases {
        assert_eq!(why(fen, mv), expected, "{fen} {mv}");
    }
}

#[test]
fn legal_claims_come_back_as_moves() {
    // b1 may be attacked when castling long: the king does not pass it.
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1").unwrap();
    let mv = explain_move(&pos, "e1c1").unwrap();
    assert!(mv.is_castle());
    assert_eq!(mv.to(), sq("a1"));
    let pos = Position::from_fen(CASTLE).unwrap();
    assert_eq!(explain_move(&pos, "e1h1").unwrap().to(), sq("h1"));
}

#[test]
fn chess960_castling_onto_the_rook() {
    // King b1, rooks a1 and h1; only the h-side right is left.
    let fen = "6kr/8/8/8/8/8/8/RK5R w Hh - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(
        explain_move(&pos, "b1a1"),
        Err(Illegal::CastleNoRight(CastleSide::Long))
    );
    // Short castling puts the king on g1 and the rook on f1; c1-f1 must be clear.
    assert!(explain_move(&pos, "b1h1").unwrap().is_castle());
    // A second rook on the castling side is only our own piece.
    let pos = Position::from_fen("6kr/8/8/8/8/8/8/1K3R1R w Hh - 0 1").unwrap();
    assert_eq!(explain_move(&pos, "b1f1"), Err(Illegal::OwnPiece(sq("f1"))));
    // With a knight on e1 it is blocked, and the block is named.
    let pos = Position::from_fen("6kr/8/8/8/8/8/8/RK2N2R w Hh - 0 1").unwrap();
    assert_eq!(
        explain_move(&pos, "b1h1"),
        Err(Illegal::CastleBlocked(sq("e1")))
    );
}

#[test]
fn reasons_read_as_sentences() {
    let pos = Position::from_fen(PINS).unwrap();
    let text = explain_move(&pos, "d2f3")
        .unwrap_err()
        .reason(&pos)
        .to_string();
    assert_eq!(
        text,
        "the knight on d2 is pinned to its king along the line e1-b4 by the bishop on b4"
    );
    let pos = Position::from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1").unwrap();
    let text = explain_move(&pos, "b5c6")
        .unwrap_err()
        .reason(&pos)
        .to_string();
    assert_eq!(
        text,
        "en passant takes both pawns off the rank and exposes the king to the rook on h5"
    );
    let pos = Position::startpos();
    let text = explain_move(&pos, "e7e5")
        .unwrap_err()
        .reason(&pos)
        .to_string();
    assert_eq!(
        text,
        "the pawn on e7 belongs to Black, but it is White to move"
    );
}
