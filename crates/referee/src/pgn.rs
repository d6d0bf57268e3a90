//! A tournament game as PGN, written by movegen's writer: the Seven Tag Roster, `TimeControl`,
//! `Termination` and `PlyCount`, `SetUp` and `FEN` for a game from an opening, each move's
//! time as a comment (`{ 0.132s }`, as cutechess-cli writes it), and the way the game ended as
//! a comment after the last move.

use movegen::pgn::{GameResult, Node, PgnDate, PgnGame};

use crate::clock::{decimal_seconds, TimeControl};
use crate::game::Played;

/// What PGN needs to know about a game beyond its moves.
#[derive(Debug, Clone, Copy)]
pub struct Header<'a> {
    /// The White engine's name.
    pub white: &'a str,
    /// The Black engine's name.
    pub black: &'a str,
    /// The game's number in the tournament, from 1.
    pub round: usize,
    /// The time control.
    pub tc: &'a TimeControl,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
}

/// The game in the PGN export format.
pub fn write(played: &Played, header: &Header) -> String {
    let mut pgn = PgnGame::new(*played.game.start());
    let result = played.ending.result();
    for (name, value) in [
        ("Event", "course tournament"),
        ("Site", "?"),
        ("Date", header.date),
        ("Round", &header.round.to_string()),
        ("White", header.white),
        ("Black", header.black),
        ("Result", result),
        ("TimeControl", &header.tc.to_string()),
        ("Termination", played.ending.termination()),
        ("PlyCount", &played.game.moves().len().to_string()),
    ] {
        pgn.set_tag(name, value);
    }
    pgn.mainline.moves = played
        .game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let mut node = Node::new(mv);
            if let Some(&used) = played.times.get(i) {
                node.comments.push(format!("{}s", decimal_seconds(used)));
            }
            node
        })
        .collect();
    let why = played.ending.to_string();
    match pgn.mainline.moves.last_mut() {
        Some(last) => last.comments.push(why),
        None => pgn.mainline.comments.push(why),
    }
    pgn.termination = GameResult::from_token(result).unwrap_or(GameResult::Unknown);
    pgn.to_string()
}

/// Today's date (UTC) as PGN writes it.
pub fn today() -> String {
    PgnDate::today().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Ending, Fault};
    use movegen::pgn::read_games;
    use movegen::{Color, Game, Position};

    #[test]
    fn a_forfeit_from_an_opening_reads_back_with_its_tags() {
        let fen = "rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 1";
        let mut game = Game::new(Position::from_fen(fen).expect("valid"));
        game.play_uci("e4e5").expect("legal");
        let played = Played {
            game,
            ending: Ending::Forfeit {
                loser: Color::Black,
                fault: Fault::Time(std::time::Duration::from_millis(1100)),
            },
            times: vec![std::time::Duration::from_millis(1234)],
            started: true,
        };
        let tc = "40/10+0.1".parse().expect("valid");
        let header = Header {
            white: "alice",
            black: "bob \"the bot\"",
            round: 3,
            tc: &tc,
            date: "2026.01.02",
        };
        let text = write(&played, &header);
        let read = read_games(&text)
            .next()
            .expect("a game")
            .expect("valid PGN");
        for (tag, value) in [
            ("White", "alice"),
            ("Black", "bob \"the bot\""),
            ("Result", "1-0"),
            ("Round", "3"),
            ("Date", "2026.01.02"),
            ("SetUp", "1"),
            ("FEN", fen),
            ("TimeControl", "40/10+0.1"),
            ("Termination", "time forfeit"),
            ("PlyCount", "1"),
        ] {
            assert_eq!(read.tag(tag), Some(value), "{tag} in\n{text}");
        }
        assert!(
            text.contains(
                "1. e5 { 1.234s } { Black loses on time (no bestmove within 1.1 s) } 1-0"
            ),
            "{text}"
        );
    }
}
