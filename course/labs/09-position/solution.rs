//! Lab 09: the position. FEN in and out, copy-make, zobrist keys.

use crate::types::{square_name, Bitboard, Board, Color, Move, Piece, Square};

/// The piece letters in `Piece` order; white is upper case in FEN.
const LETTERS: [char; 6] = ['p', 'n', 'b', 'r', 'q', 'k'];

/// Reads a FEN string (all six fields; the two move counters may be left
/// out and then default to `0 1`). A string that is not a FEN gives
/// `Err` with a message naming the field that is wrong; it never panics.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(format!("a FEN has 6 fields, this one has {}", fields.len()));
    }
    let mut board = Board {
        pieces: [[0; 6]; 2],
        side: Color::White,
        castling: 0,
        en_passant: None,
        halfmove: 0,
        fullmove: 1,
    };
    // Placement: rank 8 first, each rank from the a-file to the h-file.
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("the placement has {} ranks, not 8", ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10) {
                if skip == 0 || skip > 8 {
                    return Err(format!("bad empty-square count '{c}' on rank {}", rank + 1));
                }
                file += skip as u8;
            } else {
                let lower = c.to_ascii_lowercase();
                let Some(piece) = LETTERS.iter().position(|&l| l == lower) else {
                    return Err(format!("unknown piece letter '{c}'"));
                };
                if file >= 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
                let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                board.pieces[color][piece] |= 1u64 << (rank * 8 + file);
                file += 1;
            }
            if file > 8 {
                return Err(format!("rank {} has more than 8 squares", rank + 1));
            }
        }
        if file != 8 {
            return Err(format!("rank {} has {file} squares, not 8", rank + 1));
        }
    }
    board.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(format!("side to move must be w or b, not '{other}'")),
    };
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let bit = match c {
                'K' => 1,
                'Q' => 2,
                'k' => 4,
                'q' => 8,
                _ => return Err(format!("bad castling letter '{c}'")),
            };
            if board.castling & bit != 0 {
                return Err(format!("castling letter '{c}' given twice"));
            }
            board.castling |= bit;
        }
    }
    if fields[3] != "-" {
        match parse_square(fields[3]) {
            Some(sq) if sq / 8 == 2 || sq / 8 == 5 => board.en_passant = Some(sq),
            _ => return Err(format!("bad en-passant square '{}'", fields[3])),
        }
    }
    if fields.len() == 6 {
        board.halfmove = fields[4]
            .parse()
            .map_err(|_| format!("bad halfmove clock '{}'", fields[4]))?;
        board.fullmove = fields[5]
            .parse()
            .map_err(|_| format!("bad fullmove number '{}'", fields[5]))?;
    }
    check_position(&board)?;
    Ok(board)
}

/// What makes a well-formed FEN an impossible position: the kings (one each, not side by
/// side), pawns on the first or last rank, and an en-passant square that the last move, a
/// double push of the side not to move, cannot have left.
fn check_position(board: &Board) -> Result<(), String> {
    for color in 0..2 {
        if board.pieces[color][5].count_ones() != 1 {
            return Err("each side needs exactly one king".to_string());
        }
    }
    let (white, black) = (
        board.pieces[0][5].trailing_zeros() as i32,
        board.pieces[1][5].trailing_zeros() as i32,
    );
    if (white % 8 - black % 8).abs() <= 1 && (white / 8 - black / 8).abs() <= 1 {
        return Err("the kings stand next to each other".to_string());
    }
    let back_ranks = 0xff00_0000_0000_00ffu64;
    if (board.pieces[0][0] | board.pieces[1][0]) & back_ranks != 0 {
        return Err("a pawn on the first or last rank".to_string());
    }
    if let Some(sq) = board.en_passant {
        // White to move: a black pawn went from sq + 8 to sq - 8, past sq on rank 6; with
        // Black to move, a white pawn past sq on rank 3.
        let (rank, by) = match board.side {
            Color::White => (5, 1),
            Color::Black => (2, 0),
        };
        let possible = sq / 8 == rank && {
            let (pawn, from) = if rank == 5 { (sq - 8, sq + 8) } else { (sq + 8, sq - 8) };
            board.pieces[by][0] & 1u64 << pawn != 0
                && board.occupied() & (1u64 << sq | 1u64 << from) == 0
        };
        if !possible {
            return Err(format!(
                "no double push can have left the en-passant square {}",
                square_name(sq)
            ));
        }
    }
    Ok(())
}

/// Writes the board as a FEN string with all six fields.
pub fn to_fen(board: &Board) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_at(rank * 8 + file) {
                Some((color, piece)) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let letter = LETTERS[piece as usize];
                    out.push(if color == Color::White {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if board.side == Color::White { " w " } else { " b " });
    if board.castling == 0 {
        out.push('-');
    }
    for (bit, letter) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
        if board.castling & bit != 0 {
            out.push(letter);
        }
    }
    out.push(' ');
    match board.en_passant {
        Some(sq) => out.push_str(&square_name(sq)),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", board.halfmove, board.fullmove));
    out
}

/// The board after `mv`, a legal move of `board` (copy-make: `board` is
/// not changed). Updates the pieces (captures, castling's rook, en
/// passant's captured pawn, promotion), the side to move, the castling
/// rights, the en-passant square (set after every double push), and both
/// clocks.
pub fn play(board: &Board, mv: Move) -> Board {
    let mut next = *board;
    let us = board.side as usize;
    let them = 1 - us;
    let from_bb = 1u64 << mv.from;
    let to_bb = 1u64 << mv.to;
    let (_, moving) = board.piece_at(mv.from).expect("play: no piece on the from-square");
    let captured = board.piece_at(mv.to).map(|(_, p)| p);

    next.pieces[us][moving as usize] &= !from_bb;
    if let Some(victim) = captured {
        next.pieces[them][victim as usize] &= !to_bb;
    }
    let placed = mv.promotion.unwrap_or(moving);
    next.pieces[us][placed as usize] |= to_bb;

    next.en_passant = None;
    if moving == Piece::Pawn {
        if Some(mv.to) == board.en_passant {
            // En passant: the captured pawn stands behind the target square.
            let victim = if us == 0 { mv.to - 8 } else { mv.to + 8 };
            next.pieces[them][0] &= !(1u64 << victim);
        }
        if mv.to.abs_diff(mv.from) == 16 {
            next.en_passant = Some((mv.from + mv.to) / 2);
        }
    }
    if moving == Piece::King && mv.to.abs_diff(mv.from) == 2 {
        // Castling: the rook jumps over the king.
        let (rook_from, rook_to) = if mv.to > mv.from {
            (mv.from + 3, mv.from + 1)
        } else {
            (mv.from - 4, mv.from - 1)
        };
        next.pieces[us][3] &= !(1u64 << rook_from);
        next.pieces[us][3] |= 1u64 << rook_to;
    }
    // A right goes when its king or rook moves, or the rook is captured.
    next.castling &= castling_kept(mv.from) & castling_kept(mv.to);

    next.halfmove = if moving == Piece::Pawn || captured.is_some() {
        0
    } else {
        board.halfmove + 1
    };
    if board.side == Color::Black {
        next.fullmove += 1;
    }
    next.side = if us == 0 { Color::Black } else { Color::White };
    next
}

/// The castling rights that survive a move from or to `sq`.
fn castling_kept(sq: Square) -> u8 {
    match sq {
        0 => !2,   // a1: white queen side
        4 => !3,   // e1: both white rights
        7 => !1,   // h1: white king side
        56 => !8,  // a8: black queen side
        60 => !12, // e8: both black rights
        63 => !4,  // h8: black king side
        _ => !0,
    }
}

/// The next number of a xorshift64* generator; `state` must not be 0.
/// The same seed gives the same numbers on every run and every machine.
pub fn random_u64(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// The random numbers a zobrist key is made of.
struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    black_to_move: u64,
    castling: [u64; 16],
    en_passant_file: [u64; 8],
}

fn keys() -> &'static Keys {
    static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut keys = Keys {
            pieces: [[[0; 64]; 6]; 2],
            black_to_move: 0,
            castling: [0; 16],
            en_passant_file: [0; 8],
        };
        for color in &mut keys.pieces {
            for piece in color.iter_mut() {
                for key in piece.iter_mut() {
                    *key = random_u64(&mut state);
                }
            }
        }
        keys.black_to_move = random_u64(&mut state);
        for key in &mut keys.castling {
            *key = random_u64(&mut state);
        }
        for key in &mut keys.en_passant_file {
            *key = random_u64(&mut state);
        }
        keys
    })
}

/// The zobrist key of `board`, from scratch: the XOR of one number per
/// piece on its square, one if black is to move, one for the castling
/// rights, one for the en-passant file. The clocks are not part of it.
pub fn zobrist(board: &Board) -> u64 {
    let keys = keys();
    let mut key = 0;
    for color in 0..2 {
        for piece in 0..6 {
            let mut bb: Bitboard = board.pieces[color][piece];
            while bb != 0 {
                key ^= keys.pieces[color][piece][bb.trailing_zeros() as usize];
                bb &= bb - 1;
            }
        }
    }
    if board.side == Color::Black {
        key ^= keys.black_to_move;
    }
    key ^= keys.castling[board.castling as usize & 15];
    if let Some(sq) = board.en_passant {
        key ^= keys.en_passant_file[(sq % 8) as usize];
    }
    key
}

/// The key of `play(board, mv)`, computed from `key` (the key of `board`)
/// by XORing out what the move changes and XORing in what it makes,
/// without looking at the squares the move does not touch.
pub fn update_key(board: &Board, key: u64, mv: Move) -> u64 {
    let keys = keys();
    let next = play(board, mv);
    let us = board.side as usize;
    let them = 1 - us;
    let (_, moving) = board.piece_at(mv.from).expect("update_key: no piece on the from-square");
    let mut key = key;
    key ^= keys.pieces[us][moving as usize][mv.from as usize];
    let placed = mv.promotion.unwrap_or(moving);
    key ^= keys.pieces[us][placed as usize][mv.to as usize];
    if let Some((_, victim)) = board.piece_at(mv.to) {
        key ^= keys.pieces[them][victim as usize][mv.to as usize];
    }
    if moving == Piece::Pawn && Some(mv.to) == board.en_passant {
        let victim = if us == 0 { mv.to - 8 } else { mv.to + 8 };
        key ^= keys.pieces[them][0][victim as usize];
    }
    if moving == Piece::King && mv.to.abs_diff(mv.from) == 2 {
        let (rook_from, rook_to) = if mv.to > mv.from {
            (mv.from + 3, mv.from + 1)
        } else {
            (mv.from - 4, mv.from - 1)
        };
        key ^= keys.pieces[us][3][rook_from as usize] ^ keys.pieces[us][3][rook_to as usize];
    }
    key ^= keys.black_to_move;
    key ^= keys.castling[board.castling as usize & 15] ^ keys.castling[next.castling as usize & 15];
    if let Some(sq) = board.en_passant {
        key ^= keys.en_passant_file[(sq % 8) as usize];
    }
    if let Some(sq) = next.en_passant {
        key ^= keys.en_passant_file[(sq % 8) as usize];
    }
    key
}

/// Square 28 for `e4`; `None` for anything else.
fn parse_square(name: &str) -> Option<Square> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}
