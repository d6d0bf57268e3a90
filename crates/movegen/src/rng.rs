//! SplitMix64, the workspace's one seeded generator: the zobrist keys are
//! drawn from it, and the search's datagen and strength noise, the trainer,
//! the course's checkers and the tests seed it. Every seed is fine; the same
//! seed gives the same stream on every build and target. Not for
//! cryptography.

/// SplitMix64: a 64-bit state stepped by a constant (a Weyl sequence), each
/// step passed through [`mix`].
///
/// # Examples
///
/// ```
/// use movegen::rng::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = a.clone();
/// assert_eq!(a.next_u64(), b.next_u64());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose stream is fixed by `seed`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::rng::SplitMix64;
    ///
    /// assert_ne!(SplitMix64::new(1), SplitMix64::new(2));
    /// ```
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::rng::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(0);
    /// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n`, as the next draw modulo `n`; the bias is
    /// negligible for small `n`.
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::rng::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(3);
    /// assert!((0..100).all(|_| rng.below(6) < 6));
    /// ```
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// SplitMix64's output function: a bijection on `u64` in which every input
/// bit flips about half the output bits.
///
/// # Examples
///
/// ```
/// use movegen::rng::{mix, SplitMix64};
///
/// assert_eq!(mix(0x9E37_79B9_7F4A_7C15), SplitMix64::new(0).next_u64());
/// ```
#[inline(always)]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs for seed 0 of the reference C code (Vigna,
        // splitmix64.c), which every seeded stream here depends on.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_below() {
        let mut rng = SplitMix64::new(1);
        assert!((0..1000).all(|_| rng.below(7) < 7));
        assert_eq!(rng.below(1), 0);
    }
}
