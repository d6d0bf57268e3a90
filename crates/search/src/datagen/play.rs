//! One self-play game: an opening, a few seeded random plies, then the
//! search at a fixed node budget for both sides, adjudicated, and the
//! positions worth training on.

use super::record::{encode, GameResult, RECORD_BYTES};
use crate::limits::{Limits, Score, SearchControl};
use crate::ordering::is_tactical;
use crate::Searcher;
use movegen::rng::{mix, SplitMix64};
use movegen::{Color, Game, Position};

/// Random plies after the opening: at least this many ...
const RANDOM_PLIES_MIN: usize = 2;
/// ... and up to this many more, so both sides get to move first.
const RANDOM_PLIES_EXTRA: usize = 2;
/// A side resigns once the score (White's view) has been at least this far
/// for it to lose ...
pub const RESIGN_SCORE: i32 = 1000;
/// ... for this many plies in a row (both sides agreeing).
pub const RESIGN_PLIES: u32 = 4;
/// A game is drawn once the score has stayed within this of zero ...
pub const DRAW_SCORE: i32 = 10;
/// ... for this many plies in a row ...
pub const DRAW_PLIES: u32 = 12;
/// ... from this ply of the game on.
pub const DRAW_FROM_PLY: usize = 80;
/// A game still going after this many plies is a draw.
pub const MAX_PLIES: usize = 400;

/// The seed of game `index` of a run seeded with `seed`: depends on both
/// only, never on which thread plays the game.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(mix(seed) ^ index.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// How a game ended, for the run's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Mate, stalemate, repetition, fifty moves, bare kings: the rules.
    Rules,
    /// A side resigned (score held beyond [`RESIGN_SCORE`]).
    Resigned,
    /// A long quiet stretch near zero, or [`MAX_PLIES`].
    Drawn,
}

/// A played game: its records, back to back, its result and how it ended.
pub struct Played {
    /// Whole records, [`RECORD_BYTES`] each.
    pub bytes: Vec<u8>,
    /// The result from White's point of view.
    pub result: GameResult,
    /// How it ended.
    pub ending: Ending,
}

/// A position kept for the data, before the result is known.
struct Kept {
    pos: Position,
    /// Centipawns from White's point of view.
    score: i32,
}

/// Plays `plies` legal moves drawn by `rng` (fewer if the game ends first):
/// how self-play games leave their opening, here and in the examples that
/// fit numbers to our own games.
///
/// ```
/// use movegen::rng::SplitMix64;
/// use movegen::{Game, Position};
///
/// let mut game = Game::new(Position::startpos());
/// search::datagen::play_random(&mut game, &mut SplitMix64::new(1), 6);
/// assert_eq!(game.position().fullmove_number(), 4);
/// ```
pub fn play_random(game: &mut Game, rng: &mut SplitMix64, plies: usize) {
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())])
            .expect("a generated move is legal");
    }
}

/// Plays game `seed` from one of `openings` with `nodes` nodes a move.
/// `control` stops it early (the game is then incomplete: discard it).
pub fn play_game(
    searcher: &mut Searcher,
    openings: &[Position],
    seed: u64,
    nodes: u64,
    control: &SearchControl,
) -> Played {
    let mut rng = SplitMix64::new(seed);
    let start = openings[rng.below(openings.len())];
    let mut game = Game::new(start);
    let plies = RANDOM_PLIES_MIN + rng.below(RANDOM_PLIES_EXTRA + 1);
    play_random(&mut game, &mut rng, plies);
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut kept: Vec<Kept> = Vec::new();
    let mut judge = Judge::default();
    let (result, ending) = loop {
        if let Some(outcome) = game.outcome() {
            let result = outcome
                .winner()
                .map_or(GameResult::Draw, GameResult::win_for);
            break (result, Ending::Rules);
        }
        if game.moves().len() >= MAX_PLIES {
            break (GameResult::Draw, Ending::Drawn);
        }
        let mut last = None;
        let found = searcher.search(&game, &limits, control, &mut |info| last = Some(info.score));
        if control.stopped() {
            break (GameResult::Draw, Ending::Drawn);
        }
        let pos = *game.position();
        let best = found
            .best
            .expect("a position with no outcome has a legal move");
        let white = |v: i32| {
            if pos.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        };
        // A mate score counts as beyond any threshold; such positions are decided.
        let score = match last {
            Some(Score::Cp(cp)) => Some(white(cp)),
            Some(Score::Mate(n)) => Some(white(if n > 0 { 100_000 } else { -100_000 })),
            None => None,
        };
        if let (Some(Score::Cp(_)), Some(score)) = (last, score) {
            if !pos.in_check() && !is_tactical(&pos, best) {
                kept.push(Kept { pos, score });
            }
        }
        if let Some(verdict) = score.and_then(|s| judge.update(s, game.moves().len())) {
            break verdict;
        }
        game.play(best).expect("the search returns a legal move");
    };
    let mut bytes = Vec::with_capacity(kept.len() * RECORD_BYTES);
    for k in &kept {
        // Openings are checked for the format when read, and play keeps it
        // (no position gains pieces or Chess960 castling).
        if let Ok(record) = encode(&k.pos, k.score, result, bytes.is_empty()) {
            bytes.extend_from_slice(&record);
        }
    }
    Played {
        bytes,
        result,
        ending,
    }
}

/// Adjudication: counts the plies in a row the score has stayed decisive
/// for one side, or quiet near zero.
#[derive(Default)]
struct Judge {
    white_ahead: u32,
    black_ahead: u32,
    quiet: u32,
}

impl Judge {
    /// Takes in the score (White's view) at game ply `ply`; returns the
    /// verdict if the game is over.
    fn update(&mut self, score: i32, ply: usize) -> Option<(GameResult, Ending)> {
        let bump = |n: &mut u32, cond: bool| *n = if cond { *n + 1 } else { 0 };
        bump(&mut self.white_ahead, score >= RESIGN_SCORE);
        bump(&mut self.black_ahead, score <= -RESIGN_SCORE);
        bump(&mut self.quiet, score.abs() <= DRAW_SCORE);
        if self.white_ahead >= RESIGN_PLIES {
            Some((GameResult::WhiteWon, Ending::Resigned))
        } else if self.black_ahead >= RESIGN_PLIES {
            Some((GameResult::BlackWon, Ending::Resigned))
        } else if self.quiet >= DRAW_PLIES && ply >= DRAW_FROM_PLY {
            Some((GameResult::Draw, Ending::Drawn))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decisive_score_held_for_several_plies_resigns() {
        let mut judge = Judge::default();
        for ply in 0..RESIGN_PLIES - 1 {
            assert_eq!(judge.update(-RESIGN_SCORE, ply as usize), None);
        }
        // A break in the run starts the count again.
        assert_eq!(judge.update(0, 10), None);
        for ply in 0..RESIGN_PLIES - 1 {
            assert_eq!(judge.update(-2000, ply as usize), None);
        }
        assert_eq!(
            judge.update(-2000, 20),
            Some((GameResult::BlackWon, Ending::Resigned))
        );
    }

    #[test]
    fn a_long_quiet_stretch_is_drawn_only_late_in_the_game() {
        let mut judge = Judge::default();
        for ply in 0..DRAW_FROM_PLY {
            assert_eq!(judge.update(5, ply), None);
        }
        assert_eq!(
            judge.update(-5, DRAW_FROM_PLY),
            Some((GameResult::Draw, Ending::Drawn))
        );
    }

    #[test]
    fn game_seeds_differ_by_index_and_by_seed() {
        let seeds: std::collections::HashSet<u64> = (0..1000)
            .flat_map(|i| [game_seed(1, i), game_seed(2, i)])
            .collect();
        assert_eq!(seeds.len(), 2000);
    }
}
