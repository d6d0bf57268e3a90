//! Iterative deepening: the main thread's loop, which ranks `MultiPV` lines,
//! reports each completed depth and decides when to stop, and the helpers'
//! loop, which only fills the shared table.

use crate::limits::{Limits, Score, SearchInfo, SearchResult, MAX_PLY};
use crate::search::{RootMove, Search, Shared, ThreadData, INF, MATE, MATE_BOUND};
use movegen::{KeyHistory, Position};

/// The main thread's search: deepens until a limit, reporting each depth's
/// lines best first through `report`.
pub fn main_thread(
    shared: &Shared,
    data: &mut ThreadData,
    root: (&Position, &KeyHistory),
    mut moves: Vec<RootMove>,
    limits: &Limits,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut s = Search::new(shared, data, root.1, true);
    let lines = limits.line_count().min(moves.len());
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    // A lone legal move is played at once when the engine manages its own
    // clock; `go movetime` asked for that long a search, and gets it (as
    // Stockfish does): analysis of a forced move still shows what follows.
    let clocked = shared.deadlines().soft.is_some() && limits.movetime.is_none();
    let mut result = SearchResult {
        best: Some(moves[0].mv),
        ponder: None,
    };
    let mut pace = Pace::default();
    for depth in 1..=max_depth {
        let ready = search_lines(&mut s, root.0, &mut moves, lines, depth as i32);
        if s.stopped() && depth > 1 {
            // A partial depth counts only for a first line that finished a move.
            if ready > 0 {
                result = line_result(&moves[0]);
            }
            break;
        }
        if ready == 0 {
            break;
        }
        result = line_result(&moves[0]);
        s.flush_nodes();
        for (k, rm) in moves[..ready].iter().enumerate() {
            report(&SearchInfo {
                multipv: k as u32 + 1,
                depth,
                seldepth: s.seldepth() as u32,
                score: to_score(rm.score),
                nodes: shared.nodes(),
                time: shared.elapsed(),
                hashfull: shared.tt().hashfull(),
                pv: rm.pv.clone(),
            });
        }
        if s.stopped() {
            break;
        }
        if let (Some(mate), Score::Mate(n)) = (limits.mate, to_score(moves[0].score)) {
            if n > 0 && n as u32 <= mate {
                break;
            }
        }
        let scale = pace.update(&moves[0], depth);
        let out_of_time = shared
            .deadlines()
            .soft
            .is_some_and(|soft| shared.elapsed() >= soft.mul_f64(scale));
        if !shared.pondering() && (out_of_time || (clocked && moves.len() == 1)) {
            break;
        }
    }
    s.flush_nodes();
    result
}

/// How the soft deadline stretches with what the last depths showed: more
/// time while the best move keeps changing or the score falls, less once
/// the same move has been best for several depths. The hard deadline
/// stays where it is, so this never risks the clock.
#[derive(Default)]
struct Pace {
    best: Option<movegen::Move>,
    /// Depths in a row with the same best move.
    stable: u32,
    /// The best score of the previous depth.
    score: Option<i32>,
}

impl Pace {
    /// Takes in a completed depth's best line; returns the factor for the
    /// soft deadline (0.6 to 2.2).
    fn update(&mut self, best: &RootMove, depth: u32) -> f64 {
        if self.best == Some(best.mv) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = Some(best.mv);
        let drop = self.score.map_or(0, |prev| prev - best.score);
        self.score = Some(best.score);
        if depth < 5 {
            return 1.0;
        }
        // A new best move: look longer; a settled one: move on.
        let stability = match self.stable {
            0 => 1.5,
            1 => 1.2,
            2 => 1.0,
            3 => 0.85,
            _ => 0.7,
        };
        // A falling score means trouble found late: look for a way out.
        let trouble = if best.score.abs() >= MATE_BOUND {
            1.0
        } else {
            1.0 + (f64::from(drop.clamp(0, 100)) / 100.0) * 0.6
        };
        (stability * trouble).clamp(0.6, 2.2)
    }
}

/// A helper thread's search: the same deepening, one line, until the main
/// thread is done or a stop arrives. Odd helpers search one ply deeper, so
/// the threads do not all walk the same tree in step.
pub fn helper_thread(
    shared: &Shared,
    data: &mut ThreadData,
    root: (&Position, &KeyHistory),
    mut moves: Vec<RootMove>,
    id: usize,
) {
    let mut s = Search::new(shared, data, root.1, false);
    let skew = (id % 2) as i32;
    for depth in 1..MAX_PLY as i32 - skew {
        aspirated(&mut s, root.0, &mut moves, depth + skew);
        if s.stopped() {
            break;
        }
    }
    s.flush_nodes();
}

/// Ranks the first `lines` root moves at `depth`, best first. Returns how
/// many lines are ready: all of them, or when stopped, those finished (the
/// line being searched counts if a move of it finished).
fn search_lines(
    s: &mut Search,
    root: &Position,
    moves: &mut [RootMove],
    lines: usize,
    depth: i32,
) -> usize {
    for k in 0..lines {
        let outcome = aspirated(s, root, &mut moves[k..], depth);
        if s.stopped() {
            return k + usize::from(outcome.is_some());
        }
        // Search instability can let a later line beat an earlier one.
        moves[..=k].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }
    lines
}

/// Searches `moves` in a window around the first move's score from the last
/// depth, widening it on each side it fails. Returns the best score, or when
/// stopped, the score of a finished move that beat the window's low end.
fn aspirated(s: &mut Search, root: &Position, moves: &mut [RootMove], depth: i32) -> Option<i32> {
    let prev = moves[0].score;
    if depth < 4 || prev.abs() >= MATE_BOUND {
        return s.search_root(root, moves, depth, -INF, INF);
    }
    let mut delta = 20;
    let (mut alpha, mut beta) = (prev - delta, prev + delta);
    loop {
        let outcome = s.search_root(root, moves, depth, alpha, beta);
        if s.stopped() {
            return outcome.filter(|&v| v > alpha);
        }
        let v = outcome?;
        if v <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (v - delta).max(-INF);
        } else if v >= beta {
            beta = (v + delta).min(INF);
        } else {
            return Some(v);
        }
        delta *= 2;
    }
}

fn line_result(rm: &RootMove) -> SearchResult {
    SearchResult {
        best: Some(rm.mv),
        ponder: rm.pv.get(1).copied(),
    }
}

/// A score as the protocol reports it.
fn to_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    fn line(uci: &str, score: i32) -> RootMove {
        let pos = Position::startpos();
        let mut rm = RootMove::new(pos.parse_uci_move(uci).unwrap());
        rm.score = score;
        rm
    }

    #[test]
    fn pace_stretches_for_new_moves_and_falling_scores_and_shrinks_when_settled() {
        let mut pace = Pace::default();
        for depth in 1..=4 {
            assert_eq!(pace.update(&line("e2e4", 30), depth), 1.0);
        }
        // Settled for four depths: less than the plain soft deadline.
        assert!(pace.update(&line("e2e4", 30), 5) < 1.0);
        // A new best move: more.
        let changed = pace.update(&line("d2d4", 30), 6);
        assert!(changed > 1.0);
        // A new best move with a falling score: more still, within the cap.
        let falling = pace.update(&line("g1f3", -50), 7);
        assert!(falling > changed && falling <= 2.2, "{falling}");
    }
}
