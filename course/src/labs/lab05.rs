//! Lab 5's checker: relevant-occupancy masks, subsets, the magic index, plain and fancy magic
//! tables, and the student's own magics (each tested for collisions over every subset).


use movegen::attacks;
use movegen::Bitboard;

use crate::checker::{bb_arg, check_cases, fail, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::compare_bitboard;
use crate::diagram::{self, Marks};
use crate::inputs::Rng;
use crate::labs::positions::square;
use crate::shrink::fewer_blockers;
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "05-magics",
    [
        "rook-mask-edges.bug",
        "subset-and.bug",
        "corner-shift.bug",
        "fill-off-by-one.bug"
    ]
);

const LAB: u8 = 5;

/// The first query builds the tables (a magic search for 128 squares, twice): it may take
/// this many times the instructor's query time-out in a debug build (20 s of the default 5).
const BUILD_SCALE: u32 = 4;

const HINT_RIM: &str = "a rook's mask drops only the last square of each ray, not the whole rim: \
     a rook on a1 still needs a2..a7 and b1..g1 (a piece there blocks), only a8 and h1 go. \
     Strip the a- and h-files from its rank and ranks 1 and 8 from its file, separately.";
const HINT_MASK_EDGE: &str = "the last square of each ray never changes the attacks (nothing lies \
     behind it), so it stays out of the mask; for a bishop that is every rim square.";
const HINT_MASK: &str = "the mask is the piece's rays on an empty board without the last square \
     of each ray and without the piece's own square.";
const HINT_SUBSET: &str = "bit i of the index belongs to the i-th lowest square OF THE MASK, not to \
     square i: walk the mask's squares lowest first (lsb loop) and keep the ones whose index bit is set.";
const HINT_INDEX: &str =
    "the index is ((occupied & mask) * magic) >> shift, with a wrapping multiply \
     (u64::wrapping_mul): mask first, then multiply, then shift.";
const HINT_SHIFT: &str =
    "the shift is 64 minus the number of squares in THIS square's mask: 12 bits \
     for a rook in a corner, 11 on the other edge squares, 10 inside; bishops 5 to 9. Look it up \
     from the square's own entry, never from a formula written twice.";
const HINT_COLLISION: &str =
    "a magic is good only if two occupancies with different attacks never \
     share an index; check every subset of the mask before accepting a candidate, and start each \
     try with an empty table.";
const HINT_TABLE_FILL: &str = "every subset of the mask needs its table entry: loop over all \
     2^bits indices (0..1 << bits), including the last one, the full mask.";
const HINT_FANCY: &str = "the fancy table gives each square 2^(bits in its mask) slots, one after \
     the other: offsets are running sums, so rooks need 102400 entries and bishops 5248.";
const HINT_PLAIN: &str = "the plain tables use the same shift on every square (64 - 12 for rooks, \
     64 - 9 for bishops), and a slot of square sq lives at sq * 4096 (or sq * 512) + index.";
const HINT_QUEEN: &str = "a queen moves like a rook and a bishop together: OR the two lookups.";

/// Lab 5: magic bitboards.
pub static LAB05: LabRecord = LabRecord {
    number: LAB,
    slug: "magics",
    module: "lab05_magics",
    title: "sliding pieces II: magic bitboards",
    files: &FILES,
    extra_files: &[],
    query_scale: 1,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

/// The rook's relevant occupancy: its rays without each ray's last square.
fn rook_mask(sq: u8) -> u64 {
    let (file, rank) = (sq % 8, sq / 8);
    let on_rank = 0x7eu64 << (rank * 8);
    let on_file = 0x0001_0101_0101_0100u64 << file;
    (on_rank | on_file) & !(1u64 << sq)
}

/// The bishop's relevant occupancy: its diagonals without the rim.
fn bishop_mask(sq: u8) -> u64 {
    attacks::bishop_attacks(square(sq), Bitboard::EMPTY).0 & !0xff81_8181_8181_81ffu64
}

/// The `index`-th subset of `mask` (bit i of the index: the i-th lowest square of the mask).
fn subset(index: u64, mask: u64) -> u64 {
    let mut out = 0;
    let mut rest = mask;
    let mut i = 0;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if index >> i & 1 == 1 {
            out |= low;
        }
        rest &= rest - 1;
        i += 1;
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slider {
    Rook,
    Bishop,
    Queen,
}

impl Slider {
    fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
            Slider::Queen => "queen",
        }
    }
    fn attacks(self, sq: u8, occ: u64) -> u64 {
        let (sq, occ) = (square(sq), Bitboard(occ));
        match self {
            Slider::Rook => attacks::rook_attacks(sq, occ).0,
            Slider::Bishop => attacks::bishop_attacks(sq, occ).0,
            Slider::Queen => attacks::queen_attacks(sq, occ).0,
        }
    }
    fn mask(self, sq: u8) -> u64 {
        match self {
            Slider::Rook => rook_mask(sq),
            Slider::Bishop => bishop_mask(sq),
            Slider::Queen => rook_mask(sq) | bishop_mask(sq),
        }
    }
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    check_masks(s, &mut checked)?;
    check_subsets(s, &mut checked)?;
    check_magic_index(s, &mut checked)?;
    let occupancies = occupancies();
    s.scaled(BUILD_SCALE, |s| {
        check_attacks(s, "plain_", Slider::Rook, &occupancies, &mut checked)
    })?;
    check_attacks(s, "plain_", Slider::Bishop, &occupancies, &mut checked)?;
    let mut reach = Reach::default();
    s.scaled(BUILD_SCALE, |s| {
        check_magics(s, Slider::Rook, &mut reach, &mut checked)
    })?;
    check_magics(s, Slider::Bishop, &mut reach, &mut checked)?;
    check_table_len(s, &reach, &mut checked)?;
    for slider in [Slider::Rook, Slider::Bishop, Slider::Queen] {
        check_attacks(s, "", slider, &occupancies, &mut checked)?;
    }
    Ok(checked)
}

fn check_masks(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for slider in [Slider::Rook, Slider::Bishop] {
        let function = format!("{}_mask", slider.name());
        for sq in 0..64u8 {
            let name = diagram::square_name(sq);
            let got = s.ask_bitboard(LAB, &function, &[&name])?;
            let expected = slider.mask(sq);
            let marks = Marks {
                origin: Some(sq),
                occupied: 0,
            };
            compare_bitboard(&format!("{function}({name})"), expected, got, marks).map_err(
                |d| {
                    let rim = 0xff81_8181_8181_81ffu64;
                    let missing = expected & !got;
                    let hint = if missing & rim != 0 {
                        HINT_RIM
                    } else if got & !expected & (rim | attacks_rim(slider, sq)) != 0 {
                        HINT_MASK_EDGE
                    } else {
                        HINT_MASK
                    };
                    fail(d.with_hint(hint))
                },
            )?;
            *checked += 1;
        }
    }
    Ok(())
}

/// The last square of each of the slider's rays from `sq`.
fn attacks_rim(slider: Slider, sq: u8) -> u64 {
    slider.attacks(sq, 0) & !slider.mask(sq)
}

fn check_subsets(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    // Simple masks first, so the first failure is a small one.
    let mut cases: Vec<(u64, u64)> = Vec::new();
    for mask in [
        0b1010u64,
        0x0000_0000_0000_1c00,
        rook_mask(27),
        bishop_mask(0),
        rook_mask(63),
    ] {
        let bits = mask.count_ones();
        let last = (1u64 << bits) - 1;
        for index in [0, 1, 2, 3, last / 2, last] {
            cases.push((index.min(last), mask));
        }
    }
    cases.dedup();
    for (index, mask) in cases {
        let got = s.ask_bitboard(LAB, "subset", &[&index.to_string(), &bb_arg(mask)])?;
        let expected = subset(index, mask);
        let call = format!("subset({index} = 0b{index:b}, mask {})", bb_arg(mask));
        compare_bitboard(
            &call,
            expected,
            got,
            Marks {
                origin: None,
                occupied: mask,
            },
        )
        .map_err(|d| {
            let body = format!(
                "the mask's squares, lowest first: {}\n\n{}",
                diagram::squares(mask),
                d.body
            );
            let d = d.with_body(body);
            fail(d.with_hint(HINT_SUBSET))
        })?;
        *checked += 1;
    }
    Ok(())
}

fn check_magic_index(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let mut rng = Rng::new(0x05_1dec);
    for _ in 0..16 {
        let (occ, mask, magic) = (rng.medium(), rng.medium(), rng.next_u64());
        let shift = 52 + rng.below(12) as u32;
        let args = [
            bb_arg(occ),
            bb_arg(mask),
            magic.to_string(),
            shift.to_string(),
        ];
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let answer = s.ask(LAB, "magic_index", &argv)?;
        let expected = ((occ & mask).wrapping_mul(magic) >> shift) as usize;
        if answer.trim() != expected.to_string() {
            return Err(fail(
                Diagnosis::new(format!(
                    "magic_index(occupied {}, mask {}, magic {magic:#018x}, shift {shift}) answered {answer}, expected {expected}",
                    args[0], args[1]
                ))
                .with_hint(HINT_INDEX),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

/// Occupancies to test each square with: empty, full, and seeded random ones.
fn occupancies() -> Vec<u64> {
    let mut rng = Rng::new(0x05_0cc);
    let mut out = vec![0, !0];
    for i in 0..10 {
        out.push(if i % 2 == 0 {
            rng.sparse()
        } else {
            rng.medium()
        });
    }
    out
}

fn check_attacks(
    s: &mut Student,
    prefix: &str,
    slider: Slider,
    occupancies: &[u64],
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    let function = format!("{prefix}{}_attacks", slider.name());
    let inputs: Vec<(u8, u64)> = (0..64u8)
        .flat_map(|sq| occupancies.iter().map(move |&o| (sq, o & !(1u64 << sq))))
        .collect();
    check_cases(
        s,
        inputs,
        fewer_blockers,
        |s, &(sq, occ)| {
            let name = diagram::square_name(sq);
            let got = s.ask_bitboard(LAB, &function, &[&name, &bb_arg(occ)])?;
            let expected = slider.attacks(sq, occ);
            let marks = Marks {
                origin: Some(sq),
                occupied: occ,
            };
            let call = format!("{function}({name}, blockers {})", diagram::squares(occ));
            compare_bitboard(&call, expected, got, marks).map_err(|d| {
                let hint = match (slider, prefix) {
                    (Slider::Queen, _) => HINT_QUEEN,
                    (_, "plain_") => HINT_PLAIN,
                    _ if occ & slider.mask(sq) == slider.mask(sq) => HINT_TABLE_FILL,
                    _ => HINT_SHIFT,
                };
                fail(d.with_hint(hint))
            })
        },
        checked,
    )
}

/// Asks for a square's fancy entry: mask, magic, shift, offset.
fn ask_magic(s: &mut Student, slider: Slider, sq: u8) -> Result<(u64, u64, u32, usize), CheckVerdict> {
    let function = format!("{}_magic", slider.name());
    let name = diagram::square_name(sq);
    let answer = s.ask(LAB, &function, &[&name])?;
    let fields: Vec<&str> = answer.split_whitespace().collect();
    let parsed = match fields.as_slice() {
        [mask, magic, shift, offset] => crate::checker::parse_bitboard(mask).and_then(|mask| {
            Some((
                mask,
                magic.parse().ok()?,
                shift.parse().ok()?,
                offset.parse().ok()?,
            ))
        }),
        _ => None,
    };
    parsed.ok_or_else(|| {
        fail(Diagnosis::new(format!(
            "{function}({name}) answered `{answer}`; the harness prints mask, magic, shift and offset"
        )))
    })
}

/// The furthest slot of the shared table that an entry's lookups index, and whose entry it is.
#[derive(Default)]
struct Reach {
    end: usize,
    entry: String,
}

fn check_magics(
    s: &mut Student,
    slider: Slider,
    reach: &mut Reach,
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    let function = format!("{}_magic", slider.name());
    for sq in 0..64u8 {
        let name = diagram::square_name(sq);
        let (mask, magic, shift, offset) = ask_magic(s, slider, sq)?;
        let expected_mask = slider.mask(sq);
        compare_bitboard(
            &format!("{function}({name}).mask"),
            expected_mask,
            mask,
            Marks {
                origin: Some(sq),
                occupied: 0,
            },
        )
        .map_err(|d| fail(d.with_hint(HINT_MASK)))?;
        let bits = mask.count_ones();
        if shift != 64 - bits {
            return Err(fail(
                Diagnosis::new(format!(
                    "{function}({name}).shift is {shift}, expected {} (64 minus the {bits} squares of the mask)",
                    64 - bits
                ))
                .with_body(diagram::bitboard_marked(mask, Marks { origin: Some(sq), occupied: 0 }))
                .with_hint(HINT_SHIFT),
            ));
        }
        // Every subset must land on a slot of its own or one with the same attacks.
        let mut slots: Vec<Option<(u64, u64)>> = vec![None; 1 << bits];
        for index in 0..1u64 << bits {
            let occ = subset(index, mask);
            let attacks = slider.attacks(sq, occ);
            let slot = (occ.wrapping_mul(magic) >> shift) as usize;
            match slots[slot] {
                None => slots[slot] = Some((occ, attacks)),
                Some((other, other_attacks)) if other_attacks != attacks => {
                    let body = diagram::side_by_side(
                        &format!("blockers {}", diagram::squares(other)),
                        &diagram::bitboard_marked(
                            other_attacks,
                            Marks {
                                origin: Some(sq),
                                occupied: other,
                            },
                        ),
                        &format!("blockers {}", diagram::squares(occ)),
                        &diagram::bitboard_marked(
                            attacks,
                            Marks {
                                origin: Some(sq),
                                occupied: occ,
                            },
                        ),
                    );
                    return Err(fail(
                        Diagnosis::new(format!(
                            "{function}({name}): magic {magic:#018x} sends two occupancies with different attacks to slot {slot}"
                        ))
                        .with_body(format!(
                            "{body}{}",
                            diagram::legend(attacks, attacks, Marks { origin: Some(sq), occupied: occ | other })
                        ))
                        .with_hint(HINT_COLLISION),
                    ));
                }
                Some(_) => {}
            }
        }
        let end = offset.saturating_add(1 << bits);
        if end > reach.end {
            *reach = Reach {
                end,
                entry: format!("{function}({name}) (offset {offset}, 2^{bits} slots)"),
            };
        }
        *checked += 1;
    }
    Ok(())
}

fn check_table_len(s: &mut Student, reach: &Reach, checked: &mut usize) -> Result<(), CheckVerdict> {
    let answer = s.ask(LAB, "fancy_table_len", &[])?;
    let expected: usize = (0..64u8)
        .map(|sq| (1usize << rook_mask(sq).count_ones()) + (1usize << bishop_mask(sq).count_ones()))
        .sum();
    match answer.trim().parse::<usize>() {
        // Shorter than the slots the entries index: a lookup would read past the table.
        Ok(len) if len < reach.end => Err(fail(
            Diagnosis::new(format!(
                "fancy_table_len() is {len}, but {} uses the slots up to {}: the table must hold \
                 every entry's slots; return the length of the one shared table, rooks' and \
                 bishops' slots together",
                reach.entry, reach.end
            ))
            .with_hint(HINT_FANCY),
        )),
        Ok(len) if len <= expected => {
            *checked += 1;
            Ok(())
        }
        _ => Err(fail(
            Diagnosis::new(format!(
                "fancy_table_len() is {answer}; one slot per subset of each mask makes {expected}"
            ))
            .with_hint(HINT_FANCY),
        )),
    }
}
