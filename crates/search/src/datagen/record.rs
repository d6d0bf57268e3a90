//! The training record: one position, its search score and its game's
//! result in 32 bytes, little-endian (specified in docs/datagen.md).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | occupancy, `u64`: bit `n` set when square `n` (a1 = 0, h8 = 63) holds a piece |
//! | 8 | 16 | one nibble per occupied square, in rising square order, low nibble first: colour `<< 3` \| piece (pawn 0 to king 5); unused nibbles 0 |
//! | 24 | 2 | score, `i16`, centipawns from White's point of view |
//! | 26 | 1 | result from White's point of view: 0 Black won, 1 draw, 2 White won |
//! | 27 | 1 | flags: bit 0 Black to move; bit 1 first record of its game; bits 4 to 7 castling rights K, Q, k, q |
//! | 28 | 2 | fullmove number, `u16` |
//! | 30 | 1 | halfmove clock |
//! | 31 | 1 | en-passant square (0 to 63), 255 for none |

use movegen::{CastleSide, Color, Piece, Position, Square};

/// Bytes in one record.
pub const RECORD_BYTES: usize = 32;

/// Flag bit: Black is to move.
const BLACK_TO_MOVE: u8 = 1;
/// Flag bit: the first record written for its game.
const FIRST_OF_GAME: u8 = 2;
/// No en-passant square.
const NO_EP: u8 = 255;

/// A game's result from White's point of view, as a record stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWon = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWon = 2,
}

impl GameResult {
    /// The win of `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWon,
            Color::Black => GameResult::BlackWon,
        }
    }
}

/// Why a position cannot be stored in the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Castling with a rook off the corner or a king off the e-file
    /// (Chess960): the format writes standard castling rights only.
    Chess960Castling,
    /// More than 32 pieces, or a move number or clock too large for its field.
    OutOfRange,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecordError::Chess960Castling => {
                "Chess960 castling rights (the format stores standard castling only)"
            }
            RecordError::OutOfRange => "more than 32 pieces, or a move number above 65535",
        })
    }
}

impl std::error::Error for RecordError {}

/// The corner rook and e-file king of each standard castling right, in the
/// flag order K, Q, k, q.
const STANDARD_CASTLING: [(Color, CastleSide, Square, Square); 4] = [
    (Color::White, CastleSide::Short, Square::H1, Square::E1),
    (Color::White, CastleSide::Long, Square::A1, Square::E1),
    (Color::Black, CastleSide::Short, Square::H8, Square::E8),
    (Color::Black, CastleSide::Long, Square::A8, Square::E8),
];

/// The castling nibble of `pos` (bit 0 K, 1 Q, 2 k, 3 q).
pub fn castling_bits(pos: &Position) -> Result<u8, RecordError> {
    let mut bits = 0;
    for (i, &(color, side, rook, king)) in STANDARD_CASTLING.iter().enumerate() {
        if let Some(sq) = pos.castle_rook(color, side) {
            if sq != rook || pos.king(color) != king {
                return Err(RecordError::Chess960Castling);
            }
            bits |= 1 << i;
        }
    }
    Ok(bits)
}

/// Encodes `pos` with `score` (centipawns, White's view), `result` and
/// whether it is the first record of its game.
pub fn encode(
    pos: &Position,
    score: i32,
    result: GameResult,
    first: bool,
) -> Result<[u8; RECORD_BYTES], RecordError> {
    let occupied = pos.occupied();
    if occupied.len() > 32 {
        return Err(RecordError::OutOfRange);
    }
    let fullmove = u16::try_from(pos.fullmove_number()).map_err(|_| RecordError::OutOfRange)?;
    let halfmove = u8::try_from(pos.halfmove_clock()).map_err(|_| RecordError::OutOfRange)?;
    let mut out = [0u8; RECORD_BYTES];
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (i, sq) in occupied.iter().enumerate() {
        let piece = pos.piece_on(sq).expect("an occupied square holds a piece");
        let color = pos.color_on(sq).expect("an occupied square has a colour");
        let nibble = ((color.index() as u8) << 3) | piece.index() as u8;
        out[8 + i / 2] |= nibble << (4 * (i % 2));
    }
    let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    out[24..26].copy_from_slice(&score.to_le_bytes());
    out[26] = result as u8;
    let mut flags = castling_bits(pos)? << 4;
    if pos.side_to_move() == Color::Black {
        flags |= BLACK_TO_MOVE;
    }
    if first {
        flags |= FIRST_OF_GAME;
    }
    out[27] = flags;
    out[28..30].copy_from_slice(&fullmove.to_le_bytes());
    out[30] = halfmove;
    out[31] = pos.ep_square().map_or(NO_EP, |sq| sq.index() as u8);
    Ok(out)
}

/// The occupied squares of a record: bit `n` set when square `n` holds a piece.
#[inline]
pub fn occupancy(rec: &[u8; RECORD_BYTES]) -> u64 {
    u64::from_le_bytes([
        rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7],
    ])
}

/// The piece code of the `k`th occupied square in rising square order:
/// colour `<< 3` | piece (pawn 0 to king 5). 0 from `k` = 32 on, where the
/// format has no room (only a corrupt record has more pieces).
#[inline]
pub fn piece_code(rec: &[u8; RECORD_BYTES], k: usize) -> u8 {
    if k < 32 {
        (rec[8 + k / 2] >> (4 * (k % 2))) & 0xF
    } else {
        0
    }
}

/// The search's score, centipawns from White's point of view.
#[inline]
pub fn score(rec: &[u8; RECORD_BYTES]) -> i16 {
    i16::from_le_bytes([rec[24], rec[25]])
}

/// Sets the score (centipawns, White's view).
pub fn set_score(rec: &mut [u8; RECORD_BYTES], score: i16) {
    rec[24..26].copy_from_slice(&score.to_le_bytes());
}

/// The game's result from White's point of view: 0, 1 or 2 as in
/// [`GameResult`] (a corrupt record may hold more).
#[inline]
pub fn result(rec: &[u8; RECORD_BYTES]) -> u8 {
    rec[26]
}

/// Sets the game's result.
pub fn set_result(rec: &mut [u8; RECORD_BYTES], result: GameResult) {
    rec[26] = result as u8;
}

/// Whether Black is to move.
#[inline]
pub fn black_to_move(rec: &[u8; RECORD_BYTES]) -> bool {
    rec[27] & BLACK_TO_MOVE != 0
}

/// Sets the side to move: Black when `black`, else White.
pub fn set_black_to_move(rec: &mut [u8; RECORD_BYTES], black: bool) {
    if black {
        rec[27] |= BLACK_TO_MOVE;
    } else {
        rec[27] &= !BLACK_TO_MOVE;
    }
}

/// Whether the record is the first written for its game.
#[inline]
pub fn first_of_game(rec: &[u8; RECORD_BYTES]) -> bool {
    rec[27] & FIRST_OF_GAME != 0
}

/// The castling rights as a nibble, as [`castling_bits`] writes them
/// (bit 0 K, 1 Q, 2 k, 3 q).
#[inline]
pub fn castling(rec: &[u8; RECORD_BYTES]) -> u8 {
    rec[27] >> 4
}

/// A decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position as FEN (standard castling letters).
    pub fen: String,
    /// Centipawns from White's point of view.
    pub score: i16,
    /// The game's result from White's point of view: 0, 1 or 2 (see [`GameResult`]).
    pub result: u8,
    /// Whether this is the first record of its game.
    pub first_of_game: bool,
}

/// Decodes one record into a FEN and its labels. The FEN is not checked
/// for legality (parse it with [`Position::from_fen`] for that).
pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Record {
    let occupied = occupancy(bytes);
    let mut board = [None; 64];
    let mut bits = occupied;
    let mut i = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        // Past 32 pieces the record is corrupt; the FEN shows it as pawns.
        let nibble = piece_code(bytes, i);
        let color = if nibble & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let piece = Piece::ALL.get(usize::from(nibble & 7)).copied();
        board[sq] = Some(piece.map_or('?', |p| p.to_fen_char(color)));
        i += 1;
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if black_to_move(bytes) { " b " } else { " w " });
    let castling: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|&(k, _)| castling(bytes) & (1 << k) != 0)
        .map(|(_, c)| c)
        .collect();
    fen.push_str(if castling.is_empty() { "-" } else { &castling });
    match Square::from_index(usize::from(bytes[31])) {
        Some(sq) => fen.push_str(&format!(" {sq}")),
        None => fen.push_str(" -"),
    }
    let fullmove = u16::from_le_bytes([bytes[28], bytes[29]]);
    fen.push_str(&format!(" {} {fullmove}", bytes[30]));
    Record {
        fen,
        score: score(bytes),
        result: result(bytes),
        first_of_game: first_of_game(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_a_record() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 3 17",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/3k4/8/8/3KQ3/8 b - - 99 300",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let bytes = encode(&pos, -1234, GameResult::Draw, true).unwrap();
            let rec = decode(&bytes);
            assert_eq!(Position::from_fen(&rec.fen).unwrap(), pos, "{fen}");
            assert_eq!(rec.fen, pos.to_string());
            assert_eq!((rec.score, rec.result, rec.first_of_game), (-1234, 1, true));
        }
    }

    #[test]
    fn the_fields_sit_where_the_spec_says() {
        let pos = Position::startpos();
        let bytes = encode(&pos, 300, GameResult::WhiteWon, false).unwrap();
        assert_eq!(
            u64::from_le_bytes(bytes[0..8].try_into().unwrap()),
            0xFFFF_0000_0000_FFFF
        );
        // a1 rook (3), b1 knight (1): low nibble first.
        assert_eq!(bytes[8], 0x13);
        // The last two pieces: g8 knight and h8 rook, Black (8 | piece).
        assert_eq!(bytes[23], 0xB9);
        assert_eq!(&bytes[24..], &[44, 1, 2, 0xF0, 1, 0, 0, 255]);
        let black = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 40").unwrap();
        let bytes = encode(&black, -5, GameResult::BlackWon, true).unwrap();
        assert_eq!(&bytes[24..], &[0xFB, 0xFF, 0, 3, 40, 0, 0, 255]);
    }

    #[test]
    fn the_accessors_read_and_write_the_fields() {
        let pos = Position::from_fen("r3k3/8/8/8/8/8/8/4K2R b Kq - 0 9").unwrap();
        let mut bytes = encode(&pos, -42, GameResult::BlackWon, true).unwrap();
        assert_eq!(occupancy(&bytes), pos.occupied().0);
        // e1 White king, h1 White rook, a8 Black rook, e8 Black king.
        let codes: Vec<u8> = (0..5).map(|k| piece_code(&bytes, k)).collect();
        assert_eq!(codes, [5, 3, 8 | 3, 8 | 5, 0]);
        assert_eq!(piece_code(&bytes, 40), 0);
        assert_eq!((score(&bytes), result(&bytes)), (-42, 0));
        assert!(black_to_move(&bytes) && first_of_game(&bytes));
        assert_eq!(castling(&bytes), 0b1001);
        set_score(&mut bytes, 7);
        set_result(&mut bytes, GameResult::Draw);
        set_black_to_move(&mut bytes, false);
        let rec = decode(&bytes);
        assert_eq!((rec.score, rec.result), (7, 1));
        assert_eq!(rec.fen, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 9");
        set_black_to_move(&mut bytes, true);
        assert!(black_to_move(&bytes) && first_of_game(&bytes));
        assert_eq!(castling(&bytes), 0b1001);
    }

    #[test]
    fn chess960_castling_is_refused() {
        let pos = Position::from_fen("1rk5/8/8/8/8/8/8/1RK5 w Bb - 0 1").unwrap();
        assert_eq!(
            encode(&pos, 0, GameResult::Draw, false),
            Err(RecordError::Chess960Castling)
        );
    }
}
