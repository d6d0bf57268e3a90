//! Crowd-confirmed cases are regression tests: every `tests/data/crowd_*.epd`
//! file (the crowd mode's export, see docs/crowd.md) is checked against the
//! generator. A line is `FEN ;moves <legal> ;D1 n ;experts k`, plus `;crowd
//! <agreed set>` when the agreed set differed from the generator's (a
//! flagged case). Castling is king-takes-rook when the FEN's castling field
//! names rook files (Shredder-FEN), as the export writes Chess960 positions.

use movegen::{CastlingMode, Position};
use std::collections::BTreeSet;

fn op<'a>(ops: &'a [(&'a str, &'a str)], name: &str) -> Option<&'a str> {
    ops.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

fn set(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(String::from).collect()
}

/// Checks one exported line; returns whether it was a flagged case.
fn check_line(line: &str) -> bool {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap().trim();
    let ops: Vec<(&str, &str)> = parts
        .map(|op| op.trim())
        .map(|op| op.split_once(' ').unwrap_or((op, "")))
        .collect();
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let castling = fen.split(' ').nth(2).unwrap();
    let chess960 = castling.chars().any(|c| !"KQkq-".contains(c));
    // File letters make the position Chess960 (king-takes-rook castling).
    let mode = CastlingMode::from_chess960(chess960);
    assert_eq!(pos.castling_mode(), mode, "{fen}");
    let legal: BTreeSet<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    let moves = set(op(&ops, "moves").unwrap_or_else(|| panic!("{line}: no ;moves")));
    assert_eq!(legal, moves, "{fen}: the generator's moves changed");
    assert_eq!(
        op(&ops, "D1"),
        Some(legal.len().to_string().as_str()),
        "{fen}"
    );
    let experts: usize = op(&ops, "experts").and_then(|n| n.parse().ok()).unwrap();
    assert!(experts >= 2, "{fen}: agreement needs two experts");
    let Some(crowd) = op(&ops, "crowd") else {
        return false;
    };
    let crowd = set(crowd);
    assert_ne!(
        crowd, legal,
        "{fen}: a flagged case differs from the generator"
    );
    for extra in crowd.difference(&legal) {
        assert!(
            movegen::explain_move(&pos, extra).is_err(),
            "{fen}: {extra} is listed by the crowd only but the generator accepts it"
        );
    }
    true
}

#[test]
fn crowd_exports_agree_with_the_generator() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut files = 0;
    let (mut confirmed, mut flagged) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.starts_with("crowd_") && name.ends_with(".epd")) {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if check_line(line) {
                flagged += 1;
            } else {
                confirmed += 1;
            }
        }
    }
    assert!(files >= 1, "no crowd export under tests/data");
    assert!(confirmed >= 100, "only {confirmed} confirmed cases");
    assert!(flagged >= 1, "the bundled export holds a flagged case");
}

#[test]
fn a_line_that_disagrees_with_the_generator_fails() {
    let good = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;moves e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 ;D1 15 ;experts 2";
    assert!(!check_line(good));
    let chess960 = good.replace(" K - 0 1", " H - 0 1").replace("e1g1", "e1h1");
    assert!(!check_line(&chess960));
    // A flagged case: the crowd missed moves and claimed an illegal one.
    assert!(check_line(&format!("{good} ;crowd e1d1 e1e2 e1g2")));
    for bad in [
        good.replace("e1g1 ", ""),
        good.replace("D1 15", "D1 14"),
        good.replace("experts 2", "experts 1"),
        format!(
            "{good} ;crowd {}",
            good.split(";moves ")
                .nth(1)
                .unwrap()
                .split(" ;")
                .next()
                .unwrap()
        ),
    ] {
        let outcome = std::panic::catch_unwind(|| check_line(&bad));
        assert!(outcome.is_err(), "accepted: {bad}");
    }
}
