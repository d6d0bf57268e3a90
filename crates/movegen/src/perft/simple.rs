//! Perft through the public generator: list the moves, play each, count
//! below; the last ply is the size of the move sets. Quick to compile; the
//! `fast-perft` feature replaces it with the specialised recursion.

#[cfg(feature = "std")]
use super::hash::PerftHash;
use crate::position::Position;

/// The number of leaf nodes `depth` plies below `pos`. The last ply is
/// counted in bulk (the size of each piece's target set), without playing
/// its moves.
///
/// ```
/// use movegen::perft::perft;
/// use movegen::Position;
///
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&mv| perft(&pos.play_generated(mv), depth - 1))
            .sum(),
    }
}

/// Perft with subtree counts cached in `hash`; callers reach it through
/// [`Perft::hash`](super::Perft::hash).
#[cfg(feature = "std")]
pub(super) fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    if let Some(n) = hash.get(pos, depth) {
        return n;
    }
    let nodes = pos
        .legal_moves()
        .iter()
        .map(|&mv| perft_hashed(&pos.play_generated(mv), depth - 1, hash))
        .sum();
    hash.put(pos, depth, nodes);
    nodes
}
