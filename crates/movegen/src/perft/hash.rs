//! The table of subtree counts for hashed perft.

use super::identity::check_key;
use crate::position::Position;
use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// A shared table of subtree counts keyed by zobrist key and depth, for
/// hashed perft.
///
/// Entries come four to a 64-byte bucket, so a probe costs one cache miss; a
/// new count replaces the entry of its bucket with the smallest count (an
/// empty one counts 0), so the subtrees that cost most to count again
/// survive a full table. Lock-free: each entry holds its check word
/// XOR the data beside the data, so an entry torn by two threads writing at
/// once reads as a miss.
///
/// A false hit (another position's count returned) needs a position whose
/// zobrist key lands in the same bucket with the same low 32 bits, and whose
/// independent second key (`check_key`) has the same high 32 bits: 64 bits
/// beyond the bucket index, so at most 4 * 2^-64 per probe whatever the table
/// size (docs/deep-perft.md works out what that means per run).
///
/// On Linux the table asks for transparent huge pages: random probes into
/// hundreds of megabytes otherwise spend much of their time on TLB misses
/// and first-touch page faults (perft 7 from the start position took 10.7 s
/// with 2 GiB against 2.1 s with 64 MiB before).
///
/// # Examples
///
/// ```
/// use movegen::perft::{Perft, PerftHash};
/// use movegen::Position;
///
/// let hash = PerftHash::new(4); // about 4 MiB
/// let pos = Position::startpos();
/// assert_eq!(Perft::new(4).hash(&hash).count(&pos), 197_281);
/// // A table may be shared by threads, and reused: the counts stay exact.
/// assert_eq!(Perft::new(4).threads(2).hash(&hash).count(&pos), 197_281);
/// ```
pub struct PerftHash {
    /// The block from the allocator, of `layout`; the buckets start at the
    /// first 64-byte boundary inside it.
    block: NonNull<u8>,
    layout: Layout,
    buckets: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the table owns its block (freed once, in `drop`) and is only read
// and written through atomics, so it may move to and be shared between threads.
unsafe impl Send for PerftHash {}
// SAFETY: as above.
unsafe impl Sync for PerftHash {}

/// Four entries of (check ^ data, data): one cache line. All-zero bytes are an
/// empty bucket: depth 0, which no probe asks for.
#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

const DEPTH_BITS: u32 = 8;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
const BUCKET: usize = std::mem::size_of::<Bucket>();

impl PerftHash {
    /// A table of about `mb` MiB (at least one bucket). A size the machine
    /// cannot give is halved until it can, rather than aborting.
    ///
    /// The memory comes zeroed from the system and is not touched here, so a
    /// table of any size is ready at once; its pages are faulted in as perft
    /// first writes them.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::perft::{Perft, PerftHash};
    /// use movegen::Position;
    ///
    /// // Even a table of a single bucket (0 MiB) gives exact counts.
    /// let tiny = PerftHash::new(0);
    /// assert_eq!(Perft::new(3).hash(&tiny).count(&Position::startpos()), 8_902);
    /// ```
    pub fn new(mb: usize) -> PerftHash {
        let mut n = (mb.saturating_mul(1 << 20) / BUCKET).max(1);
        loop {
            if let Some(table) = PerftHash::zeroed(n) {
                return table;
            }
            assert!(n > 1, "out of memory for a one-bucket perft table");
            n /= 2;
        }
    }

    /// `n` empty buckets, or `None` if the allocator cannot give them.
    fn zeroed(n: usize) -> Option<PerftHash> {
        // Alignment 16 lets the allocator use calloc, which maps fresh zero
        // pages for a large block instead of writing zeros into it (with 64 it
        // would allocate and then zero every page). One spare bucket leaves
        // room to start on a cache line.
        let size = n.checked_add(1)?.checked_mul(BUCKET)?;
        let layout = Layout::from_size_align(size, 16).ok()?;
        // SAFETY: `layout` has a non-zero size (at least two buckets). Taking
        // zeroed pages instead of writing the table makes a 1 GiB table ready
        // in 12 us against 0.72 s to write it, so `readyok` is at once.
        let block = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(BUCKET);
        // SAFETY: `offset` < 64 and the block holds n + 1 buckets, so `n`
        // aligned buckets fit after it.
        let start = unsafe { block.as_ptr().add(offset) };
        // The advice must come before the pages are first touched.
        advise_huge_pages(start, n * BUCKET);
        Some(PerftHash {
            block,
            layout,
            buckets: NonNull::new(start.cast::<Bucket>())?,
            len: n,
        })
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `buckets` points at `len` 64-byte-aligned buckets inside the
        // block, which lives as long as `self`; zeroed memory is a valid
        // bucket (atomics of value 0).
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; 8] {
        let buckets = self.buckets();
        &buckets[((key as u128 * buckets.len() as u128) >> 64) as usize].0
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline(always)]
    #[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints the cache; the address is that of a
        // live bucket, and SSE is part of every x86-64 CPU. Fetching each
        // child's bucket while the next child is made took startpos perft 8
        // with 256 MiB from 21.2 to 19.5 s (on-CPU, interleaved).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr().cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The count of `pos` at `depth`, if the table holds it.
    ///
    /// The bucket is chosen by the high bits of the zobrist key; an entry
    /// matches only if the low 32 bits of the zobrist key and the high 32 bits
    /// of the independent `check_key` agree too. The second key is computed
    /// only when the first half matches, so misses cost nothing extra. The
    /// first entry whose first half matches decides: two entries of one
    /// bucket whose first halves both match are a 2^-32 chance, and a miss
    /// only costs the count again. A plain loop: the `find_map` it replaces
    /// was compiled as a call of its own at every probe.
    #[inline(always)]
    pub(super) fn get(&self, pos: &Position, depth: u32) -> Option<u64> {
        let key = pos.key();
        let bucket = self.bucket(key);
        for i in 0..4 {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket[2 * i].load(Ordering::Relaxed) ^ data;
            if check as u32 == key as u32 && data & DEPTH_MASK == depth as u64 {
                return (check >> 32 == check_key(pos) >> 32).then_some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// Stores the count of `pos` at `depth`.
    #[inline(always)]
    pub(super) fn put(&self, pos: &Position, depth: u32, count: u64) {
        // Counts beyond 2^56 are not cached (none of the usual depths reach them).
        if count >> (64 - DEPTH_BITS) != 0 {
            return;
        }
        let key = pos.key();
        let check = entry_check(key, check_key(pos));
        let data = count << DEPTH_BITS | depth as u64;
        let bucket = self.bucket(key);
        // The entry with the smallest count goes, the first of equals (an
        // empty one is all zeros). The data word holds the count above the
        // depth, so comparing words compares counts. Choosing the shallowest
        // entry instead took 2.0% more instructions in Kiwipete perft 6 with
        // 8 MiB, a table too small for it: among the many entries of equal
        // depth it always evicted the first. A plain loop, as in `get`.
        let mut victim = 0;
        let mut smallest = u64::MAX;
        for i in 0..4 {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            if data < smallest {
                (victim, smallest) = (i, data);
            }
        }
        bucket[2 * victim].store(check ^ data, Ordering::Relaxed);
        bucket[2 * victim + 1].store(data, Ordering::Relaxed);
    }
}

/// The check word of an entry: the zobrist key's low half (its high bits chose
/// the bucket) and the second key's high half.
#[inline(always)]
fn entry_check(key: u64, second: u64) -> u64 {
    (second & !0xFFFF_FFFF) | (key & 0xFFFF_FFFF)
}

impl Drop for PerftHash {
    fn drop(&mut self) {
        // SAFETY: `block` came from `alloc_zeroed` with `layout` and is freed
        // only here.
        unsafe { alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// Asks Linux to back `len` bytes at `ptr` (not yet touched) with transparent
/// huge pages where the system allows it (`madvise` mode). Only advice: any
/// failure leaves ordinary pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(ptr: *mut T, len: usize) {
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
fn advise_huge_pages<T>(_ptr: *mut T, _len: usize) {}
