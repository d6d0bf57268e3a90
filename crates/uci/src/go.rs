//! Our own parser for `go`: vampirc-uci panics on large numbers and drops
//! `ponder`, so the tokens are read here and turned into [`search::Limits`].

#[cfg(test)]
use movegen::Move;
use movegen::Position;
use search::Limits;
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
}

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

/// Deepest depth a `go depth` may ask for; larger values are clamped.
pub const MAX_DEPTH: u32 = 128;

/// Parses the tokens after `go`. Times below zero count as zero; numbers too
/// large to mean anything are clamped.
///
/// # Errors
/// A message naming the token that was wrong.
pub fn parse_go(tokens: &[&str], pos: &Position, chess960: bool) -> Result<GoRequest, String> {
    let mut req = GoRequest::default();
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i];
        i += 1;
        let mut number = |name: &str| -> Result<i64, String> {
            let text = tokens
                .get(i)
                .filter(|t| !KEYWORDS.contains(t))
                .ok_or_else(|| format!("go: '{name}' needs a number"))?;
            i += 1;
            parse_int(text).ok_or_else(|| format!("go: '{name}' needs a number, got '{text}'"))
        };
        match word {
            "infinite" => req.limits.infinite = true,
            "ponder" => req.ponder = true,
            "wtime" => req.limits.time[0] = Some(millis(number(word)?)),
            "btime" => req.limits.time[1] = Some(millis(number(word)?)),
            "winc" => req.limits.inc[0] = Some(millis(number(word)?)),
            "binc" => req.limits.inc[1] = Some(millis(number(word)?)),
            "movetime" => req.limits.movetime = Some(millis(number(word)?)),
            "movestogo" => req.limits.movestogo = Some(clamp_u32(number(word)?, 1, 10_000)),
            "depth" => req.limits.depth = Some(clamp_u32(number(word)?, 1, MAX_DEPTH)),
            "mate" => req.limits.mate = Some(clamp_u32(number(word)?, 1, MAX_DEPTH / 2)),
            "nodes" => req.limits.nodes = Some(number(word)?.max(1) as u64),
            "perft" => {
                let n = number(word)?;
                if !(1..=64).contains(&n) {
                    return Err(format!("go perft: depth must be 1 to 64, got {n}"));
                }
                req.perft = Some(n as u32);
            }
            "searchmoves" => {
                while let Some(text) = tokens.get(i).filter(|t| !KEYWORDS.contains(t)) {
                    let mv = pos
                        .parse_uci_move(text, chess960)
                        .map_err(|e| format!("go searchmoves: '{text}' is {e}"))?;
                    req.limits.searchmoves.push(mv);
                    i += 1;
                }
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(req)
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

    fn go(text: &str) -> Result<GoRequest, String> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        parse_go(&tokens, &Position::startpos(), false)
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
        assert!(go("searchmoves e2e5").is_err());
    }

    #[test]
    fn errors_name_the_token() {
        assert!(go("depth x").unwrap_err().contains("'x'"));
        assert!(go("depth").unwrap_err().contains("depth"));
        assert!(go("depth infinite").is_err());
        assert!(go("perft 0").is_err());
        assert!(go("perft -1").is_err());
        assert!(go("perft abc").is_err());
        assert!(go("sideways").unwrap_err().contains("sideways"));
        assert_eq!(go("perft 3").unwrap().perft, Some(3));
    }
}
