//! Perft suites from tests/data (see tests/data/README.md for where each count
//! comes from). Each position is checked at every depth whose published count
//! is within a node budget, so `cargo test` stays quick; the `#[ignore]`d tests
//! run every depth (`cargo test --release -- --ignored`).

use movegen::perft::{perft, Perft, PerftHash};
use movegen::Position;

/// One EPD line: the FEN and its `(depth, nodes)` counts.
struct Entry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Entry> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .filter_map(|p| {
                    let p = p.trim();
                    let (d, n) = p.strip_prefix('D')?.split_once(' ')?;
                    Some((d.parse().ok()?, n.trim().parse().ok()?))
                })
                .collect();
            Entry {
                line: i + 1,
                fen,
                counts,
            }
        })
        .collect()
}

/// Checks every count of every entry at most `budget` nodes; returns how many.
fn run_suite(name: &str, budget: u64) -> usize {
    run_suite_with(name, budget, perft)
}

/// As [`run_suite`], counting with `count`.
fn run_suite_with(name: &str, budget: u64, count: impl Fn(&Position, u32) -> u64) -> usize {
    let mut checked = 0;
    for e in load(name) {
        let pos = Position::from_fen(&e.fen)
            .unwrap_or_else(|err| panic!("{name}:{} {}: {err}", e.line, e.fen));
        for &(depth, want) in e.counts.iter().filter(|c| c.1 <= budget) {
            let got = count(&pos, depth);
            assert_eq!(got, want, "{name}:{} {} depth {depth}", e.line, e.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn standard_suite_up_to_two_million_nodes() {
    let checked = run_suite("perft_standard.epd", 2_000_000);
    // 132 positions, and each has several shallow depths under the budget.
    assert!(checked > 500, "only {checked} counts checked");
}

#[test]
fn standard_suite_hashed_on_two_threads() {
    // One small table shared by every position and depth: entries from other
    // positions must never be mistaken for this one's.
    let hash = PerftHash::new(4);
    let checked = run_suite_with("perft_standard.epd", 2_000_000, |pos, depth| {
        Perft::new(depth).threads(2).hash(&hash).count(pos)
    });
    assert!(checked > 500, "only {checked} counts checked");
}

#[test]
#[ignore = "deep: minutes in release mode"]
fn standard_suite_every_depth_hashed() {
    let hash = PerftHash::new(256);
    run_suite_with("perft_standard.epd", u64::MAX, |pos, depth| {
        Perft::new(depth).threads(2).hash(&hash).count(pos)
    });
}

#[test]
#[ignore = "deep: minutes in release mode"]
fn standard_suite_every_depth() {
    run_suite("perft_standard.epd", u64::MAX);
}

#[test]
#[ignore = "deep: startpos perft 6"]
fn startpos_depth_6() {
    assert_eq!(perft(&Position::startpos(), 6), 119_060_324);
}

#[test]
#[ignore = "deep: kiwipete perft 5"]
fn kiwipete_depth_5() {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    assert_eq!(perft(&pos, 5), 193_690_690);
}

#[test]
fn thesis_positions_exact_move_lists() {
    let path = format!(
        "{}/tests/data/thesis_positions.epd",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let moves_field = parts.next().unwrap().trim();
        let want: Vec<&str> = moves_field
            .strip_prefix("moves")
            .unwrap()
            .split_whitespace()
            .collect();
        let pos = Position::from_fen(fen).unwrap();
        let mut got: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        got.sort();
        assert_eq!(got, want, "{fen}");
        seen += 1;
    }
    assert_eq!(seen, 26);
    assert_eq!(run_suite("thesis_positions.epd", u64::MAX), 26 * 4);
}

#[test]
fn chess960_suite_up_to_one_million_nodes() {
    let checked = run_suite("perft_chess960.epd", 1_000_000);
    // 960 positions, each with at least its depths 1 to 3 under the budget.
    assert!(checked >= 960 * 3, "only {checked} counts checked");
}

#[test]
#[ignore = "deep: hours in release mode"]
fn chess960_suite_every_depth() {
    run_suite("perft_chess960.epd", u64::MAX);
}
