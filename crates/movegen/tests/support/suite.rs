//! The positions of a suite in `tests/data` (an EPD file: a FEN, then `;`
//! and its counts), Chess960 ones with Chess960 castling.

use movegen::{CastlingMode, Position};

pub fn suite(name: &str) -> Vec<Position> {
    let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mode = CastlingMode::from_chess960(name.contains("960"));
    text.lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| {
            Position::from_fen(f)
                .unwrap()
                .with_castling_mode(mode)
                .unwrap()
        })
        .collect()
}
