//! SAN cases whose expected text was produced by python-chess 1.11
//! (`Board.san`), and the parser's accepted variants and errors.

use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn writes_what_python_chess_writes() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (crate::STARTPOS_FEN, &[("e2e4", "e4"), ("g1f3", "Nf3")]),
        // Disambiguation by rank, by file, and by both.
        (
            "4k3/8/8/8/8/2N5/8/2N1K3 w - - 0 1",
            &[("c1e2", "N1e2"), ("c3e2", "N3e2"), ("c3b5", "Nb5")],
        ),
        (
            "4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1",
            &[("b2d3", "Nb2d3"), ("f4d3", "Nf4d3")],
        ),
        (
            "2k5/8/8/8/Q6Q/8/8/K6Q w - - 0 1",
            &[
                ("h4e4", "Qh4e4"),
                ("h1e4", "Q1e4"),
                ("a4e4", "Qae4"),
                ("h4h2", "Q4h2"),
            ],
        ),
        // A pinned rival does not count.
        ("4k3/4r3/8/7N/8/8/4N3/4K3 w - - 0 1", &[("h5g3", "Ng3")]),
        ("4k3/8/8/7N/8/8/4N3/4K3 w - - 0 1", &[("h5g3", "Nhg3")]),
        // Castling, captures with check, promotions, en passant, mate.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            &[("e8g8", "O-O"), ("e8c8", "O-O-O"), ("a8a1", "Rxa1+")],
        ),
        (
            "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1",
            &[("e7d8q", "exd8=Q+"), ("e7e8r", "e8=R+"), ("e7e8n", "e8=N")],
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            &[("e5f6", "exf6")],
        ),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", &[("a1a8", "Ra8#")]),
    ];
    for (fen, moves) in cases {
        let p = pos(fen);
        for (uci, san) in *moves {
            let mv = p.parse_uci_move(uci).unwrap();
            assert_eq!(p.san(mv).unwrap().to_string(), *san, "{fen} {uci}");
            assert_eq!(p.parse_san(san), Ok(mv), "{fen} {san}");
        }
    }
}

#[test]
fn chess960_castling_is_o_o() {
    // King on f1 and rook on g1: short castling swaps them.
    let p = pos("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9");
    let short = p.parse_uci_move("f1g1").unwrap();
    assert!(short.is_castle());
    assert_eq!(p.san(short).unwrap().to_string(), "O-O");
    assert_eq!(p.parse_san("O-O"), Ok(short));
    assert_eq!(p.parse_san("O-O-O"), Err(SanError::Illegal));
}

#[test]
fn reads_what_people_write() {
    let promo = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let e8q = promo.parse_uci_move("e7e8q").unwrap();
    for text in [
        "e8=Q", "e8Q", "e8=q", "e8(Q)", "e8=Q+", "e8=Q#", "e8=Q!?", " e8=Q ",
    ] {
        assert_eq!(promo.parse_san(text), Ok(e8q), "{text}");
    }
    let takes = promo.parse_uci_move("e7d8n").unwrap();
    for text in ["exd8=N", "exd8N", "ed8=N", "e7d8=N", "exd8=N+"] {
        assert_eq!(promo.parse_san(text), Ok(takes), "{text}");
    }
    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = castles.parse_uci_move("e1g1").unwrap();
    let long = castles.parse_uci_move("e1c1").unwrap();
    for text in ["O-O", "0-0", "o-o", "O-O+"] {
        assert_eq!(castles.parse_san(text), Ok(short), "{text}");
    }
    for text in ["O-O-O", "0-0-0", "O-O-O#"] {
        assert_eq!(castles.parse_san(text), Ok(long), "{text}");
    }
    let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let exf6 = ep.parse_uci_move("e5f6").unwrap();
    for text in ["exf6", "exf6 e.p.", "exf6e.p.", "ef6", "e5xf6", "exf6+"] {
        assert_eq!(ep.parse_san(text), Ok(exf6), "{text}");
    }
    let start = Position::startpos();
    let nf3 = start.parse_uci_move("g1f3").unwrap();
    for text in ["Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3?", "Nf3!!"] {
        assert_eq!(start.parse_san(text), Ok(nf3), "{text}");
    }
    // A capture without its `x`.
    let take = pos("4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1");
    let nxf3 = take.parse_uci_move("g1f3").unwrap();
    assert_eq!(take.parse_san("Nf3"), Ok(nxf3));
    assert_eq!(take.san(nxf3).unwrap().to_string(), "Nxf3");
}

#[test]
fn refuses_what_cannot_be_settled() {
    let start = Position::startpos();
    let knights = pos("4k3/8/8/8/8/2N5/8/2N1K3 w - - 0 1");
    let promo = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let pawns = pos("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    let cases: &[(&Position, &str, SanError)] = &[
        (&start, "", SanError::Syntax),
        (&start, "e9", SanError::Syntax),
        (&start, "Xe4", SanError::Syntax),
        (&start, "Nf3=Q", SanError::Syntax),
        (&start, "e4e5e6", SanError::Syntax),
        (&start, "O-O-O-O", SanError::Syntax),
        (&start, "é4", SanError::Syntax),
        (&start, "e5", SanError::Illegal),
        (&start, "Nf4", SanError::Illegal),
        (&start, "O-O", SanError::Illegal),
        (&start, "Nxf3", SanError::NotACapture),
        (&start, "exd3", SanError::Illegal),
        (&knights, "Ne2", SanError::Ambiguous),
        (&knights, "Nce2", SanError::Ambiguous),
        (&promo, "e8", SanError::MissingPromotion),
        (&promo, "e8=K", SanError::Syntax),
        (&promo, "e8=P", SanError::Syntax),
    ];
    for (p, text, err) in cases {
        assert_eq!(p.parse_san(text), Err(*err), "{text}");
    }
    // A pawn move without a file is a push, never a capture.
    let push = pawns.parse_uci_move("e4e5").unwrap();
    assert_eq!(pawns.parse_san("e5"), Ok(push));
    assert_eq!(pawns.parse_san("d5"), Err(SanError::Illegal));
    assert_eq!(
        pawns.parse_san("cxd5").map(|m| m.from().to_string()),
        Ok("c4".into())
    );
}

#[test]
fn every_error_has_a_message() {
    use std::error::Error;
    for e in [
        SanError::Syntax,
        SanError::Illegal,
        SanError::Ambiguous,
        SanError::NotACapture,
        SanError::MissingPromotion,
    ] {
        let boxed: Box<dyn Error> = Box::new(e);
        assert!(!boxed.to_string().is_empty());
    }
}
