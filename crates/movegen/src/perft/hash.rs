//! The table of subtree counts for hashed perft.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// Four entries of (key ^ data, data): one cache line. All-zero bytes are an
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

    #[inline(always)]
    pub(super) fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let bucket = self.bucket(key);
        (0..4).find_map(|i| {
            let data = bucket[2 * i + 1].load(Ordering::Relaxed);
            let check = bucket[2 * i].load(Ordering::Relaxed);
            (check ^ data == key && data & DEPTH_MASK == depth as u64).then_some(data >> DEPTH_BITS)
        })
    }

    #[inline(always)]
    pub(super) fn put(&self, key: u64, depth: u32, count: u64) {
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
