//! What mutation testing (scripts/course-mutants, docs/course.md "Mutation testing") leaves
//! behind: each lab's `equivalent-mutants.txt` is well formed and points into the reference
//! solution, and each mutant that once passed `course check` and then got a check of its own is
//! caught, with a diagnosis that names the mistake.

use std::fs;
use std::path::Path;

use course::checker::{CheckVerdict, LabRecord};
use course::{labs, runner, workspace};

#[path = "support/scratch.rs"]
mod scratch;
use scratch::Scratch;

/// A former survivor: lab `lab`'s solution with the line holding `from` changed to `to`, as
/// cargo-mutants named it; `course check` must now fail it with `expect` in the diagnosis.
struct Killed {
    lab: u8,
    mutant: &'static str,
    from: &'static str,
    to: &'static str,
    expect: &'static str,
}

const KILLED: &[Killed] = &[
    Killed {
        lab: 9,
        mutant: "src/lab09_position.rs:367:21: replace || with && in parse_square",
        from: "if b.len() != 2 || !(b'a'..=b'h').contains(&b[0])",
        to: "if b.len() != 2 && !(b'a'..=b'h').contains(&b[0])",
        expect: "not a FEN: en-passant square q1",
    },
    Killed {
        lab: 9,
        mutant: "src/lab09_position.rs:367:55: replace || with && in parse_square",
        from: "!(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8')",
        to: "!(b'a'..=b'h').contains(&b[0]) && !(b'1'..=b'8')",
        expect: "not a FEN: en-passant square q1",
    },
    Killed {
        lab: 5,
        mutant: "src/lab05_magics.rs:280:5: replace fancy_table_len -> usize with 0",
        from: "    fancy().table.len()",
        to: "    0",
        expect: "fancy_table_len() is 0, but bishop_magic(h8)",
    },
    Killed {
        lab: 5,
        mutant: "src/lab05_magics.rs:280:5: replace fancy_table_len -> usize with 1",
        from: "    fancy().table.len()",
        to: "    1",
        expect: "the table must hold every entry's slots",
    },
    Killed {
        lab: 8,
        mutant: "src/lab08_special.rs:33:56: replace & with | in castling_moves",
        from: "[Piece::King as usize] & 1u64 << king == 0",
        to: "[Piece::King as usize] | 1u64 << king == 0",
        expect: "the castling field gives the right, but the king is not on e1",
    },
    Killed {
        lab: 8,
        mutant: "src/lab08_special.rs:40:23: replace & with | in castling_moves",
        from: "board.castling & king_side != 0",
        to: "board.castling | king_side != 0",
        expect: "the castling field has no right for it (K is not in the field)",
    },
    Killed {
        lab: 8,
        mutant: "src/lab08_special.rs:40:23: replace & with ^ in castling_moves",
        from: "board.castling & king_side != 0",
        to: "board.castling ^ king_side != 0",
        expect: "the castling field has no right for it (K is not in the field)",
    },
    Killed {
        lab: 8,
        mutant: "src/lab08_special.rs:51:23: replace & with | in castling_moves",
        from: "board.castling & queen_side != 0",
        to: "board.castling | queen_side != 0",
        expect: "the castling field has no right for it (Q is not in the field)",
    },
    Killed {
        lab: 8,
        mutant: "src/lab08_special.rs:51:23: replace & with ^ in castling_moves",
        from: "board.castling & queen_side != 0",
        to: "board.castling ^ queen_side != 0",
        expect: "the castling field has no right for it (Q is not in the field)",
    },
];

/// `NAME # reason` lines of a lab's list; `#` lines are comments.
fn entries(text: &str) -> Vec<(usize, &str, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let (name, reason) = l.split_once(" # ").unwrap_or((l, ""));
            (i + 1, name.trim(), reason.trim())
        })
        .collect()
}

#[test]
fn equivalent_mutant_lists_name_lines_of_the_solution_with_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs");
    for lab in labs::all() {
        let path = root
            .join(format!("{:02}-{}", lab.number(), lab.slug()))
            .join("equivalent-mutants.txt");
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let solution = course_key::solution(lab.number()).expect("the key has every lab");
        let prefix = format!("src/{}.rs:", lab.module());
        for (n, name, reason) in entries(&text) {
            let at = format!("{}:{n}", path.display());
            assert!(!reason.is_empty(), "{at}: `{name}` has no ` # reason`");
            let place = name
                .strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{at}: `{name}` is not a mutant of {prefix}"));
            let line: usize = place
                .split(':')
                .next()
                .and_then(|l| l.parse().ok())
                .unwrap_or_else(|| panic!("{at}: `{name}` has no line number"));
            let function = name.rsplit(" in ").next().expect("split has a last part");
            let function = function.rsplit("::").next().expect("split has a last part");
            let text_line = solution.lines().nth(line - 1).unwrap_or("");
            let body = solution.lines().take(line).collect::<Vec<_>>().join("\n");
            assert!(
                body.contains(&format!("fn {function}")),
                "{at}: `{name}`: line {line} of the solution (`{}`) is not in `{function}`: \
                 the solution changed, so run scripts/course-mutants --lab {} again",
                text_line.trim(),
                lab.number()
            );
        }
    }
}

#[test]
fn mutants_that_once_survived_are_caught_and_named() {
    let scratch = Scratch::new("mutants");
    let dir = scratch.0.join("ws");
    let all = labs::all();
    workspace::init(&dir, &all, Some(course_key::solution)).expect("init writes the workspace");
    let mut problems = Vec::new();
    for killed in KILLED {
        let lab: &'static LabRecord = labs::get(killed.lab).expect("the lab exists");
        let solution = course_key::solution(killed.lab).expect("the key has every lab");
        assert_eq!(
            solution.matches(killed.from).count(),
            1,
            "{}: `{}` is in the solution once",
            killed.mutant,
            killed.from
        );
        let path = workspace::lab_file(&dir, killed.lab).expect("every lab has a module");
        fs::write(&path, solution.replacen(killed.from, killed.to, 1)).expect("writable");
        if let Err(e) = workspace::build(&dir) {
            problems.push(format!("{}: does not build:\n{e}", killed.mutant));
            continue;
        }
        match runner::check_built(&dir, &[lab]).remove(0).1 {
            CheckVerdict::Fail(d) if d.to_string().contains(killed.expect) => {}
            CheckVerdict::Fail(d) => problems.push(format!(
                "{}: the diagnosis lacks `{}`:\n{d}",
                killed.mutant, killed.expect
            )),
            other => problems.push(format!("{}: not caught: {}", killed.mutant, other.word())),
        }
        fs::write(&path, solution).expect("writable");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
