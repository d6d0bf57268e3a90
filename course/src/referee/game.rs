//! One game between two engines, refereed by movegen: the moves are checked against the legal
//! moves, the clocks are kept here, and the game ends by the rules, by adjudication or by a
//! forfeit (the referee crate's [`Ending`]).

use std::time::{Duration, Instant};

use movegen::{Color, Game, Position};

use super::engine::{Engine, NoAnswer};
use super::{decimal_seconds, Clock, Ending, Fault, Played, Rules};

/// Plays one game from `start`.
pub fn play(white: &mut Engine, black: &mut Engine, start: Position, rules: &Rules) -> Played {
    let engines = [white, black];
    for color in Color::ALL {
        if let Err(e) = engines[color.index()].new_game(rules.ready_timeout) {
            let how = match e {
                NoAnswer::Timeout => format!(
                    "did not answer `isready` within {} s",
                    decimal_seconds(rules.ready_timeout)
                ),
                NoAnswer::Died(how) => format!("stopped ({how})"),
            };
            return Played::unstarted(start, color, Fault::Crash(how));
        }
    }
    let mut game = Game::new(start);
    // The clock never runs here: each move is charged the time `think` measured.
    let mut clock = Clock::new(rules.tc);
    let mut times = Vec::new();
    let ending = loop {
        if let Some(outcome) = game.outcome() {
            break Ending::Rules(outcome);
        }
        if let Some(limit) = rules.max_moves {
            if game.moves().len() >= 2 * limit as usize {
                break Ending::MoveLimit;
            }
        }
        let side = game.position().side_to_move();
        let allowed = clock.left(side, Instant::now()) + rules.margin;
        let go = go_command(&clock, side);
        let fault = match engines[side.index()].think(&position_command(&game), &go, allowed) {
            Ok((_, used)) if used > allowed => Fault::Time(allowed),
            Ok((words, used)) => {
                let text = words.split_whitespace().next().unwrap_or("");
                match game.play_uci(text) {
                    Ok(_) => {
                        clock.charge(side, used);
                        times.push(used);
                        continue;
                    }
                    Err(_) => Fault::Illegal(words),
                }
            }
            Err(NoAnswer::Timeout) => Fault::Time(allowed),
            Err(NoAnswer::Died(how)) => Fault::Crash(format!("stopped ({how})")),
        };
        break Ending::Forfeit { loser: side, fault };
    };
    Played {
        game,
        ending,
        times,
        started: true,
    }
}

/// `position startpos|fen FEN [moves ...]` for the game so far.
pub fn position_command(game: &Game) -> String {
    let start = game.start();
    let mut line = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    let mode = start.castling_mode();
    for (i, mv) in game.moves().iter().enumerate() {
        line.push_str(if i == 0 { " moves " } else { " " });
        line.push_str(&mv.to_uci(mode).to_string());
    }
    line
}

/// `go wtime W btime B winc I binc I [movestogo N]` in milliseconds.
fn go_command(clock: &Clock, side: Color) -> String {
    let now = Instant::now();
    let ms = |d: Duration| d.as_millis();
    let inc = ms(clock.time_control().increment);
    let mut line = format!(
        "go wtime {} btime {} winc {inc} binc {inc}",
        ms(clock.left(Color::White, now)),
        ms(clock.left(Color::Black, now))
    );
    if let Some(n) = clock.moves_to_go(side) {
        line.push_str(&format!(" movestogo {n}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::engine::{EngineSpec, ANSWER_TIMEOUT};
    use movegen::Outcome;

    /// A shell engine that answers each `go` with the next of `moves` (`-` for silence, `!` to
    /// exit).
    fn scripted(moves: &str) -> Engine {
        let script = format!(
            "moves='{moves}'; while read l; do case \"$l\" in \
             uci) echo uciok;; isready) echo readyok;; quit) exit 0;; \
             go*) set -- $moves; m=$1; shift; moves=\"$*\"; \
                  case $m in -) ;; !) exit 7;; *) echo \"bestmove $m\";; esac;; \
             esac; done"
        );
        let spec = EngineSpec {
            name: "scripted".into(),
            program: "sh".into(),
            args: vec!["-c".into(), script],
            options: Vec::new(),
            sandbox: None,
        };
        Engine::start(&spec, ANSWER_TIMEOUT).expect("sh runs the script")
    }

    fn rules(tc: &str) -> Rules {
        Rules {
            tc: tc.parse().expect("valid"),
            margin: Duration::from_millis(100),
            max_moves: None,
            ready_timeout: ANSWER_TIMEOUT,
        }
    }

    fn game(white: &str, black: &str, rules: &Rules) -> Played {
        play(
            &mut scripted(white),
            &mut scripted(black),
            Position::startpos(),
            rules,
        )
    }

    #[test]
    fn a_mate_ends_the_game_by_the_rules() {
        let played = game("f2f3 g2g4", "e7e5 d8h4", &rules("10"));
        assert_eq!(
            played.ending,
            Ending::Rules(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(played.ending.result(), "0-1");
        assert_eq!(played.ending.termination(), "normal");
        assert_eq!(played.game.movetext(), "1. f3 e5 2. g4 Qh4#");
    }

    #[test]
    fn illegal_malformed_silent_and_dead_engines_lose() {
        let r = rules("0.3");
        let played = game("e2e4 e2e4", "e7e5", &r);
        assert_eq!(
            played.ending,
            Ending::Forfeit {
                loser: Color::White,
                fault: Fault::Illegal("e2e4".into())
            }
        );
        assert_eq!(played.ending.termination(), "illegal move");
        assert_eq!(played.game.moves().len(), 2);
        let played = game("e2e4", "(none)", &r);
        assert_eq!(played.ending.result(), "1-0");
        assert_eq!(
            played.ending.to_string(),
            "Black loses by an illegal move (`bestmove (none)`)"
        );
        let played = game("e2e4", "-", &r);
        assert_eq!(
            played.ending,
            Ending::Forfeit {
                loser: Color::Black,
                fault: Fault::Time(Duration::from_millis(400))
            }
        );
        assert_eq!(played.ending.termination(), "time forfeit");
        let played = game("!", "e7e5", &r);
        let Ending::Forfeit {
            loser: Color::White,
            fault: Fault::Crash(how),
        } = &played.ending
        else {
            panic!("{:?}", played.ending)
        };
        assert!(how.contains("exit status: 7"), "{how}");
        assert_eq!(played.ending.termination(), "abandoned");
        assert!(played.started);
    }

    #[test]
    fn the_move_limit_adjudicates_a_draw_and_commands_carry_the_game() {
        let mut r = rules("40/10+0.1");
        r.max_moves = Some(1);
        let played = game("e2e4", "e7e5", &r);
        assert_eq!(played.ending, Ending::MoveLimit);
        assert_eq!(played.ending.result(), "1/2-1/2");
        assert_eq!(
            position_command(&played.game),
            "position startpos moves e2e4 e7e5"
        );
        assert_eq!(
            go_command(&Clock::new(r.tc), Color::White),
            "go wtime 10000 btime 10000 winc 100 binc 100 movestogo 40"
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let from_fen = Game::new(Position::from_fen(fen).expect("valid"));
        assert_eq!(position_command(&from_fen), format!("position fen {fen}"));
    }
}
