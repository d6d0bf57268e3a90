//! The perft recursion: generate, play each move, count below; the last ply
//! is counted in bulk without playing its moves.

/// Defines `perft` and `perft_hashed` in a module whose functions carry the
/// given attributes (a `target_feature` list), so that the whole recursion and
/// everything inlined into it is compiled for those features.
macro_rules! perft_module {
    ($(#[$attr:meta])* mod $name:ident;) => {
        pub(super) mod $name {
            use crate::generate::MoveSink;
            use crate::move_sets::{PawnMoves, PieceMoves};
            use crate::perft::hash::PerftHash;
            use crate::piece::Piece;
            use crate::position::Position;

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            pub(crate) unsafe fn perft(pos: &Position, depth: u32) -> u64 {
                match depth {
                    0 => 1,
                    1 => pos.count_moves() as u64,
                    _ => {
                        let mut sink = Expand::<false> { pos, depth: depth - 1, hash: None, nodes: 0 };
                        pos.generate(&mut sink);
                        sink.nodes
                    }
                }
            }

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            pub(crate) unsafe fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
                if depth <= 1 {
                    // SAFETY: same features as this function.
                    return unsafe { perft(pos, depth) };
                }
                if let Some(n) = hash.get(pos.key(), depth) {
                    return n;
                }
                let mut sink = Expand::<true> { pos, depth: depth - 1, hash: Some(hash), nodes: 0 };
                pos.generate(&mut sink);
                hash.put(pos.key(), depth, sink.nodes);
                sink.nodes
            }

            /// Plays each generated move and counts the subtree below it;
            /// `HASHED` keeps keys up to date and looks subtrees up in `hash`.
            struct Expand<'a, const HASHED: bool> {
                pos: &'a Position,
                depth: u32,
                hash: Option<&'a PerftHash>,
                nodes: u64,
            }

            impl<const HASHED: bool> Expand<'_, HASHED> {
                #[inline(always)]
                fn child(&mut self, piece: Piece, mv: crate::moves::Move) {
                    // Copied and changed in place: returning a new position
                    // from a function cost a second copy.
                    let mut next = *self.pos;
                    next.play_in_place::<HASHED>(piece, mv);
                    // SAFETY: only reached from this module's functions, whose
                    // caller vouched for the CPU features.
                    self.nodes += unsafe {
                        match self.hash {
                            Some(hash) if HASHED => perft_hashed(&next, self.depth, hash),
                            _ => perft(&next, self.depth),
                        }
                    };
                }
            }

            impl<const HASHED: bool> MoveSink for Expand<'_, HASHED> {
                #[inline(always)]
                fn piece(&mut self, moves: PieceMoves) -> bool {
                    for mv in moves {
                        self.child(moves.piece, mv);
                    }
                    false
                }

                #[inline(always)]
                fn pawns(&mut self, moves: PawnMoves) -> bool {
                    for mv in moves {
                        self.child(Piece::Pawn, mv);
                    }
                    false
                }
            }
        }
    };
}

perft_module! {
    mod portable;
}

#[cfg(target_arch = "x86_64")]
perft_module! {
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    mod bmi2;
}
