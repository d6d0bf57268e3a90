//! Replays the fuzz targets' committed inputs on stable: the seed corpora in
//! `fuzz/seeds/<target>/` and every input that once crashed a target, kept in
//! `fuzz/regressions/<target>/`. The checks are the targets' own.

#[path = "support/fuzz_checks.rs"]
mod fuzz_checks;

use std::fs;
use std::path::PathBuf;

/// The contents of every file under `fuzz/<kind>/<target>/`.
fn inputs(kind: &str, target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let data = fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, data)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn fen_inputs_replay_cleanly() {
    let seeds = inputs("seeds", "fen");
    assert!(
        seeds.len() >= 10,
        "fuzz/seeds/fen has {} files",
        seeds.len()
    );
    for (path, data) in seeds.iter().chain(&inputs("regressions", "fen")) {
        eprintln!("{}", path.display());
        fuzz_checks::check_fen(data);
    }
}

#[test]
fn uci_inputs_replay_cleanly() {
    let seeds = inputs("seeds", "uci_lines");
    assert!(
        seeds.len() >= 5,
        "fuzz/seeds/uci_lines has {} files",
        seeds.len()
    );
    let mut engine = fuzz_checks::silent_engine();
    for (path, data) in seeds.iter().chain(&inputs("regressions", "uci_lines")) {
        eprintln!("{}", path.display());
        fuzz_checks::feed_uci(&mut engine, data);
    }
}
