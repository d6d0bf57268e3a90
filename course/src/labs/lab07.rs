//! Lab 7's checker: `between`, the check mask, the pin masks, the king's safe squares, each
//! piece's legal targets and the ordinary legal moves (all but castling, en passant and
//! promotions).

use movegen::attacks::{between, bishop_attacks, line, rook_attacks};
use movegen::{check_mask, Bitboard, MoveKind, Piece, Position, Square};

use crate::checker::{check_cases, fail, fen_to_arg, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::{bitboard_diagnosis, compare_move_lists};
use crate::diagram::{self, Marks};
use crate::labs::positions::{self, names, oracle_moves, pos_of, square};
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "07-legal",
    [
        "pinned-pawn-push.bug",
        "king-xray.bug",
        "checker-not-capturable.bug",
        "double-check.bug",
        "one-pin-mask.bug",
        "two-pieces-pin.bug",
        "pin-through-enemy.bug",
        "pinned-knight-hops.bug",
        "straight-pinned-queen-goes-diagonal.bug",
        "pinned-knight-own-pin-mask.bug",
        "pinned-queen-on-her-pin-mask.bug",
    ]
);

const LAB: u8 = 7;

const HINT_BETWEEN: &str = "between(a, b) is empty unless a and b share a rank, file or diagonal; \
     then it is the squares strictly between them (neither a nor b). A rook (or bishop) on a with \
     b as the only blocker, ANDed with one on b with a as the only blocker, gives exactly those.";
const HINT_CHECKER: &str = "in check, a piece may also CAPTURE the checker: the check mask is the \
     squares between king and checker PLUS the checker's own square.";
const HINT_DOUBLE: &str = "in double check no block or capture stops both checks: the check mask \
     is empty and only the king moves. Count the checkers first.";
const HINT_NO_CHECK: &str = "not in check, the check mask is every square (!0), so ANDing with it \
     changes nothing.";
const HINT_PIN_MASK: &str = "a pin is a ray from the king through exactly ONE of our pieces to an \
     enemy slider of the right kind (rook/queen on a rank or file, bishop/queen on a diagonal); \
     the mask holds the squares between and the pinner. Look from the king with only the enemy \
     pieces as blockers, then count our pieces between.";
const HINT_XRAY: &str =
    "the king may not step back along the checking ray: that square is attacked \
     too, only hidden behind the king itself. Test the king's squares with the king taken off the \
     board (attackers_to_with and occupied without the king).";
const HINT_KING: &str = "the king may go to a neighbouring square that holds no piece of ours and \
     that no enemy piece attacks.";
const HINT_PIN: &str = "a pinned piece may only move along its pin line (AND its targets with its \
     pin mask): a pawn pinned on a diagonal may not push, one pinned on a rank may not move at \
     all, a pinned knight never moves.";
const HINT_CHECK_MASK: &str = "in check, every move but the king's must land on the check mask \
     (block the check or capture the checker): AND the targets with it.";
const HINT_TARGETS: &str =
    "a piece's targets are its attacks (pawns: pushes and captures) without \
     our own pieces, ANDed with the check mask and, if pinned, with its pin mask.";

/// Lab 7: the check mask and the pin masks.
pub static LAB07: LabRecord = LabRecord {
    number: LAB,
    slug: "legal",
    module: "lab07_legal",
    title: "legal moves: the check mask and the pin masks",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

/// The pin masks (straight, diagonal) of the side to move, from movegen's pins.
pub(crate) fn pin_masks(pos: &Position) -> (u64, u64) {
    let king = pos.king(pos.side_to_move());
    let (mut straight, mut diagonal) = (0, 0);
    for pin in movegen::pins(pos) {
        if rook_attacks(king, Bitboard::EMPTY).has(pin.pinned) {
            straight |= pin.ray.0;
        } else {
            diagonal |= pin.ray.0;
        }
    }
    (straight, diagonal)
}

/// The legal destinations of the piece on `from`, without castling and en passant.
pub(crate) fn targets(pos: &Position, from: Square) -> u64 {
    pos.legal_moves()
        .iter()
        .filter(|m| {
            m.from() == from && matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion(_))
        })
        .fold(0, |set, m| set | 1u64 << m.to().index())
}

/// The hint for wrong targets of the piece on `from`.
pub(crate) fn targets_hint(pos: &Position, from: Square, expected: u64, got: u64) -> &'static str {
    let extra = got & !expected;
    let missing = expected & !got;
    let us = pos.side_to_move();
    let king = pos.king(us);
    let checkers = pos.checkers();
    if from == king {
        // An extra square on the line through a slider checker and the king, behind the king.
        let behind = checkers.iter().any(|c| {
            let slider = matches!(
                pos.piece_on(c),
                Some(Piece::Rook | Piece::Bishop | Piece::Queen)
            );
            slider && line(c, king).0 & extra & !between(c, king).0 != 0
        });
        return if behind { HINT_XRAY } else { HINT_KING };
    }
    if checkers.len() >= 2 && extra != 0 {
        return HINT_DOUBLE;
    }
    if pos.pinned().has(from) && extra & !line(king, from).0 != 0 {
        return HINT_PIN;
    }
    if checkers.len() == 1 {
        let checker = checkers.iter().next().map_or(0, |c| 1u64 << c.index());
        if missing & checker != 0 {
            return HINT_CHECKER;
        }
        if extra != 0 {
            return HINT_CHECK_MASK;
        }
    }
    HINT_TARGETS
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    // The first query builds the student's lab 5 magic tables (a OnceLock), which took over
    // the 5 s of one query on a busy 2-core machine (scripts/course-mutants saw it): these
    // queries get lab 5's allowance for its own table build.
    s.scaled(4, |s| check_between(s, &mut checked))?;
    let mut fens = positions::mixed(0x07_1e6, 12, 60);
    fens.extend(positions::pins(0x07_919, 40));
    fens.extend(positions::pin_lines(0x07_2b1, 60));
    fens.extend(positions::en_passant(0x07_e9, 6));
    let simpler = |fen: &String| positions::simpler(fen);
    // The check mask.
    check_cases(
        s,
        fens.iter().cloned(),
        simpler,
        |s, fen| {
            let pos = pos_of(fen);
            let got = s.ask_bitboard(LAB, "check_mask", &[&fen_to_arg(fen)])?;
            let expected = check_mask(&pos).0;
            if got == expected {
                return Ok(());
            }
            let checkers = pos.checkers();
            let hint = match checkers.len() {
                0 => HINT_NO_CHECK,
                1 if expected & !got & checkers.0 != 0 => HINT_CHECKER,
                1 => HINT_BETWEEN,
                _ => HINT_DOUBLE,
            };
            let king = pos.king(pos.side_to_move()).index() as u8;
            let call = format!(
                "check_mask(board) (checkers: {})",
                diagram::squares(checkers.0)
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
    // The pin masks.
    check_cases(
        s,
        fens.iter().cloned(),
        simpler,
        |s, fen| {
            let pos = pos_of(fen);
            let answer = s.ask(LAB, "pin_masks", &[&fen_to_arg(fen)])?;
            let parts: Vec<u64> = answer
                .split_whitespace()
                .filter_map(crate::checker::parse_bitboard)
                .collect();
            let [straight, diagonal] = parts[..] else {
                return Err(fail(Diagnosis::new(format!(
                    "pin_masks(board) answered `{answer}`, not two bitboards"
                ))));
            };
            let (e_straight, e_diagonal) = pin_masks(&pos);
            let king = pos.king(pos.side_to_move()).index() as u8;
            let marks = Marks {
                origin: Some(king),
                occupied: pos.occupied().0,
            };
            for (what, expected, got) in [
                ("straight (rank and file)", e_straight, straight),
                ("diagonal", e_diagonal, diagonal),
            ] {
                if expected != got {
                    let call = format!("pin_masks(board), the {what} mask");
                    let d = bitboard_diagnosis(&call, expected, got, marks)
                        .with_fen(fen.clone())
                        .with_hint(HINT_PIN_MASK);
                    return Err(fail(d));
                }
            }
            Ok(())
        },
        &mut checked,
    )?;
    // The king's squares.
    check_cases(
        s,
        fens.iter().cloned(),
        simpler,
        |s, fen| {
            let pos = pos_of(fen);
            let king = pos.king(pos.side_to_move());
            let got = s.ask_bitboard(LAB, "king_targets", &[&fen_to_arg(fen)])?;
            let expected = targets(&pos, king);
            if got == expected {
                return Ok(());
            }
            let call = format!("king_targets(board) (king on {})", king);
            let marks = Marks {
                origin: Some(king.index() as u8),
                occupied: pos.occupied().0,
            };
            let d = bitboard_diagnosis(&call, expected, got, marks)
                .with_fen(fen.clone())
                .with_hint(targets_hint(&pos, king, expected, got));
            Err(fail(d))
        },
        &mut checked,
    )?;
    // Every piece's targets.
    let inputs: Vec<(String, u8)> = fens
        .iter()
        .flat_map(|fen| {
            let pos = pos_of(fen);
            let ours = pos.colored(pos.side_to_move());
            ours.iter()
                .map(|sq| (fen.clone(), sq.index() as u8))
                .collect::<Vec<_>>()
        })
        .collect();
    let simpler_piece = |(fen, sq): &(String, u8)| -> Vec<(String, u8)> {
        positions::simpler(fen)
            .into_iter()
            .filter(|f| pos_of(f).colored(pos_of(f).side_to_move()).has(square(*sq)))
            .map(|f| (f, *sq))
            .collect()
    };
    check_cases(s, inputs, simpler_piece, targets_case, &mut checked)?;
    // The whole list of ordinary moves.
    check_cases(
        s,
        fens.iter().cloned(),
        simpler,
        |s, fen| {
            let pos = pos_of(fen);
            let got = names(&s.ask(LAB, "ordinary_moves", &[&fen_to_arg(fen)])?);
            let expected = oracle_moves(&pos, |m| !positions::is_special(m));
            compare_move_lists("ordinary_moves(board)", fen, &expected, &got)
                .map_err(|d| fail(d.with_hint(HINT_TARGETS)))
        },
        &mut checked,
    )?;
    // Last, each piece's targets where two of our pieces are pinned on the same kind of line.
    for fen in two_pins() {
        let pos = pos_of(&fen);
        for sq in pos.colored(pos.side_to_move()).iter() {
            targets_case(s, &(fen.clone(), sq.index() as u8))?;
            checked += 1;
        }
    }
    Ok(checked)
}

/// Two of our pieces pinned on the same kind of line, so the straight (or diagonal) pin mask
/// holds both lines: a pinned knight or queen whose moves are ANDed with that mask, instead of
/// dropped (the knight) or kept to the queen's own line, reaches the other pin's squares
/// (e2c1 and e2d1 here). Each for White and, mirrored, for Black.
fn two_pins() -> Vec<String> {
    let fens = [
        // The knight on e2 pinned on the e-file, the bishop on b1 on the first rank.
        "4r2k/8/8/8/8/8/4N3/rB2K3 w - - 0 1",
        // The same with a queen on e2.
        "4r2k/8/8/8/8/8/4Q3/rB2K3 w - - 0 1",
    ];
    fens.iter()
        .flat_map(|f| {
            let pos = pos_of(f);
            [pos.fen(), pos.mirrored().fen()]
        })
        .collect()
}

/// One piece's `targets`, against movegen's.
fn targets_case(s: &mut Student, (fen, sq): &(String, u8)) -> Result<(), CheckVerdict> {
    let pos = pos_of(fen);
    let from = square(*sq);
    let got = s.ask_bitboard(LAB, "targets", &[&fen_to_arg(fen), &from.to_string()])?;
    let expected = targets(&pos, from);
    if got == expected {
        return Ok(());
    }
    let piece = pos
        .piece_on(from)
        .map_or("piece".to_string(), |p| format!("{p:?}").to_lowercase());
    let call = format!("targets(board, {from}) (the {piece} on {from})");
    let marks = Marks {
        origin: Some(*sq),
        occupied: pos.occupied().0,
    };
    let d = bitboard_diagnosis(&call, expected, got, marks)
        .with_fen(fen.clone())
        .with_hint(targets_hint(&pos, from, expected, got));
    Err(fail(d))
}

fn check_between(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for a in 0..64u8 {
        for b in 0..64u8 {
            // Every pair on a line, and a few that are not.
            let on_line = rook_attacks(square(a), Bitboard::EMPTY).has(square(b))
                || bishop_attacks(square(a), Bitboard::EMPTY).has(square(b));
            if !on_line && (u32::from(a) * 7 + u32::from(b)) % 13 != 0 {
                continue;
            }
            let (na, nb) = (diagram::square_name(a), diagram::square_name(b));
            let got = s.ask_bitboard(LAB, "between", &[&na, &nb])?;
            let expected = between(square(a), square(b)).0;
            if got != expected {
                let marks = Marks {
                    origin: Some(a),
                    occupied: 1u64 << b,
                };
                let d = bitboard_diagnosis(&format!("between({na}, {nb})"), expected, got, marks)
                    .with_hint(HINT_BETWEEN);
                return Err(fail(d));
            }
            *checked += 1;
        }
    }
    Ok(())
}
