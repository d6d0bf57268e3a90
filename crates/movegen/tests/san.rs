//! SAN round trips over every legal move of the suites: each move's SAN
//! parses back to the same move, with and without its check mark, and no two
//! moves of a position share a SAN. (Agreement with python-chess's SAN is
//! checked by `scripts/differential` over the same suites.)

use movegen::{Position, Suffix};

fn suite(name: &str) -> Vec<Position> {
    let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn every_suite_move_round_trips() {
    let mut moves = 0;
    for name in [
        "perft_standard.epd",
        "perft_chess960.epd",
        "thesis_positions.epd",
    ] {
        for pos in suite(name) {
            let mut seen = std::collections::HashSet::new();
            for &mv in pos.legal_moves().iter() {
                let san = pos.san(mv).unwrap();
                let text = san.to_string();
                assert_eq!(pos.parse_san(&text), Ok(mv), "{pos} {text}");
                let bare = text.trim_end_matches(['+', '#']);
                assert_eq!(pos.parse_san(bare), Ok(mv), "{pos} {bare}");
                assert!(seen.insert(text.clone()), "{pos}: two moves write {text}");
                let next = pos.play(mv);
                let want = match (next.in_check(), next.has_legal_move()) {
                    (false, _) => Suffix::None,
                    (true, true) => Suffix::Check,
                    (true, false) => Suffix::Mate,
                };
                assert_eq!(san.suffix(), want, "{pos} {text}");
                moves += 1;
            }
        }
    }
    // The sum of the suites' depth-1 counts (python-chess agrees: 28,115).
    assert_eq!(moves, 28_115);
}
