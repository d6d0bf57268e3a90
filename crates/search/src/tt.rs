//! The transposition table: one entry per slot, indexed by the zobrist key.

use movegen::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score (0, so that zeroed memory holds valid entries).
    Exact = 0,
    /// At least this (a beta cutoff).
    Lower,
    /// At most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// Best or refuting move (`Move::NULL` if none).
    pub mv: Move,
    /// Score, with mate scores relative to this node.
    pub score: i16,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
    generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: Move::NULL,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    generation: 0,
};

/// A fixed-size table; sized once, never allocated during a search.
pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` MiB (at least one entry), ready at once: its
    /// memory is zeroed by the OS page by page on first use, not filled here.
    pub fn new(mb: usize) -> Table {
        let wanted = ((mb.max(1) << 20) / std::mem::size_of::<Entry>()).max(1);
        // A size the machine cannot give is halved until it can, rather than aborting.
        let mut n = wanted;
        let entries = loop {
            match zeroed_entries(n) {
                Some(entries) => break entries,
                None if n > 1 => n /= 2,
                None => break vec![EMPTY],
            }
        };
        if n < wanted {
            log::warn!("hash: could not allocate {mb} MiB; using {n} entries");
        }
        Table {
            entries,
            generation: 0,
        }
    }

    /// Forgets every entry: fresh zeroed memory rather than a fill, so that
    /// clearing a large table costs no time until its pages are used.
    pub fn clear(&mut self) {
        let n = self.entries.len();
        self.entries = Vec::new();
        self.entries = zeroed_entries(n).unwrap_or_else(|| vec![EMPTY; n]);
        self.generation = 0;
    }

    /// Marks the start of a new search, so old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table size without a modulo.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && key != 0).then_some(e)
    }

    /// Stores a result, keeping a deeper entry of the same search for another key.
    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let slot = self.slot(key);
        let old = self.entries[slot];
        let replace = old.key == key
            || old.generation != self.generation
            || depth as u8 >= old.depth
            || bound == Bound::Exact;
        if !replace {
            return;
        }
        // Keep the old move when the new result has none for the same position.
        let mv = if mv == Move::NULL && old.key == key {
            old.mv
        } else {
            mv
        };
        self.entries[slot] = Entry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            bound,
            generation: self.generation,
        };
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.key != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// `n` empty entries in zeroed memory that is not touched here: the
/// allocator takes large blocks straight from the OS, whose pages read as
/// zero until written. `None` if the allocator cannot give them.
fn zeroed_entries(n: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Entry>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of `n`
    // entries, and all-zero bytes are a valid entry (key 0 marks it empty;
    // `Move::NULL` and `Bound::Exact` are 0; the rest are integers).
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        assert!(t.probe(42).is_none());
        let mv = Move::from_bits(0x1234);
        t.store(42, mv, -150, 5, Bound::Lower);
        let e = t.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (mv, -150, 5, Bound::Lower)
        );
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_fresh_or_cleared_table_is_empty() {
        let mut t = Table::new(1);
        assert!((0..10_000u64).all(|k| t.probe(k.wrapping_mul(0x9E37_79B9)).is_none()));
        assert_eq!(t.hashfull(), 0);
        t.store(7, Move::from_bits(0x1234), 1, 1, Bound::Exact);
        t.clear();
        assert!(t.probe(7).is_none());
        assert_eq!(t.entries.len(), (1 << 20) / 16);
    }

    #[test]
    fn sizes_follow_the_option() {
        assert_eq!(Table::new(1).entries.len(), (1 << 20) / 16);
        assert_eq!(Table::new(4).entries.len(), (4 << 20) / 16);
    }
}
