//! Reviewing a whole game: every mainline position searched (two lines, for
//! the only-move test), each move judged by [`crate::review::judge`], and the
//! verdicts written into the game's PGN tree (NAGs, the better move as a
//! variation, `[%eval ...]` comments, each player's totals first).
//!
//! `engine analyse` and the board page's Review both call [`review_game`];
//! what they do with each step (a progress bar, a pushed event) is the
//! caller's `on_step`.
//!
//! A mark is checked before it is written, as a careful reviewer would:
//! each position is searched once, which scores the best move at the
//! review's depth but the played move (when it is not one of the two lines)
//! through the next position's search, and a horizon effect in either can
//! make a sound move look bad. So a move about to be marked `?!`, `?` or
//! `??` is searched again with the best move, in one search from the
//! position before it, [`RECHECK_PLIES`] deeper; that search's two scores
//! decide the verdict. Likewise a `!` stands only if the same deeper search
//! of the best and the second-best move still finds the second a blunder.

use crate::review::{eval_text, flip, judge, Judgement, MoveFacts, PlayerSummary, ReviewVerdict};
use crate::{wdl_material, Limits, Score, SearchControl, Searcher};
use movegen::pgn::{Line, Node, PgnGame};
use movegen::{Color, Game, Move, Position};

/// Plies of the best line written as the better move's variation.
pub const PV_PLIES: usize = 6;

/// Depth of each position's search when the reviewer names none: the
/// default of `engine analyse` and of the board page's Review.
pub const REVIEW_DEPTH: u32 = 10;

/// Transposition table of a review's searcher, in MiB, made fresh (or
/// cleared) for each game. `engine analyse` (by default) and the board
/// page's Review both use it: the table's size changes what a fixed-depth
/// search finds, so with two sizes the same game at the same depth would
/// get two reviews.
pub const REVIEW_HASH_MB: usize = 64;

/// Plies added to the review's depth when a mark is checked (four times
/// the time or the nodes under those limits).
pub const RECHECK_PLIES: u32 = 2;

/// What the search said about one position, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The score of the position (`Mate(0)` when mated).
    pub score: Score,
    /// The best move with its line.
    pub best: Option<(Move, Vec<Move>)>,
    /// The second-best move and its score.
    pub second: Option<(Move, Score)>,
}

/// One step of [`review_game`], as it happens.
pub struct Step<'a> {
    /// The position just evaluated: 0 is the start, `n` follows the n-th ply.
    pub ply: usize,
    /// That position.
    pub position: &'a Position,
    /// Its evaluation.
    pub eval: &'a PositionEval,
    /// The move into this position, judged (none for the start).
    pub judged: Option<&'a Judgement>,
}

/// Why [`review_game`] stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewStop {
    /// The control's stop flag was set.
    Stopped,
    /// A mainline move is not legal (a game not made by the PGN reader).
    IllegalMove(usize),
}

/// Searches `game`'s position with two lines and returns the verdict's
/// inputs. Mated and stalemated positions are not searched.
pub fn evaluate(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
) -> PositionEval {
    let pos = game.position();
    let none = |score| PositionEval {
        score,
        best: None,
        second: None,
    };
    if !pos.has_legal_move() {
        return none(if pos.in_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        });
    }
    let mut lines: Vec<(Move, Score, Vec<Move>)> = Vec::new();
    let limits = Limits {
        multipv: 2,
        ..limits.clone()
    };
    searcher.search(game, &limits, control, &mut |info| {
        if info.multipv == 1 {
            lines.clear();
        }
        if let Some(&mv) = info.pv.first() {
            lines.push((mv, info.score, info.pv.clone()));
        }
    });
    let mut lines = lines.into_iter();
    match lines.next() {
        Some((mv, score, pv)) => PositionEval {
            score,
            best: Some((mv, pv)),
            second: lines.next().map(|(m, s, _)| (m, s)),
        },
        None => none(Score::Cp(0)),
    }
}

/// Reviews the mainline of `game` in place: writes each verdict into its
/// node, the players' totals as the first game comment (with `label`, say
/// "depth 10") and the `Annotator` tag. `on_step` is called after each
/// position is evaluated, in order.
///
/// # Errors
/// [`ReviewStop::Stopped`] when `control` is stopped (the game is then
/// partly annotated); [`ReviewStop::IllegalMove`] for an illegal mainline
/// move.
pub fn review_game(
    searcher: &mut Searcher,
    limits: &Limits,
    control: &SearchControl,
    game: &mut PgnGame,
    label: &str,
    on_step: &mut dyn FnMut(Step<'_>),
) -> Result<[PlayerSummary; 2], ReviewStop> {
    let mut replay = Game::new(game.start);
    let mut summary = [PlayerSummary::default(); 2];
    let mut before = evaluate(searcher, &replay, limits, control);
    on_step(Step {
        ply: 0,
        position: replay.position(),
        eval: &before,
        judged: None,
    });
    for (i, node) in game.mainline.moves.iter_mut().enumerate() {
        if control.stopped() {
            return Err(ReviewStop::Stopped);
        }
        let earlier = replay.clone();
        let pos = *replay.position();
        replay
            .play(node.mv)
            .map_err(|_| ReviewStop::IllegalMove(i))?;
        let after = evaluate(searcher, &replay, limits, control);
        if control.stopped() {
            // A stopped search's score is not to be judged.
            return Err(ReviewStop::Stopped);
        }
        let judged = match move_facts(node.mv, &pos, &before, &after) {
            None => None,
            Some(facts) => {
                let checked =
                    checked_judgement(searcher, &earlier, limits, control, &facts, &before)?;
                annotate(node, &pos, &after, &checked);
                summary[pos.side_to_move().index()].add(&checked.judgement);
                Some(checked.judgement)
            }
        };
        on_step(Step {
            ply: i + 1,
            position: replay.position(),
            eval: &after,
            judged: judged.as_ref(),
        });
        before = after;
    }
    game.mainline
        .comments
        .insert(0, summary_comment(label, &summary));
    game.set_tag("Annotator", "Pinmask");
    Ok(summary)
}

/// The first game comment: "Pinmask review, LABEL." then each player's
/// counts, accuracy and average loss.
pub fn summary_comment(label: &str, summary: &[PlayerSummary; 2]) -> String {
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let line = |c: Color| {
        let s = summary[c.index()];
        format!(
            "{c:?}: {}, {}, {}, accuracy {:.0}%, average loss {:.1}.",
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders"),
            s.accuracy(),
            s.average_loss()
        )
    };
    format!(
        "Pinmask review, {label}. {} {}",
        line(Color::White),
        line(Color::Black)
    )
}

/// The score from White's point of view, given the side to move.
pub fn white_view(score: Score, side: Color) -> Score {
    if side == Color::White {
        score
    } else {
        flip(score)
    }
}

/// What the searches said about the move `mv` played in `pos`, from the
/// evaluations of `pos` (`here`) and of the position after it (`next`).
/// `None` when `pos` had no move to compare with (the search found none).
pub fn move_facts(
    mv: Move,
    pos: &Position,
    here: &PositionEval,
    next: &PositionEval,
) -> Option<MoveFacts> {
    let (best, _) = here.best.as_ref()?;
    let mates = next.score == Score::Mate(0);
    let played_score = if mv == *best {
        here.score
    } else if let Some((_, s)) = here.second.filter(|(m, _)| *m == mv) {
        s
    } else if mates {
        // The move mates (another mate than the search's best).
        Score::Mate(1)
    } else {
        flip(next.score)
    };
    Some(MoveFacts {
        played: mv,
        played_score,
        best: (*best, here.score),
        second: here.second.map(|(_, s)| s),
        material: wdl_material(pos),
        // A mate in one is found by looking at the checks; a capture or
        // a reply to check is forced in the obvious way.
        obvious: pos.in_check() || pos.is_capture(mv) || mates,
    })
}

/// A judgement with the line that shows the better move.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The verdict, the drop and the better move.
    pub judgement: Judgement,
    /// The better move's line (its first move is `judgement.better`) and
    /// its score, when there is a better move.
    pub line: Option<(Vec<Move>, Score)>,
}

/// Judges a move and checks the mark, if any, with a deeper search of
/// the two moves it rests on (see the module's documentation). `game` is
/// the game before the move; `here` its position's evaluation.
///
/// # Errors
/// [`ReviewStop::Stopped`] when `control` is stopped.
pub fn checked_judgement(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    facts: &MoveFacts,
    here: &PositionEval,
) -> Result<Checked, ReviewStop> {
    let first = judge(facts);
    let line = |judgement: Judgement, line: Option<(Vec<Move>, Score)>| Checked {
        line: judgement.better.and(line),
        judgement,
    };
    let base_line = here.best.as_ref().map(|(_, pv)| (pv.clone(), here.score));
    let (best, _) = facts.best;
    let other = match first.verdict {
        ReviewVerdict::Good => return Ok(line(first, base_line)),
        ReviewVerdict::OnlyMove => match here.second {
            Some((second, _)) => second,
            None => return Ok(line(first, base_line)),
        },
        _ => facts.played,
    };
    let lines = search_moves(searcher, game, &deeper(limits), control, [best, other]);
    if control.stopped() {
        return Err(ReviewStop::Stopped);
    }
    let score = |mv: Move| lines.iter().find(|l| l.0 == mv).map(|l| l.1);
    let (Some(top), Some(best_score), Some(other_score)) =
        (lines.first(), score(best), score(other))
    else {
        // Not both lines (no time left for them): the first judgement.
        return Ok(line(first, base_line));
    };
    let judgement = if first.verdict == ReviewVerdict::OnlyMove {
        // The `!` stands if the deeper search still finds the played move
        // the better of the two, with the other a blunder.
        let only = judge(&MoveFacts {
            played: best,
            played_score: best_score,
            best: (top.0, top.1),
            second: Some(other_score),
            ..*facts
        });
        if only.verdict == ReviewVerdict::OnlyMove {
            only
        } else {
            Judgement {
                verdict: ReviewVerdict::Good,
                drop: 0.0,
                better: None,
            }
        }
    } else {
        judge(&MoveFacts {
            played: facts.played,
            played_score: other_score,
            best: (top.0, top.1),
            // The `!` is not a question here: the played move is not the
            // best at the review's depth.
            second: None,
            ..*facts
        })
    };
    Ok(line(judgement, Some((top.2.clone(), top.1))))
}

/// `limits` made deeper for a check: [`RECHECK_PLIES`] more plies, or four
/// times the time or the nodes.
fn deeper(limits: &Limits) -> Limits {
    Limits {
        depth: limits.depth.map(|d| d + RECHECK_PLIES),
        movetime: limits.movetime.map(|t| t * 4),
        nodes: limits.nodes.map(|n| n * 4),
        ..limits.clone()
    }
}

/// Searches `game`'s position with only `moves` at the root, one line for
/// each: (move, score, line), best first.
fn search_moves(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    moves: [Move; 2],
) -> Vec<(Move, Score, Vec<Move>)> {
    let limits = Limits {
        multipv: 2,
        searchmoves: moves.to_vec(),
        ..limits.clone()
    };
    let mut lines = Vec::new();
    searcher.search(game, &limits, control, &mut |info| {
        if info.multipv == 1 {
            lines.clear();
        }
        if let Some(&mv) = info.pv.first() {
            lines.push((mv, info.score, info.pv.clone()));
        }
    });
    lines
}

/// Writes the judgement of `node`'s move, played in `pos`, into it: the
/// NAG, the evaluation after it (`next`), and the better line.
pub fn annotate(node: &mut Node, pos: &Position, next: &PositionEval, checked: &Checked) {
    let judgement = &checked.judgement;
    let side = pos.side_to_move();
    // Our verdict replaces any move assessment ($1-$6) already there.
    node.nags.retain(|&n| !(1..=6).contains(&n));
    let mut comment = match next.score {
        Score::Mate(0) => String::new(),
        score => format!("[%eval {}]", eval_text(white_view(score, !side))),
    };
    if let Some(nag) = judgement.verdict.nag() {
        node.nags.insert(0, nag);
    }
    if let (Some(better), Some((pv, score))) = (judgement.better, &checked.line) {
        let text = format!(
            "{}. {} was best.",
            judgement.verdict.name(),
            pos.san(better).expect("the search's best move is legal")
        );
        comment = if comment.is_empty() {
            text
        } else {
            format!("{comment} {text}")
        };
        node.variations.insert(0, better_line(pos, pv, *score));
    }
    if judgement.verdict == ReviewVerdict::OnlyMove {
        comment = format!("{comment} Only move.").trim().to_string();
    }
    if !comment.is_empty() {
        node.comments.insert(0, comment);
    }
}

/// The best line from `pos` (its first plies), the evaluation on its first
/// move.
fn better_line(pos: &Position, pv: &[Move], score: Score) -> Line {
    let mut line = Line::default();
    let mut at = *pos;
    for &mv in pv.iter().take(PV_PLIES) {
        if !at.is_legal(mv) {
            break;
        }
        line.moves.push(Node::new(mv));
        at = at.play_unchecked(mv);
    }
    if let Some(first) = line.moves.first_mut() {
        first.comments.push(format!(
            "[%eval {}]",
            eval_text(white_view(score, pos.side_to_move()))
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::pgn::read_games;

    #[test]
    fn a_hanging_queen_is_a_blunder_with_the_better_move_and_steps_in_order() {
        let text = "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ *";
        let mut game = read_games(text).next().unwrap().unwrap();
        let mut searcher = Searcher::new(4);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut plies = Vec::new();
        let mut blunders = Vec::new();
        let summary = review_game(
            &mut searcher,
            &limits,
            &SearchControl::default(),
            &mut game,
            "depth 4",
            &mut |step| {
                plies.push(step.ply);
                if let Some(j) = step.judged.filter(|j| j.verdict == ReviewVerdict::Blunder) {
                    blunders.push((step.ply, j.better.is_some()));
                }
            },
        )
        .unwrap();
        assert_eq!(plies, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(blunders, vec![(5, true)], "3. Qxe5+ loses the queen");
        assert_eq!(summary[0].blunders, 1);
        let node = &game.mainline.moves[4];
        assert_eq!(node.nags.first(), Some(&4));
        assert!(!node.variations.is_empty());
        assert!(game.mainline.comments[0].starts_with("Pinmask review, depth 4."));
    }

    #[test]
    fn a_stopped_control_stops_the_review() {
        let mut game = read_games("1. e4 e5 *").next().unwrap().unwrap();
        let control = SearchControl::default();
        control
            .stop
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let result = review_game(
            &mut Searcher::new(1),
            &limits,
            &control,
            &mut game,
            "",
            &mut |_| {},
        );
        assert_eq!(result.unwrap_err(), ReviewStop::Stopped);
    }
}
