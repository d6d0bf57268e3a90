//! Our own parser for `go`: vampirc-uci panics on large numbers and drops
//! `ponder`, so the tokens are read here and turned into [`search::Limits`].
//!
//! Like Stockfish, a `go` we only partly understand still searches: unknown
//! words and malformed values are ignored with a warning. Only `go perft`
//! without a usable depth is refused, since there is nothing to count.

#[cfg(test)]
use movegen::Move;
use movegen::{MoveError, Position};
use search::{Limits, MAX_PLY};
use std::fmt;
use std::time::Duration;

/// What a `go` command asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// The search limits.
    pub limits: Limits,
    /// `go ponder`: search the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `go perft N`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// What was ignored, in input order.
    pub warnings: Vec<GoWarning>,
}

/// Something in a `go` command that was ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoWarning {
    /// A word that is no `go` parameter.
    Unknown(String),
    /// A parameter with no number after it.
    NoNumber(String),
    /// A parameter whose value is not an integer.
    BadNumber(String, String),
    /// A `searchmoves` entry that is no legal move here.
    BadMove(String, MoveError),
}

impl fmt::Display for GoWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoWarning::Unknown(word) => write!(f, "unknown parameter '{word}' ignored"),
            GoWarning::NoNumber(name) => write!(f, "'{name}' without a number ignored"),
            GoWarning::BadNumber(name, got) => {
                write!(f, "'{name}' ignored: '{got}' is not an integer")
            }
            GoWarning::BadMove(text, e) => write!(f, "searchmoves: '{text}' ignored: {e}"),
        }
    }
}

/// Why a `go` command starts nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// `go perft` without a number.
    PerftNoDepth,
    /// `go perft` with something other than a depth from 1 to 64.
    PerftDepth(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::PerftNoDepth => f.write_str("go perft: a depth is needed"),
            GoError::PerftDepth(got) => write!(f, "go perft: depth must be 1 to 64, got '{got}'"),
        }
    }
}

impl std::error::Error for GoError {}

const KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// The deepest `go depth` (and twice the longest `go mate`); larger values
/// are clamped. The search's own ply limit, so the two cannot disagree.
pub const MAX_DEPTH: u32 = MAX_PLY as u32;

/// Parses the tokens after `go`. Times below zero count as zero; numbers too
/// large to mean anything are clamped; what cannot be understood is listed
/// in [`GoRequest::warnings`] and otherwise ignored.
///
/// # Errors
/// [`GoError`] when `go perft` has no depth from 1 to 64.
pub fn parse_go(tokens: &[&str], pos: &Position) -> Result<GoRequest, GoError> {
    let mut req = GoRequest::default();
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i];
        i += 1;
        if !KEYWORDS.contains(&word) {
            req.warnings
                .push(GoWarning::Unknown(crate::command::clip(word)));
            continue;
        }
        match word {
            "infinite" => req.limits.infinite = true,
            "ponder" => req.ponder = true,
            "searchmoves" => {
                while let Some(text) = tokens.get(i).filter(|t| !KEYWORDS.contains(t)) {
                    match pos.parse_uci_move(text) {
                        Ok(mv) => req.limits.searchmoves.push(mv),
                        Err(e) => req
                            .warnings
                            .push(GoWarning::BadMove(crate::command::clip(text), e)),
                    }
                    i += 1;
                }
            }
            _ => {
                let value = tokens.get(i).filter(|t| !KEYWORDS.contains(t));
                if value.is_some() {
                    i += 1;
                }
                let number = value.map(|text| (text, parse_int(text)));
                match (word, number) {
                    ("perft", None) => return Err(GoError::PerftNoDepth),
                    ("perft", Some((_, Some(n)))) if (1..=64).contains(&n) => {
                        req.perft = Some(n as u32)
                    }
                    ("perft", Some((text, _))) => {
                        return Err(GoError::PerftDepth(crate::command::clip(text)))
                    }
                    (_, None) => req.warnings.push(GoWarning::NoNumber(word.to_string())),
                    (_, Some((text, None))) => req.warnings.push(GoWarning::BadNumber(
                        word.to_string(),
                        crate::command::clip(text),
                    )),
                    (_, Some((_, Some(n)))) => set_number(&mut req.limits, word, n),
                }
            }
        }
    }
    Ok(req)
}

/// Stores the value of a numeric `go` parameter.
fn set_number(limits: &mut Limits, word: &str, n: i64) {
    match word {
        "wtime" => limits.time[0] = Some(millis(n)),
        "btime" => limits.time[1] = Some(millis(n)),
        "winc" => limits.inc[0] = Some(millis(n)),
        "binc" => limits.inc[1] = Some(millis(n)),
        "movetime" => limits.movetime = Some(millis(n)),
        "movestogo" => limits.movestogo = Some(clamp_u32(n, 1, 10_000)),
        "depth" => limits.depth = Some(clamp_u32(n, 1, MAX_DEPTH)),
        "mate" => limits.mate = Some(clamp_u32(n, 1, MAX_DEPTH / 2)),
        "nodes" => limits.nodes = Some(n.max(1) as u64),
        _ => unreachable!("set_number is called for numeric keywords only, not '{word}'"),
    }
}

/// An integer, saturating at the `i64` range for absurdly long digit strings.
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let negative = text.starts_with('-');
    Some(match digits.parse::<i64>() {
        Ok(n) if negative => -n,
        Ok(n) => n,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

fn millis(ms: i64) -> Duration {
    // A week is longer than any clock; beyond that the number means nothing.
    Duration::from_millis(ms.clamp(0, 7 * 24 * 3_600_000) as u64)
}

fn clamp_u32(n: i64, lo: u32, hi: u32) -> u32 {
    n.clamp(lo as i64, hi as i64) as u32
}

/// The moves in `searchmoves`, for test messages.
#[cfg(test)]
fn describe(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Result<GoRequest, GoError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        parse_go(&tokens, &Position::startpos())
    }

    #[test]
    fn clock_and_flags() {
        let req = go("ponder wtime 1000 btime -5 winc 10 binc 20 movestogo 30").unwrap();
        assert!(req.ponder);
        assert_eq!(
            req.limits.time,
            [Some(Duration::from_millis(1000)), Some(Duration::ZERO)]
        );
        assert_eq!(req.limits.inc[1], Some(Duration::from_millis(20)));
        assert_eq!(req.limits.movestogo, Some(30));
        assert!(req.warnings.is_empty());
    }

    #[test]
    fn absurd_numbers_are_clamped_not_fatal() {
        assert_eq!(go("depth 256").unwrap().limits.depth, Some(MAX_DEPTH));
        assert_eq!(go("depth 0").unwrap().limits.depth, Some(1));
        assert_eq!(go("mate 300").unwrap().limits.mate, Some(MAX_DEPTH / 2));
        assert_eq!(go("movestogo 300").unwrap().limits.movestogo, Some(300));
        let huge = go("wtime 99999999999999999999999 nodes 99999999999999999999").unwrap();
        assert_eq!(huge.limits.nodes, Some(i64::MAX as u64));
        assert!(huge.limits.time[0].unwrap() > Duration::from_secs(3600));
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword() {
        let req = go("searchmoves e2e4 d2d4 depth 3").unwrap();
        assert_eq!(describe(&req.limits.searchmoves), "e2e4 d2d4");
        assert_eq!(req.limits.depth, Some(3));
        let req = go("searchmoves e2e5 d2d4").unwrap();
        assert_eq!(describe(&req.limits.searchmoves), "d2d4");
        assert_eq!(
            req.warnings,
            [GoWarning::BadMove("e2e5".into(), MoveError::Illegal)]
        );
    }

    #[test]
    fn unknown_words_and_bad_values_are_ignored_with_a_warning() {
        let req = go("depth 2 foo bar").unwrap();
        assert_eq!(req.limits.depth, Some(2));
        assert_eq!(
            req.warnings,
            [
                GoWarning::Unknown("foo".into()),
                GoWarning::Unknown("bar".into())
            ]
        );
        let req = go("depth x movetime 50").unwrap();
        assert_eq!(req.limits.depth, None);
        assert_eq!(req.limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(
            req.warnings,
            [GoWarning::BadNumber("depth".into(), "x".into())]
        );
        // A keyword is never taken as a value: `infinite` still counts.
        let req = go("depth infinite").unwrap();
        assert!(req.limits.infinite);
        assert_eq!(req.warnings, [GoWarning::NoNumber("depth".into())]);
        assert!(go("sideways").unwrap().warnings[0]
            .to_string()
            .contains("'sideways'"));
    }

    #[test]
    fn perft_needs_a_depth() {
        assert_eq!(go("perft 3").unwrap().perft, Some(3));
        assert_eq!(go("perft 0"), Err(GoError::PerftDepth("0".into())));
        assert_eq!(go("perft -1"), Err(GoError::PerftDepth("-1".into())));
        assert_eq!(go("perft abc"), Err(GoError::PerftDepth("abc".into())));
        assert_eq!(go("perft"), Err(GoError::PerftNoDepth));
        assert_eq!(go("perft depth 3"), Err(GoError::PerftNoDepth));
    }
}
