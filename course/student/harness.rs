//! The course's side of the checker: reads the checker's queries and formats your answers.
//! Provided by the course (rewritten by `course init`); you never need to call it.
//!
//! A query is `<lab> <function> <args...>`; each lab's `harness/labNN.rs` maps a function
//! name to one of your functions. Arguments: square names (`e4`), bitboards in hex
//! (`0x0000000000000100`), colors (`w`/`b`), integers, FEN with `_` for spaces.

use crate::types::{Bitboard, Board, Color, Move, Piece, Square};

/// The argument at `i`, or an error naming the missing one.
pub fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, String> {
    args.get(i).copied().ok_or_else(|| format!("missing argument {}", i + 1))
}

/// A square name: `e4` is 28.
pub fn square(text: &str) -> Result<Square, String> {
    let b = text.as_bytes();
    if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        Ok((b[1] - b'1') * 8 + (b[0] - b'a'))
    } else {
        Err(format!("not a square: {text}"))
    }
}

/// A bitboard written `0x` and hex digits.
pub fn bitboard(text: &str) -> Result<Bitboard, String> {
    let digits = text.strip_prefix("0x").ok_or_else(|| format!("not a bitboard: {text}"))?;
    u64::from_str_radix(digits, 16).map_err(|_| format!("not a bitboard: {text}"))
}

/// `w` or `b`.
pub fn color(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(format!("not a color: {text}")),
    }
}

/// A decimal integer.
pub fn int<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("not a number: {text}"))
}

/// A FEN with `_` in place of its spaces. This reader is the course's own (so the labs before
/// lab 9 get boards); in lab 9 you write yours.
pub fn fen(text: &str) -> Result<Board, String> {
    let text = text.replace('_', " ");
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not a FEN: {text}"));
    }
    let mut board = Board::empty();
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("not a FEN: {text}"));
    }
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
                continue;
            }
            let piece = match c.to_ascii_lowercase() {
                'p' => Piece::Pawn,
                'n' => Piece::Knight,
                'b' => Piece::Bishop,
                'r' => Piece::Rook,
                'q' => Piece::Queen,
                'k' => Piece::King,
                _ => return Err(format!("not a FEN: {text}")),
            };
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            if file > 7 {
                return Err(format!("not a FEN: {text}"));
            }
            board.pieces[color as usize][piece as usize] |= 1 << (rank * 8 + file);
            file += 1;
        }
        if file != 8 {
            return Err(format!("not a FEN: {text}"));
        }
    }
    board.side = color(fields[1])?;
    for c in fields[2].chars() {
        board.castling |= match c {
            'K' => 1,
            'Q' => 2,
            'k' => 4,
            'q' => 8,
            _ => 0,
        };
    }
    board.en_passant = if fields[3] == "-" { None } else { Some(square(fields[3])?) };
    board.halfmove = fields.get(4).map_or(Ok(0), |t| int(t))?;
    board.fullmove = fields.get(5).map_or(Ok(1), |t| int(t))?;
    Ok(board)
}

/// A bitboard answer: `0x` and 16 hex digits.
pub fn bb(b: Bitboard) -> String {
    format!("0x{b:016x}")
}

/// A move list answer: UCI moves, sorted, space-separated.
pub fn moves(list: &[Move]) -> String {
    let mut names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    names.sort();
    names.join(" ")
}

/// A text answer on one line: `\` becomes `\\` and a newline `\n`.
pub fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}
