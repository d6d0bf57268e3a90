//! Bitboard and board diagrams for the lab texts and the diagnoses, drawn from movegen's own
//! bitboard printing (`X` for a member, `.` otherwise, rank 8 on top) with marks laid over it.

use movegen::{Bitboard, Position, Square};

/// What a comparison diagram marks besides the two sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The square the piece stands on (`@`).
    pub origin: Option<u8>,
    /// Other occupied squares (`o`), e.g. blockers.
    pub occupied: u64,
}

/// The legend for [`compare`]'s marks: only the marks the diagram uses.
pub fn legend(expected: u64, got: u64, marks: Marks) -> String {
    let mut parts = vec!["X = in the set"];
    if expected & !got != 0 {
        parts.push("- = missing (expected, not in yours)");
    }
    if got & !expected != 0 {
        parts.push("+ = extra (in yours, not expected)");
    }
    // The expected grid draws the marks wherever its set leaves room.
    if marks.origin.is_some_and(|sq| expected >> sq & 1 == 0) {
        parts.push("@ = the square asked about");
    }
    if marks.occupied & !expected != 0 {
        parts.push("o = an occupied square");
    }
    parts.join(", ")
}

/// Movegen's drawing of `bits`, with each square's character passed through `cell`.
fn grid(bits: u64, cell: impl Fn(u8, char) -> char) -> Vec<String> {
    let drawn = Bitboard(bits).to_string();
    drawn
        .lines()
        .enumerate()
        .map(|(row, line)| {
            if row >= 8 {
                return line.to_string();
            }
            let rank = 7 - row as u8;
            line.chars()
                .enumerate()
                .map(|(col, c)| {
                    // Cells sit at columns 2, 4, ..., 16 after the rank digit and a space.
                    if col >= 2 && col % 2 == 0 {
                        cell(rank * 8 + (col as u8 - 2) / 2, c)
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect()
}

/// Every square's number on the board, rank 8 on top (for lab texts).
pub fn square_numbers() -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        let row: Vec<String> = (0..8u8)
            .map(|file| format!("{:>2}", rank * 8 + file))
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h");
    out
}

/// A bitboard as an 8x8 grid, rank 8 on top (for lab texts).
pub fn bitboard(bits: u64) -> String {
    grid(bits, |_, c| c).join("\n")
}

/// A bitboard with the piece's square (`@`) and other pieces (`o`) marked.
pub fn bitboard_marked(bits: u64, marks: Marks) -> String {
    grid(bits, |sq, c| background(sq, c, bits, marks)).join("\n")
}

fn background(sq: u8, c: char, set: u64, marks: Marks) -> char {
    if set >> sq & 1 == 1 {
        c
    } else if marks.origin == Some(sq) {
        '@'
    } else if marks.occupied >> sq & 1 == 1 {
        'o'
    } else {
        c
    }
}

/// Two grids side by side under their titles.
pub fn side_by_side(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let left: Vec<&str> = left.lines().collect();
    let right: Vec<&str> = right.lines().collect();
    let width = left
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(left_title.len());
    let mut out = format!("  {left_title:<w$}      {right_title}\n", w = width - 2);
    for i in 0..left.len().max(right.len()) {
        let l = left.get(i).copied().unwrap_or("");
        let r = right.get(i).copied().unwrap_or("");
        out.push_str(&format!("{l:<width$}    {r}\n"));
    }
    out
}

/// Expected and got side by side: the got grid marks missing squares `-` and extra ones `+`.
pub fn compare(expected: u64, got: u64, marks: Marks) -> String {
    let left = bitboard_marked(expected, marks);
    let right = grid(got | expected, |sq, c| {
        let (e, g) = (expected >> sq & 1 == 1, got >> sq & 1 == 1);
        match (e, g) {
            (true, true) => 'X',
            (true, false) => '-',
            (false, true) => '+',
            (false, false) => background(sq, c, 0, marks),
        }
    })
    .join("\n");
    side_by_side("expected", &left, "got", &right)
}

/// A square's name (`e4`), or `?` for an index off the board.
pub fn square_name(sq: u8) -> String {
    Square::from_index(sq as usize).map_or_else(|| format!("?{sq}"), |s| s.to_string())
}

/// The squares of a set by name, `a1 c3 h8`, or `none`.
pub fn squares(bits: u64) -> String {
    if bits == 0 {
        return "none".to_string();
    }
    Bitboard(bits)
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Several sets drawn on one grid, each with its own letter (the first set's letter wins
/// where two overlap), e.g. `[(pawns, 'P'), (others, 'o')]`.
pub fn sets(layers: &[(u64, char)]) -> String {
    let all = layers.iter().fold(0, |a, (b, _)| a | b);
    grid(all, |sq, c| {
        layers
            .iter()
            .find(|(b, _)| b >> sq & 1 == 1)
            .map_or(c, |&(_, letter)| letter)
    })
    .join("\n")
}

/// A position's pieces as an 8x8 grid (FEN letters: white upper case), or `None` if `fen`
/// isn't one movegen reads.
pub fn board(fen: &str) -> Option<String> {
    let pos = Position::from_fen(fen).ok()?;
    Some(board_of(&pos))
}

/// A position's pieces as an 8x8 grid.
pub fn board_of(pos: &Position) -> String {
    grid(pos.occupied().0, |sq, c| {
        let square = Square::from_index(sq as usize).expect("grid squares are 0..64");
        match (pos.piece_on(square), pos.color_on(square)) {
            (Some(piece), Some(color)) => {
                let letter = piece.to_char();
                if color == movegen::Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter.to_ascii_lowercase()
                }
            }
            _ => c,
        }
    })
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_marks_missing_and_extra_squares() {
        // expected {a1, b1}, got {b1, h8}: a1 missing, h8 extra.
        let text = compare(0b11, 0b10 | 1 << 63, Marks::default());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("expected") && lines[0].contains("got"));
        assert!(lines[1].ends_with(". . . . . . . +"), "{text}");
        assert!(lines[8].starts_with("1 X X . . . . . ."), "{text}");
        assert!(lines[8].ends_with("1 - X . . . . . ."), "{text}");
    }

    #[test]
    fn board_draws_pieces_from_a_fen() {
        let text = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(text.lines().next(), Some("8 . . . . k . . ."));
        assert!(text.contains("2 . . . . P . . ."));
        assert!(board("not a fen").is_none());
    }
}
