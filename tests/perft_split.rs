//! Perft split into units, counted in batches and merged, against the
//! published counts of the perft suites (tests/data/README.md says where they
//! come from), in-process and through `engine perft split | units | merge`.

use movegen::perft::deep::{
    count_units, merge, read_units, result_line, split, write_units, MergeError,
};
use movegen::perft::{Perft, PerftHash};
use movegen::Position;
use std::process::{Command, Output};

/// (FEN, [(depth, published count)]) per line of a suite in tests/data.
fn load(name: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let count = |field: &str| {
        let (d, n) = field.trim().strip_prefix('D')?.split_once(' ')?;
        Some((d.parse().ok()?, n.trim().parse().ok()?))
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split(';');
            let fen = fields.next().unwrap().trim().to_owned();
            (fen, fields.filter_map(count).collect())
        })
        .collect()
}

/// perft(`depth`) of `root` the long way: split at `s`, write and read the
/// units file, count the units on two threads with a shared table, write the
/// results in the order they finish, and merge.
fn split_count_merge(root: &Position, s: u32, depth: u32, hash: &PerftHash) -> u128 {
    let mut file = Vec::new();
    write_units(&mut file, root, s, depth, &split(root, s)).unwrap();
    let units = read_units(file.as_slice(), ..).unwrap();
    assert_eq!(units.header.depth, depth);
    let mut results = String::new();
    let options = Perft::new(depth - s).threads(2).hash(hash);
    let done = count_units(&units.positions, options, |i, n| {
        results.push_str(&result_line(i, n));
        results.push('\n');
        true
    });
    assert!(done);
    merge(&units.paths, results.as_bytes()).unwrap()
}

/// Checks the deepest published count within `budget` of every `step`th
/// position of a suite, split at 1, 2 and one ply above the leaves.
fn check_suite(name: &str, step: usize, budget: u64) -> usize {
    let hash = PerftHash::new(4);
    let mut checked = 0;
    for (fen, counts) in load(name).into_iter().step_by(step) {
        let root = Position::from_fen(&fen).unwrap();
        let Some(&(depth, want)) = counts.iter().rfind(|c| c.1 <= budget) else {
            continue;
        };
        for s in [1, 2, depth - 1].into_iter().filter(|&s| s <= depth) {
            let got = split_count_merge(&root, s, depth, &hash);
            assert_eq!(got, want as u128, "{fen} depth {depth} split {s}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn split_units_merge_give_the_standard_suite_counts() {
    // 132 positions, each at up to three split depths.
    assert!(check_suite("perft_standard.epd", 1, 1_000_000) >= 300);
}

#[test]
fn split_units_merge_give_the_chess960_counts() {
    // Every 24th of the 960 positions.
    assert!(check_suite("perft_chess960.epd", 24, 1_000_000) >= 100);
}

#[test]
fn split_of_the_start_position_at_every_depth_to_five() {
    let hash = PerftHash::new(4);
    let root = Position::startpos();
    let (_, counts) = &load("perft_standard.epd")[0];
    for &(depth, want) in counts.iter().filter(|c| c.0 <= 5) {
        for s in 0..=depth {
            assert_eq!(
                split_count_merge(&root, s, depth, &hash),
                want as u128,
                "split {s}"
            );
        }
    }
}

fn engine(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the engine binary runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn the_cli_splits_counts_ranges_and_merges() {
    let dir = std::env::temp_dir().join(format!("pinmask-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let units = dir.join("kiwipete.units");
    let units = units.to_str().unwrap();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = engine(
        &[
            "perft", "split", "2", "--depth", "4", "--fen", kiwipete, "-o", units,
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    assert!(summary.starts_with("paths 2039\nunits "), "{summary}");
    let n: usize = summary.lines().nth(1).unwrap()[6..].parse().unwrap();
    // Two ranges, the second from stdin, make the whole.
    let half = (n / 2).to_string();
    let first = engine(
        &["perft", "units", units, "--to", &half, "--hash", "4"],
        None,
    );
    let file = std::fs::read_to_string(units).unwrap();
    let second = engine(
        &["perft", "units", "-", "--from", &half, "--threads", "2"],
        Some(&file),
    );
    assert!(first.status.success() && second.status.success());
    let results = text(&first.stdout) + &text(&second.stdout);
    assert_eq!(results.lines().count(), n);
    let merged = engine(&["perft", "merge", units, "-"], Some(&results));
    assert_eq!(text(&merged.stdout), format!("units {n}\nnodes 4085603\n"));

    // Missing and duplicate results are refused with a message.
    let lines: Vec<&str> = results.lines().collect();
    let missing = lines[1..].join("\n");
    let duplicate = format!("{results}{}\n", lines[3]);
    for (bad, why) in [(missing, "no result"), (duplicate, "more than one result")] {
        let out = engine(&["perft", "merge", units, "-"], Some(&bad));
        assert!(!out.status.success());
        assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "");
    }
    // A depth other than D - S is refused.
    let out = engine(&["perft", "units", units, "--depth", "3"], None);
    assert!(!out.status.success() && out.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_missing_and_duplicate_results() {
    let root = Position::startpos();
    let paths: Vec<u64> = split(&root, 2).iter().map(|u| u.paths).collect();
    let all: String = (0..400).map(|i| result_line(i, 20) + "\n").collect();
    assert_eq!(merge(&paths, all.as_bytes()), Ok(8000));
    let without_7: String = all
        .lines()
        .filter(|l| *l != "7 20")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        merge(&paths, without_7.as_bytes()),
        Err(MergeError::Missing { count: 1, first: 7 })
    );
    let twice = format!("{all}123 20\n");
    assert_eq!(
        merge(&paths, twice.as_bytes()),
        Err(MergeError::Duplicate(123))
    );
}
