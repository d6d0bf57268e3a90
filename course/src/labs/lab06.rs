//! Lab 6's checker: the attackers of a square, the checkers, and whether the king is in check.

use movegen::{Bitboard, Color, Piece, Position};

use crate::checker::{bb_arg, check_cases, fail, fen_to_arg, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::bitboard_diagnosis;
use crate::diagram::{self, Marks};
use crate::inputs::Rng;
use crate::labs::positions::{self, pos_of, square};
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "06-attacks",
    [
        "pawn-color.bug",
        "queen-forgotten.bug",
        "own-pieces-block.bug",
        "wrong-king.bug"
    ]
);

const LAB: u8 = 6;

const HINT_PAWN: &str = "pawns attack forwards, so the pawns of color C that attack a square are \
     where a pawn of the OTHER color on that square would attack: pawn_attacks(by.other(), square) & pawns of `by`.";
const HINT_QUEEN: &str = "a queen attacks like a rook and like a bishop: include queens in both \
     slider lookups (rooks | queens, bishops | queens).";
const HINT_BLOCKERS: &str = "every piece on the board blocks a slider, whatever its color: look \
     the sliders up with the whole occupancy (or the one you were given in attackers_to_with).";
const HINT_LEAPERS: &str = "put each kind of piece on the target square and intersect where it \
     would attack with the enemy pieces of that kind: knights with knight_attacks, kings with king_attacks.";
const HINT_OCCUPANCY: &str =
    "attackers_to_with must use the occupancy it is given, not the board's \
     (lab 7 calls it with the king taken off the board).";
const HINT_WHICH_KING: &str =
    "checkers are the ENEMY pieces attacking the king of the SIDE TO MOVE \
     (board.side); the other king cannot be in check when it is our move.";

/// Lab 6: attacks on a square.
pub static LAB06: LabRecord = LabRecord {
    number: LAB,
    slug: "attacks",
    module: "lab06_attacks",
    title: "attacks on a square, checkers, check",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn color_arg(c: Color) -> &'static str {
    if c == Color::White {
        "w"
    } else {
        "b"
    }
}

fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// The hint for wrong attackers: by the kind of the first missing or extra attacker.
fn attackers_hint(pos: &Position, sq: u8, occupied: u64, expected: u64, got: u64) -> &'static str {
    let wrong = (expected ^ got) & pos.occupied().0;
    let kind = Bitboard(wrong).iter().next().and_then(|s| pos.piece_on(s));
    match kind {
        Some(Piece::Pawn) => HINT_PAWN,
        Some(Piece::Queen) if expected & !got != 0 => HINT_QUEEN,
        Some(Piece::Bishop | Piece::Rook | Piece::Queen) => {
            // An extra slider that a piece hides: the occupancy was not the board's.
            let hidden = got & !expected;
            let any_hidden = Bitboard(hidden)
                .iter()
                .any(|from| movegen::attacks::between(from, square(sq)).0 & occupied != 0);
            if any_hidden {
                HINT_BLOCKERS
            } else {
                HINT_QUEEN
            }
        }
        _ => HINT_LEAPERS,
    }
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    let fens = positions::mixed(0x06_a77, 12, 36);
    // attackers_to: every square, both colors, on sparse positions and the known ones.
    let mut inputs = Vec::new();
    for fen in &fens {
        for sq in 0..64u8 {
            for by in [Color::White, Color::Black] {
                inputs.push((fen.clone(), sq, by));
            }
        }
    }
    let simpler = |(fen, sq, by): &(String, u8, Color)| -> Vec<(String, u8, Color)> {
        positions::simpler(fen)
            .into_iter()
            .map(|f| (f, *sq, *by))
            .collect()
    };
    check_cases(
        s,
        inputs.iter().cloned(),
        simpler,
        |s, (fen, sq, by)| {
            let pos = pos_of(fen);
            let name = diagram::square_name(*sq);
            let got = s.ask_bitboard(
                LAB,
                "attackers_to",
                &[&fen_to_arg(fen), &name, color_arg(*by)],
            )?;
            let occupied = pos.occupied().0;
            let expected = (pos.attackers_to(square(*sq), pos.occupied()) & pos.colored(*by)).0;
            if got == expected {
                return Ok(());
            }
            let call = format!("attackers_to(board, {name}, {})", color_name(*by));
            let d = bitboard_diagnosis(
                &call,
                expected,
                got,
                Marks {
                    origin: Some(*sq),
                    occupied,
                },
            )
            .with_fen(fen.clone())
            .with_hint(attackers_hint(&pos, *sq, occupied, expected, got));
            Err(fail(d))
        },
        &mut checked,
    )?;
    // attackers_to_with: the board's occupancy less one piece (as lab 7 takes the king away).
    let mut rng = Rng::new(0x06_0cc);
    let mut inputs = Vec::new();
    for fen in &fens {
        let pos = pos_of(fen);
        let pieces: Vec<u8> = pos.occupied().iter().map(|s| s.index() as u8).collect();
        let lifted = pieces[rng.below(pieces.len() as u64) as usize];
        for _ in 0..8 {
            let by = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            inputs.push((fen.clone(), rng.square(), by, lifted));
        }
    }
    for (fen, sq, by, lifted) in inputs {
        let pos = pos_of(&fen);
        let occupied = pos.occupied().0 & !(1u64 << lifted);
        let name = diagram::square_name(sq);
        let args = [
            fen_to_arg(&fen),
            name.clone(),
            color_arg(by).to_string(),
            bb_arg(occupied),
        ];
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let got = s.ask_bitboard(LAB, "attackers_to_with", &argv)?;
        let expected = (pos.attackers_to(square(sq), Bitboard(occupied)) & pos.colored(by)).0;
        if got != expected {
            let call = format!(
                "attackers_to_with(board, {name}, {}, occupied without {})",
                color_name(by),
                diagram::square_name(lifted)
            );
            let d = bitboard_diagnosis(
                &call,
                expected,
                got,
                Marks {
                    origin: Some(sq),
                    occupied,
                },
            )
            .with_fen(fen.clone())
            .with_hint(HINT_OCCUPANCY);
            return Err(fail(d));
        }
        checked += 1;
    }
    // checkers and in_check on every position.
    let simpler_fen = |fen: &String| positions::simpler(fen);
    check_cases(
        s,
        fens.iter().cloned(),
        simpler_fen,
        |s, fen| {
            let pos = pos_of(fen);
            let got = s.ask_bitboard(LAB, "checkers", &[&fen_to_arg(fen)])?;
            let expected = pos.checkers().0;
            if got == expected {
                return Ok(());
            }
            let king = pos.king(pos.side_to_move()).index() as u8;
            // attackers_to passed on every square, so a wrong answer here picks the wrong king
            // or the wrong side.
            let hint = HINT_WHICH_KING;
            let call = format!(
                "checkers(board) ({} to move, king on {})",
                color_name(pos.side_to_move()),
                diagram::square_name(king)
            );
            let d = bitboard_diagnosis(
                &call,
                expected,
                got,
                Marks {
                    origin: Some(king),
                    occupied: pos.occupied().0,
                },
            )
            .with_fen(fen.clone())
            .with_hint(hint);
            Err(fail(d))
        },
        &mut checked,
    )?;
    check_cases(
        s,
        fens.iter().cloned(),
        simpler_fen,
        |s, fen| {
            let pos = pos_of(fen);
            let answer = s.ask(LAB, "in_check", &[&fen_to_arg(fen)])?;
            let expected = pos.in_check();
            if answer.trim() == expected.to_string() {
                return Ok(());
            }
            let d = Diagnosis::new(format!(
                "in_check(board) answered {answer}, expected {expected} ({} to move; checkers: {})",
                color_name(pos.side_to_move()),
                diagram::squares(pos.checkers().0)
            ))
            .with_fen(fen.clone())
            .with_hint(HINT_WHICH_KING);
            Err(fail(d))
        },
        &mut checked,
    )?;
    Ok(checked)
}
