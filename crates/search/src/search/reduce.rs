//! Late-move reductions: how many plies less a late quiet move is searched.

use crate::ordering::{HISTORY_MAX, KILLER};

/// Depths and move numbers beyond the table use its last row or column.
const SIZE: usize = 64;

/// Base reductions by depth and move number, `ln(depth) * ln(number)`
/// scaled: deep nodes and late moves are the least likely to matter.
pub(super) struct Reductions([[u8; SIZE]; SIZE]);

impl Reductions {
    /// The table, computed once per thread.
    pub(super) fn new() -> Reductions {
        let mut table = [[0; SIZE]; SIZE];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.7 + (d as f64).ln() * (n as f64).ln() / 2.3) as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction of the `index`th move (from 0) at `depth`, whose
    /// ordering score is `score`: one less for killers, for moves with good
    /// history and in PV nodes, one more for bad history; never so much that
    /// `new_depth` falls below 1.
    pub(super) fn of(&self, depth: i32, index: usize, score: i32, pv: bool, new_depth: i32) -> i32 {
        let d = (depth.max(0) as usize).min(SIZE - 1);
        let mut r = i32::from(self.0[d][index.min(SIZE - 1)]);
        if score >= KILLER - 1 || score > HISTORY_MAX / 2 || pv {
            r -= 1;
        }
        if score < -HISTORY_MAX / 2 {
            r += 1;
        }
        r.clamp(0, (new_depth - 1).max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_and_keep_a_ply() {
        let r = Reductions::new();
        for depth in 1..80 {
            for index in 0..100 {
                for score in [-HISTORY_MAX, 0, HISTORY_MAX, KILLER] {
                    let new_depth = depth - 1;
                    let red = r.of(depth, index, score, false, new_depth);
                    assert!(red >= 0 && (red == 0 || new_depth - red >= 1));
                    assert!(
                        r.of(depth, index + 1, score, false, 100)
                            >= r.of(depth, index, score, false, 100)
                    );
                    assert!(
                        r.of(depth + 1, index, score, false, 100)
                            >= r.of(depth, index, score, false, 100)
                    );
                }
                let quiet = r.of(depth, index, 0, false, 100);
                assert!(r.of(depth, index, KILLER, false, 100) <= quiet);
                assert!(r.of(depth, index, 0, true, 100) <= quiet);
                assert!(r.of(depth, index, -HISTORY_MAX, false, 100) >= quiet);
            }
        }
        // Late moves of deep nodes are reduced by several plies.
        assert!(r.of(20, 40, 0, false, 100) >= 4);
    }
}
