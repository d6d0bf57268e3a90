//! Perft: counting the leaf nodes of the legal move tree, on one thread or
//! several, with or without a table of subtree counts.

use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (the size of each piece's target set), without playing its moves.
///
/// On x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT (Intel since 2013, AMD
/// since 2015) this runs a copy of the generator compiled for them, chosen at
/// run time, so the release build stays portable; other CPUs run the portable
/// copy. Both give the same counts (the unit tests compare them).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: the CPU has every feature `bmi2` is compiled for.
        return unsafe { bmi2::perft(pos, depth) };
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft(pos, depth) }
}

/// Whether this CPU runs the `bmi2` copy of perft (detected once, then cached).
#[cfg(target_arch = "x86_64")]
fn has_bmi2() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// Defines `perft` and `perft_hashed` in a module whose functions carry the
/// given attributes (a `target_feature` list), so that the whole recursion and
/// everything inlined into it is compiled for those features.
macro_rules! perft_module {
    ($(#[$attr:meta])* mod $name:ident;) => {
        mod $name {
            use super::PerftHash;
            use crate::movegen::MoveSink;
            use crate::moves::{PawnMoves, PieceMoves};
            use crate::piece::Piece;
            use crate::position::Position;

            /// # Safety
            /// The CPU must have the features in this module's attributes.
            $(#[$attr])*
            pub(super) unsafe fn perft(pos: &Position, depth: u32) -> u64 {
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
            pub(super) unsafe fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
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

/// Perft per root move ("divide"), in move generation order.
///
/// `depth` 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with(pos, depth, 1, None)
}

/// A shared table of subtree counts keyed by zobrist key and depth, for
/// hashed perft.
///
/// Entries come four to a 64-byte bucket, so a probe costs one cache miss; a
/// new count replaces the shallowest entry of its bucket, so the costly deep
/// subtrees survive a full table. Lock-free: each entry holds the key XOR the
/// data beside the data, so an entry torn by two threads writing at once reads
/// as a miss. On Linux the table asks for transparent huge pages: random
/// probes into hundreds of megabytes otherwise spend much of their time on
/// TLB misses and first-touch page faults (perft 7 from the start position
/// took 10.7 s with 2 GiB against 2.1 s with 64 MiB before).
pub struct PerftHash {
    /// Zeroed words, one bucket more than needed, so that `len` buckets of
    /// eight words can start at `first` on a 64-byte boundary.
    words: Vec<AtomicU64>,
    first: usize,
    len: usize,
}

/// Four entries of (key ^ data, data): one cache line.
const BUCKET_WORDS: usize = 8;
const BUCKET_BYTES: usize = BUCKET_WORDS * 8;

const DEPTH_BITS: u32 = 8;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;

impl PerftHash {
    /// A table of about `mb` MiB (at least one bucket), ready at once: the
    /// memory is zeroed by the OS page by page on first use, not filled here.
    /// A size the machine cannot give is halved until it can, rather than
    /// aborting.
    pub fn new(mb: usize) -> PerftHash {
        let mut len = (mb.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        let words = loop {
            match zeroed_words((len + 1) * BUCKET_WORDS) {
                Some(words) => break words,
                None if len > 1 => len /= 2,
                None => break (0..2 * BUCKET_WORDS).map(|_| AtomicU64::new(0)).collect(),
            }
        };
        let first = (words.as_ptr() as usize).next_multiple_of(BUCKET_BYTES);
        let first = (first - words.as_ptr() as usize) / 8;
        // The advice must come before the pages are first touched.
        advise_huge_pages(words[first..].as_ptr(), len * BUCKET_BYTES);
        PerftHash { words, first, len }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; BUCKET_WORDS] {
        let index = ((key as u128 * self.len as u128) >> 64) as usize;
        let at = self.first + index * BUCKET_WORDS;
        self.words[at..at + BUCKET_WORDS]
            .try_into()
            .expect("a bucket is eight words")
    }

    #[inline(always)]
    fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let bucket = self.bucket(key);
        (0..4).find_map(|i| {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket[2 * i].load(Ordering::Relaxed);
            (check ^ data == key && data & DEPTH_MASK == depth as u64).then_some(data >> DEPTH_BITS)
        })
    }

    #[inline(always)]
    fn put(&self, key: u64, depth: u32, count: u64) {
        // Counts beyond 2^56 are not cached (none of the usual depths reach them).
        if count >> (64 - DEPTH_BITS) != 0 {
            return;
        }
        let data = count << DEPTH_BITS | depth as u64;
        let bucket = self.bucket(key);
        // The shallowest entry goes (an empty one has depth 0).
        let victim = (0..4)
            .min_by_key(|&i| bucket[2 * i + 1].load(Ordering::Relaxed) & DEPTH_MASK)
            .unwrap_or(0);
        bucket[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
    }
}

/// `n` zeroed words that are not touched here: the allocator takes large
/// blocks straight from the OS, whose pages read as zero until written.
/// `None` if the allocator cannot give them. (Words rather than 64-byte
/// aligned buckets: std zeroes over-aligned blocks itself, page by page.)
fn zeroed_words(n: usize) -> Option<Vec<AtomicU64>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of `n`
    // words, and zero bytes are a valid `AtomicU64`.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Asks Linux to back `len` bytes at `ptr` (not yet touched) with transparent
/// huge pages where the system allows it (`madvise` mode). Only advice: any
/// failure leaves ordinary pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(ptr: *const T, len: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + len) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: the range lies inside an allocation we own and have not
        // touched yet; MADV_HUGEPAGE changes no contents, only how pages
        // are backed, and its result is deliberately ignored.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_ptr: *const T, _len: usize) {}

/// Perft with subtree counts cached in `hash` (the CPU dispatch of [`perft`]).
pub fn perft_hashed(pos: &Position, depth: u32, hash: &PerftHash) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: the CPU has every feature `bmi2` is compiled for.
        return unsafe { bmi2::perft_hashed(pos, depth, hash) };
    }
    // SAFETY: the portable copy needs no CPU feature.
    unsafe { portable::perft_hashed(pos, depth, hash) }
}

/// Divide on `threads` threads, optionally hashed; counts are identical to
/// [`divide`] whatever the thread count.
///
/// With more than one thread and `depth` of 3 or more, the work is split two
/// plies down: every (root move, reply) pair is a task, handed out one at a
/// time to whichever thread is free. A few hundred tasks of uneven size
/// balance two threads far better than twenty root moves, where the last big
/// one can leave a thread idle.
pub fn divide_with(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let split_deeper = threads > 1 && depth >= 3;
    // (index of the root move, position to count, depth left)
    let mut tasks: Vec<(usize, Position, u32)> = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let child = pos.play(mv);
        if split_deeper {
            let replies = child.legal_moves();
            tasks.extend(
                replies
                    .iter()
                    .map(|&reply| (i, child.play(reply), depth - 2)),
            );
        } else {
            tasks.push((i, child, depth - 1));
        }
    }
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let t = next.fetch_add(1, Ordering::Relaxed);
        let Some((i, task, left)) = tasks.get(t) else {
            break;
        };
        let n = match hash {
            Some(h) => perft_hashed(task, *left, h),
            None => perft(task, *left),
        };
        counts[*i].fetch_add(n, Ordering::Relaxed);
    };
    let threads = threads.clamp(1, tasks.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    moves
        .iter()
        .zip(&counts)
        .map(|(&mv, n)| (mv, n.load(Ordering::Relaxed)))
        .collect()
}

/// Perft on `threads` threads, optionally hashed; same counts as [`perft`].
pub fn perft_with(pos: &Position, depth: u32, threads: usize, hash: Option<&PerftHash>) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    divide_with(pos, depth, threads, hash)
        .iter()
        .map(|d| d.1)
        .sum()
}

/// Perft split over `threads` threads, no hashing; same counts as [`perft`].
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    perft_with(pos, depth, threads, None)
}

/// Divide split over `threads` threads, no hashing; same counts as [`divide`].
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, threads, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn startpos_shallow() {
        let pos = Position::startpos();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&pos, d)).collect();
        assert_eq!(perft_parallel(&pos, 4, 2), counts[4]);
        assert_eq!(divide_parallel(&pos, 3, 2), divide(&pos, 3));
        assert_eq!(counts, [1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let div = divide(&pos, 3);
        assert_eq!(div.len(), 48);
        assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 97_862);
    }

    #[test]
    fn threads_and_hash_give_the_same_counts() {
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let plain = divide(&pos, 3);
        let hash = PerftHash::new(1);
        for threads in [1, 2, 3] {
            assert_eq!(divide_with(&pos, 3, threads, None), plain);
            assert_eq!(divide_with(&pos, 3, threads, Some(&hash)), plain);
        }
        assert_eq!(perft_with(&pos, 4, 2, Some(&hash)), 4_085_603);
        // A tiny table (one slot) collides all the time and must stay right.
        let tiny = PerftHash::new(0);
        assert_eq!(perft_hashed(&pos, 3, &tiny), 97_862);
    }

    #[test]
    fn portable_and_dispatched_copies_agree() {
        let fens = [
            crate::STARTPOS_FEN,
            KIWIPETE,
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            // SAFETY: the portable copy needs no CPU feature.
            let portable = unsafe { portable::perft(&pos, 4) };
            assert_eq!(perft(&pos, 4), portable, "{fen}");
            let hash = PerftHash::new(1);
            // SAFETY: as above.
            let hashed = unsafe { portable::perft_hashed(&pos, 4, &hash) };
            assert_eq!(hashed, portable, "{fen}");
        }
    }
}
