//! Attack tables: leapers and lines by `const fn`, sliders by magic bitboards.
//!
//! The magic numbers were found with a fixed seed and are committed
//! (`magic_numbers.rs`); `build.rs` fills the shared slider table from them
//! (see `slow.rs` for the ray-walking reference both are built from).

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::Square;

/// One square's magic: `(occupied & mask) * magic >> shift` indexes its slice.
#[cfg_attr(
    all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2"),
    allow(dead_code)
)]
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper_table(steps: &[(i8, i8); 8]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < 8 {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

static KING: [u64; 64] = leaper_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

const fn pawn_table(forward: i8) -> [u64; 64] {
    // Two capture steps; the other six entries repeat them (harmless for a union).
    leaper_table(&[
        (1, forward),
        (-1, forward),
        (1, forward),
        (-1, forward),
        (1, forward),
        (-1, forward),
        (1, forward),
        (-1, forward),
    ])
}

static PAWN: [[u64; 64]; 2] = [pawn_table(1), pawn_table(-1)];

/// Slider attacks on an empty board (every square along the directions).
const fn ray_table(dirs: &[(i8, i8); 4]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            loop {
                f += dirs[d].0;
                r += dirs[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                table[sq] |= 1 << (r * 8 + f);
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = ray_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
static BISHOP_RAYS: [u64; 64] = ray_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// For each king square, the union of `rays` from every square the king
/// may step to or cross when castling (its neighbours and the squares two
/// files away on its rank): where a slider must stand to attack one of them.
const fn zone_table(rays: &[u64; 64]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut king = 0;
    while king < 64 {
        let file = king % 8;
        let mut near = KING[king];
        if file >= 2 {
            near |= 1 << (king - 2);
        }
        if file <= 5 {
            near |= 1 << (king + 2);
        }
        let mut zone = 0;
        let mut sq = 0;
        while sq < 64 {
            if near >> sq & 1 != 0 {
                zone |= rays[sq];
            }
            sq += 1;
        }
        table[king] = zone;
        king += 1;
    }
    table
}

static ROOK_ZONE: [u64; 64] = zone_table(&ROOK_RAYS);
static BISHOP_ZONE: [u64; 64] = zone_table(&BISHOP_RAYS);

/// The squares from which a rook-like slider could attack, on an empty
/// board, a square next to a king on `king` or two files from it on its rank.
#[inline(always)]
pub(crate) fn rook_zone(king: Square) -> Bitboard {
    Bitboard(ROOK_ZONE[king.index()])
}

/// [`rook_zone`] for bishop-like sliders.
#[inline(always)]
pub(crate) fn bishop_zone(king: Square) -> Bitboard {
    Bitboard(BISHOP_ZONE[king.index()])
}

/// `BETWEEN[a][b]`: squares strictly between two aligned squares; `LINE[a][b]`:
/// the whole line through both. Both are empty for squares not on one line.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction, both ways.
            let mut full = 1u64 << a;
            let mut sign = -1;
            while sign <= 1 {
                let (mut f, mut r) = ((a % 8) as i8, (a / 8) as i8);
                loop {
                    f += df * sign;
                    r += dr * sign;
                    if f < 0 || f >= 8 || r < 0 || r >= 8 {
                        break;
                    }
                    full |= 1 << (r * 8 + f);
                }
                sign += 2;
            }
            let (mut f, mut r) = ((a % 8) as i8, (a / 8) as i8);
            let mut path = 0u64;
            loop {
                f += df;
                r += dr;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Squares a knight on `sq` attacks.
///
/// ```
/// use movegen::attacks::knight_attacks;
/// use movegen::Square;
///
/// assert_eq!(knight_attacks(Square::A1).len(), 2);
/// ```
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
///
/// ```
/// use movegen::attacks::king_attacks;
/// use movegen::Square;
///
/// assert_eq!(king_attacks(Square::E4).len(), 8);
/// ```
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
///
/// ```
/// use movegen::attacks::pawn_attacks;
/// use movegen::{Color, Square};
///
/// let e4 = pawn_attacks(Color::White, Square::E4);
/// assert!(e4.has(Square::D5) && e4.has(Square::F5) && e4.len() == 2);
/// ```
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[inline(always)]
#[cfg(not(all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2")))]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = m.offset + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    debug_assert!(idx < SLIDER_ATTACKS.len());
    // SAFETY: build.rs gives each square a slice of 2^(64 - shift) entries at
    // `offset` inside SLIDER_ATTACKS, and the shifted product is below 2^(64 - shift).
    Bitboard(unsafe { *SLIDER_ATTACKS.get_unchecked(idx) })
}

/// With the `pext` feature on a build for BMI2 (`-C target-cpu=native` or
/// `-C target-feature=+bmi2`): the index is PEXT of the occupancy, no
/// multiplication. Not the default: on AMD before Zen 3 PEXT is microcoded
/// and far slower than a magic multiply, and a portable build cannot use it.
#[inline(always)]
#[cfg(all(feature = "pext", target_arch = "x86_64", target_feature = "bmi2"))]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    pext_lookup(m, occupied)
}

/// Slider lookups, fixed at compile time. The generator is generic over
/// them so that perft can run a copy with PEXT lookups, chosen at run time
/// on CPUs where PEXT is fast (see `perft::dispatch`); everything else uses
/// [`Magics`].
pub(crate) trait Sliders {
    /// Squares a rook on `sq` attacks through `occupied`.
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard;
    /// Squares a bishop on `sq` attacks through `occupied`.
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard;
    /// Squares a queen on `sq` attacks through `occupied`.
    #[inline(always)]
    fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
        Self::rook(sq, occupied) | Self::bishop(sq, occupied)
    }
    /// The squares a slider whose lookup is `magic` (from
    /// [`rook_magic`] or [`bishop_magic`]) attacks through `occupied`:
    /// one code path for either kind, so a loop over sliders of both kinds
    /// does not branch on the kind.
    fn lookup(magic: &Magic, occupied: Bitboard) -> Bitboard;

    /// Sets bit `unit` in the byte of `reach` of every square of `squares`.
    #[inline(always)]
    fn mark(reach: &mut Reach, squares: Bitboard, unit: usize) {
        for sq in squares {
            reach.0[sq.index()] |= 1 << unit;
        }
    }
}

/// One byte per square, aligned so that eight squares can be written as
/// one word.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
pub(crate) struct Reach(pub(crate) [u8; 64]);

/// The lookup of a rook on `sq` (for [`Sliders::lookup`] as well).
#[inline(always)]
pub(crate) fn rook_magic(sq: Square) -> &'static Magic {
    &ROOK_MAGICS[sq.index()]
}

/// A lookup to fill arrays of them with before they are set (a1's rook).
#[cfg_attr(not(feature = "fast-perft"), allow(dead_code))]
pub(crate) const PLACEHOLDER_MAGIC: &Magic = &ROOK_MAGICS[0];

/// The lookup of a bishop on `sq` (for [`Sliders::lookup`] as well).
#[inline(always)]
pub(crate) fn bishop_magic(sq: Square) -> &'static Magic {
    &BISHOP_MAGICS[sq.index()]
}

/// The lookups of [`rook_attacks`] and [`bishop_attacks`].
pub(crate) struct Magics;

impl Sliders for Magics {
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        rook_attacks(sq, occupied)
    }

    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        bishop_attacks(sq, occupied)
    }

    #[inline(always)]
    fn lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
        magic_lookup(magic, occupied)
    }
}

/// Lookups indexed by PEXT of the occupancy. Only the perft copy compiled
/// for BMI2 names this type, and it is entered only once CPUID reported
/// BMI2 (see `perft::dispatch`).
#[cfg(all(target_arch = "x86_64", feature = "fast-perft"))]
pub(crate) struct Pext;

#[cfg(all(target_arch = "x86_64", feature = "fast-perft"))]
impl Sliders for Pext {
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        pext_lookup(rook_magic(sq), occupied)
    }

    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        pext_lookup(bishop_magic(sq), occupied)
    }

    #[inline(always)]
    fn lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
        pext_lookup(magic, occupied)
    }

    /// A rank at a time, without a branch: PDEP spreads the rank's eight
    /// bits to bit `unit` of eight bytes (the loop over the squares missed
    /// its exit about once per slider).
    #[inline(always)]
    fn mark(reach: &mut Reach, squares: Bitboard, unit: usize) {
        let bytes = 0x0101_0101_0101_0101u64 << unit;
        for (rank, word) in reach.0.chunks_exact_mut(8).enumerate() {
            // SAFETY: as in `pext_lookup`: PDEP is BMI2, which this type
            // is only used with.
            let spread = unsafe { core::arch::x86_64::_pdep_u64(squares.0 >> (8 * rank), bytes) };
            let word: &mut [u8; 8] = word.try_into().expect("chunks of eight");
            *word = (u64::from_le_bytes(*word) | spread).to_le_bytes();
        }
    }
}

#[cfg(all(
    target_arch = "x86_64",
    any(feature = "fast-perft", all(feature = "pext", target_feature = "bmi2"))
))]
#[inline(always)]
fn pext_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    // SAFETY: only reached through `Pext`, which only the BMI2 copy of perft
    // uses after CPUID reported BMI2, or from builds for BMI2 targets (the
    // `pext` feature). Against the magic multiply: +8% perft speed on an
    // Intel Xeon (release builds, interleaved).
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, m.mask) };
    let idx = m.offset + index as usize;
    debug_assert!(idx < PEXT_ATTACKS.len());
    // SAFETY: build.rs gives each square a slice of 2^popcount(mask) entries
    // at `offset`, and PEXT of `mask` bits is below that.
    Bitboard(unsafe { *PEXT_ATTACKS.get_unchecked(idx) })
}

/// Squares a rook on `sq` attacks, given the occupied squares.
///
/// ```
/// use movegen::attacks::rook_attacks;
/// use movegen::{Bitboard, Square};
///
/// let blocker = Bitboard::from_square(Square::A4);
/// let reach = rook_attacks(Square::A1, blocker);
/// assert!(reach.has(Square::A4) && !reach.has(Square::A5));
/// assert_eq!(reach.len(), 3 + 7);
/// ```
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(rook_magic(sq), occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
///
/// ```
/// use movegen::attacks::bishop_attacks;
/// use movegen::{Bitboard, Square};
///
/// assert_eq!(bishop_attacks(Square::A1, Bitboard::EMPTY).len(), 7);
/// ```
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(bishop_magic(sq), occupied)
}

/// Rook attacks from `sq` on an empty board: a cheap test of whether a rook
/// could attack a square at all before a magic lookup.
///
/// # Examples
///
/// ```
/// use movegen::attacks::{rook_attacks, rook_rays};
/// use movegen::{Bitboard, Square};
///
/// assert_eq!(rook_rays(Square::A1).len(), 14);
/// assert_eq!(rook_rays(Square::D4), rook_attacks(Square::D4, Bitboard::EMPTY));
/// assert!(!rook_rays(Square::A1).has(Square::B2));
/// ```
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Bishop attacks from `sq` on an empty board.
///
/// # Examples
///
/// ```
/// use movegen::attacks::bishop_rays;
/// use movegen::Square;
///
/// assert_eq!(bishop_rays(Square::A1).len(), 7);
/// assert_eq!(bishop_rays(Square::D4).len(), 13);
/// assert!(bishop_rays(Square::A1).has(Square::H8));
/// ```
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Squares a queen on `sq` attacks, given the occupied squares.
///
/// # Examples
///
/// ```
/// use movegen::attacks::queen_attacks;
/// use movegen::{Bitboard, Square};
///
/// assert_eq!(queen_attacks(Square::D4, Bitboard::EMPTY).len(), 27);
/// // A piece on d6 blocks the file beyond it (d7, d8).
/// let blocked = queen_attacks(Square::D4, Bitboard::from_square(Square::D6));
/// assert!(blocked.has(Square::D6) && !blocked.has(Square::D7));
/// assert_eq!(blocked.len(), 25);
/// ```
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
///
/// # Examples
///
/// ```
/// use movegen::attacks::between;
/// use movegen::{Bitboard, Square};
///
/// assert_eq!(
///     between(Square::A1, Square::D4),
///     Bitboard::from_square(Square::B2) | Bitboard::from_square(Square::C3)
/// );
/// assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY); // no shared line
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, else empty.
///
/// # Examples
///
/// ```
/// use movegen::attacks::line;
/// use movegen::{Bitboard, File, Square};
///
/// assert_eq!(line(Square::E2, Square::E7), Bitboard::file(File::E));
/// assert_eq!(line(Square::A1, Square::C3).len(), 8); // the long diagonal
/// assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
/// ```
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slow::{ray_attacks, relevant_mask, BISHOP_DIRS, ROOK_DIRS};

    fn squares() -> impl Iterator<Item = Square> {
        (0..64).map(|i| Square::from_index(i).unwrap())
    }

    /// Every blocker subset of `mask`.
    fn subsets(mask: u64) -> impl Iterator<Item = u64> {
        let mut sub = 0u64;
        let mut done = false;
        core::iter::from_fn(move || {
            if done {
                return None;
            }
            let cur = sub;
            sub = sub.wrapping_sub(mask) & mask;
            done = sub == 0;
            Some(cur)
        })
    }

    #[test]
    fn committed_magics_are_the_search_result() {
        use crate::slow::{find_magic, Rng, MAGIC_SEED};
        let mut rng = Rng(MAGIC_SEED);
        let rook: Vec<u64> = (0..64)
            .map(|sq| find_magic(sq, &ROOK_DIRS, &mut rng))
            .collect();
        let bishop: Vec<u64> = (0..64)
            .map(|sq| find_magic(sq, &BISHOP_DIRS, &mut rng))
            .collect();
        assert_eq!(
            rook,
            crate::magic_numbers::ROOK,
            "regenerate magic_numbers.rs"
        );
        assert_eq!(
            bishop,
            crate::magic_numbers::BISHOP,
            "regenerate magic_numbers.rs"
        );
    }

    #[test]
    fn sliders_match_ray_walk_for_every_blocker_subset() {
        let mut checked = 0;
        for sq in squares() {
            let i = sq.index() as u8;
            for occ in subsets(relevant_mask(i, &ROOK_DIRS)) {
                let want = ray_attacks(i, occ, &ROOK_DIRS);
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    want,
                    "rook {sq} {occ:#x}"
                );
                checked += 1;
            }
            for occ in subsets(relevant_mask(i, &BISHOP_DIRS)) {
                let want = ray_attacks(i, occ, &BISHOP_DIRS);
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    want,
                    "bishop {sq} {occ:#x}"
                );
                checked += 1;
            }
        }
        // 102,400 rook and 5,248 bishop blocker subsets in all.
        assert_eq!(checked, 107_648);
    }

    #[test]
    #[cfg(all(target_arch = "x86_64", feature = "fast-perft"))]
    fn pext_lookups_match_magic_lookups_for_every_blocker_subset() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        type Lookup = fn(Square, Bitboard) -> Bitboard;
        let kinds: [(&str, _, Lookup, Lookup); 2] = [
            ("rook", &ROOK_DIRS, Pext::rook, rook_attacks),
            ("bishop", &BISHOP_DIRS, Pext::bishop, bishop_attacks),
        ];
        let mut checked = 0;
        for (name, dirs, pext, magic) in kinds {
            for sq in squares() {
                for occ in subsets(relevant_mask(sq.index() as u8, dirs)) {
                    let occ = Bitboard(occ);
                    assert_eq!(pext(sq, occ), magic(sq, occ), "{name} {sq} {occ:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 107_648);
    }

    #[test]
    fn rays_are_attacks_on_an_empty_board() {
        for sq in squares() {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
        }
    }

    #[test]
    fn sliders_ignore_blockers_outside_the_mask() {
        // Edge squares never change the result: full-board occupancy behaves
        // like the mask-only occupancy.
        for sq in squares() {
            let i = sq.index() as u8;
            assert_eq!(
                rook_attacks(sq, Bitboard::FULL).0,
                ray_attacks(i, !0, &ROOK_DIRS)
            );
            assert_eq!(
                bishop_attacks(sq, Bitboard::FULL).0,
                ray_attacks(i, !0, &BISHOP_DIRS)
            );
        }
    }

    /// A leaper reference: every square at the given file/rank distance.
    fn leaper_ref(sq: Square, ok: impl Fn(i32, i32) -> bool) -> u64 {
        squares()
            .filter(|t| {
                let df = t.file() as i32 - sq.file() as i32;
                let dr = t.rank() as i32 - sq.rank() as i32;
                ok(df, dr)
            })
            .fold(0, |acc, t| acc | 1 << t.index())
    }

    #[test]
    fn leapers_match_reference() {
        for sq in squares() {
            let k = leaper_ref(sq, |df, dr| df * df + dr * dr == 5);
            assert_eq!(knight_attacks(sq).0, k, "knight {sq}");
            let k = leaper_ref(sq, |df, dr| df.abs().max(dr.abs()) == 1);
            assert_eq!(king_attacks(sq).0, k, "king {sq}");
            let w = leaper_ref(sq, |df, dr| df.abs() == 1 && dr == 1);
            assert_eq!(pawn_attacks(Color::White, sq).0, w, "white pawn {sq}");
            let b = leaper_ref(sq, |df, dr| df.abs() == 1 && dr == -1);
            assert_eq!(pawn_attacks(Color::Black, sq).0, b, "black pawn {sq}");
        }
    }

    /// The unit step from `a` towards `b` if they share a rank, file or diagonal.
    fn unit_step(a: Square, b: Square) -> Option<(i32, i32)> {
        let df = b.file() as i32 - a.file() as i32;
        let dr = b.rank() as i32 - a.rank() as i32;
        let aligned = (df, dr) != (0, 0) && (df == 0 || dr == 0 || df.abs() == dr.abs());
        aligned.then(|| (df.signum(), dr.signum()))
    }

    #[test]
    fn between_and_line_match_geometry() {
        for a in squares() {
            for b in squares() {
                let (mut want_between, mut want_line) = (0u64, 0u64);
                if let Some((sf, sr)) = unit_step(a, b) {
                    let n = (b.file() as i32 - a.file() as i32)
                        .abs()
                        .max((b.rank() as i32 - a.rank() as i32).abs());
                    for k in -8..=8 {
                        let f = a.file() as i32 + k * sf;
                        let r = a.rank() as i32 + k * sr;
                        if (0..8).contains(&f) && (0..8).contains(&r) {
                            want_line |= 1 << (r * 8 + f);
                            if 0 < k && k < n {
                                want_between |= 1 << (r * 8 + f);
                            }
                        }
                    }
                }
                assert_eq!(between(a, b).0, want_between, "between {a} {b}");
                assert_eq!(line(a, b).0, want_line, "line {a} {b}");
            }
        }
    }
}
