//! The `bench` node count is the engine's signature, and README.md and
//! docs/protocol.md state it. A change to the search or evaluation that
//! changes the count fails here until both say the new number.

use search::{bench, Limits, SearchControl, Searcher, BENCH_DEPTH};

/// The documents that give the signature, with their text.
const DOCS: [(&str, &str); 2] = [
    ("README.md", include_str!("../../../README.md")),
    (
        "docs/protocol.md",
        include_str!("../../../docs/protocol.md"),
    ),
];

/// The number `text` gives as the signature (`signature, **N**`).
fn stated_signature(name: &str, text: &str) -> u64 {
    let marker = "signature, **";
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("{name} states the bench signature"))
        + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("{name}: the signature is a number"))
}

#[test]
fn bench_matches_the_docs() {
    let nodes = bench(BENCH_DEPTH).0;
    for (name, text) in DOCS {
        assert_eq!(nodes, stated_signature(name, text), "{name}");
    }
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
