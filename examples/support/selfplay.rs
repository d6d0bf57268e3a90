//! The start of a self-play game, shared by the examples that fit numbers
//! to our own games (`texel`, `wdl_fit`): the named openings, and a game
//! begun from one of them with a few seeded random plies.

use movegen::rng::SplitMix64;
use movegen::{Game, Position};

/// The positions of `tests/data/openings.epd`.
pub fn openings() -> Vec<Position> {
    let text = std::fs::read_to_string("tests/data/openings.epd")
        .expect("run from the repository root: tests/data/openings.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fen: Vec<&str> = l.split_whitespace().take(4).collect();
            Position::from_fen(&fen.join(" ")).expect("openings.epd holds legal positions")
        })
        .collect()
}

/// A game from `start` after `plies` random legal moves drawn by a
/// generator seeded with `seed` (fewer if the game ends first).
pub fn opening_game(start: &Position, seed: u64, plies: usize) -> Game {
    let mut game = Game::new(*start);
    search::datagen::play_random(&mut game, &mut SplitMix64::new(seed), plies);
    game
}
