//! Lab 3's checker: knight and king attacks of whole sets, their tables, and their moves.

use movegen::{attacks, Position};

use crate::checker::{bb_arg, check_cases, fen_to_arg, LabFiles, LabRecord, CheckVerdict};
use crate::compare::{bitboard_diagnosis, compare_move_lists};
use crate::diagram::{self, Marks};
use crate::inputs::{self, Rng};
use crate::shrink::{fewer_pieces, fewer_squares};
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "03-knights-kings",
    [
        "knight-two-files-one-mask.bug",
        "king-east-wraps.bug",
        "knight-masks-before-shift.bug",
        "moves-capture-own-pieces.bug",
        "moves-loop-stops-before-h8.bug",
    ]
);

const LAB: u8 = 3;

const HINT_KNIGHT_WRAP: &str = "file mask missing: the shift wrapped around the board. A jump two \
     files east can land on the a- or b-file only by wrapping, so AND its result with \
     !(FILE_A | FILE_B); a jump one file east with !FILE_A; west jumps with !(FILE_G | FILE_H) \
     and !FILE_H.";
const HINT_KING_WRAP: &str = "file mask missing: the shift wrapped around the board. A king step \
     east (<< 1, << 9, >> 7) lands on the a-file only by wrapping: AND those with !FILE_A; the \
     west steps (>> 1, >> 9, << 7) with !FILE_H.";
const HINT_MASK_SIDE: &str = "a mask after the shift removes the squares the shift wrapped onto \
     (for a jump east: the a- and b-files). Masking the pieces before the shift works too, but \
     then the mask is the other side's files (a knight on the g- or h-file can't jump two east): \
     the two ways mixed up lose squares.";
const HINT_OWN: &str = "a piece can't move onto a square its own side holds: AND the attacks \
     with !board.us().";
const HINT_SKIPPED: &str = "a piece with moves to make got none at all: its square was never \
     visited. Walk the pieces with pop_lsb (or a loop over all 64 squares: `0..64`, since \
     `0..63` stops before h8, square 63), both colours, every rank.";
const HINT_LEAPER: &str = "a knight jumps two squares one way and one the other: the eight \
     shifts are +17, +15, +10, +6 and -6, -10, -15, -17; a king steps +-1, +-7, +-8, +-9.";

/// Lab 3: knights and kings.
pub static LAB03: LabRecord = LabRecord {
    number: LAB,
    slug: "knights-kings",
    module: "lab03_leapers",
    title: "knights and kings",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn each(bb: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |i| bb >> i & 1 == 1)
}

fn sq_of(i: u8) -> movegen::Square {
    movegen::Square::from_index(i as usize).expect("0..64")
}

/// The oracle: movegen's tables, united over the set.
fn oracle(knight: bool, set: u64) -> u64 {
    each(set).fold(0, |all, sq| {
        all | if knight {
            attacks::knight_attacks(sq_of(sq)).0
        } else {
            attacks::king_attacks(sq_of(sq)).0
        }
    })
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    for (knight, function) in [(true, "knight_attacks"), (false, "king_attacks")] {
        let mut rng = Rng::new(300 + u64::from(knight));
        let mut inputs: Vec<u64> = vec![0];
        inputs.extend((0..64).map(|sq| 1u64 << sq));
        inputs.extend((0..100).map(|_| rng.sparse()));
        check_cases(
            s,
            inputs,
            |b| fewer_squares(*b),
            |s, &b| set_case(s, function, knight, b),
            &mut checked,
        )?;
    }
    for (knight, function) in [(true, "knight_table"), (false, "king_table")] {
        check_cases(
            s,
            0..64u8,
            |_| Vec::new(),
            |s, &sq| table_case(s, function, knight, sq),
            &mut checked,
        )?;
    }
    for (knight, function) in [(true, "knight_moves"), (false, "king_moves")] {
        check_cases(
            s,
            positions(),
            |f| fewer_pieces(f),
            |s, fen| move_case(s, function, knight, fen),
            &mut checked,
        )?;
        check_cases(
            s,
            lone_pieces(knight),
            |_| Vec::new(),
            |s, case| lone_piece_case(s, function, knight, case),
            &mut checked,
        )?;
    }
    Ok(checked)
}

/// The hint for a wrong attack set of `pieces`.
fn attack_hint(knight: bool, pieces: u64, got: u64, want: u64) -> &'static str {
    let reach = if knight { 2 } else { 1 };
    // An extra square farther (in files) from every piece near it than the piece can reach
    // is a shift that wrapped around the board's edge.
    let wrapped = each(got & !want).any(|t| {
        each(pieces)
            .filter(|&p| (i16::from(p / 8) - i16::from(t / 8)).abs() <= 2)
            .all(|p| (i16::from(p % 8) - i16::from(t % 8)).abs() > reach)
    });
    match (wrapped, knight) {
        (true, _) if want & !got != 0 => HINT_MASK_SIDE,
        (true, true) => HINT_KNIGHT_WRAP,
        (true, false) => HINT_KING_WRAP,
        (false, _) if want & !got != 0 => HINT_MASK_SIDE,
        _ => HINT_LEAPER,
    }
}

fn set_case(s: &mut Student, function: &str, knight: bool, b: u64) -> Result<(), CheckVerdict> {
    let got = s.ask_bitboard(LAB, function, &[&bb_arg(b)])?;
    let want = oracle(knight, b);
    if got == want {
        return Ok(());
    }
    let piece = if knight { "knights" } else { "kings" };
    let call = format!("{function}({piece} on {})", diagram::squares(b));
    let marks = Marks {
        origin: None,
        occupied: b,
    };
    let d =
        bitboard_diagnosis(&call, want, got, marks).with_hint(attack_hint(knight, b, got, want));
    let letter = if knight { 'N' } else { 'K' };
    let body = format!(
        "the {piece} ({letter}):\n{}\n\n{}",
        diagram::sets(&[(b, letter)]),
        d.body
    );
    Err(CheckVerdict::Fail(d.with_body(body)))
}

fn table_case(s: &mut Student, function: &str, knight: bool, sq: u8) -> Result<(), CheckVerdict> {
    let name = diagram::square_name(sq);
    let got = s.ask_bitboard(LAB, function, &[&name])?;
    let want = oracle(knight, 1 << sq);
    if got == want {
        return Ok(());
    }
    let marks = Marks {
        origin: Some(sq),
        occupied: 0,
    };
    let d = bitboard_diagnosis(&format!("{function}()[{name}]"), want, got, marks);
    Err(CheckVerdict::Fail(d.with_hint(attack_hint(
        knight,
        1 << sq,
        got,
        want,
    ))))
}

fn positions() -> Vec<String> {
    let mut out: Vec<String> = inputs::POSITIONS.iter().map(|f| f.to_string()).collect();
    let mut rng = Rng::new(310);
    for n in 0..50 {
        out.push(inputs::random_game_position(&mut rng, 6 + n).fen());
        out.push(inputs::random_sparse_position(&mut rng, 8).fen());
    }
    out
}

fn move_case(s: &mut Student, function: &str, knight: bool, fen: &String) -> Result<(), CheckVerdict> {
    compare_moves(s, function, knight, fen, &format!("{function}(\"{fen}\")"))
}

/// A knight (or king) of each colour alone on each square in turn, back ranks and corners
/// included, with the two kings where nothing is in check: (white, square, FEN).
fn lone_pieces(knight: bool) -> Vec<(bool, u8, String)> {
    let mut out = Vec::new();
    let far = |a: u8, b: u8| (a / 8).abs_diff(b / 8).max((a % 8).abs_diff(b % 8)) >= 2;
    // Corners first: far from most squares.
    let candidates: Vec<u8> = [0, 7, 56, 63].into_iter().chain(0..64).collect();
    for white in [true, false] {
        for sq in 0..64u8 {
            let reach = oracle(knight, 1 << sq);
            let free = |k: u8| k != sq && reach >> k & 1 == 0;
            let own = if knight {
                candidates.iter().copied().find(|&k| free(k))
            } else {
                Some(sq)
            };
            let Some(own) = own else { continue };
            let Some(theirs) = candidates
                .iter()
                .copied()
                .find(|&k| free(k) && k != own && far(k, own))
            else {
                continue;
            };
            let mut cells = ['.'; 64];
            let (mine, king, other) = match (white, knight) {
                (true, true) => ('N', 'K', 'k'),
                (false, true) => ('n', 'k', 'K'),
                (true, false) => ('K', 'K', 'k'),
                (false, false) => ('k', 'k', 'K'),
            };
            cells[own as usize] = king;
            cells[sq as usize] = mine;
            cells[theirs as usize] = other;
            let side = if white { "w" } else { "b" };
            let fen = format!("{} {side} - - 0 1", inputs::placement(&cells));
            if Position::from_fen(&fen).is_ok() {
                out.push((white, sq, fen));
            }
        }
    }
    out
}

fn lone_piece_case(
    s: &mut Student,
    function: &str,
    knight: bool,
    (white, sq, fen): &(bool, u8, String),
) -> Result<(), CheckVerdict> {
    let side = if *white { "White" } else { "Black" };
    let piece = if knight { "knight" } else { "king" };
    let call = format!(
        "{function}(\"{fen}\"), a {side} {piece} on {}",
        diagram::square_name(*sq)
    );
    compare_moves(s, function, knight, fen, &call)
}

fn compare_moves(
    s: &mut Student,
    function: &str,
    knight: bool,
    fen: &str,
    call: &str,
) -> Result<(), CheckVerdict> {
    let pos = Position::from_fen(fen).expect("the checker's positions are legal");
    let us = pos.side_to_move();
    let piece = if knight {
        movegen::Piece::Knight
    } else {
        movegen::Piece::King
    };
    let own = pos.colored(us).0;
    let mut want = Vec::new();
    for from in each(pos.pieces_of(us, piece).0) {
        for to in each(oracle(knight, 1 << from) & !own) {
            want.push(format!(
                "{}{}",
                diagram::square_name(from),
                diagram::square_name(to)
            ));
        }
    }
    let answer = s.ask(LAB, function, &[&fen_to_arg(fen)])?;
    let got: Vec<String> = answer.split_whitespace().map(String::from).collect();
    compare_move_lists(call, fen, &want, &got).map_err(|d| {
        let onto_own = got.iter().any(|m| {
            movegen::Square::parse(&m[2..4.min(m.len())]).is_some_and(|t| own >> t.index() & 1 == 1)
        });
        // A piece with moves to make that got none at all: its square was never visited.
        let from = |m: &String| m.get(..2).map(str::to_string);
        let skipped = want
            .iter()
            .filter_map(from)
            .any(|f| !got.iter().any(|m| from(m).as_deref() == Some(f.as_str())));
        let hint = if onto_own {
            HINT_OWN
        } else if skipped {
            HINT_SKIPPED
        } else {
            HINT_LEAPER
        };
        CheckVerdict::Fail(d.with_hint(hint))
    })
}
