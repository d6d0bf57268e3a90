//! The README's "Coming from cozy-chess or shakmaty" table: every call in
//! its pinmask-movegen column is written out here, compiled and run, and a
//! test checks that each code span of that column appears in this file, so
//! a row that names something that does not exist fails `cargo test`.

use movegen::perft::perft;
use movegen::{
    CastlingMode, Color, FenError, Game, MoveError, MoveList, MoveSink, Outcome, Piece, Position,
    PositionBuilder, SanError, Square, UciMove,
};

const README: &str = include_str!("../README.md");
const THIS_FILE: &str = include_str!("readme_table.rs");

/// The code spans of the table's last column.
fn pinmask_column() -> Vec<String> {
    let table = README
        .split("## Coming from cozy-chess or shakmaty")
        .nth(1)
        .expect("the README has the section")
        .split("\n## ")
        .next()
        .unwrap();
    let mut spans = Vec::new();
    for row in table.lines().filter(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<String> = row
            .replace("\\|", "\u{1}")
            .split('|')
            .map(str::to_string)
            .collect();
        let last = &cells[cells.len() - 2];
        spans.extend(
            last.split('`')
                .skip(1)
                .step_by(2)
                .map(|s| s.replace('\u{1}', "|")),
        );
    }
    spans
}

#[test]
fn every_call_of_the_table_is_in_this_file() {
    let spans = pinmask_column();
    assert!(spans.len() > 35, "{spans:?}");
    let missing: Vec<&String> = spans
        .iter()
        .filter(|s| !THIS_FILE.contains(s.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README table calls not compiled here: {missing:?}"
    );
}

#[test]
fn start_parse_print() -> Result<(), FenError> {
    assert_eq!(Position::startpos(), Position::default());
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let pos = fen.parse::<Position>()?;
    assert_eq!(pos.to_string(), fen);
    assert_eq!(pos.fen(), fen);
    let mode = CastlingMode::Chess960;
    assert_eq!(pos.fen_with(mode), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    Ok(())
}

#[test]
fn moves_and_counts() {
    let pos = Position::startpos();
    assert_eq!(pos.legal_moves().len(), 20);
    let mut sink = MoveList::new();
    pos.generate(&mut sink);
    assert_eq!(sink.len(), 20);
    fn counts<S: MoveSink>(_: &S) {}
    counts(&sink);
    assert_eq!(pos.count_moves(), 20);
    let sq = Square::G1;
    assert_eq!(pos.moves_from(sq).count(), 2);
}

#[test]
fn play_and_legality() -> Result<(), MoveError> {
    let pos = Position::startpos();
    let mv = pos.legal_moves()[0];
    let child = pos.play(mv);
    let checked: Result<Position, MoveError> = pos.try_play(mv);
    assert_eq!(checked?, child);
    assert_eq!(pos.play_unchecked(mv), child);
    assert!(pos.is_legal(mv));
    assert_eq!(pos.try_play(movegen::Move::NULL), Err(MoveError::Illegal));
    Ok(())
}

#[test]
fn uci_and_san_text() -> Result<(), Box<dyn std::error::Error>> {
    let pos = Position::startpos();
    let s = "g1f3";
    let mv = pos.parse_uci_move(s)?;
    assert_eq!(s.parse::<UciMove>()?.to_move(&pos)?, mv);
    assert_eq!(mv.to_uci(pos.castling_mode()).to_string(), s);
    // `Display` gives standard UCI.
    assert_eq!(mv.to_string(), s);
    let s = "Nf3";
    let san_move: Result<movegen::Move, SanError> = pos.parse_san(s);
    assert_eq!(san_move?, mv);
    assert_eq!(pos.san(mv)?.to_string(), s);
    Ok(())
}

#[test]
fn move_details_and_game_state() {
    let pos: Position = "4k3/8/8/8/8/8/3p4/4K2R w K - 0 1".parse().unwrap();
    let mv = pos.parse_uci_move("e1d2").unwrap();
    assert_eq!(pos.captured(mv), Some(Piece::Pawn));
    assert!(pos.is_capture(mv));
    assert_eq!(pos.moving_piece(mv), Some(Piece::King));
    let mate: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1".parse().unwrap();
    let pos = mate;
    assert!(pos.is_check() && pos.is_checkmate() && !pos.is_stalemate());
    let mut game = Game::default();
    for san in ["f3", "e5", "g4", "Qh4#"] {
        game.play_san(san).unwrap();
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(game.automatic_outcome(), game.outcome());
    assert_eq!(game.claimable_draw(), None);
}

#[test]
fn keys_null_move_chess960_and_perft() {
    let pos = Position::startpos();
    assert_ne!(pos.key(), 0);
    assert_eq!(pos.polyglot_key(), 0x463b96181691fc9c);
    assert!(pos.play_null().is_some());
    let check: Position = "4k3/8/8/8/8/8/8/4K2q w - - 0 1".parse().unwrap();
    assert_eq!(check.play_null(), None);
    let n = 518;
    let chess960 = Position::chess960(n).unwrap();
    assert_eq!(chess960.castling_mode(), CastlingMode::Chess960);
    let pos = chess960;
    let mode = CastlingMode::Standard;
    assert_eq!(pos.with_castling_mode(mode), Some(Position::startpos()));
    let d = 3;
    assert_eq!(movegen::perft::perft(&pos, d), 8_902);
    assert_eq!(perft(&pos, d), 8_902);
}

#[test]
fn squares_and_builder() -> Result<(), FenError> {
    assert_eq!(Square::A1.to_string(), "a1");
    let (sq, color, piece) = (Square::D4, Color::White, Piece::Queen);
    let pos = PositionBuilder::new()
        .piece(Square::E1, Color::White, Piece::King)
        .piece(Square::E8, Color::Black, Piece::King);
    let pos = pos.piece(sq, color, piece).build()?;
    assert_eq!(pos.piece_on(sq), Some(piece));
    // The builder chained in one expression, as the table writes it: a
    // lone queen is no position.
    let lone = || -> Result<Position, FenError> {
        let pos = PositionBuilder::new().piece(sq, color, piece).build()?;
        Ok(pos)
    };
    assert_eq!(lone(), Err(FenError::KingCount(Color::White, 0)));
    Ok(())
}
