//! Smallest failing cases. A greedy shrinker: from a failing input, try simpler ones in a fixed
//! order and move to the first that still fails, until none does. Deterministic, so a student
//! sees the same case on every run.

use movegen::Position;

/// The most candidates tried in one shrink (a bound, not a target: inputs here shrink in tens).
const MAX_TRIES: usize = 20_000;

/// Shrinks `start` (which fails) by `simpler` (candidates, simplest first) while `fails` holds.
pub fn shrink<T: Clone>(
    start: T,
    simpler: impl Fn(&T) -> Vec<T>,
    mut fails: impl FnMut(&T) -> bool,
) -> T {
    let mut current = start;
    let mut tries = 0;
    'outer: while tries < MAX_TRIES {
        for candidate in simpler(&current) {
            tries += 1;
            if fails(&candidate) {
                current = candidate;
                continue 'outer;
            }
            if tries >= MAX_TRIES {
                break 'outer;
            }
        }
        break;
    }
    current
}

/// A bitboard with one square fewer, for each of its squares (lowest first).
pub fn fewer_squares(bb: u64) -> Vec<u64> {
    (0..64)
        .filter(|sq| bb >> sq & 1 == 1)
        .map(|sq| bb & !(1u64 << sq))
        .collect()
}

/// Candidates for a (square, bitboard) pair, such as a slider and its blockers: fewer
/// blockers first.
pub fn fewer_blockers(input: &(u8, u64)) -> Vec<(u8, u64)> {
    fewer_squares(input.1)
        .into_iter()
        .map(|bb| (input.0, bb))
        .collect()
}

/// The squares in the order the checkers try them: a1, b1, ..., h8.
pub fn squares() -> impl Iterator<Item = u8> {
    0..64u8
}

/// Positions with one piece fewer (never a king), then without castling rights, then without
/// the en-passant square; only FENs movegen accepts.
pub fn fewer_pieces(fen: &str) -> Vec<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Vec::new();
    }
    let cells = expand(fields[0]);
    let mut out = Vec::new();
    let with = |placement: &str, castling: &str, ep: &str| {
        let mut f: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
        f[0] = placement.to_string();
        f[2] = castling.to_string();
        f[3] = ep.to_string();
        f.join(" ")
    };
    for (i, c) in cells.iter().enumerate() {
        if *c == '.' || c.eq_ignore_ascii_case(&'k') {
            continue;
        }
        let mut fewer = cells.clone();
        fewer[i] = '.';
        let placement = compress(&fewer);
        for candidate in [
            with(&placement, fields[2], fields[3]),
            with(&placement, "-", "-"),
        ] {
            if Position::from_fen(&candidate).is_ok() {
                out.push(candidate);
                break;
            }
        }
    }
    for candidate in [
        with(fields[0], "-", fields[3]),
        with(fields[0], fields[2], "-"),
    ] {
        if candidate != fen && Position::from_fen(&candidate).is_ok() {
            out.push(candidate);
        }
    }
    out
}

/// A FEN placement as 64 cells, a8 first.
fn expand(placement: &str) -> Vec<char> {
    let mut cells = Vec::with_capacity(64);
    for c in placement.chars() {
        match c.to_digit(10) {
            Some(d) => cells.extend(std::iter::repeat_n('.', d as usize)),
            None if c == '/' => {}
            None => cells.push(c),
        }
    }
    cells
}

/// 64 cells back to a FEN placement.
fn compress(cells: &[char]) -> String {
    let mut out = String::new();
    for (r, row) in cells.chunks(8).enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinks_to_the_single_square_that_fails() {
        // Fails while h8 is in the set: the smallest failing set is {h8}.
        let smallest = shrink(
            0xffff_0000_0000_ff81u64,
            |b| fewer_squares(*b),
            |b| b >> 63 & 1 == 1,
        );
        assert_eq!(smallest, 1 << 63);
    }

    #[test]
    fn removes_pieces_but_keeps_kings() {
        let fen = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1";
        let fewer = fewer_pieces(fen);
        assert!(
            fewer.contains(&"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".to_string()),
            "{fewer:?}"
        );
        assert!(
            fewer.contains(&"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_string()),
            "{fewer:?}"
        );
        assert!(fewer.iter().all(|f| f.matches(['k', 'K']).count() == 2));
        // The end of shrinking pieces: only the kings are left.
        let bare = shrink(fen.to_string(), |f| fewer_pieces(f), |_| true);
        assert_eq!(bare, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }
}
