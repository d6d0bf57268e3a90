//! Ready-made comparisons with the oracle that produce a diagnosis a student can read.

use crate::checker::Diagnosis;
use crate::diagram::{self, Marks};

/// Compares a bitboard answer with the expected one: on a difference, the diagnosis names the
/// missing and extra squares and draws both sets side by side.
pub fn compare_bitboard(
    call: &str,
    expected: u64,
    got: u64,
    marks: Marks,
) -> Result<(), Diagnosis> {
    if expected == got {
        return Ok(());
    }
    Err(bitboard_diagnosis(call, expected, got, marks))
}

/// The diagnosis for a wrong bitboard (see [`compare_bitboard`]).
pub fn bitboard_diagnosis(call: &str, expected: u64, got: u64, marks: Marks) -> Diagnosis {
    let missing = expected & !got;
    let extra = got & !expected;
    let mut parts = Vec::new();
    if missing != 0 {
        parts.push(format!("missing {}", diagram::squares(missing)));
    }
    if extra != 0 {
        parts.push(format!("extra {}", diagram::squares(extra)));
    }
    let body = format!(
        "{}{}\nexpected: {}\ngot:      {}\nmissing:  {}\nextra:    {}\n",
        diagram::compare(expected, got, marks),
        diagram::legend(expected, got, marks),
        diagram::squares(expected),
        diagram::squares(got),
        diagram::squares(missing),
        diagram::squares(extra),
    );
    Diagnosis::new(format!("{call} is wrong: {}", parts.join(", "))).with_body(body)
}

/// Compares move lists (UCI names, any order): on a difference, the diagnosis names the
/// missing and extra moves and the position.
pub fn compare_move_lists(
    call: &str,
    fen: &str,
    expected: &[String],
    got: &[String],
) -> Result<(), Diagnosis> {
    let mut expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    let mut got: Vec<&str> = got.iter().map(String::as_str).collect();
    expected.sort_unstable();
    got.sort_unstable();
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|m| !got.contains(m))
        .collect();
    let extra: Vec<&str> = got
        .iter()
        .copied()
        .filter(|m| !expected.contains(m))
        .collect();
    let mut doubled: Vec<&str> = got
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    doubled.dedup();
    if missing.is_empty() && extra.is_empty() && doubled.is_empty() {
        return Ok(());
    }
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(" ")
        }
    };
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing {}", missing.join(" ")));
    }
    if !extra.is_empty() {
        parts.push(format!("extra {}", extra.join(" ")));
    }
    if !doubled.is_empty() {
        parts.push(format!("listed twice {}", doubled.join(" ")));
    }
    let body = format!(
        "expected: {}\ngot:      {}\nmissing:  {}\nextra:    {}\n",
        list(&expected),
        list(&got),
        list(&missing),
        list(&extra)
    );
    Err(
        Diagnosis::new(format!("{call} is wrong: {}", parts.join(", ")))
            .with_fen(fen)
            .with_body(body),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_missing_and_extra_squares() {
        let d = compare_bitboard("f(e4)", 0b11, 0b10 | 1 << 63, Marks::default()).unwrap_err();
        assert_eq!(d.summary, "f(e4) is wrong: missing a1, extra h8");
        assert!(d.body.contains("missing:  a1"));
        assert!(compare_bitboard("f(e4)", 5, 5, Marks::default()).is_ok());
    }

    #[test]
    fn names_missing_and_extra_moves() {
        let e = ["e2e4".to_string(), "e2e3".to_string()];
        let g = ["e2e3".to_string(), "e2e5".to_string()];
        let d = compare_move_lists("pawn_moves", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &e, &g)
            .unwrap_err();
        assert_eq!(d.summary, "pawn_moves is wrong: missing e2e4, extra e2e5");
        assert!(compare_move_lists("m", "x", &e, &[g[0].clone(), e[0].clone()]).is_ok());
    }
}
