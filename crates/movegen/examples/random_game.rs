//! Plays random legal moves from the start until the game ends, and prints
//! it in PGN movetext with its result.
//!
//! ```text
//! cargo run -p pinmask-movegen --example random_game -- 7
//! ```
//!
//! The argument seeds the move choice, so a seed always plays the same game.

use movegen::Game;

fn main() {
    let mut seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut game = Game::default();
    // Random games rarely mate; 300 moves leave room for the fifty-move rule.
    while game.outcome().is_none() && game.moves().len() < 600 {
        let moves = game.position().legal_moves();
        // A small xorshift generator: the example needs no dependency.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves[(seed % moves.len() as u64) as usize];
        game.play(mv).expect("a move from the legal list is legal");
    }
    println!("{}", game.movetext());
    match game.outcome() {
        Some(outcome) => println!("{} ({outcome})", outcome.result()),
        None => println!("* (stopped after {} plies)", game.moves().len()),
    }
}
