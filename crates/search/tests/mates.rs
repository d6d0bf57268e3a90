//! A fixed sample of the mate suite (`tests/data/mates.epd`: positions of
//! our own games that Stockfish 15.1 labels mate in 2 to 5, confirmed by a
//! deeper search; `tests/data/mates.SOURCE` says how they were made) is
//! solved within a node budget: the search ends on a mate score no longer
//! than the label. `scripts/mate-suite` solves the whole suite on the clock.

use movegen::{Game, Move, Position};
use search::{Limits, Score, SearchControl, Searcher};

const SUITE: &str = include_str!("../../../tests/data/mates.epd");

/// Every `SAMPLE_STEP`th position of the suite, from the first.
const SAMPLE_STEP: usize = 10;

/// Nodes a position gets: about half of what `go movetime 1000` searches
/// on the 2-core machine (the release build, one thread), where
/// `scripts/mate-suite` solves every position.
const NODES: u64 = 1_000_000;

/// The suite's positions: the FEN, the label and the id.
fn suite() -> Vec<(String, i32, String)> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.splitn(5, ' ').collect();
            assert_eq!(fields.len(), 5, "{line}");
            let op = |name: &str| {
                fields[4]
                    .split(';')
                    .map(str::trim)
                    .find_map(|op| op.strip_prefix(name).map(|v| v.trim().trim_matches('"')))
                    .unwrap_or_else(|| panic!("{line}: no {name}"))
                    .to_string()
            };
            // The game's clocks, which the labels were searched with.
            let fen = format!("{} {} {}", fields[..4].join(" "), op("hmvc "), op("fmvn "));
            let label = op("dm ").parse().unwrap_or_else(|_| panic!("{line}: dm"));
            (fen, label, op("id "))
        })
        .collect()
}

#[test]
fn the_suite_holds_at_least_300_mates_in_2_to_5() {
    let suite = suite();
    assert!(suite.len() >= 300, "{} positions", suite.len());
    for (fen, label, id) in &suite {
        assert!((2..=5).contains(label), "{id}: mate in {label}");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{id}: the game is over");
    }
}

#[test]
fn a_sample_of_the_suite_is_mated_within_the_label() {
    let mut failures = Vec::new();
    let sample: Vec<_> = suite().into_iter().step_by(SAMPLE_STEP).collect();
    for (fen, label, id) in &sample {
        let pos = Position::from_fen(fen).unwrap();
        let mut searcher = Searcher::new(16);
        let mut last = None;
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        let result = searcher.search(
            &Game::new(pos),
            &limits,
            &SearchControl::default(),
            &mut |i| {
                last = Some((i.score, i.pv.first().copied()));
            },
        );
        let best: Option<Move> = result.best;
        match last {
            Some((Score::Mate(m), first)) if m > 0 && m <= *label && first == best => {}
            other => failures.push(format!("{id} (mate {label}) {fen}: {other:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} not mated within {NODES} nodes:\n{}",
        failures.len(),
        sample.len(),
        failures.join("\n")
    );
}
