//! FEN parsing and printing: exact round trips and every rejection case.

use movegen::{CastleSide, CastlingMode, Color, FenError, Position, Rank, Square, STARTPOS_FEN};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn round_trips_exactly() {
    let fens = [
        STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        // An en-passant square only while the capture is legal (see
        // a_fen_drops_an_en_passant_square_no_capture_can_use).
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/8/8/8/4K2R w K - 99 200",
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.to_string(), fen);
        assert_eq!(Position::from_fen(&pos.to_string()).unwrap(), pos);
    }
}

#[test]
fn missing_clocks_default_to_zero_and_one() {
    let four = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(four.to_string(), STARTPOS_FEN);
    let five = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 7").unwrap();
    assert_eq!((five.halfmove_clock(), five.fullmove_number()), (7, 1));
    // Extra whitespace between fields is accepted.
    let spaced = Position::from_fen("  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 ").unwrap();
    assert_eq!(spaced.to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn rejects_each_malformed_field() {
    use FenError::*;
    let cases: &[(&str, FenError)] = &[
        ("", FieldCount(0)),
        ("8/8/8/8/8/8/8/8", FieldCount(1)),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FieldCount(7)),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", RankCount(7)),
        ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", RankCount(9)),
        ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", PieceLetter('9')),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", RankLength(Rank::First)),
        ("4k3/7/8/8/8/8/8/4K3 w - - 0 1", RankLength(Rank::Seventh)),
        (
            "4k3/ppppppppp/8/8/8/8/8/4K3 w - - 0 1",
            RankLength(Rank::Seventh),
        ),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", RankLength(Rank::First)),
        ("4k3/8/8/8/8/8/8/4K2x w - - 0 1", PieceLetter('x')),
        ("4k3/8/8/8/8/8/8/4K20 w - - 0 1", PieceLetter('0')),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", KingCount(Color::Black, 0)),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", KingCount(Color::White, 0)),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", KingCount(Color::White, 2)),
        ("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", KingCount(Color::Black, 2)),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", PawnOnBackRank(sq("h1"))),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", PawnOnBackRank(sq("a8"))),
        (
            "QQQQkQQQ/QQQQQQQQ/QQ6/8/8/8/8/4K3 w - - 0 1",
            TooManyPieces(Color::White, 18),
        ),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", SideToMove),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", SideToMove),
        ("4k3/8/8/8/8/8/8/4K3 white - - 0 1", SideToMove),
        ("4k3/8/8/8/8/8/8/4K2R w KX - 0 1", CastlingChar('X')),
        ("4k3/8/8/8/8/8/8/4K2R w K- - 0 1", CastlingChar('-')),
        ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", CastlingRepeated('K')),
        ("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", CastlingRepeated('H')),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", CastlingPieces('K')),
        ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", CastlingPieces('Q')),
        ("4k3/8/8/8/8/8/8/4K2R w k - 0 1", CastlingPieces('k')),
        ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", CastlingPieces('K')),
        ("4k3/8/8/8/8/8/8/4K2R w G - 0 1", CastlingPieces('G')),
        ("4k3/8/8/8/8/8/8/4K2R w e - 0 1", CastlingPieces('e')),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", EnPassantSquare),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            EnPassantRank(Color::White, sq("e4")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            EnPassantRank(Color::White, sq("e3")),
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - xx 0 1", EnPassantSquare),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", EnPassantPawn(sq("e6"))),
        (
            "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1",
            EnPassantPawn(sq("e6")),
        ),
        (
            "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
            EnPassantPawn(sq("e6")),
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
            EnPassantRank(Color::White, sq("e3")),
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", HalfmoveClock),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", HalfmoveClock),
        ("4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1", HalfmoveClock),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 -5", FullmoveNumber),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", FullmoveNumber),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
        ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", OpponentInCheck),
    ];
    for (fen, want) in cases {
        assert_eq!(Position::from_fen(fen), Err(*want), "{fen:?}");
        // Every error explains itself in words.
        assert!(want.to_string().len() > 10);
    }
}

#[test]
fn crowded_boards_fit_the_move_list() {
    // Fifteen queens and a king: the most pieces a side may have.
    let fen = "k7/pp6/8/8/8/QQQQQ3/QQQQQ3/QQQQQ2K w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.legal_moves().len(), 75);
    // 250 legal moves, but 27 white pieces: rejected before it can overflow.
    let crowded = "r1r1r1rk/QPQPQPnn/Q4QQQ/Q2Q3Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1";
    assert_eq!(
        Position::from_fen(crowded),
        Err(FenError::TooManyPieces(Color::White, 27))
    );
}

#[test]
fn chess960_castling_fields() {
    // Shredder-FEN names the rook files; X-FEN uses KQkq for the outermost rooks.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let pos = Position::from_fen(shredder).unwrap();
    assert_eq!(
        pos.castle_rook(Color::White, CastleSide::Short),
        Some(sq("h1"))
    );
    assert_eq!(
        pos.castle_rook(Color::White, CastleSide::Long),
        Some(sq("f1"))
    );
    assert_eq!(
        pos.castle_rook(Color::Black, CastleSide::Long),
        Some(sq("f8"))
    );
    assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    assert_eq!(pos.fen(), shredder);
    assert_eq!(pos.to_string(), shredder);
    let x_fen = pos.fen_with(CastlingMode::Standard);
    assert_eq!(x_fen, shredder.replace("HFhf", "KQkq"));
    let back = Position::from_fen(&x_fen).unwrap();
    assert_eq!((back, back.castling_mode()), (pos, CastlingMode::Chess960));
    // An inner rook keeps its file letter in X-FEN.
    let inner = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1").unwrap();
    assert_eq!(
        inner.castle_rook(Color::White, CastleSide::Short),
        Some(sq("g1"))
    );
    assert_eq!(inner.to_string(), "4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1");
    let outer = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1RR w KQ - 0 1").unwrap();
    assert_eq!(
        outer.castle_rook(Color::White, CastleSide::Short),
        Some(sq("h1"))
    );
    assert_eq!(
        outer.castle_rook(Color::White, CastleSide::Long),
        Some(sq("b1"))
    );
}

#[test]
fn play_keeps_the_original_and_the_key_consistent() {
    let start = Position::startpos();
    let mut pos = start;
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
        let before = pos;
        let mv = pos.parse_uci_move(text).unwrap();
        let next = pos.play(mv);
        assert_eq!(
            pos, before,
            "play must not change the position it is called on"
        );
        assert_eq!(next.key(), next.compute_key(), "after {text}");
        pos = next;
    }
    assert_eq!(
        pos.to_string(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    assert_eq!(start.key(), Position::startpos().key());
}

#[test]
fn en_passant_square_is_kept_only_when_a_capture_is_legal() {
    let pos = Position::startpos();
    let e4 = pos.play(pos.parse_uci_move("e2e4").unwrap());
    // No black pawn can take on e3, so the square is not recorded (as python-chess prints it).
    assert_eq!(e4.ep_square(), None);
    let pos = Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
    let next = pos.play(pos.parse_uci_move("e2e4").unwrap());
    assert_eq!(next.ep_square(), Some(sq("e3")));
    // The capture would expose the black king on the fourth rank: not legal, not recorded.
    let pinned = Position::from_fen("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1").unwrap();
    let next = pinned.play(pinned.parse_uci_move("e2e4").unwrap());
    assert_eq!(next.ep_square(), None);
}

/// `from` with the UCI moves played.
fn played(from: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(from).unwrap();
    for text in moves {
        pos = pos.play(pos.parse_uci_move(text).unwrap());
    }
    pos
}

#[test]
fn a_fen_drops_an_en_passant_square_no_capture_can_use() {
    let cases = [
        // After 1.e4, written with e3 as many programs write it: no black
        // pawn stands next to e4.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            movegen::STARTPOS_FEN,
            &["e2e4"][..],
        ),
        // The pawn on b5 could take on c6, but it is pinned to its king.
        (
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
            &["c7c5"],
        ),
        // d4xe3 would expose the black king on a4 to the rook on h4.
        (
            "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1",
            "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",
            &["e2e4"],
        ),
    ];
    for (written, start, moves) in cases {
        let read = Position::from_fen(written).unwrap();
        let reached = played(start, moves);
        assert_eq!(read.ep_square(), None, "{written}");
        assert_eq!(read, reached, "{written}");
        assert_eq!(read.key(), reached.key(), "{written}");
        assert_eq!(read.key(), read.compute_key(), "{written}");
        assert_eq!(read.fen(), reached.fen());
        let mut fields: Vec<&str> = written.split(' ').collect();
        fields[3] = "-";
        assert_eq!(read.fen(), fields.join(" "));
    }
    // A capture that is legal keeps the square, read or reached.
    let written = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let read = Position::from_fen(written).unwrap();
    let reached = played(movegen::STARTPOS_FEN, &["e2e4", "d7d5", "e4e5", "f7f5"]);
    assert_eq!(read.ep_square(), Some(sq("f6")));
    assert_eq!((read, read.fen()), (reached, written.to_string()));
}
