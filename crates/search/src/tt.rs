//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two atomic words, `key ^ data` and `data`, as in the perft
//! table: a reader recomputes the key from the pair, so an entry torn by two
//! threads writing at once reads as a miss instead of as wrong data. All-zero
//! memory is an empty table, so a new table is a zeroed allocation whose pages
//! the system supplies only when first touched: any `Hash` size is ready at once.

use movegen::Move;
use std::alloc::{alloc_zeroed, Layout};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// At most this (no move raised alpha).
    Upper = 1,
    /// At least this (a beta cutoff).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// What a search's `best` score says about the true score, given the
    /// window `(alpha, beta)` it was searched with.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched
    /// with the window `(alpha, beta)`.
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move (`Move::NULL` if none).
    pub mv: Move,
    /// Score, with mate scores relative to this node.
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
}

// The data word: move, score, eval, depth, bound, generation from low to high bits.
const GENERATION_SHIFT: u32 = 58;
const GENERATIONS: u8 = 1 << (64 - GENERATION_SHIFT);

fn pack(e: &Entry, generation: u8) -> u64 {
    u64::from(e.mv.bits())
        | u64::from(e.score as u16) << 16
        | u64::from(e.eval as u16) << 32
        | u64::from(e.depth) << 48
        | (e.bound as u64) << 56
        | u64::from(generation) << GENERATION_SHIFT
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16,
        eval: (data >> 32) as u16 as i16,
        depth: (data >> 48) as u8,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> GENERATION_SHIFT) as u8
}

/// A fixed-size table; sized once, never allocated during a search.
pub struct Table {
    /// Two words per slot: `key ^ data`, then `data`.
    words: Box<[AtomicU64]>,
    generation: u8,
}

/// A zeroed slice of `len` atomics, or `None` if the system refuses.
fn zeroed_words(len: usize) -> Option<Box<[AtomicU64]>> {
    let layout = Layout::array::<AtomicU64>(len).ok()?;
    // SAFETY: the layout has a non-zero size (len >= 2). All-zero bytes are a
    // valid AtomicU64, and the pointer comes from the global allocator with
    // exactly the layout a Box<[AtomicU64]> of this length frees it with.
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut AtomicU64;
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)))
    }
}

impl Table {
    /// A table of about `mb` MiB (at least one slot). The memory is zeroed
    /// lazily by the system, so this returns at once; a size the machine
    /// cannot give is halved until it can, rather than aborting.
    pub fn new(mb: usize) -> Table {
        let wanted = (mb.max(1).saturating_mul(1 << 20) / 16).max(1);
        let mut slots = wanted;
        let words = loop {
            if let Some(words) = zeroed_words(slots * 2) {
                break words;
            }
            assert!(slots > 1, "the allocator gives at least 16 bytes");
            slots /= 2;
        };
        if slots < wanted {
            log::warn!("hash: could not allocate {mb} MiB; using {slots} entries");
        }
        Table {
            words,
            generation: 0,
        }
    }

    /// Forgets every entry (a fresh zeroed allocation of the same size).
    pub fn clear(&mut self) {
        let len = self.words.len();
        if let Some(words) = zeroed_words(len) {
            self.words = words;
        } else {
            for w in self.words.iter() {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table size without a modulo.
        2 * ((key as u128 * (self.words.len() / 2) as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = self.words[slot + 1].load(Ordering::Relaxed);
        let check = self.words[slot].load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores a result, keeping a deeper entry of the same search for another
    /// key unless the new result is exact and from the main search: an exact
    /// result of quiescence (depth 0) never displaces a deeper entry.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let slot = self.slot(key);
        let old_data = self.words[slot + 1].load(Ordering::Relaxed);
        let same = self.words[slot].load(Ordering::Relaxed) ^ old_data == key;
        if let Some(old) = unpack(old_data) {
            let replace = same
                || generation_of(old_data) != self.generation
                || entry.depth >= old.depth
                || (entry.bound == Bound::Exact && entry.depth > 0);
            if !replace {
                return;
            }
            // Keep the old move when the new result has none for the same position.
            if entry.mv == Move::NULL && same {
                entry.mv = old.mv;
            }
        }
        let data = pack(&entry, self.generation);
        self.words[slot].store(key ^ data, Ordering::Relaxed);
        self.words[slot + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = (self.words.len() / 2).min(1000);
        let used = (0..sample)
            .filter(|&i| {
                let data = self.words[2 * i + 1].load(Ordering::Relaxed);
                data != 0 && generation_of(data) == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(mv: Move, score: i16, depth: u8, bound: Bound) -> Entry {
        Entry {
            mv,
            score,
            eval: -7,
            depth,
            bound,
        }
    }

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        assert!(t.probe(42).is_none());
        let mv = Move::from_bits(0x1234);
        t.store(42, entry(mv, -150, 5, Bound::Lower));
        assert_eq!(t.probe(42), Some(entry(mv, -150, 5, Bound::Lower)));
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn every_field_round_trips() {
        let t = Table::new(1);
        for (score, depth, bound) in [
            (i16::MIN, 0, Bound::Upper),
            (i16::MAX, 255, Bound::Exact),
            (0, 1, Bound::Lower),
        ] {
            let e = entry(Move::from_bits(0xffff), score, depth, bound);
            t.store(7, e);
            assert_eq!(t.probe(7), Some(e));
        }
    }

    #[test]
    fn exact_results_displace_deeper_entries_except_from_quiescence() {
        let t = Table::new(1);
        // Two keys of one slot: the slot is chosen by the key's high bits.
        let (a, b) = (7u64, 7u64 ^ 1);
        assert_eq!(t.slot(a), t.slot(b));
        t.store(a, entry(Move::from_bits(1), 10, 8, Bound::Lower));
        t.store(b, entry(Move::from_bits(2), 20, 0, Bound::Exact));
        assert!(
            t.probe(b).is_none(),
            "quiescence's result displaced depth 8"
        );
        assert_eq!(t.probe(a).map(|e| e.depth), Some(8));
        t.store(b, entry(Move::from_bits(2), 20, 1, Bound::Exact));
        assert_eq!(t.probe(b).map(|e| e.depth), Some(1));
        assert!(t.probe(a).is_none());
    }

    #[test]
    fn bounds_follow_the_window() {
        assert_eq!(Bound::of(30, 10, 30), Bound::Lower);
        assert_eq!(Bound::of(20, 10, 30), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 30), Bound::Upper);
        assert!(Bound::Exact.settles(20, 10, 30));
        assert!(Bound::Lower.settles(30, 10, 30) && !Bound::Lower.settles(29, 10, 30));
        assert!(Bound::Upper.settles(10, 10, 30) && !Bound::Upper.settles(11, 10, 30));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = Table::new(1);
        t.store(99, entry(Move::from_bits(1), 10, 3, Bound::Exact));
        let slot = t.slot(99);
        // Another thread's data word landing without its key word.
        t.words[slot + 1].fetch_xor(1 << 20, Ordering::Relaxed);
        assert!(t.probe(99).is_none());
    }

    #[test]
    fn sizes_follow_the_option() {
        assert_eq!(Table::new(1).words.len(), (1 << 20) / 8);
        assert_eq!(Table::new(4).words.len(), (4 << 20) / 8);
    }
}
