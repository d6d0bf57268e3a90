//! Squares in move text are lower case, as the UCI protocol and SAN write
//! them and as python-chess and shakmaty read them: `E2E4` and `NF3` are
//! malformed text, refused as such whether or not the move they look like
//! is legal, by every function that reads a move.

use movegen::{explain_move, Game, Illegal, MoveError, Position, SanError, UciMove};

#[test]
fn upper_case_squares_are_malformed_uci() {
    let pos = Position::startpos();
    // Legal, illegal and impossible moves alike.
    for text in ["E2E4", "e2E4", "E2e4", "G1F3", "E2E5", "E7E5", "A1H8"] {
        assert_eq!(
            pos.parse_uci_move(text),
            Err(MoveError::Malformed),
            "{text}"
        );
        assert_eq!(text.parse::<UciMove>(), Err(MoveError::Malformed), "{text}");
        assert_eq!(explain_move(&pos, text), Err(Illegal::Malformed), "{text}");
        let mut game = Game::default();
        assert_eq!(game.play_uci(text), Err(MoveError::Malformed), "{text}");
        assert_eq!(game.position(), &pos);
    }
    let promo: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(promo.parse_uci_move("a7a8Q"), Err(MoveError::Malformed));
    assert_eq!(promo.parse_uci_move("A7A8q"), Err(MoveError::Malformed));
    assert!(promo.parse_uci_move("a7a8q").is_ok());
}

#[test]
fn upper_case_squares_are_not_san() {
    let pos = Position::startpos();
    for text in ["NF3", "E4", "Ng1F3", "NG1f3", "E5", "Nf9", "NF6"] {
        assert_eq!(pos.parse_san(text), Err(SanError::Syntax), "{text}");
        let mut game = Game::default();
        assert_eq!(game.play_san(text), Err(SanError::Syntax), "{text}");
    }
    assert!(pos.parse_san("Nf3").is_ok());
    // The tolerant forms stay: a lower-case promotion letter, castling with
    // zeros or a lower-case o.
    let promo: Position = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    assert_eq!(promo.parse_san("b8=q"), promo.parse_san("b8=Q"));
    assert_eq!(promo.parse_san("bxa8q"), promo.parse_san("bxa8=Q"));
    assert_eq!(promo.parse_san("0-0"), promo.parse_san("O-O"));
    assert_eq!(promo.parse_san("o-o-o"), promo.parse_san("O-O-O"));
    assert!(promo.parse_san("b8=Q").is_ok());
    // A capital B is the bishop, never the b-file.
    let bishop: Position = "4k3/8/8/2p5/8/P3B3/8/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(bishop.parse_san("Bxc5").unwrap().to_string(), "e3c5");
    assert_eq!(bishop.parse_san("BXC5"), Err(SanError::Syntax));
}
