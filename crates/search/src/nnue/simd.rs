//! The network's one way to use AVX2: the plain code, compiled a second time
//! with AVX2 enabled and chosen at run time. The build targets baseline
//! x86-64, so the compiler vectorises the plain loops with SSE2 only; the
//! same loops compiled for AVX2 handle twice the lanes. The plain function
//! is `#[inline(always)]`, so each copy is the whole loop, compiled for its
//! CPU. Nothing here changes a result: the loops use no fused multiply-add,
//! so both copies give the same bits.

/// Whether the CPU has AVX2, detected once and then read from a static (the
/// accumulator asks on every update).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx2() -> bool {
    use std::sync::OnceLock;
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// `avx2_dispatch! { fn name(args) -> T = plain; }` defines `name`, which
/// calls the `#[inline(always)]` function `plain` compiled for AVX2 where
/// the CPU has it ([`has_avx2`]), and as it is elsewhere.
macro_rules! avx2_dispatch {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $plain:ident;
    ) => {
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if $crate::nnue::simd::has_avx2() {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) $(-> $ret)? {
                    $plain($($arg),*)
                }
                // SAFETY: the CPU has AVX2 (checked above).
                return unsafe { avx2($($arg),*) };
            }
            $plain($($arg),*)
        }
    };
}

pub(crate) use avx2_dispatch;
