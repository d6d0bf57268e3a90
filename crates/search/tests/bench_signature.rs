//! The `bench` node count is the engine's signature, and README.md states it.
//! A change to the search or evaluation that changes the count fails here
//! until the README says the new number.

use search::{bench, Limits, SearchControl, Searcher, BENCH_DEPTH};

/// The number README.md gives as the signature (`signature, **N**`).
fn readme_signature() -> u64 {
    let readme = include_str!("../../../README.md");
    let marker = "signature, **";
    let at = readme
        .find(marker)
        .expect("README.md states the bench signature")
        + marker.len();
    let digits: String = readme[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("the signature is a number")
}

#[test]
fn bench_matches_the_readme() {
    assert_eq!(bench(BENCH_DEPTH).0, readme_signature());
}

#[test]
fn bench_ignores_threads_used_before() {
    // A multi-threaded search on another searcher must not leak into bench.
    let before = bench(4).0;
    let mut searcher = Searcher::new(4);
    let limits = Limits {
        depth: Some(6),
        threads: 2,
        ..Limits::default()
    };
    let pos = movegen::Position::startpos();
    searcher.search(
        &movegen::Game::new(pos),
        &limits,
        &SearchControl::default(),
        &mut |_| {},
    );
    assert_eq!(bench(4).0, before);
}
