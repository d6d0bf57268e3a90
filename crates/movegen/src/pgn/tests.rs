use super::*;
use crate::piece::Color;
use crate::san::SanError;
use crate::FenError;
use alloc::string::ToString;
use alloc::vec;

fn one(text: &str) -> PgnGame {
    let mut games = read_games(text);
    let game = games.next().expect("one game").expect("a valid game");
    assert!(games.next().is_none(), "more than one game in {text:?}");
    game
}

fn sans(start: Position, line: &Line) -> Vec<String> {
    let mut pos = start;
    line.moves
        .iter()
        .map(|n| {
            let s = pos.san(n.mv).expect("a read move is legal").to_string();
            pos = pos.play(n.mv);
            s
        })
        .collect()
}

#[test]
fn reads_tags_moves_comments_nags_and_variations() {
    let game = one(concat!(
        "% an escape line\n",
        "[Event \"Casual \\\"blitz\\\"\"]\n[White \"A\\\\B\"]\n\n",
        "{ Game comment } 1. e4! e5 $14 {after e5} (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) ",
        "2... d6) (1... e6?!) 2. Nf3 ; to the end\n",
        "Nc6 1/2-1/2\n",
    ));
    assert_eq!(game.tag("Event"), Some("Casual \"blitz\""));
    assert_eq!(game.tag("White"), Some("A\\B"));
    assert_eq!(game.mainline.comments, ["Game comment"]);
    assert_eq!(sans(game.start, &game.mainline), ["e4", "e5", "Nf3", "Nc6"]);
    let [e4, e5, nf3, _] = &game.mainline.moves[..] else {
        panic!("four moves")
    };
    assert_eq!(e4.nags, [1]);
    assert_eq!(e5.nags, [14]);
    assert_eq!(e5.comments, ["after e5"]);
    assert!(nf3.comments.is_empty(), "a ; comment is not kept");
    assert_eq!(e5.variations.len(), 2);
    let after_e4 = game.start.play(e4.mv);
    assert_eq!(sans(after_e4, &e5.variations[0]), ["c5", "Nf3", "d6"]);
    assert_eq!(e5.variations[0].moves[0].comments, ["Sicilian"]);
    assert_eq!(e5.variations[0].moves[1].variations.len(), 1);
    assert_eq!(e5.variations[1].moves[0].nags, [6]);
    assert_eq!(game.termination, GameResult::Draw);
    assert_eq!(game.result(), GameResult::Draw);
}

#[test]
fn writes_the_export_format_and_reads_it_back() {
    let text = concat!(
        "[White \"Me\"]\n[Opening \"Ruy\"]\n[Result \"1-0\"]\n\n",
        "{start} 1. e4 e5 (1... c5 2. Nf3) 2. Nf3 $1 {good} Nc6 3. Bb5 a6 4. Ba4 Nf6 ",
        "5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 ",
        "12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 1-0\n",
    );
    let game = one(text);
    let written = write_game(&game);
    let expected_head = concat!(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n",
        "[White \"Me\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Opening \"Ruy\"]\n\n",
        "{ start } 1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 { good } 2... Nc6 3. Bb5 a6",
    );
    assert!(written.starts_with(expected_head), "{written}");
    assert!(written.ends_with(" 1-0\n\n"));
    for line in written.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let again = one(&written);
    assert_eq!(again.mainline, game.mainline);
    assert_eq!(write_game(&again), written);
}

#[test]
fn several_games_and_a_result_on_the_same_line() {
    let games: Vec<_> = read_games("1. e4 1-0 1. d4 0-1\n[Event \"x\"]\n1. c4 *\n1. Nf3")
        .map(|g| g.expect("valid"))
        .collect();
    assert_eq!(games.len(), 4);
    let results: Vec<_> = games.iter().map(|g| g.termination).collect();
    assert_eq!(
        results,
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Unknown,
            GameResult::Unknown
        ]
    );
    assert_eq!(games[2].tag("Event"), Some("x"));
    assert_eq!(games[3].mainline.moves.len(), 1);
    assert!(read_games("").next().is_none());
    assert!(read_games("\n\n% nothing\n{ a stray comment }\n")
        .next()
        .is_none());
}

#[test]
fn a_tag_line_ends_a_game_without_a_result() {
    let games: Vec<_> = read_games("[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4 *")
        .map(|g| g.expect("valid"))
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].termination, GameResult::Unknown);
    assert_eq!(games[1].tag("Event"), Some("b"));
}

#[test]
fn set_up_positions_and_chess960_castling() {
    let fen = "8/8/8/3k4/8/8/8/R3K3 b Q - 0 40";
    let game = one(&alloc::format!(
        "[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40... Kd4 41. O-O-O+ *"
    ));
    assert_eq!(game.start.fullmove_number(), 40);
    assert_eq!(sans(game.start, &game.mainline), ["Kd4", "O-O-O+"]);
    assert!(write_game(&game).contains("\n40... Kd4 41. O-O-O+ *"));
    // The same Chess960 start in X-FEN and in Shredder-FEN.
    for castling in ["KQkq", "GEge"] {
        let fen = alloc::format!("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w {castling} - 0 1");
        let text = alloc::format!(
            "[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. d4 d5 2. c4 c6 3. Nd3 Nd6 4. O-O O-O *"
        );
        let game = one(&text);
        let last = game.game().unwrap();
        assert_eq!(last.moves().len(), 8);
        assert!(last.moves()[6].is_castle() && last.moves()[7].is_castle());
        assert_eq!(game.start.castling_mode(), crate::CastlingMode::Chess960);
    }
    // The standard array as a Chess960 game castles king-takes-rook.
    let text = alloc::format!(
        "[Variant \"Chess960\"]\n[FEN \"{}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *",
        crate::STARTPOS_FEN
    );
    let game = one(&text);
    let pos = game.start;
    assert_eq!(pos.castling_mode(), crate::CastlingMode::Chess960);
    let castle = *game.game().unwrap().moves().last().unwrap();
    assert_eq!(castle.to_uci(pos.castling_mode()).to_string(), "e1h1");
    let standard = one("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *");
    assert_eq!(
        standard.start.castling_mode(),
        crate::CastlingMode::Standard
    );
}

fn error(text: &str) -> PgnError {
    read_games(text)
        .find_map(Result::err)
        .unwrap_or_else(|| panic!("no error in {text:?}"))
}

#[test]
fn each_bad_game_reports_its_number_move_and_token() {
    let cases: Vec<(&str, PgnError)> = vec![
        (
            "1. e4 e5 2. Ke3 *",
            PgnError {
                game: 1,
                ply: Some((2, Color::White)),
                token: "Ke3".into(),
                kind: PgnErrorKind::San(SanError::Illegal),
            },
        ),
        (
            "1. e4 *\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf9 *",
            PgnError {
                game: 2,
                ply: Some((3, Color::Black)),
                token: "Nf9".into(),
                kind: PgnErrorKind::San(SanError::Syntax),
            },
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *",
            PgnError {
                game: 1,
                ply: None,
                token: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
                kind: PgnErrorKind::Fen(FenError::KingCount(Color::White, 0)),
            },
        ),
        (
            "[Variant \"Crazyhouse\"]\n1. e4 *",
            PgnError {
                game: 1,
                ply: None,
                token: "Crazyhouse".into(),
                kind: PgnErrorKind::Variant("Crazyhouse".into()),
            },
        ),
        (
            "[Event \"x]\n1. e4 *",
            PgnError {
                game: 1,
                ply: None,
                token: "[Event \"x]".into(),
                kind: PgnErrorKind::Tag,
            },
        ),
        (
            "1. e4 e5 2. Nf3 ) *",
            PgnError {
                game: 1,
                ply: Some((2, Color::Black)),
                token: ")".into(),
                kind: PgnErrorKind::UnmatchedClose,
            },
        ),
        (
            "( 1. e4 ) *",
            PgnError {
                game: 1,
                ply: Some((1, Color::White)),
                token: "(".into(),
                kind: PgnErrorKind::VariationBeforeMove,
            },
        ),
        (
            "1. e4 (1. d4 *",
            PgnError {
                game: 1,
                ply: Some((1, Color::Black)),
                token: "*".into(),
                kind: PgnErrorKind::UnclosedVariation,
            },
        ),
        (
            "1. e4 $256 *",
            PgnError {
                game: 1,
                ply: Some((1, Color::Black)),
                token: "$256".into(),
                kind: PgnErrorKind::Nag,
            },
        ),
        (
            "1. e4 \u{1}\u{7f} *",
            PgnError {
                game: 1,
                ply: Some((1, Color::Black)),
                token: "\u{1}".into(),
                kind: PgnErrorKind::Character('\u{1}'),
            },
        ),
        (
            "1. e4 e5 2. e8=Q *",
            PgnError {
                game: 1,
                ply: Some((2, Color::White)),
                token: "e8=Q".into(),
                kind: PgnErrorKind::San(SanError::Illegal),
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(error(text), expected, "{text:?}");
    }
}

#[test]
fn the_reader_goes_on_after_a_bad_game() {
    let text = "1. e4 e5 2. Ke3 (2. Nf3) { } 1-0\n\n1. d4 d5 *\n[Event \"z\"]\n1. Nf9 *\n1. c4 *";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 4);
    assert!(games[0].is_err() && games[2].is_err());
    assert_eq!(games[1].as_ref().unwrap().mainline.moves.len(), 2);
    assert_eq!(games[2].as_ref().unwrap_err().game, 3);
    assert_eq!(games[3].as_ref().unwrap().mainline.moves.len(), 1);
    let msg = games[2].as_ref().unwrap_err().to_string();
    assert_eq!(msg, "game 3, move 1., at \"Nf9\": not a move in SAN");
}

#[test]
fn an_unclosed_comment_ends_with_the_input() {
    let game = one("1. e4 { never closed\n 1. d4 *\n");
    assert_eq!(game.mainline.moves.len(), 1);
    assert_eq!(game.mainline.moves[0].comments, ["never closed\n 1. d4 *"]);
}

#[cfg(feature = "std")]
#[test]
fn the_streaming_reader_agrees_with_the_str_reader_and_bounds_lines() {
    let text = "1. e4 e5 2. Ke3 *\n\n[Event \"x\"]\n\n1. d4 {a\nb} d5 *\n\n1. Nf9 *\n\n1. c4 *\n";
    let streamed: Vec<_> =
        PgnReader::new(std::io::BufReader::with_capacity(7, text.as_bytes())).collect();
    let read: Vec<_> = read_games(text).collect();
    assert_eq!(streamed, read);
    let mut long = String::from("1. e4 {");
    long.push_str(&"x".repeat(reader_max_line() + 10));
    long.push_str("}\n1. d4 *\n\n1. c4 *\n");
    let games: Vec<_> = PgnReader::new(long.as_bytes()).collect();
    assert_eq!(
        games.len(),
        2,
        "{:?}",
        games.iter().map(|g| g.is_ok()).collect::<Vec<_>>()
    );
    assert_eq!(
        games[0].as_ref().unwrap_err().kind,
        PgnErrorKind::LineTooLong
    );
    assert!(games[1].is_ok());
}

#[cfg(feature = "std")]
fn reader_max_line() -> usize {
    super::reader::MAX_LINE
}

/// The day `days` after 1970-01-01 counted off a year and then a month at a
/// time: slow, and obviously right.
fn date_by_counting(mut days: i64) -> (i64, u8, u8) {
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let length = |y: i64| if leap(y) { 366 } else { 365 };
    let mut year = 1970;
    while days < 0 {
        year -= 1;
        days += length(year);
    }
    while days >= length(year) {
        days -= length(year);
        year += 1;
    }
    let february = if leap(year) { 29 } else { 28 };
    let mut month = 1;
    for month_length in [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] {
        if days < month_length {
            break;
        }
        days -= month_length;
        month += 1;
    }
    (year, month, days as u8 + 1)
}

#[test]
fn dates_agree_with_counting_days_across_four_centuries() {
    // 1800 to 2200: leap centuries (2000) and common ones (1900, 2100).
    for days in -62_000..84_000 {
        let date = PgnDate::from_unix_days(days);
        assert_eq!(
            (date.year, date.month, date.day),
            date_by_counting(days),
            "{days}"
        );
    }
    // Checked with `date -u -d @$((n*86400)) +%F`.
    for (days, text) in [
        (0, "1970.01.01"),
        (11_016, "2000.02.29"),
        (11_017, "2000.03.01"),
        (19_417, "2023.03.01"),
        (20_453, "2025.12.31"),
    ] {
        assert_eq!(PgnDate::from_unix_days(days).to_string(), text);
    }
}

#[cfg(feature = "std")]
#[test]
fn a_time_is_dated_by_its_utc_day() {
    use std::time::{Duration, UNIX_EPOCH};
    let at = |secs: u64| UNIX_EPOCH + Duration::from_secs(secs);
    assert_eq!(PgnDate::of(at(86_399)), PgnDate::from_unix_days(0));
    assert_eq!(PgnDate::of(at(86_400)), PgnDate::from_unix_days(1));
    assert_eq!(
        PgnDate::of(UNIX_EPOCH - Duration::from_secs(86_400)),
        PgnDate::from_unix_days(-1)
    );
    assert_eq!(
        PgnDate::of(UNIX_EPOCH - Duration::from_secs(86_401)),
        PgnDate::from_unix_days(-2)
    );
}
