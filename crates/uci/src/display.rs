//! The `d` command: the board, its FEN and key, the check and pin masks
//! drawn as bitboards, the way the move generator sees them, and the legal
//! moves in UCI and SAN.

use movegen::{Bitboard, File, Position, Rank, Square};

/// The text `d` prints, line by line.
pub fn describe(pos: &Position) -> Vec<String> {
    let mut lines = vec![String::new()];
    let border = " +---+---+---+---+---+---+---+---+".to_string();
    for rank in Rank::ALL.into_iter().rev() {
        lines.push(border.clone());
        let mut row = String::from(" |");
        for file in File::ALL {
            let sq = Square::new(file, rank);
            let c = match (pos.piece_on(sq), pos.color_on(sq)) {
                (Some(p), Some(c)) => p.to_fen_char(c),
                _ => ' ',
            };
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank.to_char()));
        lines.push(row);
    }
    lines.push(border);
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    lines.push(format!("Checkers: {}", squares(pos.checkers())));
    lines.push(format!("Pinned: {}", squares(pos.pinned())));
    lines.push(String::new());
    lines.push("Checkers          Pinned".to_string());
    let left = pos.checkers().to_string();
    let right = pos.pinned().to_string();
    for (l, r) in left.lines().zip(right.lines()) {
        lines.push(format!("{l:<18}{r}"));
    }
    lines.push(String::new());
    lines.push(format!("Moves: {}", moves(pos)));
    lines.push(format!("Legal moves: {}", pos.count_moves()));
    lines
}

/// The legal moves sorted by their UCI text, each followed by its SAN:
/// `b1a3 Na3, b1c3 Nc3, ...`.
fn moves(pos: &Position) -> String {
    let mut pairs: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|&mv| {
            (
                mv.to_uci(pos.castling_mode()).to_string(),
                pos.san(mv).expect("a listed move is legal").to_string(),
            )
        })
        .collect();
    pairs.sort();
    let pairs: Vec<String> = pairs.iter().map(|(u, s)| format!("{u} {s}")).collect();
    pairs.join(", ")
}

fn squares(bb: Bitboard) -> String {
    bb.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
