//! Lab 4's checker: line masks, the subtraction trick one way and both ways, and the rook,
//! bishop and queen attacks built from it.

use movegen::{attacks, Bitboard};

use crate::checker::{bb_arg, check_cases, LabFiles, LabRecord, CheckVerdict};
use crate::compare::bitboard_diagnosis;
use crate::diagram::{self, Marks};
use crate::inputs::Rng;
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "04-rays",
    [
        "occupancy-not-masked.bug",
        "no-final-mask.bug",
        "rank-with-swap-bytes.bug",
        "ray-past-the-blocker.bug"
    ]
);

const LAB: u8 = 4;

const HINT_LINE: &str = "a file is 0x0101010101010101 shifted by the file; a rank 0xff shifted by \
     8 * rank; a diagonal is where file - rank stays the same (the main one, a1-h8, is \
     0x8040201008040201; shift it down or up by 8 per step), an anti-diagonal where file + rank \
     stays the same (h1-a8 is 0x0102040810204080). Leave the square itself out.";
const HINT_SELF: &str = "the line must not contain the slider's own square: AND with !(1 << sq).";
const HINT_OCC_MASK: &str = "a piece that is not on the line stopped your ray: mask the occupancy \
     to the line before subtracting, o = occupied & line. The subtraction borrows from the next \
     set bit above the slider, wherever on the board it is.";
const HINT_FINAL_MASK: &str = "squares off the line: where no piece blocks, the borrow of o - 2r \
     runs all the way up the board (and the mirrored one all the way down). AND the result with \
     the line at the end.";
const HINT_RANK_SWAP: &str =
    "swap_bytes mirrors the board top to bottom: it reverses the order of \
     the ranks, not of the squares within a rank, so it can't run a rank's ray backwards. For a \
     rank use reverse_bits (your line_attacks).";
const HINT_BEYOND: &str =
    "your ray goes past the first piece in its way: the borrow of o - 2r stops \
     at the first occupied square above the slider, and o ^ (o - 2r) keeps exactly the squares it \
     changed: the empty ones on the way and the blocker. Without the XOR, the pieces beyond stay.";
const HINT_BLOCKER: &str = "the first piece in the way is attacked too (it may be an enemy to \
     capture): o ^ (o - 2r) keeps it; o - 2r alone clears it.";
const HINT_BACKWARD: &str = "the squares below the slider (towards a1) are wrong: mirror the \
     board, run the subtraction, mirror back: rev(rev(o) - 2 rev(r)). The forward and mirrored \
     results are XORed together, then masked with the line.";
const HINT_RAY: &str = "a slider attacks along its line up to and including the first occupied \
     square in each direction, and no further.";

/// Lab 4: rays.
pub static LAB04: LabRecord = LabRecord {
    number: LAB,
    slug: "rays",
    module: "lab04_rays",
    title: "sliding pieces I: rays",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

/// The four kinds of line through a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Rank,
    Diagonal,
    AntiDiagonal,
}

const KINDS: [Kind; 4] = [Kind::File, Kind::Rank, Kind::Diagonal, Kind::AntiDiagonal];

fn line(kind: Kind, sq: u8) -> u64 {
    let (f, r) = (i32::from(sq % 8), i32::from(sq / 8));
    (0..64u8)
        .filter(|&t| {
            let (tf, tr) = (i32::from(t % 8), i32::from(t / 8));
            t != sq
                && match kind {
                    Kind::File => tf == f,
                    Kind::Rank => tr == r,
                    Kind::Diagonal => tf - tr == f - r,
                    Kind::AntiDiagonal => tf + tr == f + r,
                }
        })
        .fold(0, |m, t| m | 1 << t)
}

/// The oracle: movegen's rook or bishop attacks, on the one line.
fn line_attacks(kind: Kind, sq: u8, occ: u64) -> u64 {
    let square = movegen::Square::from_index(sq as usize).expect("0..64");
    let all = match kind {
        Kind::File | Kind::Rank => attacks::rook_attacks(square, Bitboard(occ)).0,
        Kind::Diagonal | Kind::AntiDiagonal => attacks::bishop_attacks(square, Bitboard(occ)).0,
    };
    all & line(kind, sq)
}

fn above(sq: u8) -> u64 {
    u64::MAX.checked_shl(u32::from(sq) + 1).unwrap_or(0)
}

#[derive(Clone, Copy, Debug)]
struct Input {
    sq: u8,
    occ: u64,
    kind: Kind,
}

fn inputs(seed: u64, kinds: &[Kind]) -> Vec<Input> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for &kind in kinds {
        for sq in 0..64u8 {
            out.push(Input { sq, occ: 0, kind });
            out.push(Input { sq, occ: !0, kind });
            for _ in 0..3 {
                out.push(Input {
                    sq,
                    occ: rng.sparse() | rng.sparse(),
                    kind,
                });
            }
        }
    }
    out
}

fn simpler(i: &Input) -> Vec<Input> {
    crate::shrink::fewer_squares(i.occ)
        .into_iter()
        .map(|occ| Input { occ, ..*i })
        .collect()
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    let masks = [
        ("file_line", Kind::File),
        ("rank_line", Kind::Rank),
        ("diagonal_line", Kind::Diagonal),
        ("anti_diagonal_line", Kind::AntiDiagonal),
    ];
    for (function, kind) in masks {
        check_cases(
            s,
            0..64u8,
            |_| Vec::new(),
            |s, &sq| mask_case(s, function, kind, sq),
            &mut checked,
        )?;
    }
    for function in ["positive_ray_attacks", "line_attacks"] {
        let all = inputs(400, &KINDS);
        check_cases(
            s,
            all,
            simpler,
            |s, &i| attack_case(s, function, i),
            &mut checked,
        )?;
    }
    let singles = [
        ("file_attacks", Kind::File),
        ("diagonal_attacks", Kind::Diagonal),
        ("anti_diagonal_attacks", Kind::AntiDiagonal),
        ("rank_attacks", Kind::Rank),
    ];
    for (n, (function, kind)) in singles.into_iter().enumerate() {
        check_cases(
            s,
            inputs(410 + n as u64, &[kind]),
            simpler,
            |s, &i| attack_case(s, function, i),
            &mut checked,
        )?;
    }
    for (n, function) in ["rook_attacks", "bishop_attacks", "queen_attacks"]
        .into_iter()
        .enumerate()
    {
        check_cases(
            s,
            inputs(420 + n as u64, &[Kind::File]),
            simpler,
            |s, &i| attack_case(s, function, i),
            &mut checked,
        )?;
    }
    Ok(checked)
}

fn mask_case(s: &mut Student, function: &str, kind: Kind, sq: u8) -> Result<(), CheckVerdict> {
    let name = diagram::square_name(sq);
    let got = s.ask_bitboard(LAB, function, &[&name])?;
    let want = line(kind, sq);
    if got == want {
        return Ok(());
    }
    let hint = if got == want | 1 << sq {
        HINT_SELF
    } else {
        HINT_LINE
    };
    let d = bitboard_diagnosis(
        &format!("{function}({name})"),
        want,
        got,
        Marks {
            origin: Some(sq),
            occupied: 0,
        },
    );
    Err(CheckVerdict::Fail(d.with_hint(hint)))
}

/// What `function` should answer for `i`.
fn expected(function: &str, i: Input) -> u64 {
    let both = |kinds: &[Kind]| {
        kinds
            .iter()
            .fold(0, |a, &k| a | line_attacks(k, i.sq, i.occ))
    };
    match function {
        "positive_ray_attacks" => line_attacks(i.kind, i.sq, i.occ) & above(i.sq),
        "line_attacks" => line_attacks(i.kind, i.sq, i.occ),
        "rook_attacks" => both(&[Kind::File, Kind::Rank]),
        "bishop_attacks" => both(&[Kind::Diagonal, Kind::AntiDiagonal]),
        "queen_attacks" => both(&KINDS),
        _ => line_attacks(i.kind, i.sq, i.occ),
    }
}

fn attack_case(s: &mut Student, function: &str, i: Input) -> Result<(), CheckVerdict> {
    let name = diagram::square_name(i.sq);
    let occ = bb_arg(i.occ);
    let mask = bb_arg(line(i.kind, i.sq));
    let with_line = matches!(function, "positive_ray_attacks" | "line_attacks");
    let args: Vec<&str> = if with_line {
        vec![&name, &occ, &mask]
    } else {
        vec![&name, &occ]
    };
    let got = s.ask_bitboard(LAB, function, &args)?;
    let want = expected(function, i);
    if got == want {
        return Ok(());
    }
    let blockers = i.occ & !(1 << i.sq);
    let mut call = format!("{function}({name}, blockers {}", diagram::squares(blockers));
    if with_line {
        call.push_str(&format!(", the {:?} line", i.kind).to_lowercase());
    }
    call.push(')');
    let d = bitboard_diagnosis(
        &call,
        want,
        got,
        Marks {
            origin: Some(i.sq),
            occupied: blockers,
        },
    );
    Err(CheckVerdict::Fail(
        d.with_hint(attack_hint(function, i, got, want)),
    ))
}

/// Hyperbola quintessence's mirror (`swap_bytes`) used on `line`: right for files and
/// diagonals, the classic mistake on a rank.
fn swap_bytes_attacks(sq: u8, occ: u64, line: u64) -> u64 {
    let o = occ & line;
    let r = 1u64 << sq;
    let forward = o.wrapping_sub(r << 1);
    let reverse = o
        .swap_bytes()
        .wrapping_sub(r.swap_bytes() << 1)
        .swap_bytes();
    (forward ^ reverse) & line
}

fn attack_hint(function: &str, i: Input, got: u64, want: u64) -> &'static str {
    let lines = match function {
        "rook_attacks" => line(Kind::File, i.sq) | line(Kind::Rank, i.sq),
        "bishop_attacks" => line(Kind::Diagonal, i.sq) | line(Kind::AntiDiagonal, i.sq),
        "queen_attacks" => KINDS.iter().fold(0, |a, &k| a | line(k, i.sq)),
        _ => line(i.kind, i.sq),
    };
    let (extra, missing) = (got & !want, want & !got);
    // The full rays on an empty board, to tell "past a blocker" from "off the line".
    let open = KINDS.iter().fold(0, |a, &k| a | line_attacks(k, i.sq, 0)) & lines;
    let off_line_pieces = i.occ & !lines & !(1 << i.sq);
    if extra & !lines != 0 {
        HINT_FINAL_MASK
    } else if extra & open != 0 {
        HINT_BEYOND
    } else if function == "rank_attacks" && got == swap_bytes_attacks(i.sq, i.occ, lines) {
        HINT_RANK_SWAP
    } else if missing != 0 && missing & !i.occ == 0 {
        HINT_BLOCKER
    } else if missing != 0 && off_line_pieces != 0 {
        HINT_OCC_MASK
    } else if (extra | missing) & !above(i.sq) != 0 {
        HINT_BACKWARD
    } else {
        HINT_RAY
    }
}
