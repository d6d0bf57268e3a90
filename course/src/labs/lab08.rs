//! Lab 8's checker: castling, en passant, promotions, and the complete legal move generator
//! (`legal_moves`, which labs 9 to 12 build on).

use movegen::{Bitboard, Color, MoveKind, Piece, Position, Square};

use crate::checker::{check_cases, fail, fen_to_arg, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::compare_move_lists;
use crate::labs::positions::{self, names, oracle_moves, pos_of, square};
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "08-special-moves",
    [
        "castle-through-attack.bug",
        "castle-in-check.bug",
        "castle-b1-attacked.bug",
        "ep-rank-pin.bug",
        "queen-only.bug",
        "ep-checker-stays.bug",
        "promotion-push-only.bug",
        "castle-path-skips-b1.bug",
        "castle-without-rook.bug",
    ]
);

const LAB: u8 = 8;

const HINT_CASTLE_CHECK: &str =
    "no castling out of check: when the king is in check, castling_moves is empty.";
const HINT_CASTLE_CROSS: &str =
    "the king may not pass over an attacked square either: e1g1 needs f1 \
     and g1 safe, e1c1 needs d1 and c1 safe (the same on rank 8).";
const HINT_CASTLE_PATH: &str =
    "every square between king and rook must be empty: f1 and g1 on the \
     king side, b1, c1 and d1 on the queen side.";
const HINT_CASTLE_B1: &str =
    "only the king's squares must be safe; b1 (b8) must be empty but may be \
     attacked, since only the rook crosses it.";
const HINT_CASTLE_RIGHTS: &str = "castling needs its right (1 = white king side, 2 = white queen \
     side, 4 = black king side, 8 = black queen side), the king and rook on their squares, an \
     empty path and safe king squares; write it as the king's two-square step (e1g1).";
const HINT_CASTLE_ROOK: &str = "a castling right is not a rook: the right stays in a FEN (or a \
     GUI's position) after the rook is gone, so check that the rook of that side is on its \
     corner (h1 for e1g1, a1 for e1c1, h8 and a8 for Black), as well as the right.";
const HINT_CASTLE_KING: &str = "a castling right is not a king on its square either: a FEN \
     written by hand can keep the right after the king has moved, so check that the king is \
     on e1 (e8) before making e1g1 or e1c1.";
const HINT_CASTLE_NO_RIGHT: &str = "king and rook at home are not a right: a king that went \
     out and came back has lost it. Test the bit of the castling field for that side (1 = K, \
     2 = Q, 4 = k, 8 = q) with `castling & bit != 0`.";
const HINT_EP_RANK: &str =
    "en passant takes two pawns off one rank at once: with both gone, a rook \
     or queen on that rank may see the king, a pin the pin masks cannot show. Play the capture \
     on a copy of the board and ask whether the king is attacked.";
const HINT_EP: &str = "an en passant capture moves our pawn to the en passant square and removes \
     the enemy pawn BEHIND it (one rank towards us); it is legal when our king is not attacked \
     afterwards (play it on a copy of the board and ask attackers_to).";
const HINT_PROMOTE: &str = "a pawn reaching the last rank may become a queen, a rook, a bishop or \
     a knight: four moves (e7e8q e7e8r e7e8b e7e8n), and under-promotions matter (a knight \
     promotion can give check when a queen cannot).";
const HINT_PROMOTE_LEGAL: &str = "promotions are pawn moves like any other: pushes onto an empty \
     square and captures, kept to the check mask and the pin masks (your lab 7 targets).";
const HINT_ALL: &str = "legal_moves is lab 7's ordinary moves plus castling, en passant and the \
     promotions, each move once.";

/// Lab 8: castling, en passant and promotions.
pub static LAB08: LabRecord = LabRecord {
    number: LAB,
    slug: "special-moves",
    module: "lab08_special",
    title: "castling, en passant, promotions",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn sq(name: &str) -> Option<Square> {
    Square::parse(name)
}

/// The hint for a wrong list of castling moves.
fn castling_hint(pos: &Position, missing: &[String], extra: &[String]) -> &'static str {
    if !extra.is_empty() && pos.in_check() {
        return HINT_CASTLE_CHECK;
    }
    let them = !pos.side_to_move();
    let attacked = |s: Square| pos.is_attacked(s, them, pos.occupied());
    for mv in extra {
        let (Some(from), Some(to)) = (sq(&mv[0..2]), sq(&mv[2..4])) else {
            continue;
        };
        let crossed = square(((from.index() + to.index()) / 2) as u8);
        if attacked(crossed) || attacked(to) {
            return HINT_CASTLE_CROSS;
        }
        return HINT_CASTLE_PATH;
    }
    for mv in missing {
        if mv.ends_with("c1") || mv.ends_with("c8") {
            let b = square(if mv.ends_with("c1") { 1 } else { 57 });
            if attacked(b) {
                return HINT_CASTLE_B1;
            }
        }
    }
    HINT_CASTLE_RIGHTS
}

/// The hint for a wrong list of en passant captures.
fn en_passant_hint(pos: &Position, extra: &[String]) -> &'static str {
    let us = pos.side_to_move();
    let king = pos.king(us);
    let rank = if us == Color::White { 4 } else { 3 };
    let enemy_rank_sliders =
        (pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen)) & pos.colored(!us);
    let rank_bb = Bitboard(0xffu64 << (rank * 8));
    if !extra.is_empty() && king.index() / 8 == rank && (enemy_rank_sliders & rank_bb).nonempty() {
        HINT_EP_RANK
    } else {
        HINT_EP
    }
}

fn promotion_hint(missing: &[String], extra: &[String]) -> &'static str {
    if extra.is_empty() && !missing.is_empty() && missing.iter().all(|m| !m.ends_with('q')) {
        HINT_PROMOTE
    } else {
        HINT_PROMOTE_LEGAL
    }
}

fn differences(expected: &[String], got: &[String]) -> (Vec<String>, Vec<String>) {
    let missing = expected
        .iter()
        .filter(|m| !got.contains(m))
        .cloned()
        .collect();
    let extra = got
        .iter()
        .filter(|m| !expected.contains(m))
        .cloned()
        .collect();
    (missing, extra)
}

/// Castling fields that name a right whose rook is not on its corner (captured, or a FEN
/// written by hand), or whose king is not on its square, with the same position and only the
/// rights that still hold: what movegen, which refuses the stale right, is asked. Then what a
/// castling move there is missing.
const STALE_RIGHTS: &[(&str, &str, Stale)] = &[
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Stale::Rook),
    ("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Stale::Rook),
    ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", Stale::Rook),
    ("r3k3/8/8/8/8/8/8/4K3 b kq - 0 1", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", Stale::Rook),
    ("4k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "4k2r/8/8/8/8/8/8/4K3 b k - 0 1", Stale::Rook),
    // The rook's corner taken by another piece: a knight on h1.
    ("4k3/8/8/8/8/8/8/4K2N w K - 0 1", "4k3/8/8/8/8/8/8/4K2N w - - 0 1", Stale::Rook),
    // The rooks at home, the king not: it stands on d1 (f1 would block the king side's path).
    ("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", "4k3/8/8/8/8/8/8/R2K3R w - - 0 1", Stale::King),
    ("r2k3r/8/8/8/8/8/8/4K3 b kq - 0 1", "r2k3r/8/8/8/8/8/8/4K3 b - - 0 1", Stale::King),
    // King and rooks at home, the right gone (the king went out and came back): no castling.
    ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", Stale::Right),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", Stale::Right),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", Stale::Right),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1", Stale::Right),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQq - 0 1", Stale::Right),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1", Stale::Right),
];

/// What an extra castling move of [`STALE_RIGHTS`] lacks.
#[derive(Clone, Copy)]
enum Stale {
    /// The right is in the field, the rook is not on its corner.
    Rook,
    /// The right is in the field, the king is not on e1 (e8).
    King,
    /// The king and the rook are at home, the field has no right for that side.
    Right,
}

/// Castling with a right in the castling field but no rook on its corner or no king on its
/// square, or with both at home and no right: none.
fn check_stale_rights(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for &(stale, valid, lacks) in STALE_RIGHTS {
        let got = names(&s.ask(LAB, "castling_moves", &[&fen_to_arg(stale)])?);
        let expected = oracle_moves(&pos_of(valid), |m| m.kind() == MoveKind::Castle);
        if let Err(d) = compare_move_lists("castling_moves(board)", stale, &expected, &got) {
            let (_, extra) = differences(&expected, &got);
            let corner = |m: &String| match &m[2..4] {
                "g1" => "h1",
                "c1" => "a1",
                "g8" => "h8",
                _ => "a8",
            };
            let right = |m: &String| match &m[2..4] {
                "g1" => "K",
                "c1" => "Q",
                "g8" => "k",
                _ => "q",
            };
            let list = |f: &dyn Fn(&String) -> &'static str| {
                extra.iter().map(f).collect::<Vec<_>>().join(", ")
            };
            let (summary, hint) = match lacks {
                _ if extra.is_empty() => (d.summary, HINT_CASTLE_RIGHTS),
                Stale::Rook => (
                    format!(
                        "{}: the castling field gives the right, but there is no rook on its \
                         corner ({})",
                        d.summary,
                        list(&corner)
                    ),
                    HINT_CASTLE_ROOK,
                ),
                Stale::King => (
                    format!(
                        "{}: the castling field gives the right, but the king is not on {}: \
                         the move starts from an empty square",
                        d.summary,
                        &extra[0][..2]
                    ),
                    HINT_CASTLE_KING,
                ),
                Stale::Right => (
                    format!(
                        "{}: king and rook are at home, but the castling field has no right \
                         for it ({} is not in the field)",
                        d.summary,
                        list(&right)
                    ),
                    HINT_CASTLE_NO_RIGHT,
                ),
            };
            return Err(fail(
                Diagnosis::new(summary)
                    .with_fen(stale)
                    .with_body(d.body)
                    .with_hint(hint),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

type Kind = fn(MoveKind) -> bool;

fn check_list(
    s: &mut Student,
    function: &str,
    fens: &[String],
    keep: Kind,
    hint: fn(&Position, &[String], &[String]) -> &'static str,
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        fens.iter().cloned(),
        |fen: &String| positions::simpler(fen),
        |s, fen| {
            let pos = pos_of(fen);
            let got = names(&s.ask(LAB, function, &[&fen_to_arg(fen)])?);
            let expected = oracle_moves(&pos, |m| keep(m.kind()));
            compare_move_lists(&format!("{function}(board)"), fen, &expected, &got).map_err(|d| {
                let (missing, extra) = differences(&expected, &got);
                fail(d.with_hint(hint(&pos, &missing, &extra)))
            })
        },
        checked,
    )
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    // The rare cases first, each a rule students miss: a piece on b1 only (the king does not
    // cross it, but the rook needs it empty); en passant that takes the checking pawn, that
    // stays on a diagonal pin line or leaves it, and that empties a rank between king and
    // rook; a promotion that captures.
    let fixed = |fens: &[&str]| fens.iter().map(|f| f.to_string()).collect::<Vec<_>>();
    let mut castling = fixed(&[
        "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
        "rn2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ]);
    castling.extend(positions::castling(0x08_ca57, 60));
    let mut en_passant = fixed(&[
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "4k3/6b1/8/4Pp2/8/8/8/K7 w - f6 0 1",
        "4k3/6b1/8/3pP3/8/8/8/K7 w - d6 0 1",
        "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
    ]);
    en_passant.extend(positions::en_passant(0x08_e9, 60));
    let mut promotions = fixed(&["4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"]);
    promotions.extend(positions::promotions(0x08_9a0, 40));
    let mut mixed = positions::mixed(0x08_a11, 24, 24);
    check_list(
        s,
        "castling_moves",
        &castling,
        |k| k == MoveKind::Castle,
        castling_hint,
        &mut checked,
    )?;
    check_stale_rights(s, &mut checked)?;
    check_list(
        s,
        "en_passant_moves",
        &en_passant,
        |k| k == MoveKind::EnPassant,
        |pos, _, extra| en_passant_hint(pos, extra),
        &mut checked,
    )?;
    check_list(
        s,
        "promotion_moves",
        &promotions,
        |k| matches!(k, MoveKind::Promotion(_)),
        |_, missing, extra| promotion_hint(missing, extra),
        &mut checked,
    )?;
    mixed.extend(castling.into_iter().step_by(3));
    mixed.extend(en_passant.into_iter().step_by(3));
    mixed.extend(promotions.into_iter().step_by(3));
    check_list(
        s,
        "legal_moves",
        &mixed,
        |_| true,
        |_, _, _| HINT_ALL,
        &mut checked,
    )?;
    Ok(checked)
}
