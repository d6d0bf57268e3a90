//! Splitting a perft tree at a fixed depth into unique positions, each with
//! the number of move sequences (paths) that reach it.
//!
//! perft(S + R) from the root is the sum over the unique positions at depth S
//! of paths times perft(R): equal positions have equal subtrees, so each is
//! counted once however many move orders lead to it.

use crate::perft::identity::Identity;
use crate::position::Position;
use std::collections::hash_map::{Entry, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// One unique position at the split depth and how many paths from the root
/// reach it.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{split, Unit};
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let units: Vec<Unit> = split(&root, 1);
/// assert_eq!(units.len(), 20);
/// assert!(units.iter().all(|u| u.paths == 1));
/// assert_eq!(units[0].position, root.play(root.legal_moves()[0]));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unit {
    /// The position, as reached by the first path in move generation order
    /// (its clocks are that path's; perft does not depend on them).
    pub position: Position,
    /// The number of distinct move sequences from the root that reach it.
    pub paths: u64,
}

/// Every unique position `depth` plies below `root`, with its paths, in the
/// order first reached (moves in generation order, level by level).
///
/// Positions are merged by their full contents (pieces, side, castling rights
/// and rooks, en passant; not the clocks), never by key alone. Each level is
/// merged before the next is made, so the work is the number of unique
/// positions per level times their moves, not the number of paths. The paths
/// of the units sum to perft(`depth`); they fit in `u64` for any depth below
/// 14 from a legal position (startpos perft 13 is about 2^61).
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::split;
/// use movegen::perft::perft;
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let units = split(&root, 3);
/// // 8,902 move sequences reach only 5,362 distinct positions.
/// assert_eq!(units.len(), 5_362);
/// assert_eq!(units.iter().map(|u| u.paths).sum::<u64>(), 8_902);
/// let total: u64 = units.iter().map(|u| u.paths * perft(&u.position, 1)).sum();
/// assert_eq!(total, perft(&root, 4));
/// ```
pub fn split(root: &Position, depth: u32) -> Vec<Unit> {
    let mut level = vec![Unit {
        position: *root,
        paths: 1,
    }];
    for _ in 0..depth {
        let mut seen: HashMap<Identity, usize, ByCheckKey> =
            HashMap::with_capacity_and_hasher(level.len() * 8, ByCheckKey::default());
        let mut next: Vec<Unit> = Vec::with_capacity(level.len() * 8);
        for unit in &level {
            for &mv in unit.position.legal_moves().iter() {
                let child = unit.position.play_generated(mv);
                match seen.entry(Identity::of(&child)) {
                    Entry::Occupied(at) => next[*at.get()].paths += unit.paths,
                    Entry::Vacant(at) => {
                        at.insert(next.len());
                        next.push(Unit {
                            position: child,
                            paths: unit.paths,
                        });
                    }
                }
            }
        }
        level = next;
    }
    level
}

/// A hasher that passes on the one word [`Identity`] writes: hashing the
/// eight words again with SipHash would only cost time.
type ByCheckKey = BuildHasherDefault<WordHasher>;

#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only reached if a key other than `Identity` is hashed with this.
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    #[test]
    fn paths_sum_to_perft_and_units_are_unique() {
        let pos = Position::startpos();
        for depth in 0..=4 {
            let units = split(&pos, depth);
            let paths: u64 = units.iter().map(|u| u.paths).sum();
            assert_eq!(paths, perft(&pos, depth), "depth {depth}");
            let mut ids: Vec<[u64; 8]> =
                units.iter().map(|u| Identity::of(&u.position).0).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), units.len(), "depth {depth}");
        }
        // Depth 2 has no transpositions (each reply is to a different move).
        assert_eq!(split(&pos, 2).len(), 400);
        assert_eq!(
            split(&pos, 0),
            [Unit {
                position: pos,
                paths: 1
            }]
        );
    }

    #[test]
    fn unique_positions_from_the_start_match_oeis() {
        // OEIS A083276, "number of distinct chess positions after n plies":
        // 1, 20, 400, 5362, 72078, 822518, ...
        let pos = Position::startpos();
        let unique: Vec<usize> = (0..=4).map(|d| split(&pos, d).len()).collect();
        assert_eq!(unique, [1, 20, 400, 5362, 72_078]);
    }

    #[test]
    fn a_transposition_is_one_unit_with_all_its_paths() {
        let pos = Position::startpos();
        let units = split(&pos, 4);
        let play = |moves: &[&str]| {
            moves
                .iter()
                .fold(pos, |p, m| p.play(p.parse_uci_move(m).unwrap()))
        };
        let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
        let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
        let found: Vec<&Unit> = units
            .iter()
            .filter(|u| Identity::of(&u.position) == Identity::of(&a))
            .collect();
        assert_eq!(found.len(), 1);
        assert_eq!(Identity::of(&a), Identity::of(&b));
        // Four orders: each side's two knight moves in either order.
        assert_eq!(found[0].paths, 4);
    }
}
