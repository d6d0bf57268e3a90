//! `engine perft split | units | merge`: the command-line side of perft split
//! into units (the work is `movegen`'s; this reads, writes and prints).

use crate::cli::{MergeArgs, SplitArgs, UnitsArgs};
use movegen::perft::deep::{self, UnitsFile};
use movegen::perft::{Perft, PerftHash};
use movegen::Position;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// `engine perft split`: the units of `--fen` split at SPLIT for a perft of
/// total depth `--depth`, to `--out` or stdout.
pub fn split(args: &SplitArgs) -> Result<(), String> {
    let (fen, split, depth) = (&args.fen, args.split, args.depth);
    let root = Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
    if split > depth {
        return Err(format!(
            "the split depth ({split}) must not exceed the total depth ({depth})"
        ));
    }
    let units = deep::split(&root, split);
    let write = |w: &mut dyn Write| -> io::Result<()> {
        let mut w = BufWriter::new(w);
        deep::write_units(&mut w, &root, split, depth, &units)?;
        w.flush()
    };
    let Some(path) = &args.out else {
        return write(&mut io::stdout().lock()).map_err(|e| format!("cannot write the units: {e}"));
    };
    let mut file =
        File::create(path).map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
    write(&mut file).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    let paths: u64 = units.iter().map(|u| u.paths).sum();
    println!("paths {paths}");
    println!("units {}", units.len());
    println!(
        "paths per unit {:.2}",
        paths as f64 / units.len().max(1) as f64
    );
    Ok(())
}

/// `engine perft units`: one `index count` line per unit as it finishes.
pub fn units(args: &UnitsArgs) -> Result<(), String> {
    let from = args.from.unwrap_or(0);
    let file = match args.to {
        Some(to) => read(&args.file, from..to)?,
        None => read(&args.file, from..)?,
    };
    let header = &file.header;
    let left = header.depth - header.split;
    let depth = args.depth.unwrap_or(left);
    if depth != left {
        return Err(format!(
            "--depth {depth}: these units are for perft {} split at {}, so each needs depth {left}",
            header.depth, header.split
        ));
    }
    let hash = (args.hash > 0).then(|| PerftHash::new(args.hash as usize));
    let options = Perft::new(depth)
        .threads(args.threads as usize)
        .hash(hash.as_ref());
    let mut out = io::stdout().lock();
    let mut failed = None;
    deep::count_units(&file.positions, options, |i, n| {
        // Flushed line by line: whoever reads this keeps every finished unit.
        let written = writeln!(out, "{}", deep::result_line(i, n)).and_then(|()| out.flush());
        written.map_err(|e| failed = Some(e)).is_ok()
    });
    match failed {
        Some(e) => Err(format!("cannot write the results: {e}")),
        None => Ok(()),
    }
}

/// `engine perft merge`: the total of a complete set of results.
pub fn merge(args: &MergeArgs) -> Result<(), String> {
    let results = &args.results;
    let file = read(&args.units, 0..0)?;
    let reader = open(results)?;
    let total =
        deep::merge(&file.paths, reader).map_err(|e| format!("'{}': {e}", results.display()))?;
    println!("units {}", file.paths.len());
    println!("nodes {total}");
    Ok(())
}

fn read(path: &Path, range: impl std::ops::RangeBounds<usize>) -> Result<UnitsFile, String> {
    deep::read_units(open(path)?, range).map_err(|e| format!("'{}': {e}", path.display()))
}

/// The file at `path`, or stdin for `-`.
fn open(path: &Path) -> Result<Box<dyn BufRead>, String> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = File::open(path).map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
    Ok(Box::new(BufReader::new(file)))
}
