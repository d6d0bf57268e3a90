//! The JSON the board page reads: a position with its legal moves and
//! bitboards, the comparison of an expert's list with the generator, divide
//! counts, bundled positions, and the line a saved case becomes.

use movegen::{Bitboard, CastlingMode, Color, Move, Position, Square};
use serde_json::{json, Value};
use std::collections::HashSet;

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

fn uci(mv: Move, chess960: bool) -> String {
    mv.to_uci(CastlingMode::from_chess960(chess960)).to_string()
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
    let legal = pos.legal_moves();
    let mut moves: Vec<String> = legal.iter().map(|&m| uci(m, chess960)).collect();
    moves.sort();
    // Each piece's targets as the page enters them (castling: see `uci`).
    let mut targets = serde_json::Map::new();
    for &mv in legal.iter() {
        let text = uci(mv, chess960);
        let to = Square::parse(&text[2..4]).expect("UCI moves hold squares");
        let from = mv.from().to_string();
        let prev = targets
            .get(&from)
            .and_then(Value::as_str)
            .and_then(|h| u64::from_str_radix(&h[2..], 16).ok())
            .unwrap_or(0);
        targets.insert(from, json!(hex(Bitboard(prev) | Bitboard::from_square(to))));
    }
    // Each legal move's SAN, keyed by its UCI text, for the page's lists.
    let san: serde_json::Map<String, Value> = legal
        .iter()
        .map(|&mv| {
            (
                uci(mv, chess960),
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
        "legal": moves,
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
/// moves not claimed, and each wrong claim with its reason.
pub struct Verdict {
    pub found: Vec<String>,
    pub missed: Vec<String>,
    pub wrong: Vec<(String, String)>,
    pub repeated: Vec<String>,
}

/// Compares `claims` (UCI strings) with the legal moves of `pos`.
pub fn judge(pos: &Position, claims: &[String], chess960: bool) -> Verdict {
    let mut seen = HashSet::new();
    let mut verdict = Verdict {
        found: Vec::new(),
        missed: Vec::new(),
        wrong: Vec::new(),
        repeated: Vec::new(),
    };
    for claim in claims {
        match movegen::explain_move(&crate::gui::api::with_mode(pos, chess960), claim) {
            Ok(mv) if seen.insert(mv) => verdict.found.push(uci(mv, chess960)),
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
        .filter(|m| !seen.contains(*m))
        .map(|&m| uci(m, chess960))
        .collect();
    verdict.missed.sort();
    verdict
}

impl Verdict {
    /// The verdict as JSON.
    pub fn to_json(&self) -> Value {
        let wrong: Vec<Value> = self
            .wrong
            .iter()
            .map(|(m, r)| json!({"move": m, "reason": r}))
            .collect();
        json!({
            "found": self.found,
            "missed": self.missed,
            "wrong": wrong,
            "repeated": self.repeated,
        })
    }

    /// The case as one EPD line: the FEN, then `;claimed` with the expert's
    /// moves in the order entered, `;missed` and `;wrong` as judged now.
    pub fn case_line(&self, fen: &str, claims: &[String]) -> String {
        let wrong: Vec<String> = self.wrong.iter().map(|(m, _)| m.clone()).collect();
        let mut line = fen.to_string();
        for (name, moves) in [
            ("claimed", claims),
            ("missed", &self.missed),
            ("wrong", &wrong),
        ] {
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
    let mut rows: Vec<(String, u64)> = movegen::perft::divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (uci(m, chess960), n))
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
        assert_eq!(v.found, ["e2e4", "g1f3"]);
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
