//! The castling mode a position keeps: where it comes from (FEN, Chess960
//! numbers, `with_castling_mode`), that moves keep it, and how it writes and
//! reads castling in FEN, UCI text, `explain_move` and `Game::play_uci`.

use movegen::{
    explain_move, CastleSide, CastlingMode, Game, Illegal, MoveError, Piece, Position, Square,
    STARTPOS_FEN,
};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

const STANDARD: CastlingMode = CastlingMode::Standard;
const CHESS960: CastlingMode = CastlingMode::Chess960;

/// Both sides have developed their king-side pieces: O-O is legal for White.
const ITALIAN: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];

fn played(start: Position, moves: &[&str]) -> Position {
    moves.iter().fold(start, |pos, text| {
        let mv = pos
            .parse_uci_move(text)
            .unwrap_or_else(|e| panic!("{pos}: {text}: {e}"));
        pos.play(mv)
    })
}

#[test]
fn a_fen_says_chess960_only_when_standard_cannot_write_it() {
    let cases = [
        (STARTPOS_FEN, STANDARD),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", STANDARD),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", STANDARD),
        // Shredder-FEN letters are Chess960's notation, even on a1/h1.
        ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CHESS960),
        // X-FEN: KQkq with the king on g1 and the rooks on f1 and h1.
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
            CHESS960,
        ),
        // A rook on b1 castling long, the king on e1.
        ("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", CHESS960),
        // Only Black's right is non-standard.
        ("1r2k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", CHESS960),
        // A Chess960 game after both sides lost their rights looks standard.
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1",
            STANDARD,
        ),
    ];
    for (fen, mode) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.castling_mode(), mode, "{fen}");
        let back = Position::from_fen(&pos.fen()).unwrap();
        assert_eq!(back.castling_mode(), mode, "{fen} via {}", pos.fen());
        assert_eq!(back, pos, "{fen}");
    }
}

#[test]
fn chess960_fens_round_trip_with_their_mode() {
    for shredder in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAfb - 0 1",
    ] {
        let pos = Position::from_fen(shredder).unwrap();
        assert_eq!(pos.castling_mode(), CHESS960, "{shredder}");
        assert_eq!(pos.fen(), shredder);
        assert_eq!(pos.to_string(), shredder);
    }
    let standard = Position::from_fen(STARTPOS_FEN).unwrap();
    assert_eq!(standard.fen(), STARTPOS_FEN);
    assert_eq!(
        standard.fen_with(CHESS960),
        STARTPOS_FEN.replace("KQkq", "HAha")
    );
}

#[test]
fn chess960_518_is_the_start_array_written_the_chess960_way() {
    let start = Position::chess960(518).unwrap();
    assert_eq!(start, Position::startpos());
    assert_eq!(start.key(), Position::startpos().key());
    assert_eq!(start.castling_mode(), CHESS960);
    assert_eq!(Position::startpos().castling_mode(), STANDARD);
    assert_eq!(
        start.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );

    let pos = played(start, &ITALIAN);
    assert_eq!(pos.castling_mode(), CHESS960, "moves keep the mode");
    let castle = pos.parse_uci_move("e1h1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(castle.to_uci(pos.castling_mode()).to_string(), "e1h1");
    assert_eq!(pos.parse_uci_move("e1g1"), Err(MoveError::Illegal));
    assert_eq!(pos.san(castle).unwrap().to_string(), "O-O");
    let after = pos.play(castle);
    assert_eq!(after.castling_mode(), CHESS960);
    assert_eq!(
        after.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b ha - 5 4"
    );

    // The same moves from the standard start write and read e1g1.
    let standard = played(Position::startpos(), &ITALIAN);
    assert_eq!(standard, pos);
    let castle = standard.parse_uci_move("e1g1").unwrap();
    assert_eq!(castle.to_uci(standard.castling_mode()).to_string(), "e1g1");
    assert_eq!(standard.parse_uci_move("e1h1"), Ok(castle));
    assert_eq!(
        standard.play(castle).fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
}

#[test]
fn with_castling_mode_refuses_standard_only_off_the_standard_squares() {
    let standard = Position::startpos();
    let chess960 = standard.with_castling_mode(CHESS960).unwrap();
    assert_eq!(chess960.castling_mode(), CHESS960);
    assert_eq!(
        chess960
            .with_castling_mode(STANDARD)
            .map(|p| p.castling_mode()),
        Some(STANDARD)
    );
    for n in [0, 100, 959] {
        let pos = Position::chess960(n).unwrap();
        assert_eq!(pos.with_castling_mode(STANDARD), None, "{n}");
    }
    // Once its rights are gone any position can be written either way.
    let bare = Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1")
        .unwrap()
        .with_castling_mode(CHESS960)
        .unwrap();
    assert!(bare.with_castling_mode(STANDARD).is_some());
}

#[test]
fn equality_and_hash_leave_the_mode_out() {
    let standard = Position::startpos();
    let chess960 = standard.with_castling_mode(CHESS960).unwrap();
    assert_eq!(standard, chess960);
    let hash = |p: &Position| {
        let mut h = DefaultHasher::new();
        p.hash(&mut h);
        h.finish()
    };
    assert_eq!(hash(&standard), hash(&chess960));
    assert_eq!(standard.polyglot_key(), chess960.polyglot_key());
    // The mode fits in what was padding: copy-make copies no more bytes.
    #[cfg(target_pointer_width = "64")]
    assert_eq!(std::mem::size_of::<Position>(), 120);
}

#[test]
fn parse_uci_move_reads_castling_in_the_positions_mode() {
    // King b1, rooks a1 and h1: b1c1 is a king step, not long castling.
    let chess960 =
        Position::from_fen("1r2kr2/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAfb - 0 1").unwrap();
    let short = chess960.parse_uci_move("b1h1").unwrap();
    assert!(short.is_castle());
    assert_eq!(chess960.parse_uci_move("b1g1"), Err(MoveError::Illegal));
    let step = chess960.parse_uci_move("b1c1").unwrap();
    assert!(!step.is_castle());
    assert_eq!(step.to(), Square::C1);

    let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let as_chess960 = standard.with_castling_mode(CHESS960).unwrap();
    for (pos, long_text) in [(standard, "e1c1"), (as_chess960, "e1a1")] {
        let long = pos.parse_uci_move(long_text).unwrap();
        assert!(long.is_castle(), "{long_text}");
        assert_eq!(
            pos.castle_rook(movegen::Color::White, CastleSide::Long),
            Some(long.to())
        );
        assert_eq!(long.to_uci(pos.castling_mode()).to_string(), long_text);
        let uci = long_text.parse::<movegen::UciMove>().unwrap();
        assert_eq!(uci.to_move(&pos), Ok(long));
    }
    assert_eq!(
        standard.parse_uci_move("e1a1"),
        as_chess960.parse_uci_move("e1a1")
    );
    assert_eq!(as_chess960.parse_uci_move("e1c1"), Err(MoveError::Illegal));
}

#[test]
fn explain_move_reads_castling_in_the_positions_mode() {
    // The bishop on f1 blocks short castling.
    let standard = Position::from_fen("4k3/8/8/8/8/8/8/4KB1R w K - 0 1").unwrap();
    let chess960 = standard.with_castling_mode(CHESS960).unwrap();
    let f1 = Square::F1;
    assert_eq!(
        explain_move(&standard, "e1g1"),
        Err(Illegal::CastleBlocked(f1))
    );
    assert_eq!(
        explain_move(&standard, "e1h1"),
        Err(Illegal::CastleBlocked(f1))
    );
    assert_eq!(
        explain_move(&chess960, "e1h1"),
        Err(Illegal::CastleBlocked(f1))
    );
    // In Chess960 e1g1 is a two-square king step, which no king makes.
    assert_eq!(
        explain_move(&chess960, "e1g1"),
        Err(Illegal::NotAMove(Piece::King, Square::E1, Square::G1))
    );
    // With the path clear both read their own text.
    let open = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert!(explain_move(&open, "e1g1").unwrap().is_castle());
    let open960 = open.with_castling_mode(CHESS960).unwrap();
    assert!(explain_move(&open960, "e1h1").unwrap().is_castle());
}

#[test]
fn game_play_uci_follows_the_start_positions_mode() {
    let mut chess960 = Game::new(Position::chess960(518).unwrap());
    let mut standard = Game::default();
    for text in ITALIAN {
        chess960.play_uci(text).unwrap();
        standard.play_uci(text).unwrap();
    }
    assert_eq!(chess960.play_uci("e1g1"), Err(MoveError::Illegal));
    let castle = chess960.play_uci("e1h1").unwrap();
    assert_eq!(standard.play_uci("e1g1"), Ok(castle));
    assert_eq!(chess960.position(), standard.position());
    assert_eq!(chess960.position().castling_mode(), CHESS960);
    assert_eq!(standard.position().castling_mode(), STANDARD);
    for text in ["f8c5", "d2d3"] {
        chess960.play_uci(text).unwrap();
        standard.play_uci(text).unwrap();
    }
    let black = standard.play_uci("e8g8").unwrap();
    assert_eq!(chess960.play_uci("e8h8"), Ok(black));
    assert!(black.is_castle());
}

#[test]
fn a_position_equals_its_fen_read_back_after_rights_are_lost() {
    // White's king walks, so both white rights go; the position's leftovers
    // for them must not count.
    let start = Position::chess960(0).unwrap();
    let pos = played(start, &["g2g3", "g7g6", "g1g2", "h7h6"]);
    assert_eq!(
        pos.castle_rook(movegen::Color::White, CastleSide::Short),
        None
    );
    let back = Position::from_fen(&pos.fen()).unwrap();
    assert_eq!(back, pos);
    assert_eq!(
        back.castling_mode(),
        CHESS960,
        "Black's rights still say Chess960"
    );
    assert_eq!(
        pos.fen(),
        "bbqnnrkr/pppppp2/6pp/8/8/6P1/PPPPPPKP/BBQNNR1R w hf - 0 3"
    );
}

#[test]
fn the_builder_keeps_the_mode_of_the_position_it_started_from() {
    use movegen::PositionBuilder;
    let start = Position::chess960(518).unwrap();
    let odds = PositionBuilder::from_position(&start)
        .remove(Square::B1)
        .build()
        .unwrap();
    assert_eq!(odds.castling_mode(), CHESS960);
    assert_eq!(
        odds.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w HAha - 0 1"
    );
    let standard = PositionBuilder::from_position(&Position::startpos())
        .remove(Square::B1)
        .build()
        .unwrap();
    assert_eq!(standard.castling_mode(), STANDARD);
    assert_eq!(standard, odds);
    // Asking for Standard where only Chess960 can write the rights.
    let chess960 = PositionBuilder::from_position(&Position::chess960(0).unwrap())
        .castling_mode(STANDARD)
        .build()
        .unwrap();
    assert_eq!(chess960.castling_mode(), CHESS960);
}
