//! `PositionBuilder::from_position(&pos).build()` gives `pos` back: the
//! same pieces, castling rooks, en passant, clocks and castling mode, on the
//! suite positions, the positions a few random moves on from them, and all
//! 960 Chess960 starts.

#[path = "support/suite.rs"]
mod suite;
use suite::suite;

use movegen::rng::SplitMix64;
use movegen::{
    CastleSide, CastlingMode, Color, FenError, Piece, Position, PositionBuilder, Square,
};

/// The positions of the standard, thesis and Chess960 suites.
fn suite_roots() -> Vec<Position> {
    let mut roots = suite("perft_standard.epd");
    roots.extend(suite("thesis_positions.epd"));
    roots.extend(suite("perft_chess960.epd"));
    roots
}

/// Hands `visit` each root and the positions of a 12-move random walk from
/// it (moves drawn with `seed`); returns how many positions it saw.
fn walk(roots: Vec<Position>, seed: u64, mut visit: impl FnMut(&Position)) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut seen = 0;
    for root in roots {
        let mut pos = root;
        for _ in 0..12 {
            visit(&pos);
            seen += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    seen
}

fn assert_round_trip(pos: &Position) {
    let back = PositionBuilder::from_position(pos)
        .build()
        .unwrap_or_else(|e| panic!("{pos}: {e}"));
    assert_eq!(back, *pos, "{pos}");
    assert_eq!(back.fen(), pos.fen());
    assert_eq!(back.castling_mode(), pos.castling_mode(), "{pos}");
    assert_eq!(back.key(), pos.key(), "{pos}");
    assert_eq!(back.polyglot_key(), pos.polyglot_key(), "{pos}");
}

#[test]
fn a_castling_right_stays_with_its_own_rook() {
    for fen in [
        "4k3/8/8/8/8/8/8/4KR1R w F - 0 1",
        "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1",
        "r1r1k3/8/8/8/8/8/8/4K3 b c - 0 1",
        "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_round_trip(&pos);
    }
}

#[test]
fn from_position_then_build_is_the_identity() {
    let mut roots = suite_roots();
    roots.extend((0..960).map(|n| Position::chess960(n).unwrap()));
    let checked = walk(roots, 4, assert_round_trip);
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn a_mirrored_position_is_the_same_game_with_the_colours_swapped() {
    let checked = walk(suite_roots(), 7, |pos| {
        let m = pos.mirrored();
        assert_eq!(m.mirrored(), *pos, "{pos}");
        assert_eq!(m.mirrored().fen(), pos.fen());
        assert_eq!(m.mirrored().polyglot_key(), pos.polyglot_key(), "{pos}");
        assert_eq!(m.side_to_move(), !pos.side_to_move(), "{pos}");
        for sq in movegen::Bitboard::FULL {
            let swapped = pos.color_on(sq).map(|c| !c);
            assert_eq!(m.color_on(sq.flip_rank()), swapped, "{pos} {sq}");
            assert_eq!(m.piece_on(sq.flip_rank()), pos.piece_on(sq), "{pos} {sq}");
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let rook = pos.castle_rook(color, side).map(Square::flip_rank);
                assert_eq!(m.castle_rook(!color, side), rook, "{pos}");
            }
        }
        assert_eq!(m.ep_square(), pos.ep_square().map(Square::flip_rank));
        assert_eq!(m.in_check(), pos.in_check(), "{pos}");
        assert_eq!(movegen::perft::perft(&m, 2), movegen::perft::perft(pos, 2));
    });
    assert!(checked > 1_000, "{checked}");
}

/// A board as the tests keep it: what stands on each square, a1 = 0.
type Board = [Option<(Color, Piece)>; 64];

/// The FEN of `board` with the other fields as given, written here rather
/// than by the builder, so the two can be compared.
fn fen_of(
    board: &Board,
    side: Color,
    castling: &str,
    ep: Option<Square>,
    clocks: (u32, u32),
) -> String {
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some((color, piece)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(piece.to_fen_char(color));
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        ranks.push(row);
    }
    let side = if side == Color::White { "w" } else { "b" };
    let castling = if castling.is_empty() { "-" } else { castling };
    let ep = ep.map_or("-".to_string(), |sq| sq.to_string());
    format!(
        "{} {side} {castling} {ep} {} {}",
        ranks.join("/"),
        clocks.0,
        clocks.1
    )
}

fn square(index: usize) -> Square {
    Square::from_index(index).expect("0..64")
}

fn random_color(rng: &mut SplitMix64) -> Color {
    Color::ALL[rng.below(2)]
}

/// A random empty square of `board`, if one turns up.
fn empty_square(rng: &mut SplitMix64, board: &Board) -> Option<usize> {
    (0..8).map(|_| rng.below(64)).find(|&i| board[i].is_none())
}

/// A builder made from random choices, and the FEN it stands for. Most are
/// not legal positions: kings missing, doubled or next to each other, pawns
/// on the back ranks, more than 16 pieces a side, castling rights without
/// their king or rook, en-passant squares on the wrong rank or with no pawn
/// behind them, the side not to move in check.
fn random_case(rng: &mut SplitMix64) -> (PositionBuilder, String) {
    let mut board: Board = [None; 64];
    if rng.below(2) == 0 {
        // Kings and rooks at home, so that castling rights often stand.
        board[4] = Some((Color::White, Piece::King));
        board[60] = Some((Color::Black, Piece::King));
        for corner in [0, 7, 56, 63] {
            if rng.below(4) != 0 {
                let color = if corner < 8 {
                    Color::White
                } else {
                    Color::Black
                };
                board[corner] = Some((color, Piece::Rook));
            }
        }
    } else {
        for color in Color::ALL {
            let kings = [1, 1, 1, 1, 1, 1, 1, 0, 2, 2][rng.below(10)];
            for _ in 0..kings {
                if let Some(i) = empty_square(rng, &board) {
                    board[i] = Some((color, Piece::King));
                }
            }
        }
        // Now and then a black king right next to a white one.
        let white_king = board
            .iter()
            .position(|&p| p == Some((Color::White, Piece::King)));
        if let (Some(k), 0) = (white_king, rng.below(8)) {
            let next = [k + 1, k + 8, k + 9, k.wrapping_sub(1), k.wrapping_sub(8)];
            if let Some(&i) = next.iter().find(|&&i| i < 64 && board[i].is_none()) {
                board[i] = Some((Color::Black, Piece::King));
            }
        }
    }
    let extra = if rng.below(25) == 0 {
        20 + rng.below(16)
    } else {
        rng.below(14)
    };
    for _ in 0..extra {
        let piece = [
            Piece::Pawn,
            Piece::Pawn,
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ][rng.below(7)];
        if let Some(i) = empty_square(rng, &board) {
            board[i] = Some((random_color(rng), piece));
        }
    }
    let side = random_color(rng);
    let mut builder = PositionBuilder::new();
    for (i, &p) in board.iter().enumerate() {
        if let Some((color, piece)) = p {
            builder = builder.piece(square(i), color, piece);
        }
    }
    builder = builder.side_to_move(side);
    let mut castling = String::new();
    for (color, letters) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        for (cs, letter) in CastleSide::ALL.into_iter().zip(letters) {
            if rng.below(3) == 0 {
                builder = builder.castling(color, cs);
                castling.push(letter);
            }
        }
    }
    let ep = match rng.below(3) {
        0 => None,
        1 => Some(square(rng.below(64))),
        _ => {
            // On the right rank; half the time with the pawn that pushed
            // past it and the squares it crossed empty.
            let (rank, dir) = if side == Color::White {
                (5, -8)
            } else {
                (2, 8)
            };
            let i = rank * 8 + rng.below(8);
            if rng.below(2) == 0 {
                let pawn = (i as isize + dir) as usize;
                let origin = (i as isize - dir) as usize;
                board[pawn] = Some((!side, Piece::Pawn));
                builder = builder.piece(square(pawn), !side, Piece::Pawn);
                for j in [i, origin] {
                    board[j] = None;
                    builder = builder.remove(square(j));
                }
            }
            Some(square(i))
        }
    };
    if let Some(sq) = ep {
        builder = builder.en_passant(sq);
    }
    let clocks = (rng.below(100) as u32, 1 + rng.below(200) as u32);
    builder = builder.clocks(clocks.0, clocks.1);
    let fen = fen_of(&board, side, &castling, ep, clocks);
    (builder, fen)
}

/// The name of a result's variant, for the tally.
fn kind(result: &Result<Position, FenError>) -> String {
    match result {
        Ok(_) => "Ok".to_string(),
        Err(e) => format!("{e:?}").split('(').next().unwrap_or("").to_string(),
    }
}

#[test]
fn the_builder_gives_the_error_from_fen_gives() {
    let mut rng = SplitMix64::new(54);
    let mut tally = std::collections::BTreeMap::new();
    for _ in 0..12_000 {
        let (builder, fen) = random_case(&mut rng);
        let built = builder.build();
        assert_eq!(built, Position::from_fen(&fen), "{fen}");
        *tally.entry(kind(&built)).or_insert(0) += 1;
    }
    for expected in [
        "Ok",
        "KingCount",
        "TooManyPieces",
        "PawnOnBackRank",
        "CastlingPieces",
        "EnPassantRank",
        "EnPassantPawn",
        "OpponentInCheck",
    ] {
        assert!(
            tally.get(expected).is_some_and(|&n| n >= 20),
            "{expected}: {tally:?}"
        );
    }
}

/// `pos`'s board as the tests keep it.
fn board_of(pos: &Position) -> Board {
    let mut board: Board = [None; 64];
    for sq in pos.occupied() {
        board[sq.index()] = pos.color_on(sq).zip(pos.piece_on(sq));
    }
    board
}

#[test]
fn a_changed_builder_is_checked_as_the_fen_it_shows() {
    let mut rng = SplitMix64::new(54);
    let mut checked = 0;
    walk(suite_roots(), 54, |pos| {
        for _ in 0..3 {
            let mut board = board_of(pos);
            let mut side = pos.side_to_move();
            let mut builder = PositionBuilder::from_position(pos);
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(64);
                match rng.below(3) {
                    0 => {
                        let piece = Piece::ALL[rng.below(6)];
                        let color = random_color(&mut rng);
                        board[i] = Some((color, piece));
                        builder = builder.piece(square(i), color, piece);
                    }
                    1 => {
                        board[i] = None;
                        builder = builder.remove(square(i));
                    }
                    _ => {
                        side = !side;
                        builder = builder.side_to_move(side);
                    }
                }
            }
            // The rights with their own rooks, as the builder keeps them.
            let shredder = pos.fen_with(CastlingMode::Chess960);
            let castling = shredder.split(' ').nth(2).unwrap_or("-");
            let clocks = (pos.halfmove_clock(), pos.fullmove_number());
            let fen = fen_of(
                &board,
                side,
                castling.trim_matches('-'),
                pos.ep_square(),
                clocks,
            );
            assert_eq!(
                builder.build(),
                Position::from_fen(&fen),
                "{pos} changed to {fen}"
            );
            checked += 1;
        }
    });
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn an_en_passant_square_no_fen_shows_does_not_outlive_a_change() {
    // b5xc6 would leave the a5 king to the h5 rook: the square counts for
    // the Polyglot key only, and the FEN has none.
    let pos = Position::from_fen("8/8/3p4/KPp4r/1R3Pk1/8/4P3/8 w - c6 0 3").unwrap();
    assert_eq!(pos.fen(), "8/8/3p4/KPp4r/1R3Pk1/8/4P3/8 w - - 0 3");
    assert_round_trip(&pos);
    let changed = PositionBuilder::from_position(&pos)
        .piece(Square::C7, Color::White, Piece::Pawn)
        .piece(Square::F6, Color::White, Piece::Rook)
        .piece(Square::G1, Color::White, Piece::Rook);
    let fen = "8/2P5/3p1R2/KPp4r/1R3Pk1/8/4P3/6R1 w - - 0 3";
    assert_eq!(Position::from_fen(fen), Err(FenError::OpponentInCheck));
    assert_eq!(changed.build(), Err(FenError::OpponentInCheck));
}
