//! Finds magic numbers for rook and bishop attacks with a fixed-seed generator
//! and writes the magics and the shared attack table to `$OUT_DIR/magics.rs`.
//!
//! The search is deterministic: the same seed gives the same magics on every
//! machine and every build.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

#[path = "src/slow.rs"]
#[allow(dead_code)]
mod slow;

/// xorshift64* with a fixed seed: reproducible candidates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Sparse candidates (few bits set) make good magics far more often.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Every subset of `mask`, by the carry-rippler trick.
fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// Finds a magic for one square; returns (magic, its table slice).
fn find_magic(sq: u8, dirs: &[(i8, i8); 4], rng: &mut Rng) -> (u64, u64, u32, Vec<u64>) {
    let mask = slow::relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occs = subsets(mask);
    let attacks: Vec<u64> = occs
        .iter()
        .map(|&o| slow::ray_attacks(sq, o, dirs))
        .collect();
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = occs.iter().zip(&attacks).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[idx] != attempt {
                used[idx] = attempt;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if ok {
            // Unused slots (if any) keep stale values from failed attempts; clear them.
            for (slot, &stamp) in table.iter_mut().zip(&used) {
                if stamp != attempt {
                    *slot = 0;
                }
            }
            return (mask, magic, shift, table);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/slow.rs");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut all = Vec::new();
    let mut src = String::new();
    for (name, dirs) in [("ROOK", &slow::ROOK_DIRS), ("BISHOP", &slow::BISHOP_DIRS)] {
        writeln!(src, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for sq in 0..64u8 {
            let (mask, magic, shift, table) = find_magic(sq, dirs, &mut rng);
            writeln!(
                src,
                "    Magic {{ mask: {mask:#x}, magic: {magic:#x}, shift: {shift}, offset: {} }},",
                all.len()
            )
            .unwrap();
            all.extend(table);
        }
        writeln!(src, "];").unwrap();
    }
    // Unused when PEXT lookups replace it.
    write_table(&mut src, "SLIDER_ATTACKS", &all);
    // For the `fast-perft` feature's run-time PEXT copy on x86-64, or with
    // the `pext` feature, a second table in PEXT order: entry i of a square
    // is the attack set for pdep(i, mask). Each square's slice has the same
    // size and offset as its magic slice, so `Magic::offset` serves both.
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
    let fast_perft = env::var_os("CARGO_FEATURE_FAST_PERFT").is_some();
    if (x86_64 && fast_perft) || env::var_os("CARGO_FEATURE_PEXT").is_some() {
        write_pext_table(&mut src);
    }
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(out, src).unwrap();
}

fn write_pext_table(src: &mut String) {
    let mut pext = Vec::new();
    for dirs in [&slow::ROOK_DIRS, &slow::BISHOP_DIRS] {
        for sq in 0..64u8 {
            let mask = slow::relevant_mask(sq, dirs);
            for i in 0..(1u64 << mask.count_ones()) {
                let mut occ = 0u64;
                let mut m = mask;
                let mut bit = 0;
                while m != 0 {
                    let low = m & m.wrapping_neg();
                    if i >> bit & 1 != 0 {
                        occ |= low;
                    }
                    bit += 1;
                    m &= m - 1;
                }
                pext.push(slow::ray_attacks(sq, occ, dirs));
            }
        }
    }
    // Unused unless the build targets BMI2.
    write_table(src, "PEXT_ATTACKS", &pext);
}

/// Writes `entries` as a `static NAME: [u64; N]`, eight to a line, allowed to
/// go unused (which of the two tables is used depends on the build).
fn write_table(src: &mut String, name: &str, entries: &[u64]) {
    writeln!(src, "#[allow(dead_code)]").unwrap();
    writeln!(
        src,
        "pub(crate) static {name}: [u64; {}] = [",
        entries.len()
    )
    .unwrap();
    for chunk in entries.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|a| format!("{a:#x}")).collect();
        writeln!(src, "    {},", line.join(", ")).unwrap();
    }
    writeln!(src, "];").unwrap();
}
