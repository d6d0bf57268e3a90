//! Chess960 start positions by Scharnagl's number (0-959; 518 is the
//! standard position).

use crate::castling_mode::CastlingMode;
use crate::piece::Piece;
use crate::position::Position;
use alloc::{format, string::String};

/// The knights' places among the five squares left after the bishops and the
/// queen, for the number's last digit 0-9 (Scharnagl's order).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank for `number`, a to h, in Scharnagl's numbering.
fn back_rank(number: u32) -> [Piece; 8] {
    let mut rank: [Option<Piece>; 8] = [None; 8];
    let mut n = number as usize;
    // The light-squared bishop on b, d, f or h; the dark one on a, c, e or g.
    rank[2 * (n % 4) + 1] = Some(Piece::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Piece::Bishop);
    n /= 4;
    let queen = n % 6;
    n /= 6;
    let (k1, k2) = KNIGHTS[n];
    let free = |rank: &[Option<Piece>; 8], i: usize| {
        (0..8)
            .filter(|&f| rank[f].is_none())
            .nth(i)
            .expect("enough free squares for the piece")
    };
    let q = free(&rank, queen);
    rank[q] = Some(Piece::Queen);
    // Place the second knight first, so the first one's index still counts
    // the same free squares.
    let n2 = free(&rank, k2);
    let n1 = free(&rank, k1);
    rank[n2] = Some(Piece::Knight);
    rank[n1] = Some(Piece::Knight);
    // The three squares left get rook, king, rook.
    for piece in [Piece::Rook, Piece::King, Piece::Rook] {
        let f = free(&rank, 0);
        rank[f] = Some(piece);
    }
    rank.map(|p| p.expect("all eight squares are filled"))
}

impl Position {
    /// The Chess960 start position numbered `number` in Scharnagl's scheme
    /// (0 to 959; 518 is the standard start), with all four castling rights
    /// and [`CastlingMode::Chess960`] (even for 518, so its castling is
    /// written `e1h1`), or `None` for a number above 959.
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let first = Position::chess960(0).unwrap();
    /// assert_eq!(first.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// assert_eq!(first.castling_mode(), CastlingMode::Chess960);
    ///
    /// let standard = Position::chess960(518).unwrap();
    /// assert_eq!(standard, Position::startpos()); // equal: the mode is notation
    /// assert_eq!(standard.castling_mode(), CastlingMode::Chess960);
    /// assert_eq!(Position::chess960(960), None);
    /// ```
    ///
    /// [`CastlingMode::Chess960`]: crate::CastlingMode::Chess960
    pub fn chess960(number: u32) -> Option<Position> {
        if number > 959 {
            return None;
        }
        let white: String = back_rank(number)
            .iter()
            .map(|p| p.to_char().to_ascii_uppercase())
            .collect();
        let black = white.to_ascii_lowercase();
        let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1");
        let pos = Position::from_fen(&fen).expect("every Chess960 start position is a valid FEN");
        pos.with_castling_mode(CastlingMode::Chess960)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastleSide, Color};

    /// Back ranks from Scharnagl's table as published (Wikipedia, "Fischer
    /// random chess numbering scheme"); python-chess 1.11.2's
    /// `Board.from_chess960_pos` gives the same.
    #[test]
    fn matches_the_published_table() {
        let table = [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (3, "BQNNRKRB"),
            (4, "QBBNNRKR"),
            (100, "QBBNRNKR"),
            (518, "RNBQKBNR"),
            (959, "RKRNNQBB"),
        ];
        for (n, want) in table {
            let got: String = back_rank(n)
                .iter()
                .map(|p| p.to_char().to_ascii_uppercase())
                .collect();
            assert_eq!(got, want, "{n}");
        }
        assert_eq!(Position::chess960(518), Some(Position::startpos()));
        assert_eq!(Position::chess960(960), None);
    }

    #[test]
    fn every_start_is_chess960_and_its_fen_keeps_the_mode() {
        for n in [0, 518, 959] {
            let pos = Position::chess960(n).unwrap();
            assert_eq!(pos.castling_mode(), CastlingMode::Chess960, "{n}");
            let back = Position::from_fen(&pos.fen()).unwrap();
            assert_eq!(back.castling_mode(), CastlingMode::Chess960, "{n}");
            assert_eq!(back.fen(), pos.fen(), "{n}");
        }
        let standard = Position::chess960(518).unwrap();
        assert_eq!(
            standard.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn all_960_are_distinct_legal_starts() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let pos = Position::chess960(n).unwrap();
            let rank = back_rank(n);
            let files = |p| (0..8).filter(move |&f| rank[f] == p);
            let bishops: Vec<usize> = files(Piece::Bishop).collect();
            let rooks: Vec<usize> = files(Piece::Rook).collect();
            let king = files(Piece::King).next().unwrap();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            assert!(
                rooks[0] < king && king < rooks[1],
                "{n}: king not between rooks"
            );
            for color in Color::ALL {
                for side in CastleSide::ALL {
                    assert!(pos.castle_rook(color, side).is_some(), "{n}");
                }
            }
            assert!(seen.insert(pos.key()), "{n} repeats an earlier position");
        }
    }
}
