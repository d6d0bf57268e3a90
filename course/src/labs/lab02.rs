//! Lab 2's checker: pawn pushes, double pushes, captures with the file masks, attacks and
//! the move list with promotions.

use movegen::{attacks, Position};

use crate::checker::{bb_arg, check_cases, fen_to_arg, LabFiles, LabRecord, CheckVerdict};
use crate::compare::{bitboard_diagnosis, compare_move_lists};
use crate::diagram::{self, Marks};
use crate::inputs::{self, Rng};
use crate::shrink::{fewer_pieces, fewer_squares};
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "02-pawns",
    [
        "capture-east-wraps.bug",
        "double-push-jumps.bug",
        "double-push-from-rank-3.bug",
        "promotes-to-queen-only.bug",
        "pawn-attacks-skips-back-ranks.bug",
    ]
);

const LAB: u8 = 2;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Ranks 2 to 7, where a game's pawns stand.
const MIDDLE: u64 = 0x00ff_ffff_ffff_ff00;

const HINT_WRAP_EAST: &str = "file mask missing: the shift wrapped around the board. A pawn on the \
     h-file has no square to its east, but shifting it by 9 (White) or 7 (Black) lands on the a-file \
     of the next rank. Remove the h-file pawns first: (pawns & !FILE_H).";
const HINT_WRAP_WEST: &str = "file mask missing: the shift wrapped around the board. A pawn on the \
     a-file has no square to its west, but shifting it by 7 (White) or 9 (Black) lands on the h-file \
     of the next rank. Remove the a-file pawns first: (pawns & !FILE_A).";
const HINT_DIRECTION: &str = "White's pawns move up the board (shift left: << 8), Black's down \
     (shift right: >> 8). Check the shift for the color that went wrong.";
const HINT_DOUBLE_BLOCKED: &str = "a double push needs both squares in front of the pawn empty: \
     push once and AND with empty, then push that result again and AND with empty again. \
     Jumping 16 at once skips the check of the square in between.";
const HINT_START_RANK: &str = "only pawns on their starting rank may move two squares: rank 2 \
     (0xff << 8) for White, rank 7 (0xff << 48) for Black.";
const HINT_PROMOTION: &str = "a pawn reaching the last rank (rank 8 for White, rank 1 for Black) \
     must promote, and it may choose: four moves, to a queen, a rook, a bishop and a knight.";
const HINT_CAPTURE: &str = "a pawn captures one square diagonally forward: White towards rank 8 \
     (<< 7 towards the a-file, << 9 towards the h-file), Black towards rank 1 (>> 9 towards the \
     a-file, >> 7 towards the h-file); only onto an enemy piece.";
const HINT_BACK_RANK: &str = "a pawn on rank 1 or rank 8 gets an answer too: no pawn stands there \
     in a game, but lab 6 asks pawn_attacks backwards (the squares a pawn could attack e1 from are \
     those a pawn of the other colour on e1 would attack), so every function must answer for a \
     pawn on any of the 64 squares, as the plain shifts do. Don't mask ranks 1 and 8 out, nor \
     loop over ranks 2 to 7 only.";
const HINT_MOVES: &str = "from each target square, go back the way the pawn came to find its \
     square: White's single push came from to - 8, Black's from to + 8, and so on.";

/// Lab 2: pawns.
pub static LAB02: LabRecord = LabRecord {
    number: LAB,
    slug: "pawns",
    module: "lab02_pawns",
    title: "pawns by shifts",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

/// The input of the set functions: a side, its pawns, the other pieces on the board.
#[derive(Clone, Copy, Debug)]
struct Input {
    white: bool,
    pawns: u64,
    others: u64,
}

fn mcolor(white: bool) -> movegen::Color {
    if white {
        movegen::Color::White
    } else {
        movegen::Color::Black
    }
}

fn sq_of(i: u8) -> movegen::Square {
    movegen::Square::from_index(i as usize).expect("0..64")
}

fn each(bb: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |i| bb >> i & 1 == 1)
}

fn expected(function: &str, i: Input) -> u64 {
    let empty = !(i.pawns | i.others);
    let forward = |sq: u8, n: u8| -> Option<u8> {
        if i.white {
            sq.checked_add(8 * n).filter(|&t| t < 64)
        } else {
            sq.checked_sub(8 * n)
        }
    };
    let mut out = 0;
    for sq in each(i.pawns) {
        let attacks = attacks::pawn_attacks(mcolor(i.white), sq_of(sq)).0;
        let file = sq % 8;
        out |= match function {
            "single_pushes" => forward(sq, 1).map_or(0, |t| 1 << t & empty),
            "double_pushes" => {
                let start = if i.white { sq / 8 == 1 } else { sq / 8 == 6 };
                match (forward(sq, 1), forward(sq, 2)) {
                    (Some(a), Some(b)) if start && empty >> a & 1 == 1 => 1 << b & empty,
                    _ => 0,
                }
            }
            "captures_west" => {
                each(attacks)
                    .filter(|t| t % 8 < file)
                    .fold(0, |a, t| a | 1 << t)
                    & i.others
            }
            "captures_east" => {
                each(attacks)
                    .filter(|t| t % 8 > file)
                    .fold(0, |a, t| a | 1 << t)
                    & i.others
            }
            _ => attacks,
        };
    }
    out
}

fn inputs(seed: u64) -> Vec<Input> {
    let mut rng = Rng::new(seed);
    let middle = 0x00ff_ffff_ffff_ff00u64;
    let mut out = vec![
        Input {
            white: true,
            pawns: 0xff00,
            others: 0,
        },
        Input {
            white: false,
            pawns: 0xff << 48,
            others: 0,
        },
        Input {
            white: true,
            pawns: 0xff00,
            others: 0xff << 48 | 0x0000_0000_0024_0000,
        },
        Input {
            white: false,
            pawns: 0xff << 48,
            others: 0xff00 | 0x0000_2400_0000_0000,
        },
    ];
    for n in 0..200 {
        let pawns = (rng.medium() | rng.sparse()) & middle;
        let others = rng.medium() & !pawns;
        out.push(Input {
            white: n % 2 == 0,
            pawns,
            others,
        });
    }
    out
}

/// A lone pawn on every square for White, then for Black, ranks 1 and 8 included (lab 6 asks
/// `pawn_attacks` backwards from any square), then both back ranks full. The captures get
/// every other square as an enemy; the pushes an empty board.
fn every_square(function: &str) -> Vec<Input> {
    let mut out = Vec::new();
    for white in [true, false] {
        let sets = (0..64).map(|sq| 1u64 << sq).chain([!MIDDLE]);
        for pawns in sets {
            let others = if function.starts_with("captures") {
                !pawns
            } else {
                0
            };
            out.push(Input {
                white,
                pawns,
                others,
            });
        }
    }
    out
}

fn simpler(i: &Input) -> Vec<Input> {
    let mut out: Vec<Input> = fewer_squares(i.pawns)
        .into_iter()
        .map(|p| Input { pawns: p, ..*i })
        .collect();
    out.extend(
        fewer_squares(i.others)
            .into_iter()
            .map(|o| Input { others: o, ..*i }),
    );
    out
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    for (k, function) in [
        "single_pushes",
        "double_pushes",
        "captures_west",
        "captures_east",
        "pawn_attacks",
    ]
    .into_iter()
    .enumerate()
    {
        let mut cases = inputs(200 + k as u64);
        cases.extend(every_square(function));
        check_cases(
            s,
            cases,
            simpler,
            |s, &i| set_case(s, function, i),
            &mut checked,
        )?;
    }
    check_cases(s, positions(), |f| fewer_pieces(f), move_case, &mut checked)?;
    Ok(checked)
}

fn set_case(s: &mut Student, function: &str, i: Input) -> Result<(), CheckVerdict> {
    let color = if i.white { "w" } else { "b" };
    let empty = !(i.pawns | i.others);
    let third = if function.starts_with("captures") {
        i.others
    } else {
        empty
    };
    let args = [color.to_string(), bb_arg(i.pawns), bb_arg(third)];
    let args: Vec<&str> = if function == "pawn_attacks" {
        vec![&args[0], &args[1]]
    } else {
        args.iter().map(String::as_str).collect()
    };
    let got = s.ask_bitboard(LAB, function, &args)?;
    let want = expected(function, i);
    if got == want {
        return Ok(());
    }
    let side = if i.white { "White" } else { "Black" };
    let third_name = if function.starts_with("captures") {
        "enemies"
    } else {
        "empty"
    };
    let call = if function == "pawn_attacks" {
        format!("{function}({side}, pawns {})", diagram::squares(i.pawns))
    } else {
        format!(
            "{function}({side}, pawns {}, {third_name} = {})",
            diagram::squares(i.pawns),
            args[2]
        )
    };
    let d = bitboard_diagnosis(
        &call,
        want,
        got,
        Marks {
            origin: None,
            occupied: i.pawns | i.others,
        },
    );
    let (pawn, other) = if i.white { ('P', 'x') } else { ('p', 'X') };
    let board = format!(
        "the board: {side}'s pawns {pawn}, other pieces {other} ({}):\n{}\n\n",
        if function.starts_with("captures") {
            "the enemies"
        } else {
            "they block pushes"
        },
        diagram::sets(&[(i.pawns, pawn), (i.others, other)])
    );
    let body = format!("{board}{}", d.body);
    Err(CheckVerdict::Fail(
        d.with_body(body)
            .with_hint(set_hint(function, i, got, want)),
    ))
}

fn set_hint(function: &str, i: Input, got: u64, want: u64) -> &'static str {
    let extra = got & !want;
    let empty = !(i.pawns | i.others);
    let flipped = Input {
        white: !i.white,
        ..i
    };
    let reversed = got != 0 && got == expected(function, flipped);
    let missing = want & !got;
    let middle_only = Input {
        pawns: i.pawns & MIDDLE,
        ..i
    };
    if i.pawns & !MIDDLE != 0 && missing != 0 && missing & expected(function, middle_only) == 0
    {
        return HINT_BACK_RANK;
    }
    match function {
        "single_pushes" if reversed => HINT_DIRECTION,
        "double_pushes" => {
            let between = |t: u8| if i.white { t - 8 } else { t + 8 };
            if each(extra).any(|t| empty >> between(t) & 1 == 0) {
                HINT_DOUBLE_BLOCKED
            } else if reversed {
                HINT_DIRECTION
            } else {
                HINT_START_RANK
            }
        }
        "captures_east" | "pawn_attacks" if extra & FILE_A != 0 && i.pawns & FILE_H != 0 => {
            HINT_WRAP_EAST
        }
        "captures_west" | "pawn_attacks" if extra & FILE_H != 0 && i.pawns & FILE_A != 0 => {
            HINT_WRAP_WEST
        }
        "captures_east" | "captures_west" | "pawn_attacks" => HINT_CAPTURE,
        _ => HINT_DIRECTION,
    }
}

/// Positions for `pawn_moves`: the well-known ones, promotions for both sides, and positions
/// from random games.
fn positions() -> Vec<String> {
    let mut out: Vec<String> = inputs::POSITIONS.iter().map(|f| f.to_string()).collect();
    out.extend(
        [
            "r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1",
            "r3k3/1P6/8/8/8/8/6p1/4K2R b - - 0 1",
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1",
        ]
        .map(String::from),
    );
    let mut rng = Rng::new(210);
    for n in 0..60 {
        out.push(inputs::random_game_position(&mut rng, 10 + n).fen());
        out.push(inputs::random_sparse_position(&mut rng, 10).fen());
    }
    out
}

/// The pawn moves of the side to move, with promotions and without en passant, from
/// movegen's pawn attack table and the board.
fn oracle_moves(pos: &Position) -> Vec<String> {
    let us = pos.side_to_move();
    let white = us == movegen::Color::White;
    let empty = !pos.occupied().0;
    let them = pos.colored(!us).0;
    let mut out = Vec::new();
    let mut add = |from: u8, to: u8| {
        let (f, t) = (diagram::square_name(from), diagram::square_name(to));
        if !(8..56).contains(&to) {
            for p in ["q", "r", "b", "n"] {
                out.push(format!("{f}{t}{p}"));
            }
        } else {
            out.push(format!("{f}{t}"));
        }
    };
    for sq in each(pos.pieces_of(us, movegen::Piece::Pawn).0) {
        let one = if white { sq + 8 } else { sq - 8 };
        if empty >> one & 1 == 1 {
            add(sq, one);
            let start = if white { sq / 8 == 1 } else { sq / 8 == 6 };
            let two = if white { sq + 16 } else { sq.wrapping_sub(16) };
            if start && empty >> two & 1 == 1 {
                add(sq, two);
            }
        }
        for to in each(attacks::pawn_attacks(us, sq_of(sq)).0 & them) {
            add(sq, to);
        }
    }
    out
}

fn move_case(s: &mut Student, fen: &String) -> Result<(), CheckVerdict> {
    let pos = Position::from_fen(fen).expect("the checker's positions are legal");
    let answer = s.ask(LAB, "pawn_moves", &[&fen_to_arg(fen)])?;
    let got: Vec<String> = answer.split_whitespace().map(String::from).collect();
    let want = oracle_moves(&pos);
    compare_move_lists(&format!("pawn_moves(\"{fen}\")"), fen, &want, &got).map_err(|d| {
        let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
        let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
        let wrap = |from: u8, to: u8| {
            extra
                .iter()
                .any(|m| m.as_bytes()[0] == from && m.as_bytes()[2] == to)
        };
        let hint = if !missing.is_empty() && missing.iter().all(|m| m.len() == 5) {
            HINT_PROMOTION
        } else if wrap(b'h', b'a') {
            HINT_WRAP_EAST
        } else if wrap(b'a', b'h') {
            HINT_WRAP_WEST
        } else {
            HINT_MOVES
        };
        CheckVerdict::Fail(d.with_hint(hint))
    })
}
