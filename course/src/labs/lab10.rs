//! Lab 10's checker: perft and divide, the thesis's test positions, the perft suite, and the
//! class's crowd exports. A wrong count is walked down by divide, as a student would do by
//! hand against a reference, to the smallest position where the move lists differ.

use std::path::Path;

use movegen::perft::perft as reference_perft;
use movegen::{MoveKind, Piece, Position};

use super::lab09::{legal_names, uci, Expect};
use crate::checker::{call_text, fail, fen_to_arg, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::compare::{bitboard_diagnosis, compare_move_lists};
use crate::diagram::Marks;
use crate::labs::positions::square;
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "10-perft",
    [
        "depth-zero-counts-moves.bug",
        "divide-one-ply-too-deep.bug",
        "divide-drops-empty-moves.bug",
        "cache-ignores-depth.bug",
        "child-not-used.bug",
        "counts-interior-nodes.bug",
    ]
);

const LAB: u8 = 10;

/// The thesis's test positions with their move lists and perft counts to depth 4.
pub const THESIS_POSITIONS: &str = include_str!("../../../tests/data/thesis_positions.epd");
/// The standard perft suite (depths 1 to 6).
pub const PERFT_SUITE: &str = include_str!("../../../tests/data/perft_standard.epd");
/// An export of the board page's crowd mode: positions and the move lists a crowd agreed on.
pub const CROWD_EXPORT: &str = include_str!("../../../tests/data/crowd_export.epd");

/// The most leaves one perft query of the suite may count: keeps `course check 10` within a
/// few seconds (each count needs about count / 30 calls of `legal_moves`).
const MAX_COUNT: u64 = 100_000;

const HINT_DEPTH_ZERO: &str =
    "perft(board, 0) is 1: at depth 0 the position itself is the one leaf. \
     Test `depth == 0` first and return 1; `depth == 1` may then return the number of moves (bulk \
     counting).";
const HINT_NO_MOVES: &str =
    "a checkmate or stalemate has no legal moves, so no paths of depth 1 or more: \
     the loop over the moves adds nothing and perft is 0.";
const HINT_DIVIDE: &str =
    "divide(board, depth) lists each legal move with perft(play(board, mv), depth - 1): \
     the counts must add up to perft(board, depth).";
const HINT_DIVIDE_EVERY_MOVE: &str =
    "divide has one line per legal move of the root, also for a move with no leaf below it \
     (a mate or a stalemate at depth 2): its count is 0, and a GUI or a diff against another \
     engine's divide needs the line.";
const HINT_CHILD: &str =
    "each move's subtree is counted from the position AFTER the move: recurse on \
     play(board, mv), with depth - 1.";
const HINT_LEAVES: &str =
    "perft counts the leaves only (the positions exactly `depth` plies away), not \
     the positions passed on the way down.";
const HINT_GENERATOR: &str = "this is a bug in your move generator, found by perft: fix it in lab 8 \
     (`course check 8` shows more) and come back. The position above is the smallest where your moves differ.";
const HINT_CACHE: &str =
    "a count kept for later belongs to a position AND a depth: key the table by both (the \
     position's key and `depth`), or keep no table; a table kept between calls that knows the \
     position only answers a later, deeper question with an earlier, shallower count.";
const HINT_PLAY: &str =
    "your move lists agree with the reference at every position on the way down, \
     but the positions themselves don't: check play() (lab 9) for the move named above.";

/// Lab 10: perft.
pub static LAB10: LabRecord = LabRecord {
    number: LAB,
    slug: "perft",
    module: "lab10_perft",
    title: "perft and testing: perft, divide, the thesis's tests, the crowd's lists",
    files: &FILES,
    extra_files: &[],
    query_scale: 4,
    check: check_lab,
};

fn check_lab(student: &mut Student) -> CheckVerdict {
    CheckVerdict::from_result(run(student))
}

fn run(s: &mut Student) -> Result<usize, CheckVerdict> {
    let mut checked = 0;
    check_depth_zero(s, &mut checked)?;
    check_suite(s, &suite(), &mut checked)?;
    check_divide(s, &mut checked)?;
    let mut crowd = parse_crowd(CROWD_EXPORT, "labs/crowd_export.epd");
    if let Some(dir) = s.workspace_dir() {
        crowd.extend(crowd_files(&dir.join("crowd")));
    }
    check_crowd(s, &crowd, &mut checked)?;
    Ok(checked)
}

/// A position in the course's FEN (the en-passant square after every double push kept as given).
fn course_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    match f.len() {
        4 => format!("{fen} 0 1"),
        _ => f.join(" "),
    }
}

fn ask_count(s: &mut Student, fen: &str, depth: u32) -> Result<u64, CheckVerdict> {
    let args = [fen_to_arg(fen), depth.to_string()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let answer = s.ask(LAB, "perft", &args)?;
    answer.trim().parse().map_err(|_| {
        fail(Diagnosis::new(format!(
            "{}: the harness answered `{answer}`",
            call_text("perft", &args)
        )))
    })
}

fn ask_divide(s: &mut Student, fen: &str, depth: u32) -> Result<Vec<(String, u64)>, CheckVerdict> {
    let args = [fen_to_arg(fen), depth.to_string()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let answer = s.ask(LAB, "divide", &args)?;
    answer
        .split_whitespace()
        .map(|w| {
            let (m, n) = w.split_once(':')?;
            Some((m.to_string(), n.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            fail(Diagnosis::new(format!(
                "{}: the harness answered `{answer}`",
                call_text("divide", &args)
            )))
        })
}

fn ask_moves(s: &mut Student, fen: &str) -> Result<Vec<String>, CheckVerdict> {
    let arg = fen_to_arg(fen);
    Ok(s.ask(LAB, "moves", &[&arg])?
        .split_whitespace()
        .map(String::from)
        .collect())
}

fn check_depth_zero(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let cases = [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, 1),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            0,
            1,
        ),
        // Fool's mate: White is checkmated; 1 at depth 0, nothing below.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            0,
            1,
        ),
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            1,
            0,
        ),
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            2,
            0,
        ),
        // Stalemate.
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1, 0),
    ];
    for (fen, depth, expected) in cases {
        let got = ask_count(s, fen, depth)?;
        if got != expected {
            let call = format!("perft(\"{fen}\", {depth})");
            let d =
                Diagnosis::new(format!("{call} returned {got}, expected {expected}")).with_fen(fen);
            return Err(fail(if depth == 0 {
                d.with_body("at depth 0 the only path is the empty one: the position itself.\n")
                    .with_hint(HINT_DEPTH_ZERO)
            } else if got > expected {
                d.with_body("there is no legal move here, so no path of one move or more: a count above 0 counts the position itself.\n")
                    .with_hint(HINT_LEAVES)
            } else {
                d.with_body("there is no legal move here.\n")
                    .with_hint(HINT_NO_MOVES)
            }));
        }
        *checked += 1;
    }
    Ok(())
}

/// One perft test: a position, a depth, the count, and where the count comes from.
struct Count {
    fen: String,
    depth: u32,
    count: u64,
    source: &'static str,
}

/// `FEN ;D1 n ;D2 n ...` lines: (FEN, [(depth, count)]).
fn epd_counts(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split(';');
            let fen = course_fen(parts.next()?.trim());
            let counts = parts
                .filter_map(|p| {
                    let p = p.trim();
                    let (d, n) = p.strip_prefix('D')?.split_once(' ')?;
                    Some((d.parse().ok()?, n.trim().parse().ok()?))
                })
                .collect();
            Some((fen, counts))
        })
        .collect()
}

/// The thesis positions to depth 3 and the standard suite's standard-chess positions, each
/// count up to `MAX_COUNT`, smallest count first (so the first failure is a small tree).
fn suite() -> Vec<Count> {
    let mut out = Vec::new();
    for (text, source) in [
        (THESIS_POSITIONS, "the thesis's test positions"),
        (PERFT_SUITE, "the standard perft suite"),
    ] {
        for (fen, counts) in epd_counts(text) {
            if Position::from_fen(&fen).is_err() {
                continue;
            }
            for (depth, count) in counts {
                if count <= MAX_COUNT && depth <= 3 {
                    out.push(Count {
                        fen: fen.clone(),
                        depth,
                        count,
                        source,
                    });
                }
            }
        }
    }
    out.sort_by_key(|c| (c.count, c.depth));
    out
}

fn check_suite(s: &mut Student, suite: &[Count], checked: &mut usize) -> Result<(), CheckVerdict> {
    for c in suite {
        let got = ask_count(s, &c.fen, c.depth)?;
        if got != c.count {
            let mut d = walk(s, &c.fen, c.depth)?;
            d.summary = format!(
                "perft(\"{}\", {}) returned {got}, expected {} ({}). {}",
                c.fen, c.depth, c.count, c.source, d.summary
            );
            return Err(fail(d));
        }
        *checked += 1;
    }
    Ok(())
}

/// Divide on a few positions: the same moves with the same counts as the reference.
fn check_divide(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for (fen, depth) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            3,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
        // Ra8 mates: a root move with no leaf below it, still one of divide's lines.
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 2),
    ] {
        let pos = Position::from_fen(fen).expect("valid");
        let got = ask_divide(s, fen, depth)?;
        let expected = reference_divide(&pos, depth);
        let empty_missing: Vec<&str> = expected
            .iter()
            .filter(|(m, n)| *n == 0 && !got.iter().any(|(g, _)| g == m))
            .map(|(m, _)| m.as_str())
            .collect();
        if !empty_missing.is_empty() {
            return Err(fail(
                Diagnosis::new(format!(
                    "divide(\"{fen}\", {depth}) lacks the move {}, whose count is 0 (nothing \
                     follows it: mate or stalemate); divide lists every legal move, with 0 too",
                    empty_missing.join(" ")
                ))
                .with_fen(fen)
                .with_body(divide_lines(&got, &expected))
                .with_hint(HINT_DIVIDE_EVERY_MOVE),
            ));
        }
        if got != expected {
            let mut d = walk(s, fen, depth)?;
            d.summary = format!("divide(\"{fen}\", {depth}) is wrong. {}", d.summary);
            return Err(fail(d));
        }
        *checked += 1;
    }
    Ok(())
}

/// The reference's divide: (UCI move, count), sorted by move.
fn reference_divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (uci(m), reference_perft(&pos.play(m), depth - 1)))
        .collect();
    out.sort();
    out
}

/// Finds where the student's counts go wrong, as one would by hand: divide at the position,
/// compare with the reference's divide, follow the first move whose count differs, and repeat
/// one ply deeper until the move lists themselves differ (or the counts disagree with perft).
/// The diagnosis names the position, the path from the start, the moves and the counts.
fn walk(s: &mut Student, start: &str, depth: u32) -> Result<Diagnosis, CheckVerdict> {
    // First: an answer that depends on what was asked before (a table of counts kept between
    // calls without the depth in its key) is not a mistake of any one position.
    let asked_late = ask_count(s, start, depth)?;
    s.stop();
    let asked_first = ask_count(s, start, depth)?;
    if asked_late != asked_first {
        return Ok(Diagnosis::new(format!(
            "Asked first in a fresh program, perft(\"{start}\", {depth}) returns \
             {asked_first}, after the checks before it {asked_late}: its answer depends on what \
             it was asked before"
        ))
        .with_fen(start)
        .with_hint(HINT_CACHE));
    }
    let mut fen = start.to_string();
    let mut depth = depth;
    let mut path: Vec<String> = Vec::new();
    let shown_path = |path: &[String]| {
        if path.is_empty() {
            String::new()
        } else {
            format!("after {} ", path.join(" "))
        }
    };
    loop {
        let pos = Position::from_fen(&fen).expect("positions on the walk are valid");
        if depth == 0 {
            let got = ask_count(s, &fen, 0)?;
            return Ok(Diagnosis::new(format!(
                "{}perft(\"{fen}\", 0) returned {got}, expected 1",
                shown_path(&path)
            ))
            .with_fen(fen)
            .with_hint(HINT_DEPTH_ZERO));
        }
        let got = ask_divide(s, &fen, depth)?;
        let expected = reference_divide(&pos, depth);
        let got_moves: Vec<String> = got.iter().map(|(m, _)| m.clone()).collect();
        let expected_moves: Vec<String> = expected.iter().map(|(m, _)| m.clone()).collect();
        let call = format!("divide(\"{fen}\", {depth})");
        if let Err(d) = compare_move_lists(&call, &fen, &expected_moves, &got_moves) {
            let generator = ask_moves(s, &fen)?;
            let from_generator =
                compare_move_lists("legal_moves", &fen, &legal_names(&pos), &generator);
            let mut d = Diagnosis::new(format!("{}{}", shown_path(&path), d.summary))
                .with_fen(fen.clone())
                .with_body(d.body);
            d = match from_generator {
                Err(g) => match pinpoint(s, &fen)? {
                    Some(found) => {
                        let body = format!("{}\n{}", found.body, path_text(start, &path));
                        found.with_body(body)
                    }
                    None => Diagnosis::new(format!(
                        "{}the position where your moves differ: {}",
                        shown_path(&path),
                        g.summary.replacen("legal_moves", "your legal_moves (lab 8)", 1)
                    ))
                    .with_fen(fen)
                    .with_body(format!("{}\n{}", g.body, path_text(start, &path)))
                    .with_hint(HINT_GENERATOR),
                },
                Ok(()) => d
                    .with_body(format!(
                        "your legal_moves (lab 8) gives the right list here, so divide itself adds or loses moves.\n{}",
                        path_text(start, &path)
                    ))
                    .with_hint(HINT_DIVIDE),
            };
            return Ok(d);
        }
        // Same moves: do the counts add up to the student's own perft?
        let sum: u64 = got.iter().map(|(_, n)| n).sum();
        let own = ask_count(s, &fen, depth)?;
        let reference = reference_perft(&pos, depth);
        let wrong: Option<&(String, u64)> = got
            .iter()
            .zip(&expected)
            .find(|(g, e)| g.1 != e.1)
            .map(|(g, _)| g);
        let Some((mv, count)) = wrong else {
            if own == reference {
                return Ok(Diagnosis::new(format!(
                    "{}{call} agrees with the reference here",
                    shown_path(&path)
                ))
                .with_fen(fen)
                .with_hint(HINT_PLAY));
            }
            let hint = if own > reference {
                HINT_LEAVES
            } else {
                HINT_CHILD
            };
            return Ok(Diagnosis::new(format!(
                "{}perft(\"{fen}\", {depth}) returned {own}, but your divide's counts are right and add up to {sum}",
                shown_path(&path)
            ))
            .with_fen(fen)
            .with_body(format!("{}\n{}", divide_table(&got, &expected), path_text(start, &path)))
            .with_hint(hint));
        };
        let exp_count = expected.iter().find(|(m, _)| m == mv).map_or(0, |e| e.1);
        if own != sum {
            return Ok(Diagnosis::new(format!(
                "{}perft(\"{fen}\", {depth}) returned {own}, but divide's counts add up to {sum}",
                shown_path(&path)
            ))
            .with_fen(fen)
            .with_body(format!(
                "{}\n{}",
                divide_table(&got, &expected),
                path_text(start, &path)
            ))
            .with_hint(HINT_DIVIDE));
        }
        if depth == 1 {
            return Ok(Diagnosis::new(format!(
                "{}{call} counts {count} below {mv}, expected {exp_count} (the position after one move is one leaf)",
                shown_path(&path)
            ))
            .with_fen(fen)
            .with_body(format!("{}\n{}", divide_table(&got, &expected), path_text(start, &path)))
            .with_hint(HINT_DEPTH_ZERO));
        }
        // Follow the first move whose subtree count differs.
        let m = pos
            .parse_uci_move(mv)
            .expect("the move is in the reference's list");
        let child = Expect::after(&pos, m).fen();
        // Does the student's perft of the child agree with its divide entry? If the child is
        // counted right on its own, the entry was computed from another position or depth.
        let child_count = ask_count(s, &child, depth - 1)?;
        if child_count == exp_count && *count != exp_count {
            return Ok(Diagnosis::new(format!(
                "{}{call} counts {count} below {mv}, but perft of the position after {mv} at depth {} is {child_count} (right)",
                shown_path(&path),
                depth - 1
            ))
            .with_fen(fen)
            .with_body(format!("{}\n{}", divide_table(&got, &expected), path_text(start, &path)))
            .with_hint(HINT_DIVIDE));
        }
        path.push(mv.clone());
        fen = child;
        depth -= 1;
    }
}

/// The moves whose counts differ, as a small table.
/// The diagnosis that puts `d`, a wrong answer of lab `lab`'s function at `fen`, on that lab.
fn blame(lab: u8, d: Diagnosis, fen: &str, hint: &'static str) -> Diagnosis {
    Diagnosis::new(format!(
        "perft found a mistake of lab {lab}: {} (in this position, shrunk from the one where \
         perft went wrong)",
        d.summary
    ))
    .with_fen(fen)
    .with_body(d.body)
    .with_hint(hint)
}

/// Where perft found wrong moves: shrinks the position (fewer pieces while the student's
/// `legal_moves` still differs from the reference), then asks the earlier labs' own functions
/// there (lab 7's `targets` of the piece whose moves differ; lab 8's castling, en passant or
/// promotions) and names the first whose answer is wrong. `None` when they all agree.
fn pinpoint(s: &mut Student, fen: &str) -> Result<Option<Diagnosis>, CheckVerdict> {
    let differs = |s: &mut Student, fen: &str| -> Result<bool, CheckVerdict> {
        let Ok(pos) = Position::from_fen(fen) else {
            return Ok(false);
        };
        let mut got = ask_moves(s, fen)?;
        let mut expected = legal_names(&pos);
        got.sort();
        expected.sort();
        Ok(got != expected)
    };
    let mut fen = fen.to_string();
    'shrink: for _ in 0..64 {
        for candidate in super::positions::simpler(&fen) {
            if differs(s, &candidate)? {
                fen = candidate;
                continue 'shrink;
            }
        }
        break;
    }
    let pos = Position::from_fen(&fen).expect("the walk's positions are valid");
    let got = ask_moves(s, &fen)?;
    let expected = legal_names(&pos);
    let wrong: Vec<&String> = got
        .iter()
        .filter(|m| !expected.contains(m))
        .chain(expected.iter().filter(|m| !got.contains(m)))
        .collect();
    let special = |kinds: fn(MoveKind) -> bool| -> Vec<String> {
        pos.legal_moves()
            .iter()
            .filter(|m| kinds(m.kind()))
            .map(|m| uci(*m))
            .collect()
    };
    let us = pos.side_to_move();
    let fen_ep = fen
        .split_whitespace()
        .nth(3)
        .and_then(super::lab09::square_index);
    for name in wrong {
        let Some(from) = name.get(..2).and_then(super::lab09::square_index) else {
            continue;
        };
        let to = name.get(2..4).and_then(super::lab09::square_index);
        let from_sq = square(from);
        let king = pos.king(us) == from_sq;
        let pawn = pos.piece_on(from_sq) == Some(Piece::Pawn);
        let castle = king && to.is_some_and(|t| t.abs_diff(from) == 2);
        // The FEN's en-passant square: movegen keeps only one a legal capture can use.
        let en_passant = pawn && to.is_some() && to == fen_ep;
        let promotion = pawn && name.len() == 5;
        let (function, expected): (&str, Vec<String>) = if castle {
            ("castling_moves", special(|k| k == MoveKind::Castle))
        } else if en_passant {
            ("en_passant_moves", special(|k| k == MoveKind::EnPassant))
        } else if promotion {
            (
                "promotion_moves",
                special(|k| matches!(k, MoveKind::Promotion(_))),
            )
        } else {
            // An ordinary move: lab 7's targets of that piece.
            let arg = fen_to_arg(&fen);
            let square_name = from_sq.to_string();
            let Ok(got) = s.ask_bitboard(7, "targets", &[&arg, &square_name]) else {
                return Ok(None);
            };
            let expected = super::lab07::targets(&pos, from_sq);
            if got == expected {
                continue;
            }
            let call = format!("lab 7's targets(board, {square_name})");
            let marks = Marks {
                origin: Some(from),
                occupied: pos.occupied().0,
            };
            let d = bitboard_diagnosis(&call, expected, got, marks);
            let hint = super::lab07::targets_hint(&pos, from_sq, expected, got);
            return Ok(Some(blame(7, d, &fen, hint)));
        };
        let arg = fen_to_arg(&fen);
        let Ok(answer) = s.ask(8, function, &[&arg]) else {
            return Ok(None);
        };
        let got: Vec<String> = answer.split_whitespace().map(String::from).collect();
        if let Err(d) =
            compare_move_lists(&format!("lab 8's {function}(board)"), &fen, &expected, &got)
        {
            return Ok(Some(blame(8, d, &fen, HINT_GENERATOR)));
        }
    }
    Ok(None)
}

/// Both divides, each line `move count`, the reference's first.
fn divide_lines(got: &[(String, u64)], expected: &[(String, u64)]) -> String {
    let lines = |d: &[(String, u64)]| {
        d.iter()
            .map(|(m, n)| format!("{m} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!("expected: {}
yours:    {}
", lines(expected), lines(got))
}

fn divide_table(got: &[(String, u64)], expected: &[(String, u64)]) -> String {
    let mut out = String::from("move     yours  expected\n");
    for ((m, g), (_, e)) in got.iter().zip(expected) {
        let mark = if g != e { "  <-" } else { "" };
        out.push_str(&format!("{m:<8} {g:>6}  {e:>8}{mark}\n"));
    }
    out
}

fn path_text(start: &str, path: &[String]) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("reached from \"{start}\" by {}\n", path.join(" "))
    }
}

// ---------------------------------------------------------------------------------------------
// Crowd exports.

/// One position of a crowd export: the FEN, the agreed move list, where it came from.
struct CrowdCase {
    fen: String,
    moves: Vec<String>,
    source: String,
}

/// Reads a crowd export (`FEN ;moves ... ;D1 n ;experts k [;crowd ...]`). Chess960 lines
/// (castling letters other than KQkq) and lines the oracle cannot read are skipped; the
/// expected list is the oracle's, which for a confirmed line is the crowd's agreed list.
fn parse_crowd(text: &str, source: &str) -> Vec<CrowdCase> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut parts = line.split(';');
        let Some(fen) = parts.next().map(|f| course_fen(f.trim())) else {
            continue;
        };
        let castling = fen.split_whitespace().nth(2).unwrap_or("-");
        if !castling.chars().all(|c| "KQkq-".contains(c)) {
            continue;
        }
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        let moves = legal_names(&pos);
        out.push(CrowdCase {
            fen,
            moves,
            source: format!("{source} line {}", i + 1),
        });
    }
    out
}

/// Every `*.epd` file in `dir` (a class's own exports), in name order.
fn crowd_files(dir: &Path) -> Vec<CrowdCase> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        if let Ok(text) = std::fs::read_to_string(&path) {
            let name = format!(
                "crowd/{}",
                path.file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned())
            );
            out.extend(parse_crowd(&text, &name));
        }
    }
    out
}

fn check_crowd(s: &mut Student, cases: &[CrowdCase], checked: &mut usize) -> Result<(), CheckVerdict> {
    for case in cases {
        let got = ask_moves(s, &case.fen)?;
        if let Err(d) = compare_move_lists("legal_moves", &case.fen, &case.moves, &got) {
            return Err(fail(
                Diagnosis::new(format!("{} (crowd position, {})", d.summary, case.source))
                    .with_fen(case.fen.clone())
                    .with_body(d.body)
                    .with_hint(HINT_GENERATOR),
            ));
        }
        let count = ask_count(s, &case.fen, 1)?;
        if count != case.moves.len() as u64 {
            return Err(fail(
                Diagnosis::new(format!(
                    "perft(\"{}\", 1) returned {count}, but the position has {} legal moves ({})",
                    case.fen,
                    case.moves.len(),
                    case.source
                ))
                .with_fen(case.fen.clone())
                .with_hint(HINT_LEAVES),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_crowd_export_gives_its_standard_positions() {
        let cases = parse_crowd(CROWD_EXPORT, "sample");
        let standard = CROWD_EXPORT
            .lines()
            .filter(|l| {
                l.split_whitespace()
                    .nth(2)
                    .is_some_and(|c| c.chars().all(|c| "KQkq-".contains(c)))
            })
            .count();
        assert_eq!(cases.len(), standard);
        assert!(
            cases.len() < CROWD_EXPORT.lines().count(),
            "the Chess960 lines are skipped"
        );
        // A confirmed line's agreed list is the oracle's list.
        for line in CROWD_EXPORT.lines().filter(|l| !l.contains(";crowd")) {
            let fen = course_fen(line.split(';').next().expect("a FEN").trim());
            if let Some(case) = cases.iter().find(|c| c.fen == fen) {
                let listed = line
                    .split(";moves")
                    .nth(1)
                    .and_then(|r| r.split(';').next())
                    .unwrap_or("");
                assert_eq!(case.moves.join(" "), listed.trim(), "{line}");
            }
        }
    }

    #[test]
    fn crowd_files_are_read_from_the_folder() {
        let dir = std::env::temp_dir().join(format!("pinmask-course-crowd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("week10.epd"),
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;moves e1d1 ;D1 1 ;experts 2\nnot a fen\n",
        )
        .expect("writable");
        std::fs::write(
            dir.join("notes.txt"),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;moves\n",
        )
        .expect("writable");
        let cases = crowd_files(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].source, "crowd/week10.epd line 1");
        assert_eq!(
            cases[0].moves.len(),
            15,
            "the oracle's list, not the file's"
        );
    }

    #[test]
    fn the_suite_is_smallest_first_and_within_the_bound() {
        let suite = suite();
        assert!(suite.len() > 200);
        assert!(suite.windows(2).all(|w| w[0].count <= w[1].count));
        assert!(suite.iter().all(|c| c.count <= MAX_COUNT && c.depth <= 3));
        assert!(suite.iter().any(|c| c.source.contains("thesis")));
    }
}
