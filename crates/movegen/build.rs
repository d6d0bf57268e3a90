//! Fills the slider attack table from the committed magic numbers
//! (`src/magic_numbers.rs`) and writes the magics and the table to
//! `$OUT_DIR/magics.rs`. Each number is checked against every blocker subset
//! of its square as the table is filled (`slow::magic_table`).

use std::fmt::Write as _;
use std::{env, fs, path::Path};

#[path = "src/slow.rs"]
#[allow(dead_code)]
mod slow;

#[path = "src/magic_numbers.rs"]
mod magic_numbers;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/slow.rs");
    println!("cargo:rerun-if-changed=src/magic_numbers.rs");
    let mut all = Vec::new();
    let mut src = String::new();
    let kinds = [
        ("ROOK", &slow::ROOK_DIRS, &magic_numbers::ROOK),
        ("BISHOP", &slow::BISHOP_DIRS, &magic_numbers::BISHOP),
    ];
    for (name, dirs, magics) in kinds {
        writeln!(src, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for (sq, &magic) in (0..64u8).zip(magics) {
            let mask = slow::relevant_mask(sq, dirs);
            let shift = 64 - mask.count_ones();
            let table = slow::magic_table(sq, dirs, magic)
                .unwrap_or_else(|| panic!("{name} magic of square {sq} collides"));
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
