//! Lab 9's checker: FEN in and out, copy-make, zobrist keys.
//!
//! The position helpers here (`Expect`, the position pool, UCI names of movegen's moves) are
//! also used by the checkers of labs 10 to 12.

use std::collections::HashMap;

use movegen::{CastlingMode, Color as MColor, MoveKind, Piece as MPiece, Position};

use crate::checker::{call_text, check_cases, fail, fen_to_arg, Diagnosis, LabFiles, LabRecord, CheckVerdict};
use crate::diagram::{self, Marks};
use crate::inputs::{self, Rng};
use crate::shrink::fewer_pieces;
use crate::student::Student;

static FILES: LabFiles = crate::lab_files!(
    "09-position",
    [
        "ranks-bottom-up.bug",
        "rook-capture-keeps-castling.bug",
        "rank-overflow-panics.bug",
        "en-passant-anywhere.bug",
        "kings-side-by-side.bug",
        "pawn-on-back-rank.bug",
        "castling-letter-twice.bug",
        "five-fields.bug",
        "en-passant-pawn-stays.bug",
        "key-forgets-castling.bug",
        "fen-split-on-single-spaces.bug",
        "digit-zero-accepted.bug",
        "en-passant-key-by-rank.bug",
        "four-fields-fullmove-zero.bug",
        "en-passant-rank-either-side.bug",
    ]
);

const LAB: u8 = 9;

const HINT_RANKS: &str = "your board is upside down: a FEN lists rank 8 first, so the first group \
     of the placement fills squares 56..63 (a8..h8) and the last fills 0..7 (a1..h1).";
const HINT_FILES: &str =
    "your board is mirrored left to right: inside a rank, a FEN goes from the \
     a-file to the h-file, so the square is rank * 8 + file with file counting up.";
const HINT_PLACEMENT: &str = "walk the placement one character at a time: a digit skips that many \
     squares, a letter puts a piece (upper case White, lower case Black) and moves one square right, \
     '/' goes down one rank to the a-file.";
const HINT_CASTLING_FIELD: &str =
    "the castling field is `-` or letters from KQkq: K = 1 (White king \
     side), Q = 2, k = 4, q = 8; OR the bits together.";
const HINT_EP_FIELD: &str =
    "the fourth field is `-` or the square a pawn just skipped (e3 or d6), \
     square = (rank - 1) * 8 + file.";
const HINT_SIDE_FIELD: &str = "the second field is `w` or `b`: the side to move.";
const HINT_CLOCKS: &str =
    "the last two fields are the halfmove clock (moves since the last capture \
     or pawn move) and the fullmove number (starts at 1, goes up after each Black move).";
const HINT_BAD_FEN: &str =
    "a FEN from a user can be anything: check the number of fields, of ranks \
     and of squares in each rank, each letter, and return Err(message) instead of panicking \
     (use .get(i) and match, not [i] and unwrap).";
const HINT_TO_FEN: &str = "write rank 8 first; count empty squares and write the count before the \
     next piece and at the end of the rank; `-` for no castling right and no en-passant square; then \
     both clocks.";
const HINT_EP_VICTIM: &str =
    "en passant captures a pawn that is not on the target square: it stands \
     one rank behind it (below the target for White, above for Black). Remove it too.";
const HINT_CASTLE_ROOK: &str =
    "castling moves two pieces: the king two squares and the rook jumping \
     over it (h1 to f1 for e1g1, a1 to d1 for e1c1, the same on rank 8).";
const HINT_ROOK_CAPTURED: &str =
    "a castling right also goes when its rook is captured on its corner: \
     a move TO a1, h1, a8 or h8 clears that right too. A table of the rights each square keeps, \
     applied to both the from- and the to-square, handles every case.";
const HINT_RIGHTS: &str = "a king move clears both its side's castling rights; a rook leaving its \
     corner clears that corner's right; castling itself is a king move.";
const HINT_EP_SQUARE: &str = "after a double push the en-passant square is the skipped square \
     (e2e4 gives e3), after every other move it is None.";
const HINT_PROMOTION: &str =
    "a promoting pawn leaves the pawn set: put the promotion piece on the \
     to-square instead of the pawn.";
const HINT_CAPTURE: &str = "a capture must remove the captured piece from the other side's set \
     (find which of their six sets has the to-square).";
const HINT_SIDE: &str = "after every move the other side is to move.";
const HINT_RANDOM: &str = "xorshift64*: x ^= x >> 12; x ^= x << 25; x ^= x >> 27; return x * \
     0x2545F4914F6CDD1D (wrapping). It must depend only on the state, never on the time or a thread.";
const HINT_SAME_KEY: &str = "a key must depend only on the position (pieces, side, castling, en \
     passant), never on the clocks, on how the position was reached, or on anything random at run \
     time: make the numbers once from a fixed seed.";
const HINT_COLLISION: &str =
    "two different positions got the same key: one part of the position is \
     not in your key. XOR one number per piece per square, one for Black to move, one per castling \
     state (or per right) and one per en-passant file.";
const HINT_INCREMENTAL: &str = "update_key must XOR out everything the move takes away and XOR in \
     everything it adds: the piece on from and on to (the promotion piece), a captured piece, \
     castling's rook, the side to move, the old and new castling rights, the old and new en-passant \
     file.";

/// Lab 9: the position.
pub static LAB09: LabRecord = LabRecord {
    number: LAB,
    slug: "position",
    module: "lab09_position",
    title: "the position: FEN, copy-make, zobrist keys",
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
    let pool = pool();
    check_parse(s, &pool, &mut checked)?;
    check_bad_fens(s, &mut checked)?;
    check_fen_fuzz(s, &pool, &mut checked)?;
    check_to_fen(s, &pool, &mut checked)?;
    let cases = play_cases(&pool);
    check_play(s, &cases, &mut checked)?;
    check_random(s, &mut checked)?;
    check_same_key(s, &mut checked)?;
    check_distinct_keys(s, &pool, &mut checked)?;
    check_incremental(s, &cases, &mut checked)?;
    check_fen_spacing(s, &pool, &mut checked)?;
    check_four_fields(s, &pool, &mut checked)?;
    Ok(checked)
}

const HINT_SPACING: &str = "split the FEN into its fields with split_whitespace(), not split(' '): \
     split(' ') makes an empty field of every second space in a row and of a space at the end, \
     and a GUI may send either (or end the line with a newline).";

const HINT_FOUR_FIELDS: &str = "a FEN may stop after the en-passant field: the two counters left \
     out are the halfmove clock 0 and the fullmove number 1 (a game starts at move 1, not 0).";

/// `parse_fen` reads a FEN of four fields as the same FEN with the counters `0 1`.
fn check_four_fields(s: &mut Student, pool: &[String], checked: &mut usize) -> Result<(), CheckVerdict> {
    for fen in pool.iter().take(8) {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let four = fields[..4].join(" ");
        let arg = fen_to_arg(&four);
        let answer = s.ask(LAB, "parse_fen", &[&arg])?;
        let call = call_text("parse_fen", &[&arg]);
        let expected =
            Expect::from_fen(&format!("{four} 0 1")).expect("the pool's FENs are valid");
        let got = answer.strip_prefix("board ").and_then(Expect::from_dump);
        let Some(got) = got else {
            return Err(fail(
                Diagnosis::new(format!(
                    "{call} answered `{answer}`: a FEN of four fields is valid, its counters \
                     are 0 and 1"
                ))
                .with_fen(four.clone())
                .with_hint(HINT_FOUR_FIELDS),
            ));
        };
        if got != expected {
            let (parts, body) = differences(&expected, &got);
            return Err(fail(
                Diagnosis::new(format!(
                    "{call} is wrong for a FEN of four fields: {}",
                    parts.join("; ")
                ))
                .with_fen(four.clone())
                .with_body(body)
                .with_hint(HINT_FOUR_FIELDS),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

/// `parse_fen` reads a FEN with more spaces than one between its fields, or one at the end,
/// as the same FEN.
fn check_fen_spacing(s: &mut Student, pool: &[String], checked: &mut usize) -> Result<(), CheckVerdict> {
    for fen in pool.iter().take(6) {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let single = fields.join("_");
        let want = s.ask(LAB, "parse_fen", &[&single])?;
        for (what, arg) in [
            ("two spaces between the fields", fields.join("__")),
            ("a space at the end", format!("{single}_")),
        ] {
            let got = s.ask(LAB, "parse_fen", &[&arg])?;
            if got != want {
                let call = call_text("parse_fen", &[&arg]);
                return Err(fail(
                    Diagnosis::new(format!(
                        "{call} answered `{got}`: a FEN with {what} is still that FEN"
                    ))
                    .with_fen(fen.clone())
                    .with_body(format!("with single spaces, your parse_fen answers `{want}`"))
                    .with_hint(HINT_SPACING),
                ));
            }
            *checked += 1;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The expected position, kept field by field as the student's `Board`.

/// Piece set names in `Board::pieces` order (white pawns first).
pub(crate) const SET_NAMES: [&str; 12] = [
    "white pawns",
    "white knights",
    "white bishops",
    "white rooks",
    "white queens",
    "white king",
    "black pawns",
    "black knights",
    "black bishops",
    "black rooks",
    "black queens",
    "black king",
];

/// A position as the student's `Board` holds it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Expect {
    /// White's six sets, then Black's.
    pub sets: [u64; 12],
    pub white: bool,
    pub castling: u8,
    pub ep: Option<u8>,
    pub halfmove: u32,
    pub fullmove: u32,
}

const LETTERS: &str = "PNBRQKpnbrqk";

impl Expect {
    /// Reads a FEN the course wrote (six fields, valid); `None` if it is not one.
    pub fn from_fen(fen: &str) -> Option<Expect> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        if f.len() != 6 {
            return None;
        }
        let mut sets = [0u64; 12];
        let ranks: Vec<&str> = f[0].split('/').collect();
        if ranks.len() != 8 {
            return None;
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - row as u32;
            let mut file = 0u32;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d;
                } else {
                    let i = LETTERS.find(c)?;
                    if file > 7 {
                        return None;
                    }
                    sets[i] |= 1u64 << (rank * 8 + file);
                    file += 1;
                }
            }
        }
        let mut castling = 0;
        for c in f[2].chars() {
            castling |= match c {
                'K' => 1,
                'Q' => 2,
                'k' => 4,
                'q' => 8,
                _ => 0,
            };
        }
        let ep = if f[3] == "-" {
            None
        } else {
            square_index(f[3])
        };
        Some(Expect {
            sets,
            white: f[1] == "w",
            castling,
            ep,
            halfmove: f[4].parse().ok()?,
            fullmove: f[5].parse().ok()?,
        })
    }

    /// The position after movegen played `mv` on `before`: movegen's pieces, rights and clocks,
    /// with the course's en-passant rule (the skipped square after every double push).
    pub fn after(before: &Position, mv: movegen::Move) -> Expect {
        let next = before.play(mv);
        let mut e = Expect::of_position(&next);
        let pawn = before.piece_on(mv.from()) == Some(MPiece::Pawn);
        let (from, to) = (mv.from().index() as u8, mv.to().index() as u8);
        e.ep = (pawn && from.abs_diff(to) == 16).then_some((from + to) / 2);
        e
    }

    /// A movegen position's fields (its en-passant square as movegen keeps it).
    pub fn of_position(pos: &Position) -> Expect {
        let mut sets = [0u64; 12];
        for (c, color) in MColor::ALL.into_iter().enumerate() {
            for (p, piece) in MPiece::ALL.into_iter().enumerate() {
                sets[c * 6 + p] = pos.pieces_of(color, piece).0;
            }
        }
        Expect {
            sets,
            white: pos.side_to_move() == MColor::White,
            castling: pos.castling_rights().index() as u8,
            ep: pos.ep_square().map(|s| s.index() as u8),
            halfmove: pos.halfmove_clock(),
            fullmove: pos.fullmove_number(),
        }
    }

    /// The FEN of this position (castling as `KQkq`, the en-passant square as kept).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = rank * 8 + file;
                match (0..12).find(|&i| self.sets[i] >> sq & 1 == 1) {
                    Some(i) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(LETTERS.as_bytes()[i] as char);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.white { " w " } else { " b " });
        out.push_str(&castling_text(self.castling));
        out.push(' ');
        out.push_str(&self.ep.map_or("-".to_string(), diagram::square_name));
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    /// Reads the harness's dump of a student's board (see lab 9's harness.rs).
    pub fn from_dump(text: &str) -> Option<Expect> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 6 {
            return None;
        }
        let mut sets = [0u64; 12];
        let parts: Vec<&str> = f[0].split(',').collect();
        if parts.len() != 12 {
            return None;
        }
        for (i, p) in parts.iter().enumerate() {
            sets[i] = crate::checker::parse_bitboard(p)?;
        }
        Some(Expect {
            sets,
            white: f[1] == "w",
            castling: f[2].parse().ok()?,
            ep: if f[3] == "-" {
                None
            } else {
                Some(square_index(f[3])?)
            },
            halfmove: f[4].parse().ok()?,
            fullmove: f[5].parse().ok()?,
        })
    }

    /// The same position apart from the clocks.
    pub fn same_position(&self, other: &Expect) -> bool {
        (self.sets, self.white, self.castling, self.ep)
            == (other.sets, other.white, other.castling, other.ep)
    }

    fn piece_count(&self) -> u32 {
        self.sets.iter().map(|b| b.count_ones()).sum()
    }
}

/// `KQkq`, `Kq`, `-`.
pub(crate) fn castling_text(bits: u8) -> String {
    let s: String = [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|&(_, c)| c)
        .collect();
    if s.is_empty() {
        "-".to_string()
    } else {
        s
    }
}

/// `e4` -> 28.
pub(crate) fn square_index(name: &str) -> Option<u8> {
    let b = name.as_bytes();
    (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
        .then(|| (b[1] - b'1') * 8 + (b[0] - b'a'))
}

/// A movegen move in UCI form (`e1g1` for castling).
pub(crate) fn uci(mv: movegen::Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// A position's legal moves in UCI form, sorted.
pub(crate) fn legal_names(pos: &Position) -> Vec<String> {
    let mut names: Vec<String> = pos.legal_moves().into_iter().map(uci).collect();
    names.sort();
    names
}

/// Describes how `got` differs from `expected`, one part per differing field, with a diagram
/// for each wrong piece set; the first part heads the summary.
fn differences(expected: &Expect, got: &Expect) -> (Vec<String>, String) {
    let mut parts = Vec::new();
    let mut body = String::new();
    for (i, (&e, &g)) in expected.sets.iter().zip(&got.sets).enumerate() {
        if e == g {
            continue;
        }
        let mut what = Vec::new();
        if e & !g != 0 {
            what.push(format!("missing {}", diagram::squares(e & !g)));
        }
        if g & !e != 0 {
            what.push(format!("extra {}", diagram::squares(g & !e)));
        }
        parts.push(format!("{}: {}", SET_NAMES[i], what.join(", ")));
        body.push_str(&format!(
            "{}:\n{}{}\n\n",
            SET_NAMES[i],
            diagram::compare(e, g, Marks::default()),
            diagram::legend(e, g, Marks::default())
        ));
    }
    if expected.white != got.white {
        let side = |w: bool| if w { "White" } else { "Black" };
        parts.push(format!(
            "side to move: expected {}, got {}",
            side(expected.white),
            side(got.white)
        ));
    }
    if expected.castling != got.castling {
        parts.push(format!(
            "castling rights: expected {}, got {}",
            castling_text(expected.castling),
            castling_text(got.castling)
        ));
    }
    if expected.ep != got.ep {
        let name = |e: Option<u8>| e.map_or("none".to_string(), diagram::square_name);
        parts.push(format!(
            "en-passant square: expected {}, got {}",
            name(expected.ep),
            name(got.ep)
        ));
    }
    if expected.halfmove != got.halfmove {
        parts.push(format!(
            "halfmove clock: expected {}, got {}",
            expected.halfmove, got.halfmove
        ));
    }
    if expected.fullmove != got.fullmove {
        parts.push(format!(
            "fullmove number: expected {}, got {}",
            expected.fullmove, got.fullmove
        ));
    }
    (parts, body)
}

// ---------------------------------------------------------------------------------------------
// The positions.

/// Hand-picked positions for the special moves (castling both ways for both sides, rooks
/// captured on their corners, en passant for both sides, promotions with and without capture,
/// clocks), then movegen's well-known positions.
const SPECIAL: &[&str] = &[
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 b - - 12 40",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/K3p3/3R4 b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 17",
    "r3k2r/1B6/8/8/8/8/1b6/R3K2R w KQkq - 0 1",
    "r3k2r/1B6/8/8/8/8/1b6/R3K2R b Kk - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - 5 9",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// The position pool: the special positions, movegen's well-known ones, and positions of
/// seeded random games (with the course's en-passant rule), fewest pieces first.
pub(crate) fn pool() -> Vec<String> {
    let mut fens: Vec<String> = SPECIAL.iter().map(|s| s.to_string()).collect();
    fens.extend(inputs::POSITIONS.iter().map(|s| s.to_string()));
    let mut rng = Rng::new(0x09);
    for game in 0..6 {
        let mut pos = if game % 2 == 0 {
            Position::startpos()
        } else {
            Position::from_fen(inputs::POSITIONS[1]).expect("kiwipete is valid")
        };
        for ply in 0..48 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let after = Expect::after(&pos, mv);
            pos = pos.play(mv);
            if ply % 6 == 5 {
                fens.push(after.fen());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    fens.retain(|f| seen.insert(f.clone()));
    fens.sort_by_key(|f| Expect::from_fen(f).map_or(99, |e| e.piece_count()));
    fens
}

// ---------------------------------------------------------------------------------------------
// FEN in and out.

fn parse_hint(expected: &Expect, got: &Expect) -> &'static str {
    let flip = |sets: &[u64; 12]| sets.map(u64::swap_bytes);
    let mirror = |sets: &[u64; 12]| {
        sets.map(|b| {
            let mut m = 0;
            for sq in 0..64 {
                if b >> sq & 1 == 1 {
                    m |= 1u64 << (sq ^ 7);
                }
            }
            m
        })
    };
    if expected.sets != got.sets {
        if flip(&expected.sets) == got.sets {
            return HINT_RANKS;
        }
        if mirror(&expected.sets) == got.sets {
            return HINT_FILES;
        }
        return HINT_PLACEMENT;
    }
    if expected.white != got.white {
        return HINT_SIDE_FIELD;
    }
    if expected.castling != got.castling {
        return HINT_CASTLING_FIELD;
    }
    if expected.ep != got.ep {
        return HINT_EP_FIELD;
    }
    HINT_CLOCKS
}

fn check_parse(s: &mut Student, pool: &[String], checked: &mut usize) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        pool.to_vec(),
        |f| fewer_pieces(f),
        |s, fen| {
            let args = [fen_to_arg(fen)];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let answer = s.ask(LAB, "parse_fen", &args)?;
            let call = call_text("parse_fen", &args);
            let expected = Expect::from_fen(fen).expect("the pool's FENs are valid");
            if let Some(message) = answer.strip_prefix("err") {
                return Err(fail(
                    Diagnosis::new(format!(
                        "{call} returned Err({}) for a valid FEN",
                        message.trim()
                    ))
                    .with_fen(fen.clone())
                    .with_hint(HINT_PLACEMENT),
                ));
            }
            let got = answer
                .strip_prefix("board ")
                .and_then(Expect::from_dump)
                .ok_or_else(|| {
                    fail(Diagnosis::new(format!(
                        "{call}: the harness answered `{answer}`"
                    )))
                })?;
            if got == expected {
                return Ok(());
            }
            let (parts, body) = differences(&expected, &got);
            Err(fail(
                Diagnosis::new(format!("{call} is wrong: {}", parts.join("; ")))
                    .with_fen(fen.clone())
                    .with_body(body)
                    .with_hint(parse_hint(&expected, &got)),
            ))
        },
        checked,
    )
}

/// Strings that are not FENs, and what is wrong with each.
const BAD_FENS: &[(&str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "only the placement, no other field",
    ),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "9 ranks",
    ),
    (
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a rank of 9 squares",
    ),
    (
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a rank of 9 pawns",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a rank of 7 squares",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "the letter X",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side to move x",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
        "castling letter z",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "en-passant square e9",
    ),
    // A file past h: read as a number, q1 is a3, and with White's a-pawn just moved to a4
    // that square would pass every other test (found by mutation testing: `||` made `&&` in
    // the test of a square's name).
    (
        "rnbqkbnr/pppppppp/8/8/P7/8/1PPPPPPP/RNBQKBNR b KQkq q1 0 1",
        "en-passant square q1",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "halfmove clock x",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
        "fullmove number -1",
    ),
];

fn check_bad_fens(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    for (fen, what) in BAD_FENS {
        let arg = fen_to_arg(fen);
        let call = call_text("parse_fen", &[&arg]);
        let answer = s.ask(LAB, "parse_fen", &[&arg]).map_err(|v| match v {
            CheckVerdict::Fail(d) => fail(
                Diagnosis::new(format!(
                    "{} (the FEN has {what}: return Err, don't panic)",
                    d.summary
                ))
                .with_hint(HINT_BAD_FEN),
            ),
            other => other,
        })?;
        if !answer.starts_with("err") {
            return Err(fail(
                Diagnosis::new(format!("{call} returned Ok, but that is not a FEN: {what}"))
                    .with_body(format!("your board: {answer}"))
                    .with_hint(HINT_BAD_FEN),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

/// How a FEN of the fuzz is broken: the rule it breaks (the student must answer `Err`), or
/// garbage that only must not panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Broken {
    /// Breaks a rule the lab text states: `Err` expected.
    Rule(&'static str),
    /// Cut or scrambled text: `Err` or `Ok`, but no panic.
    Garbage,
}

/// The FEN fuzz: each of `pool`'s positions broken in every way the lab text names (ranks
/// too long or short, kings missing, doubled or adjacent, pawns on the first or last rank,
/// impossible en-passant squares), plus cut and scrambled texts. Seeded: the same FENs on
/// every run, the smallest positions first.
fn fen_fuzz(pool: &[String]) -> Vec<(String, Broken)> {
    let mut rng = crate::inputs::Rng::new(0x09_f422);
    let mut out: Vec<(String, Broken)> = Vec::new();
    let rule = |fen: String, what: &'static str| (fen, Broken::Rule(what));
    // Fixed cases first: the ones students miss most.
    for (fen, what) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w - a1 0 1",
            "an en-passant square on the first rank",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            "an en-passant square on the fourth rank",
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1",
            "en passant on e3 with White to move",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            "en passant on e6 with no black pawn on e5",
        ),
        // The square and the pawn fit each other, but the pawn is the side to move's own.
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
            "an en-passant square on the side to move's own side of the board: e3 with White \
             to move (White's pawn on e4 did not just move, Black did)",
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1",
            "an en-passant square on the side to move's own side of the board: e6 with Black \
             to move (Black's pawn on e5 did not just move, White did)",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "seven fields"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0", "five fields"),
        (
            "r3k3/8/8/8/8/8/8/4K2R w KKq - 0 1",
            "a castling letter given twice",
        ),
        // On rank 8, where a ninth square is past the board's last bit.
        (
            "nnnnnnnnn/4k3/8/8/8/8/8/4K3 w - - 0 1",
            "a rank of nine knights",
        ),
        (
            "8n/4k3/8/8/8/8/8/4K3 w - - 0 1",
            "a rank of nine squares, 8 then a knight",
        ),
        (
            "44n/4k3/8/8/8/8/8/4K3 w - - 0 1",
            "a rank of nine squares, 4, 4 and a knight",
        ),
        (
            "n8/4k3/8/8/8/8/8/4K3 w - - 0 1",
            "a rank of nine squares, a knight then 8",
        ),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king"),
        ("4k3/8/8/8/8/8/8/8 b - - 0 1", "no white king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "two white kings"),
        ("8/8/8/3kK3/8/8/8/8 w - - 0 1", "kings next to each other"),
        (
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
            "a white pawn on the first rank",
        ),
        (
            "p3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "a black pawn on the last rank",
        ),
        // 0 + 4 + K + 3 is eight squares, but a count of empty squares is 1 to 8.
        (
            "4k3/8/8/8/8/8/8/04K3 w - - 0 1",
            "the digit 0 in the placement",
        ),
    ] {
        out.push(rule(fen.to_string(), what));
    }
    let fixed = out.len();
    for fen in pool {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let with = |i: usize, value: &str| {
            let mut f: Vec<&str> = fields.clone();
            f[i] = value;
            f.join(" ")
        };
        let ranks: Vec<&str> = fields[0].split('/').collect();
        let with_rank = |r: usize, text: &str| {
            let mut rs: Vec<String> = ranks.iter().map(|s| s.to_string()).collect();
            rs[r] = text.to_string();
            with(0, &rs.join("/"))
        };
        // A rank one square too long, or one too short.
        let r = rng.below(8) as usize;
        out.push(rule(
            with_rank(r, &format!("{}p", ranks[r])),
            "a rank of nine squares",
        ));
        let short: String = match ranks[r].chars().last() {
            Some(c) if c.is_ascii_digit() && c != '1' => {
                let mut t = ranks[r][..ranks[r].len() - 1].to_string();
                t.push(char::from(c as u8 - 1));
                t
            }
            _ => ranks[r][..ranks[r].len() - 1].to_string(),
        };
        out.push(rule(with_rank(r, &short), "a rank of seven squares"));
        // A king replaced by a knight (missing), or a knight's square given a second king.
        let cells = super::positions::cells_of(&pos);
        for (king, knight, what) in [('K', 'N', "no white king"), ('k', 'n', "no black king")] {
            let mut c = cells;
            if let Some(i) = c.iter().position(|&x| x == king) {
                c[i] = knight;
                out.push(rule(with(0, &crate::inputs::placement(&c)), what));
            }
        }
        // A pawn on a back rank, on an empty square of the first or last rank.
        let back: Vec<usize> = (0..8).chain(56..64).filter(|&i| cells[i] == '.').collect();
        if !back.is_empty() {
            let i = back[rng.below(back.len() as u64) as usize];
            let mut arr = cells;
            arr[i] = if rng.below(2) == 0 { 'P' } else { 'p' };
            out.push(rule(
                with(0, &crate::inputs::placement(&arr)),
                "a pawn on the first or last rank",
            ));
        }
        // An en-passant square that no double push can have left.
        let file = char::from(b'a' + rng.below(8) as u8);
        let rank = ['1', '2', '4', '5', '7', '8'][rng.below(6) as usize];
        out.push(rule(
            with(3, &format!("{file}{rank}")),
            "an en-passant square off the third and sixth ranks",
        ));
        // Garbage: cut at a random place, or a character changed.
        let cut = 1 + rng.below(fen.len() as u64 - 1) as usize;
        if fen.is_char_boundary(cut) {
            out.push((fen[..cut].trim_end().to_string(), Broken::Garbage));
        }
        let mut bytes = fen.clone().into_bytes();
        let at = rng.below(bytes.len() as u64) as usize;
        bytes[at] = b"0123456789/-pnbrqkPNBRQKwxz"[rng.below(27) as usize];
        if let Ok(text) = String::from_utf8(bytes) {
            out.push((text, Broken::Garbage));
        }
    }
    // Only generated texts that are really broken count as rule cases (a mutation can land on
    // a valid FEN: the oracle decides). The fixed cases stay: five fields is the course's own
    // rule, stricter than movegen's reader.
    let generated = out.split_off(fixed);
    out.extend(generated.into_iter().filter(|(fen, broken)| {
        !fen.trim().is_empty() && (*broken == Broken::Garbage || Position::from_fen(fen).is_err())
    }));
    out
}

const HINT_FUZZ: &str = "parse_fen must answer Err for anything that is not a legal FEN and \
     never panic: count each rank's squares before you index with them, check every field, and \
     then the position: one king each, not next to each other, no pawn on the first or last \
     rank, and an en-passant square only on the sixth rank with White to move (third with \
     Black) with the pawn that just moved in front of it.";

fn check_fen_fuzz(s: &mut Student, pool: &[String], checked: &mut usize) -> Result<(), CheckVerdict> {
    for (fen, broken) in fen_fuzz(pool) {
        let arg = fen_to_arg(&fen);
        let call = call_text("parse_fen", &[&arg]);
        let what = match broken {
            Broken::Rule(what) => format!("the FEN has {what}"),
            Broken::Garbage => "a broken FEN".to_string(),
        };
        let answer = s.ask(LAB, "parse_fen", &[&arg]).map_err(|v| match v {
            CheckVerdict::Fail(d) => fail(
                Diagnosis::new(format!("{} ({what}: return Err, don't panic)", d.summary))
                    .with_body(format!("the FEN: {fen}"))
                    .with_hint(HINT_FUZZ),
            ),
            other => other,
        })?;
        if let (Broken::Rule(what), false) = (broken, answer.starts_with("err")) {
            return Err(fail(
                Diagnosis::new(format!(
                    "{call} returned Ok, but that is not a legal position: {what}"
                ))
                .with_body(format!("the FEN: {fen}\nyour board: {answer}"))
                .with_hint(HINT_FUZZ),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

fn check_to_fen(s: &mut Student, pool: &[String], checked: &mut usize) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        pool.to_vec(),
        |f| fewer_pieces(f),
        |s, fen| {
            let arg = fen_to_arg(fen);
            let got = s.ask(LAB, "to_fen", &[&arg])?;
            if got.trim() == fen {
                return Ok(());
            }
            let names = [
                "placement",
                "side to move",
                "castling",
                "en passant",
                "halfmove clock",
                "fullmove number",
            ];
            let e: Vec<&str> = fen.split_whitespace().collect();
            let g: Vec<&str> = got.split_whitespace().collect();
            let wrong: Vec<&str> = (0..6)
                .filter(|&i| e.get(i) != g.get(i))
                .map(|i| names[i])
                .collect();
            Err(fail(
                Diagnosis::new(format!(
                    "to_fen is wrong ({}) for the board of \"{fen}\"",
                    wrong.join(", ")
                ))
                .with_fen(fen.clone())
                .with_body(format!("expected: {fen}\ngot:      {got}\n"))
                .with_hint(HINT_TO_FEN),
            ))
        },
        checked,
    )
}

// ---------------------------------------------------------------------------------------------
// Copy-make.

/// Every (position, legal move) of the pool, special moves of each position first.
pub(crate) fn play_cases(pool: &[String]) -> Vec<(String, String)> {
    let mut cases = Vec::new();
    for fen in pool {
        let pos = Position::from_fen(fen).expect("the pool's FENs are valid");
        let mut moves: Vec<movegen::Move> = pos.legal_moves().into_iter().collect();
        moves.sort_by_key(|m| (matches!(m.kind(), MoveKind::Normal), uci(*m)));
        cases.extend(moves.into_iter().map(|m| (fen.clone(), uci(m))));
    }
    cases
}

/// Simpler cases: fewer pieces where the move is still legal.
fn simpler_case(case: &(String, String)) -> Vec<(String, String)> {
    fewer_pieces(&case.0)
        .into_iter()
        .filter(|f| Position::from_fen(f).is_ok_and(|p| p.parse_uci_move(&case.1).is_ok()))
        .map(|f| (f, case.1.clone()))
        .collect()
}

fn play_hint(pos: &Position, mv: movegen::Move, expected: &Expect, got: &Expect) -> &'static str {
    let corner = |sq: u8| matches!(sq, 0 | 7 | 56 | 63);
    let to = mv.to().index() as u8;
    match mv.kind() {
        MoveKind::EnPassant if expected.sets != got.sets => return HINT_EP_VICTIM,
        MoveKind::Castle if expected.sets != got.sets => return HINT_CASTLE_ROOK,
        MoveKind::Promotion(_) if expected.sets != got.sets => return HINT_PROMOTION,
        _ => {}
    }
    if expected.sets != got.sets {
        return HINT_CAPTURE;
    }
    if expected.castling != got.castling {
        if corner(to) && pos.piece_on(mv.to()).is_some() && mv.kind() != MoveKind::Castle {
            return HINT_ROOK_CAPTURED;
        }
        return HINT_RIGHTS;
    }
    if expected.ep != got.ep {
        return HINT_EP_SQUARE;
    }
    if expected.white != got.white {
        return HINT_SIDE;
    }
    HINT_CLOCKS
}

fn check_play(
    s: &mut Student,
    cases: &[(String, String)],
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        cases.to_vec(),
        simpler_case,
        |s, (fen, name)| {
            let pos = Position::from_fen(fen).expect("valid");
            let mv = pos.parse_uci_move(name).expect("legal");
            let expected = Expect::after(&pos, mv);
            let args = [fen_to_arg(fen), name.clone()];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let answer = s.ask(LAB, "play", &args)?;
            let call = call_text("play", &args);
            let got = Expect::from_dump(&answer).ok_or_else(|| {
                fail(Diagnosis::new(format!(
                    "{call}: the harness answered `{answer}`"
                )))
            })?;
            if got == expected {
                return Ok(());
            }
            let (parts, body) = differences(&expected, &got);
            Err(fail(
                Diagnosis::new(format!("{call} is wrong: {}", parts.join("; ")))
                    .with_fen(fen.clone())
                    .with_body(format!(
                        "the move: {name}\nexpected after it: {}\n{body}",
                        expected.fen()
                    ))
                    .with_hint(play_hint(&pos, mv, &expected, &got)),
            ))
        },
        checked,
    )
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys.

fn parse_keys(answer: &str) -> Option<Vec<u64>> {
    answer
        .split_whitespace()
        .map(|w| u64::from_str_radix(w, 16).ok())
        .collect()
}

fn check_random(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let first = s.ask(LAB, "random", &["1", "1000"])?;
    let numbers = parse_keys(&first)
        .filter(|v| v.len() == 1000)
        .ok_or_else(|| {
            fail(Diagnosis::new(format!(
                "random_u64: the harness answered `{first}`"
            )))
        })?;
    s.stop();
    let again = s.ask(LAB, "random", &["1", "1000"])?;
    if again != first {
        return Err(fail(
            Diagnosis::new(
                "random_u64 from seed 1 gave different numbers in two runs of your program",
            )
            .with_hint(HINT_RANDOM),
        ));
    }
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != numbers.len() {
        return Err(fail(
            Diagnosis::new(format!(
                "random_u64 from seed 1 repeats itself: {} different numbers in the first 1000",
                sorted.len()
            ))
            .with_hint(HINT_RANDOM),
        ));
    }
    // Each bit of a good generator is set in about half of the numbers; 1000 draws put a
    // fair bit within 400..600 with overwhelming probability (6 standard deviations).
    for bit in 0..64 {
        let ones = numbers.iter().filter(|n| *n >> bit & 1 == 1).count();
        if !(400..=600).contains(&ones) {
            return Err(fail(
                Diagnosis::new(format!(
                    "random_u64 from seed 1: bit {bit} is set in {ones} of the first 1000 numbers (a random bit is set in about 500)"
                ))
                .with_hint(HINT_RANDOM),
            ));
        }
    }
    let other = s.ask(LAB, "random", &["2", "10"])?;
    if other.split_whitespace().collect::<Vec<_>>()
        == first.split_whitespace().take(10).collect::<Vec<_>>()
    {
        return Err(fail(
            Diagnosis::new(
                "random_u64 gives the same numbers from seed 2 as from seed 1: use the state",
            )
            .with_hint(HINT_RANDOM),
        ));
    }
    *checked += 3;
    Ok(())
}

fn key_of(s: &mut Student, fen: &str) -> Result<u64, CheckVerdict> {
    let arg = fen_to_arg(fen);
    let answer = s.ask(LAB, "zobrist", &[&arg])?;
    u64::from_str_radix(answer.trim(), 16).map_err(|_| {
        fail(Diagnosis::new(format!(
            "zobrist: the harness answered `{answer}`"
        )))
    })
}

/// Pairs of FENs of one position reached differently (other clocks, other move orders).
fn transpositions() -> Vec<(String, String)> {
    let line = |moves: &[&str]| {
        let mut pos = Position::startpos();
        let mut e = Expect::of_position(&pos);
        for m in moves {
            let mv = pos.parse_uci_move(m).expect("the lines below are legal");
            e = Expect::after(&pos, mv);
            pos = pos.play(mv);
        }
        e.fen()
    };
    vec![
        (line(&[]), line(&["g1f3", "g8f6", "f3g1", "f6g8"])),
        (
            line(&["e2e3", "e7e6", "g1f3", "g8f6"]),
            line(&["g1f3", "g8f6", "e2e3", "e7e6"]),
        ),
        (
            line(&["d2d4", "d7d5", "c1f4", "c8f5", "b1c3"]),
            line(&["b1c3", "d7d5", "d2d4", "c8f5", "c1f4"]),
        ),
    ]
}

fn check_same_key(s: &mut Student, checked: &mut usize) -> Result<(), CheckVerdict> {
    let start = inputs::POSITIONS[0];
    let a = key_of(s, start)?;
    let b = key_of(s, start)?;
    s.stop();
    let c = key_of(s, start)?;
    if a != b || a != c {
        return Err(fail(
            Diagnosis::new(format!(
                "zobrist gave the start position the keys {a:016x}, {b:016x} and (in a new run of your program) {c:016x}"
            ))
            .with_fen(start)
            .with_hint(HINT_SAME_KEY),
        ));
    }
    for (x, y) in transpositions() {
        let (kx, ky) = (key_of(s, &x)?, key_of(s, &y)?);
        if kx != ky {
            return Err(fail(
                Diagnosis::new(format!(
                    "zobrist gives one position two keys: {kx:016x} for \"{x}\" and {ky:016x} for \"{y}\""
                ))
                .with_fen(x.clone())
                .with_body(format!("the two FENs differ only in the clocks:\n  {x}\n  {y}\n"))
                .with_hint(HINT_SAME_KEY),
            ));
        }
        *checked += 1;
    }
    Ok(())
}

/// The pool's positions and variants of them that differ in one field: side to move,
/// one castling right, the en-passant square.
fn distinct_positions(pool: &[String]) -> Vec<String> {
    let mut out: Vec<String> = pool.to_vec();
    for fen in pool {
        let e = Expect::from_fen(fen).expect("valid");
        let mut variants = Vec::new();
        let mut flipped = e.clone();
        flipped.white = !e.white;
        flipped.ep = None;
        variants.push(flipped);
        for bit in [1, 2, 4, 8] {
            if e.castling & bit != 0 {
                let mut fewer = e.clone();
                fewer.castling &= !bit;
                variants.push(fewer);
            }
        }
        if e.ep.is_some() {
            let mut no_ep = e.clone();
            no_ep.ep = None;
            variants.push(no_ep);
        }
        out.extend(
            variants
                .into_iter()
                .map(|v| v.fen())
                .filter(|f| Position::from_fen(f).is_ok()),
        );
    }
    // Positions that differ only in the en-passant file (a key indexed by the square's rank
    // gives d6 and e6 one key).
    out.extend(EP_FILES.iter().map(|f| f.to_string()));
    let mut seen = Vec::<Expect>::new();
    out.retain(|f| {
        let e = Expect::from_fen(f).expect("valid");
        if seen.iter().any(|x| x.same_position(&e)) {
            false
        } else {
            seen.push(e);
            true
        }
    });
    out
}

/// Pairs of positions alike but for the en-passant file, for either side to move.
const EP_FILES: [&str; 4] = [
    "4k3/8/8/3pp3/8/8/8/4K3 w - d6 0 1",
    "4k3/8/8/3pp3/8/8/8/4K3 w - e6 0 1",
    "4k3/8/8/8/3PP3/8/8/4K3 b - d3 0 1",
    "4k3/8/8/8/3PP3/8/8/4K3 b - e3 0 1",
];

const HINT_EP_KEY: &str = "the en-passant key is one of eight numbers, picked by the file of the \
     en-passant square (sq % 8): by its rank (sq / 8) every square of the sixth rank gets the same \
     one.";

fn check_distinct_keys(
    s: &mut Student,
    pool: &[String],
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    let mut keys: HashMap<u64, String> = HashMap::new();
    for fen in distinct_positions(pool) {
        let key = key_of(s, &fen)?;
        if let Some(other) = keys.get(&key) {
            let (a, b) = (
                Expect::from_fen(other).expect("valid"),
                Expect::from_fen(&fen).expect("valid"),
            );
            let (parts, body) = differences(&a, &b);
            return Err(fail(
                Diagnosis::new(format!(
                    "zobrist gives two different positions the same key {key:016x}; they differ in {}",
                    parts.join("; ")
                ))
                .with_fen(fen.clone())
                .with_body(format!("  {other}\n  {fen}\n{body}"))
                .with_hint(if parts.len() == 1 && parts[0].starts_with("en-passant square") {
                    HINT_EP_KEY
                } else {
                    HINT_COLLISION
                }),
            ));
        }
        keys.insert(key, fen);
        *checked += 1;
    }
    Ok(())
}

fn check_incremental(
    s: &mut Student,
    cases: &[(String, String)],
    checked: &mut usize,
) -> Result<(), CheckVerdict> {
    check_cases(
        s,
        cases.to_vec(),
        simpler_case,
        |s, (fen, name)| {
            let args = [fen_to_arg(fen), name.clone()];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let answer = s.ask(LAB, "keys", &args)?;
            let keys = parse_keys(&answer)
                .filter(|k| k.len() == 3)
                .ok_or_else(|| {
                    fail(Diagnosis::new(format!(
                        "keys: the harness answered `{answer}`"
                    )))
                })?;
            if keys[1] == keys[2] {
                return Ok(());
            }
            let pos = Position::from_fen(fen).expect("valid");
            let mv = pos.parse_uci_move(name).expect("legal");
            let kind = match mv.kind() {
                MoveKind::Castle => "castling: the rook moves too, and the castling rights change",
                MoveKind::EnPassant => "en passant: the captured pawn is not on the to-square",
                MoveKind::Promotion(_) => "a promotion: a new piece arrives, the pawn leaves",
                MoveKind::Normal if Expect::after(&pos, mv).ep.is_some() => {
                    "a double push: an en-passant file appears"
                }
                MoveKind::Normal if pos.piece_on(mv.to()).is_some() => "a capture",
                MoveKind::Normal => "a quiet move",
            };
            let before = Expect::from_fen(fen).expect("valid");
            let after = Expect::after(&pos, mv);
            let mut changes = Vec::new();
            if before.castling != after.castling {
                changes.push(format!(
                    "castling rights {} -> {}",
                    castling_text(before.castling),
                    castling_text(after.castling)
                ));
            }
            if before.ep != after.ep {
                let n = |e: Option<u8>| e.map_or("none".to_string(), diagram::square_name);
                changes.push(format!(
                    "en-passant square {} -> {}",
                    n(before.ep),
                    n(after.ep)
                ));
            }
            Err(fail(
            Diagnosis::new(format!(
                "update_key(board, key, {name}) gives {:016x}, but zobrist(&play(board, {name})) gives {:016x}",
                keys[1], keys[2]
            ))
            .with_fen(fen.clone())
            .with_body(format!(
                "the move is {kind}{}\nkey before: {:016x}\n",
                if changes.is_empty() { String::new() } else { format!("; {}", changes.join(", ")) },
                keys[0]
            ))
            .with_hint(HINT_INCREMENTAL),
        ))
        },
        checked,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expect_reads_and_writes_the_course_fen() {
        for fen in SPECIAL.iter().chain(inputs::POSITIONS) {
            let e = Expect::from_fen(fen).expect("valid");
            assert_eq!(e.fen(), *fen);
            // The same fields as movegen reads them (movegen keeps an en-passant square only
            // where a capture is possible; the course keeps it after every double push).
            let mut m = Expect::of_position(&Position::from_fen(fen).expect("valid"));
            m.ep = e.ep;
            assert_eq!(m, e, "{fen}");
        }
        assert!(Expect::from_fen("8/8/8 w - - 0 1").is_none());
    }

    #[test]
    fn after_a_double_push_the_en_passant_square_is_kept() {
        let start = Position::startpos();
        let e4 = Expect::after(&start, start.parse_uci_move("e2e4").expect("legal"));
        assert_eq!(
            e4.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        let nf3 = Expect::after(&start, start.parse_uci_move("g1f3").expect("legal"));
        assert_eq!(nf3.ep, None);
    }

    #[test]
    fn the_fuzz_breaks_every_rule_it_names_and_starts_with_the_fixed_cases() {
        let fuzz = fen_fuzz(&pool());
        assert_eq!(
            fuzz[0],
            (
                "4k3/8/8/8/8/8/8/4K3 w - a1 0 1".to_string(),
                Broken::Rule("an en-passant square on the first rank")
            )
        );
        assert!(fuzz.iter().any(|(f, _)| f.starts_with("nnnnnnnnn/")));
        let rules = fuzz.iter().filter(|(_, b)| *b != Broken::Garbage).count();
        assert!(
            rules > 100 && fuzz.len() > rules + 50,
            "{rules} of {}",
            fuzz.len()
        );
        for (fen, broken) in &fuzz {
            if let Broken::Rule(what) = broken {
                assert!(
                    Position::from_fen(fen).is_err() || *what == "five fields",
                    "{fen} ({what}) is a legal FEN"
                );
            }
        }
    }

    #[test]
    fn the_pool_is_valid_and_smallest_first() {
        let pool = pool();
        assert!(pool.len() > 30);
        let counts: Vec<u32> = pool
            .iter()
            .map(|f| Expect::from_fen(f).expect("valid").piece_count())
            .collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]));
        assert!(pool.iter().all(|f| Position::from_fen(f).is_ok()));
        // Every kind of special move is among the cases.
        let cases = play_cases(&pool);
        let kinds = |k: fn(&MoveKind) -> bool| {
            cases.iter().any(|(f, m)| {
                let p = Position::from_fen(f).expect("valid");
                k(&p.parse_uci_move(m).expect("legal").kind())
            })
        };
        assert!(kinds(|k| *k == MoveKind::Castle));
        assert!(kinds(|k| *k == MoveKind::EnPassant));
        assert!(kinds(|k| matches!(k, MoveKind::Promotion(_))));
    }

    #[test]
    fn distinct_positions_differ_in_one_field_each() {
        let pool = pool();
        let all = distinct_positions(&pool);
        assert!(all.len() > pool.len());
        let parsed: Vec<Expect> = all
            .iter()
            .map(|f| Expect::from_fen(f).expect("valid"))
            .collect();
        for (i, a) in parsed.iter().enumerate() {
            assert!(parsed[i + 1..].iter().all(|b| !a.same_position(b)));
        }
    }
}
