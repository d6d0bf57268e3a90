//! The JSON the board page reads: a position with its legal moves and
//! bitboards, the comparison of an expert's list with the generator, divide
//! counts, bundled positions, and the line a saved case becomes.

use movegen::{Bitboard, CastlingMode, Color, Move, Position, Square, UciMove};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};

/// The bundled positions the page offers: (name, EPD text, Chess960).
const SUITES: [(&str, &str, bool); 3] = [
    (
        "Thesis positions",
        include_str!("../../../tests/data/thesis_positions.epd"),
        false,
    ),
    (
        "Perft suite (standard)",
        include_str!("../../../tests/data/perft_standard.epd"),
        false,
    ),
    (
        "Perft suite (Chess960)",
        include_str!("../../../tests/data/perft_chess960.epd"),
        true,
    ),
];

/// A bitboard as the page shows it: `0x` and 16 hex digits (a1 = bit 0).
pub fn hex(bb: Bitboard) -> String {
    format!("0x{:016x}", bb.0)
}

/// Whether castling needs Chess960 notation here: a right whose king or rook
/// is not on its standard square.
pub fn is_chess960(pos: &Position) -> bool {
    pos.with_castling_mode(CastlingMode::Standard).is_none()
}

/// `pos` with castling written in Chess960 notation if `chess960`, else in
/// standard notation where its rights allow it (the page turns `chess960`
/// on for positions that need it, see [`is_chess960`]).
pub fn with_mode(pos: &Position, chess960: bool) -> Position {
    pos.with_castling_mode(CastlingMode::from_chess960(chess960))
        .unwrap_or(*pos)
}

/// `moves` as the page writes them (castling as in [`with_mode`]), in the
/// order of that text.
fn sorted_texts(moves: impl IntoIterator<Item = Move>, mode: CastlingMode) -> Vec<String> {
    let mut texts: Vec<String> = moves
        .into_iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    texts.sort();
    texts
}

fn board(pos: &Position) -> Vec<String> {
    (0..64)
        .map(|i| {
            let sq = Square::from_index(i).expect("0..64 are squares");
            match (pos.piece_on(sq), pos.color_on(sq)) {
                (Some(p), Some(c)) => p.to_fen_char(c).to_string(),
                _ => String::new(),
            }
        })
        .collect()
}

/// Everything the page draws for a position.
pub fn position(pos: &Position, chess960: bool) -> Value {
    let mode = CastlingMode::from_chess960(chess960);
    let legal = pos.legal_moves();
    // Each piece's targets as the page enters them: the squares its moves
    // name in UCI (castling in `mode`).
    let mut targets: BTreeMap<Square, Bitboard> = BTreeMap::new();
    for &mv in legal.iter() {
        if let UciMove::Normal { from, to, .. } = mv.to_uci(mode) {
            *targets.entry(from).or_default() |= Bitboard::from_square(to);
        }
    }
    let targets: serde_json::Map<String, Value> = targets
        .into_iter()
        .map(|(from, to)| (from.to_string(), json!(hex(to))))
        .collect();
    // Each legal move's SAN, keyed by its UCI text, for the page's lists.
    let san: serde_json::Map<String, Value> = legal
        .iter()
        .map(|&mv| {
            (
                mv.to_uci(mode).to_string(),
                json!(pos.san(mv).expect("a listed move is legal").to_string()),
            )
        })
        .collect();
    let status = match (pos.in_check(), legal.is_empty()) {
        (true, true) => "checkmate",
        (false, true) => "stalemate",
        (true, false) => "check",
        (false, false) => "normal",
    };
    let pins: Vec<Value> = movegen::pins(pos)
        .iter()
        .map(|p| json!({"pinned": p.pinned.to_string(), "pinner": p.pinner.to_string(), "ray": hex(p.ray)}))
        .collect();
    let fen = pos.fen_with(CastlingMode::from_chess960(chess960));
    let mut fields = fen.split(' ');
    json!({
        "fen": fen,
        "chess960": chess960,
        "side": if pos.side_to_move() == Color::White { "w" } else { "b" },
        "castling": fields.nth(2).unwrap_or("-"),
        "en_passant": pos.ep_square().map(|s| s.to_string()),
        "board": board(pos),
        "legal": sorted_texts(legal.iter().copied(), mode),
        "san": san,
        "status": status,
        "checkers": hex(pos.checkers()),
        "pinned": hex(pos.pinned()),
        "pins": pins,
        "bitboards": {
            "white": hex(pos.colored(Color::White)),
            "black": hex(pos.colored(Color::Black)),
            "attacked_by_white": hex(movegen::attacked_by(pos, Color::White)),
            "attacked_by_black": hex(movegen::attacked_by(pos, Color::Black)),
            "checkers": hex(pos.checkers()),
            "check_mask": hex(movegen::check_mask(pos)),
            "pinned": hex(pos.pinned()),
            "pin_rays": hex(movegen::pin_rays(pos)),
        },
        "targets": targets,
    })
}

/// The expert's claims judged: claims the generator agrees with, legal
/// moves not claimed, and each wrong claim with its reason. Moves are kept
/// as moves, and written as the page writes them (castling in `mode`) only
/// in the JSON and the case line.
pub struct ClaimVerdict {
    mode: CastlingMode,
    /// The legal moves claimed, in the order claimed.
    pub found: Vec<Move>,
    /// The legal moves not claimed.
    pub missed: Vec<Move>,
    /// Each wrong claim as given, with its reason.
    pub wrong: Vec<(String, String)>,
    /// Claims given again, as given.
    pub repeated: Vec<String>,
}

/// Compares `claims` (UCI strings) with the legal moves of `pos`.
pub fn judge(pos: &Position, claims: &[String], chess960: bool) -> ClaimVerdict {
    let mut seen = HashSet::new();
    let mut verdict = ClaimVerdict {
        mode: CastlingMode::from_chess960(chess960),
        found: Vec::new(),
        missed: Vec::new(),
        wrong: Vec::new(),
        repeated: Vec::new(),
    };
    for claim in claims {
        match movegen::explain_move(&with_mode(pos, chess960), claim) {
            Ok(mv) if seen.insert(mv) => verdict.found.push(mv),
            Ok(_) => verdict.repeated.push(claim.clone()),
            Err(why) => {
                if verdict.wrong.iter().any(|(c, _)| c == claim) {
                    verdict.repeated.push(claim.clone());
                } else {
                    verdict
                        .wrong
                        .push((claim.clone(), why.reason(pos).to_string()));
                }
            }
        }
    }
    verdict.missed = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| !seen.contains(m))
        .collect();
    verdict
}

impl ClaimVerdict {
    /// The verdict as JSON.
    pub fn to_json(&self) -> Value {
        let wrong: Vec<Value> = self
            .wrong
            .iter()
            .map(|(m, r)| json!({"move": m, "reason": r}))
            .collect();
        let found: Vec<String> = self
            .found
            .iter()
            .map(|m| m.to_uci(self.mode).to_string())
            .collect();
        json!({
            "found": found,
            "missed": sorted_texts(self.missed.iter().copied(), self.mode),
            "wrong": wrong,
            "repeated": self.repeated,
        })
    }

    /// The case as one EPD line: the FEN, then `;claimed` with the expert's
    /// moves in the order entered, `;missed` and `;wrong` as judged now.
    pub fn case_line(&self, fen: &str, claims: &[String]) -> String {
        let wrong: Vec<String> = self.wrong.iter().map(|(m, _)| m.clone()).collect();
        let missed = sorted_texts(self.missed.iter().copied(), self.mode);
        let mut line = fen.to_string();
        for (name, moves) in [("claimed", claims), ("missed", &missed), ("wrong", &wrong)] {
            line += &format!(" ;{name}");
            for m in moves {
                line += &format!(" {m}");
            }
        }
        line
    }
}

/// `go perft`-style divide counts.
pub fn divide(pos: &Position, depth: u32, chess960: bool) -> Value {
    let mode = CastlingMode::from_chess960(chess960);
    let mut rows: Vec<(String, u64)> = movegen::perft::divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_uci(mode).to_string(), n))
        .collect();
    rows.sort();
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let moves: Vec<Value> = rows.iter().map(|(m, n)| json!([m, n])).collect();
    json!({ "depth": depth, "moves": moves, "nodes": total })
}

/// The position after up to `plies` random legal moves from the start
/// (fewer if the game ends), from a xorshift generator seeded with `seed`.
pub fn random_position(plies: u32, seed: u64) -> Position {
    let mut state = seed | 1;
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pos = pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
    }
    pos
}

/// A bundled suite's EPD text and whether it is Chess960, by short name
/// (`thesis`, `standard`, `chess960`).
pub fn suite(name: &str) -> Option<(&'static str, bool)> {
    let index = ["thesis", "standard", "chess960"]
        .iter()
        .position(|n| *n == name)?;
    Some((SUITES[index].1, SUITES[index].2))
}

/// The bundled positions, by suite.
pub fn suites() -> Value {
    let suites: Vec<Value> = SUITES
        .iter()
        .map(|(name, text, chess960)| {
            let fens: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split(';').next())
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .collect();
            json!({ "name": name, "chess960": chess960, "positions": fens })
        })
        .collect();
    json!({ "suites": suites })
}

/// Whether `text` could be a UCI move (for what a saved line may hold).
pub fn looks_like_uci(text: &str) -> bool {
    text.is_ascii()
        && (4..=5).contains(&text.len())
        && Square::parse(&text[0..2]).is_some()
        && Square::parse(&text[2..4]).is_some()
        && text[4..].chars().all(|c| "nbrq".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_is_detected_from_castling_squares() {
        assert!(!is_chess960(&Position::startpos()));
        let no_rights = Position::from_fen("4k3/8/8/8/8/8/8/1K5R w - - 0 1").unwrap();
        assert!(!is_chess960(&no_rights));
        let shredder = Position::from_fen("6kr/8/8/8/8/8/8/RK5R w Hh - 0 1").unwrap();
        assert!(is_chess960(&shredder));
    }

    #[test]
    fn judging_and_the_case_line() {
        let pos = Position::startpos();
        let claims: Vec<String> = ["e2e4", "e2e4", "e2e5", "g1f3"].map(String::from).to_vec();
        let v = judge(&pos, &claims, false);
        assert_eq!(v.to_json()["found"], json!(["e2e4", "g1f3"]));
        assert_eq!(v.repeated, ["e2e4"]);
        assert_eq!(v.wrong.len(), 1);
        assert_eq!(v.wrong[0].1, "a pawn does not move from e2 to e5");
        assert_eq!(v.missed.len(), 18);
        let line = v.case_line(&pos.to_string(), &claims);
        assert!(line.starts_with(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;claimed e2e4 e2e4 e2e5 g1f3 ;missed a2a3 "
        ));
        assert!(line.ends_with(" h2h4 ;wrong e2e5"), "{line}");
    }

    #[test]
    fn castling_targets_follow_the_notation() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let king = |chess960: bool| {
            let value = position(&pos, chess960);
            let hex = value["targets"]["e1"].as_str().unwrap().to_string();
            Bitboard(u64::from_str_radix(&hex[2..], 16).unwrap())
        };
        let (g1, h1) = (Square::parse("g1").unwrap(), Square::parse("h1").unwrap());
        assert!(king(false).has(g1) && !king(false).has(h1));
        assert!(king(true).has(h1) && !king(true).has(g1));
        assert!(position(&pos, false)["legal"]
            .as_array()
            .unwrap()
            .contains(&json!("e1g1")));
    }

    #[test]
    fn uci_shapes() {
        for ok in ["e2e4", "e7e8q", "a1h8n"] {
            assert!(looks_like_uci(ok), "{ok}");
        }
        for bad in [
            "", "e2", "e2e9", "e7e8k", "e7e8Q", "e2e4 ;x", "é2e4", "e2e4qq",
        ] {
            assert!(!looks_like_uci(bad), "{bad}");
        }
    }
}
