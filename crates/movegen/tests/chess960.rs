//! Chess960 numbering against the 960-position perft suite, whose line `k`
//! (from 1) is a position reached from start position `k mod 960`: wherever
//! a castling right is left, its king and rook still stand where start
//! position `k mod 960` put them. (An average suite line fits about 37 of
//! the 960 start positions this way, so a misnumbering shows.)

use movegen::{CastleSide, Color, Piece, Position};

#[test]
fn suite_lines_fit_their_numbered_start() {
    let path = format!(
        "{}/../../tests/data/perft_chess960.epd",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rights_checked = 0;
    for (i, line) in text.lines().enumerate() {
        let number = (i as u32 + 1) % 960;
        let pos: Position = line.split(';').next().unwrap().parse().unwrap();
        let start = Position::chess960(number).unwrap();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = pos.castle_rook(color, side) else {
                    continue;
                };
                assert_eq!(pos.king(color), start.king(color), "line {}", i + 1);
                assert_eq!(start.castle_rook(color, side), Some(rook), "line {}", i + 1);
                assert!(start.pieces_of(color, Piece::Rook).has(rook));
                rights_checked += 1;
            }
        }
    }
    // Every right in the suite was checked (python-chess counts 3,243 too).
    assert_eq!(rights_checked, 3_243);
}
