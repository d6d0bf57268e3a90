//! Lab 1's checker: squares, bit operations, popcount, lowest-square loops, drawing.

use crate::checker::{bb_arg, check_cases, fail, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::compare_bitboard;
use crate::diagram::{self, Marks};
use crate::inputs::Rng;
use crate::shrink::fewer_squares;
use crate::student::{unescape, Student};

static FILES: LabFiles = crate::lab_files!(
    "01-bitboards",
    [
        "square-swapped.bug",
        "bit-32-bit-shift.bug",
        "clear-toggles.bug",
        "popcount-skips-top-bit.bug",
        "draw-upside-down.bug",
        "lsb-highest-square.bug",
    ]
);

const LAB: u8 = 1;

const HINT_SQUARE: &str = "a square's number is rank * 8 + file: each rank is a row of 8 squares, \
     so going up one rank adds 8 and going right one file adds 1.";
const HINT_FILE_RANK: &str =
    "the file is the remainder after dividing by 8 (sq % 8), the rank the \
     quotient (sq / 8).";
const HINT_TOGGLE: &str =
    "`^` toggles a square: it removes it if present but adds it if absent. To \
     clear, AND with the complement: bb & !bit(sq).";
const HINT_I32: &str = "the 1 you shift is a 32-bit i32: at bit 31 it becomes negative, and `as u64` \
     fills the upper half with ones (from bit 32 on, the shift overflows). Shift a 64-bit one: `1u64 << sq`.";
const HINT_BIT: &str = "bit(sq) is 1 shifted left by sq places: 1u64 << sq.";
const HINT_SET: &str =
    "adding a square is an OR: bb | bit(sq). (`^` would remove it when it is already in.)";
const HINT_MASK: &str = "a file is a column: one square on each rank, 8 apart (0x0101010101010101 is \
     the a-file); a rank is a row of 8 neighbouring squares (0xff is rank 1). Shift them into place.";
const HINT_TOP_BIT: &str = "the count misses square h8, bit 63: does your loop stop one step early \
     (0..63 instead of 0..64, or `while bb > 1`)? Loop while bb != 0 and clear the lowest bit with bb & (bb - 1).";
const HINT_POPCOUNT: &str =
    "clear the lowest square with bb & (bb - 1) and count how often you can \
     do that before bb is 0.";
const HINT_MSB: &str = "that is the highest square, not the lowest: trailing_zeros counts from \
     bit 0 (a1) upwards, leading_zeros from bit 63 (h8) down.";
const HINT_POP_CLEAR: &str = "pop_lsb must also remove the square from bb: *bb &= *bb - 1.";
const HINT_FLIPPED: &str =
    "your drawing is upside down: the first line is rank 8 (squares 56..63), \
     the last is rank 1 (squares 0..7).";
const HINT_MIRRORED: &str =
    "your drawing is mirrored: each line starts with the a-file on the left.";

/// Lab 1: bitboards.
pub static LAB01: LabRecord = LabRecord {
    number: LAB,
    slug: "bitboards",
    module: "lab01_bitboards",
    title: "bitboards",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    check_square(s, &mut checked)?;
    check_file_rank(s, &mut checked)?;
    check_set_ops(s, &mut checked)?;
    check_masks(s, &mut checked)?;
    let inputs = bitboards();
    check_popcount(s, &inputs, &mut checked)?;
    check_lsb(s, &inputs, &mut checked)?;
    check_squares(s, &inputs, &mut checked)?;
    check_draw(s, &inputs, &mut checked)?;
    Ok(checked)
}

fn name(sq: u64) -> String {
    if sq < 64 {
        diagram::square_name(sq as u8)
    } else {
        format!("no square ({sq} is off the board)")
    }
}

/// An integer answer.
fn ask_int(s: &mut Student, function: &str, args: &[&str]) -> Result<u64, CheckVerdict> {
    let answer = s.ask(LAB, function, args)?;
    answer.trim().parse().map_err(|_| {
        fail(Diagnosis::new(format!(
            "{function}({}) answered `{answer}`, not a number",
            args.join(", ")
        )))
    })
}

fn check_square(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for rank in 0..8u64 {
        for file in 0..8u64 {
            let got = ask_int(s, "square", &[&file.to_string(), &rank.to_string()])?;
            let expected = rank * 8 + file;
            if got != expected {
                let mut d = Diagnosis::new(format!(
                    "square(file {file}, rank {rank}) returned {got} ({}), expected {expected} ({})",
                    name(got),
                    name(expected)
                ))
                .with_hint(HINT_SQUARE);
                if got < 64 {
                    d = d.with_body(format!(
                        "{}{}",
                        diagram::compare(1 << expected, 1 << got, Marks::default()),
                        diagram::legend(1 << expected, 1 << got, Marks::default())
                    ));
                }
                return Err(fail(d));
            }
            *checked += 1;
        }
    }
    Ok(())
}

fn check_file_rank(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for (function, what) in [("file_of", "file"), ("rank_of", "rank")] {
        for sq in 0..64u64 {
            let got = ask_int(s, function, &[&name(sq)])?;
            let expected = if what == "file" { sq % 8 } else { sq / 8 };
            if got != expected {
                return Err(fail(
                    Diagnosis::new(format!(
                        "{function}({}) (square {sq}) returned {got}, expected {expected}",
                        name(sq)
                    ))
                    .with_body(diagram::bitboard_marked(
                        0,
                        Marks {
                            origin: Some(sq as u8),
                            occupied: 0,
                        },
                    ))
                    .with_hint(HINT_FILE_RANK),
                ));
            }
            *checked += 1;
        }
    }
    Ok(())
}

fn check_set_ops(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for sq in 0..64u8 {
        let got = s.ask_bitboard(LAB, "bit", &[&diagram::square_name(sq)])?;
        compare_bitboard(
            &format!("bit({})", diagram::square_name(sq)),
            1 << sq,
            got,
            Marks::default(),
        )
        .map_err(|d| {
            // A 32-bit 1 shifted to bit 31 is negative; `as u64` copies its sign bit upwards.
            let hint = if sq < 32 && got >> 32 == 0xffff_ffff {
                HINT_I32
            } else {
                HINT_BIT
            };
            fail(d.with_hint(hint))
        })?;
        *checked += 1;
    }
    // Each square against an empty board, a full one and a mixed one, then random pairs.
    let mut rng = Rng::new(101);
    let mut inputs: Vec<(u64, u8)> = Vec::new();
    for sq in 0..64u8 {
        inputs.extend([(0, sq), (!0, sq), (0x8142_2418_1824_4281, sq)]);
    }
    for _ in 0..64 {
        inputs.push((rng.medium(), rng.square()));
    }
    let simpler = |&(b, sq): &(u64, u8)| {
        fewer_squares(b)
            .into_iter()
            .map(|b| (b, sq))
            .collect::<Vec<_>>()
    };
    for function in ["set", "clear", "contains"] {
        check_cases(
            s,
            inputs.iter().copied(),
            simpler,
            |s, &(b, sq)| set_case(s, function, b, sq),
            checked,
        )?;
    }
    Ok(())
}

fn set_case(s: &mut Student, function: &str, b: u64, sq: u8) -> Result<(), CheckVerdict> {
    let args = [bb_arg(b), diagram::square_name(sq)];
    let args = [args[0].as_str(), args[1].as_str()];
    let call = format!("{function}({}, {})", args[0], args[1]);
    let marks = Marks {
        origin: Some(sq),
        occupied: 0,
    };
    if function == "contains" {
        let got = s.ask(LAB, function, &args)?;
        let expected = (b >> sq & 1 == 1).to_string();
        if got.trim() != expected {
            return Err(fail(
                Diagnosis::new(format!("{call} returned {got}, expected {expected}")).with_body(
                    format!(
                        "the set (@ = {}):\n{}",
                        args[1],
                        diagram::bitboard_marked(b, marks)
                    ),
                ),
            ));
        }
        return Ok(());
    }
    let got = s.ask_bitboard(LAB, function, &args)?;
    let expected = if function == "set" {
        b | 1 << sq
    } else {
        b & !(1 << sq)
    };
    compare_bitboard(&call, expected, got, marks).map_err(|d| {
        let hint = match function {
            "clear" if got == b ^ 1 << sq => HINT_TOGGLE,
            "set" => HINT_SET,
            _ => HINT_TOGGLE,
        };
        let d = d.with_hint(hint);
        let body = format!("the input set:\n{}\n\n{}", diagram::bitboard(b), d.body);
        fail(d.with_body(body))
    })
}

fn check_masks(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for (function, base, step) in [
        ("file_mask", 0x0101_0101_0101_0101u64, 1),
        ("rank_mask", 0xff, 8),
    ] {
        for i in 0..8u32 {
            let got = s.ask_bitboard(LAB, function, &[&i.to_string()])?;
            compare_bitboard(
                &format!("{function}({i})"),
                base << (i * step),
                got,
                Marks::default(),
            )
            .map_err(|d| fail(d.with_hint(HINT_MASK)))?;
            *checked += 1;
        }
    }
    Ok(())
}

/// The bitboards popcount, lsb, squares and draw are checked on: edge cases first, then random
/// sets from sparse to full.
fn bitboards() -> Vec<u64> {
    let mut out = vec![
        1,
        1 << 63,
        0x8000_0000_0000_0001,
        !0,
        0xff00_0000_0000_00ff,
        0x0000_0010_0800_0000,
    ];
    let mut rng = Rng::new(102);
    for _ in 0..60 {
        out.extend([rng.sparse(), rng.medium(), rng.next_u64()]);
    }
    out.retain(|&b| b != 0);
    out
}

fn fewer_nonempty(b: &u64) -> Vec<u64> {
    fewer_squares(*b).into_iter().filter(|&b| b != 0).collect()
}

fn input_body(b: u64) -> String {
    format!(
        "the set ({} square{}: {}):\n{}",
        b.count_ones(),
        if b.count_ones() == 1 { "" } else { "s" },
        diagram::squares(b),
        diagram::bitboard(b)
    )
}

fn check_popcount(s: &mut Student, inputs: &[u64], checked: &mut usize) -> Result<(), CheckVerdict> {
    let zero = ask_int(s, "popcount", &[&bb_arg(0)])?;
    if zero != 0 {
        return Err(fail(
            Diagnosis::new(format!("popcount(0x0) returned {zero}, expected 0"))
                .with_hint(HINT_POPCOUNT),
        ));
    }
    check_cases(
        s,
        inputs.iter().copied(),
        fewer_nonempty,
        |s, &b| {
            let got = ask_int(s, "popcount", &[&bb_arg(b)])?;
            let expected = u64::from(b.count_ones());
            if got == expected {
                return Ok(());
            }
            let hint = if b >> 63 == 1 && got + 1 == expected {
                HINT_TOP_BIT
            } else {
                HINT_POPCOUNT
            };
            Err(fail(
                Diagnosis::new(format!(
                    "popcount({}) returned {got}, expected {expected}",
                    bb_arg(b)
                ))
                .with_body(input_body(b))
                .with_hint(hint),
            ))
        },
        checked,
    )
}

fn check_lsb(s: &mut Student, inputs: &[u64], checked: &mut usize) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        inputs.iter().copied(),
        fewer_nonempty,
        |s, &b| {
            let got = ask_int(s, "lsb", &[&bb_arg(b)])?;
            let expected = u64::from(b.trailing_zeros());
            if got == expected {
                return Ok(());
            }
            let hint = if got == u64::from(63 - b.leading_zeros()) {
                HINT_MSB
            } else {
                HINT_POPCOUNT
            };
            Err(fail(
                Diagnosis::new(format!(
                    "lsb({}) returned {got} ({}), expected {expected} ({})",
                    bb_arg(b),
                    name(got),
                    name(expected)
                ))
                .with_body(input_body(b))
                .with_hint(hint),
            ))
        },
        checked,
    )?;
    check_cases(
        s,
        inputs.iter().copied(),
        fewer_nonempty,
        |s, &b| {
            let answer = s.ask(LAB, "pop_lsb", &[&bb_arg(b)])?;
            let expected = format!("{} {}", b.trailing_zeros(), bb_arg(b & (b - 1)));
            if answer.trim() == expected {
                return Ok(());
            }
            let (sq, rest) = answer.split_once(' ').unwrap_or((answer.as_str(), ""));
            let hint = if rest == bb_arg(b) {
                HINT_POP_CLEAR
            } else {
                HINT_MSB
            };
            Err(fail(
            Diagnosis::new(format!(
                "pop_lsb on {} returned square {sq} and left the set {rest}; expected square {} ({}) and {}",
                bb_arg(b),
                b.trailing_zeros(),
                name(u64::from(b.trailing_zeros())),
                bb_arg(b & (b - 1))
            ))
            .with_body(input_body(b))
            .with_hint(hint),
        ))
        },
        checked,
    )
}

fn check_squares(s: &mut Student, inputs: &[u64], checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut all = vec![0];
    all.extend_from_slice(inputs);
    check_cases(
        s,
        all,
        |b| fewer_squares(*b),
        |s, &b| {
            let answer = s.ask(LAB, "squares", &[&bb_arg(b)])?;
            let expected: Vec<String> = (0..64)
                .filter(|i| b >> i & 1 == 1)
                .map(|i: u64| i.to_string())
                .collect();
            let got: Vec<&str> = answer.split_whitespace().collect();
            if got == expected {
                return Ok(());
            }
            Err(fail(
            Diagnosis::new(format!("squares({}) returned [{}], expected [{}]", bb_arg(b), got.join(", "), expected.join(", ")))
                .with_body(input_body(b))
                .with_hint("walk the set with pop_lsb until it is empty, pushing each square: that gives them lowest first."),
        ))
        },
        checked,
    )
}

/// The drawing `draw` should return.
fn drawing(b: u64) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            out.push(if b >> (rank * 8 + file) & 1 == 1 {
                'X'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

/// Lines without trailing spaces and without blank lines at the end.
fn tidy(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn check_draw(s: &mut Student, inputs: &[u64], checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut all = vec![0];
    all.extend_from_slice(&inputs[..40.min(inputs.len())]);
    check_cases(
        s,
        all,
        |b| fewer_squares(*b),
        |s, &b| {
            let got = unescape(&s.ask(LAB, "draw", &[&bb_arg(b)])?);
            let expected = drawing(b);
            if tidy(&got) == tidy(&expected) {
                return Ok(());
            }
            let mirrored = (0..64)
                .filter(|i| b >> i & 1 == 1)
                .fold(0u64, |m, i| m | 1 << (i / 8 * 8 + 7 - i % 8));
            let hint = if tidy(&got) == tidy(&drawing(b.swap_bytes())) {
                HINT_FLIPPED
            } else if tidy(&got) == tidy(&drawing(mirrored)) {
                HINT_MIRRORED
            } else {
                "8 lines, rank 8 first; 8 characters a line, file a first; X for a square in the set, . otherwise."
            };
            Err(fail(
                Diagnosis::new(format!(
                    "draw({}) ({}) drew the wrong picture",
                    bb_arg(b),
                    diagram::squares(b)
                ))
                .with_body(diagram::side_by_side("expected", &expected, "got", &got))
                .with_hint(hint),
            ))
        },
        checked,
    )
}
