//! A game as PGN: the seven standard tags, the set-up and time-control tags,
//! the library's SAN movetext in lines of at most 80 characters, and the
//! result.

use std::fmt::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a PGN needs to know about a game.
pub struct PgnGame<'a> {
    /// The White and Black players' names.
    pub players: [String; 2],
    /// When the game started.
    pub date: SystemTime,
    /// The start position's FEN, when it is not the standard start.
    pub setup_fen: Option<String>,
    /// Whether the game is Chess960.
    pub chess960: bool,
    /// Base and increment, or `None` without a clock.
    pub time_control: Option<(Duration, Duration)>,
    /// The moves in SAN with move numbers (`movegen::Game::movetext`).
    pub movetext: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game still going.
    pub result: &'a str,
    /// The `Termination` tag's value, for a finished game.
    pub termination: Option<&'a str>,
}

/// The year, month and day of `time` (UTC).
fn civil_date(time: SystemTime) -> (i64, u32, u32) {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map(|d| (d.as_secs() / 86_400) as i64)
        .unwrap_or(0);
    // Days since 0000-03-01 in the proleptic Gregorian calendar, counted in
    // 400-year eras of 146 097 days; March first puts leap days last.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // 0 = March
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A tag value with `\` and `"` escaped.
fn quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

/// The game as PGN text, ending with a newline.
pub fn write(game: &PgnGame) -> String {
    let (y, m, d) = civil_date(game.date);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "Pinmask board game".to_string()),
        ("Site", "Pinmask engine gui".to_string()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Round", "-".to_string()),
        ("White", game.players[0].clone()),
        ("Black", game.players[1].clone()),
        ("Result", game.result.to_string()),
    ];
    if game.chess960 {
        tags.push(("Variant", "Chess960".to_string()));
    }
    if let Some(fen) = &game.setup_fen {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen.clone()));
    }
    let tc = match game.time_control {
        Some((base, inc)) => format!("{}+{}", seconds(base), seconds(inc)),
        None => "-".to_string(),
    };
    tags.push(("TimeControl", tc));
    if let Some(t) = game.termination {
        tags.push(("Termination", t.to_string()));
    }
    let mut out = String::new();
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} {}]", quoted(&value));
    }
    out.push('\n');
    out += &movetext(game);
    out.push('\n');
    out
}

/// The movetext and the result, wrapped at 80 characters.
fn movetext(game: &PgnGame) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for token in game.movetext.split_whitespace().chain([game.result]) {
        if line_len > 0 && line_len + 1 + token.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out += token;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_the_epoch() {
        let day = |n: u64| UNIX_EPOCH + Duration::from_secs(n * 86_400 + 3_600);
        assert_eq!(civil_date(day(0)), (1970, 1, 1));
        assert_eq!(civil_date(day(11_016)), (2000, 2, 29));
        assert_eq!(civil_date(day(11_017)), (2000, 3, 1));
        assert_eq!(civil_date(day(20_416)), (2025, 11, 24));
    }

    #[test]
    fn standard_start_with_clock() {
        let text = write(&PgnGame {
            players: ["Player".into(), "Pinmask \"x\"".into()],
            date: UNIX_EPOCH,
            setup_fen: None,
            chess960: false,
            time_control: Some((Duration::from_secs(300), Duration::from_millis(2500))),
            movetext: "1. f3 e5 2. g4 Qh4#",
            result: "0-1",
            termination: Some("normal"),
        });
        assert_eq!(
            text,
            "[Event \"Pinmask board game\"]\n[Site \"Pinmask engine gui\"]\n\
             [Date \"1970.01.01\"]\n[Round \"-\"]\n[White \"Player\"]\n\
             [Black \"Pinmask \\\"x\\\"\"]\n[Result \"0-1\"]\n[TimeControl \"300+2.5\"]\n\
             [Termination \"normal\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
        );
    }

    #[test]
    fn black_first_from_a_fen_and_long_games_wrap() {
        let mut moves = "1... Nf6".to_string();
        for n in 2..=31 {
            let pair = if n % 2 == 0 { "Nf3 Ng8" } else { "Ng1 Nf6" };
            moves += &format!(" {n}. {pair}");
        }
        let text = write(&PgnGame {
            players: ["A".into(), "B".into()],
            date: UNIX_EPOCH,
            setup_fen: Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()),
            chess960: true,
            time_control: None,
            movetext: &moves,
            result: "*",
            termination: None,
        });
        assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/"));
        assert!(text.contains("[TimeControl \"-\"]\n\n1... Nf6 2. Nf3 Ng8 3. Ng1 Nf6"));
        let body = text.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 2);
        assert!(body.lines().all(|l| l.len() <= 80), "{body}");
        let tokens: Vec<&str> = body.split_whitespace().collect();
        assert_eq!(tokens[tokens.len() - 3..], ["Ng1", "Nf6", "*"]);
        assert_eq!(tokens.len(), moves.split(' ').count() + 1);
    }
}
