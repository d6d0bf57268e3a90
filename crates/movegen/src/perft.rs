//! Perft: counting the leaf nodes of the legal move tree.

use crate::moves::Move;
use crate::position::Position;

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (the size of each piece's target set), without playing its moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut nodes = 0;
            pos.generate_moves(|pm| {
                for mv in pm {
                    nodes += perft(&pos.play(mv), depth - 1);
                }
                false
            });
            nodes
        }
    }
}

/// Perft per root move ("divide"), in move generation order.
///
/// `depth` 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.play(mv), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow() {
        let pos = Position::startpos();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&pos, d)).collect();
        assert_eq!(counts, [1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let div = divide(&pos, 3);
        assert_eq!(div.len(), 48);
        assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 97_862);
    }
}
