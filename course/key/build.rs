//! Builds the answer key's table from the lab folders (`course/labs/NN-slug/`): each lab's
//! `solution.rs` and every file of its `bugs/`, so that a bug added to a folder is in the key
//! (and tested) without being listed anywhere.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let labs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../labs");
    println!("cargo::rerun-if-changed={}", labs.display());
    let mut folders: Vec<(u8, PathBuf)> = fs::read_dir(&labs)
        .expect("course/labs/ is beside the key")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let number = path.file_name()?.to_str()?.get(..2)?.parse().ok()?;
            path.join("solution.rs").is_file().then_some((number, path))
        })
        .collect();
    folders.sort();
    let mut table = String::from("&[\n");
    for (number, folder) in &folders {
        let mut bugs: Vec<PathBuf> = fs::read_dir(folder.join("bugs"))
            .map(|dir| dir.filter_map(|e| Some(e.ok()?.path())).collect())
            .unwrap_or_default();
        bugs.retain(|p| p.extension().is_some_and(|e| e == "bug"));
        bugs.sort();
        let _ = writeln!(
            table,
            "    LabKey {{ number: {number}, solution: include_str!({:?}), bugs: &[",
            text(&folder.join("solution.rs"))
        );
        for bug in &bugs {
            let name = bug.file_name().and_then(|n| n.to_str());
            let name = name.expect("a bug's file name is UTF-8 (it is printed)");
            let _ = writeln!(table, "        ({name:?}, include_str!({:?})),", text(bug));
        }
        table.push_str("    ] },\n");
    }
    table.push_str("]\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("labs.rs"), table).expect("OUT_DIR is writable");
}

/// A path as include_str! takes it.
fn text(path: &Path) -> String {
    let path = fs::canonicalize(path).expect("a lab file read a moment ago is there");
    path.to_str()
        .expect("the repository's path is UTF-8 (include_str! needs a string)")
        .to_string()
}
