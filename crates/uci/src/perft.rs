//! `go perft`'s share of the `Perft Hash` option. The counting itself,
//! stoppable, is [`movegen::perft::Perft`] with a stop flag.

/// The MiB of perft hash a divide at `depth` gets when `Perft Hash` is
/// `option_mb`: no more than its subtrees could fill (48^(depth - 2) counts
/// of 16 bytes, a generous bound), since every first touch of a fresh page
/// costs time: with huge pages, 2 MiB zeroed for each early probe.
pub fn hash_mb(option_mb: usize, depth: u32) -> usize {
    if option_mb == 0 {
        return 0;
    }
    let counts = 48f64.powi(depth.saturating_sub(2) as i32);
    let need_mb = (counts * 16.0 / (1u64 << 20) as f64).ceil();
    option_mb.min(need_mb.max(1.0) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_no_larger_than_the_perft_can_fill() {
        assert_eq!(hash_mb(0, 9), 0);
        assert_eq!(hash_mb(4096, 3), 1);
        assert_eq!(hash_mb(4096, 6), 81);
        assert_eq!(hash_mb(4096, 9), 4096);
        assert_eq!(hash_mb(16, 7), 16);
    }
}
