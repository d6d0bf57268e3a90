//! Positions and oracle answers shared by the checkers of labs 6 to 8 (attacks, check and pin
//! masks, special moves): seeded position sets rich in checks, pins, castling, en passant and
//! promotions, and movegen's answers in the harness's notation.

use movegen::{CastlingMode, Move, MoveKind, Position, Square};

use crate::inputs::{self, Rng};

/// The position of one of the checker's own FENs (they are all legal).
pub fn pos_of(fen: &str) -> Position {
    Position::from_fen(fen).expect("the checker's positions are legal")
}

/// The square with index `i` (0..64).
pub fn square(i: u8) -> Square {
    Square::from_index(i as usize).expect("a square index below 64")
}

/// A move in UCI notation as the student's harness writes it (castling as the king's step).
pub fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The legal moves of `pos` for which `keep` holds, in UCI notation.
pub fn oracle_moves(pos: &Position, keep: impl Fn(Move) -> bool) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| keep(m))
        .map(uci)
        .collect()
}

/// Whether a move is castling, en passant or a promotion (lab 8's special moves).
pub fn is_special(mv: Move) -> bool {
    !matches!(mv.kind(), MoveKind::Normal)
}

/// A harness move list answer as names.
pub fn names(answer: &str) -> Vec<String> {
    answer.split_whitespace().map(str::to_string).collect()
}

/// The eight directions from a square (file step, rank step): four straight, then four
/// diagonal.
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Cells of a placement, a1 = 0, `.` for an empty square.
pub(crate) fn cells_of(pos: &Position) -> [char; 64] {
    let mut cells = ['.'; 64];
    for (i, cell) in cells.iter_mut().enumerate() {
        let sq = square(i as u8);
        if let (Some(piece), Some(color)) = (pos.piece_on(sq), pos.color_on(sq)) {
            *cell = piece.to_fen_char(color);
        }
    }
    cells
}

/// Cells (a1 = 0) and the other FEN fields as a position, if movegen accepts it.
fn position(cells: &[char; 64], side: &str, castling: &str, ep: &str) -> Option<Position> {
    let placement = inputs::placement(cells);
    Position::from_fen(&format!("{placement} {side} {castling} {ep} 0 1")).ok()
}

/// The well-known positions, positions of random games and sparse random positions (where
/// checks, double checks and pins are common), as FENs.
pub fn mixed(seed: u64, games: usize, sparse: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out: Vec<String> = inputs::POSITIONS.iter().map(|f| f.to_string()).collect();
    for i in 0..sparse {
        out.push(inputs::random_sparse_position(&mut rng, 2 + i % 9).fen());
    }
    for i in 0..games {
        out.push(inputs::random_game_position(&mut rng, 6 + (i * 7) % 70).fen());
    }
    out
}

/// Sparse positions in which the side to move has its king on e1 (e8) and rooks in the
/// corners with castling rights, and some other pieces that attack or block the path.
pub fn castling(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 200 {
        tries += 1;
        let base = inputs::random_sparse_position(&mut rng, 1 + (tries % 6));
        let mut cells = cells_of(&base);
        for (sq, c) in [
            (4, 'K'),
            (0, 'R'),
            (7, 'R'),
            (60, 'k'),
            (56, 'r'),
            (63, 'r'),
        ] {
            for cell in cells.iter_mut() {
                if c.eq_ignore_ascii_case(&'k') && *cell == c {
                    *cell = '.';
                }
            }
            cells[sq] = c;
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        if let Some(pos) = position(&cells, side, "KQkq", "-") {
            out.push(pos.fen());
        }
    }
    out
}

/// Positions where the side to move may capture en passant: a pawn that just made its double
/// step beside one of ours, often with our king and an enemy rook or queen on that rank.
pub fn en_passant(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 200 {
        tries += 1;
        let base = inputs::random_sparse_position(&mut rng, tries % 5);
        let mut cells = cells_of(&base);
        let white = rng.below(2) == 0;
        let file = rng.below(8) as usize;
        let beside = if file == 0 || (file < 7 && rng.below(2) == 0) {
            file + 1
        } else {
            file - 1
        };
        let (rank, skipped, start) = if white { (4, 5, 6) } else { (3, 2, 1) };
        let (ours, theirs) = if white { ('P', 'p') } else { ('p', 'P') };
        cells[rank * 8 + file] = theirs;
        cells[rank * 8 + beside] = ours;
        cells[skipped * 8 + file] = '.';
        cells[start * 8 + file] = '.';
        if rng.below(2) == 0 {
            // Our king and an enemy rook or queen on the capture rank.
            let (king, slider) = if white {
                ('K', ['r', 'q'])
            } else {
                ('k', ['R', 'Q'])
            };
            for cell in cells.iter_mut() {
                if *cell == king {
                    *cell = '.';
                }
            }
            let free: Vec<usize> = (rank * 8..rank * 8 + 8)
                .filter(|&s| cells[s] == '.')
                .collect();
            if free.len() >= 2 {
                let a = free[rng.below(free.len() as u64) as usize];
                let b = free[rng.below(free.len() as u64) as usize];
                if a != b {
                    cells[a] = king;
                    cells[b] = slider[rng.below(2) as usize];
                }
            }
        }
        let side = if white { "w" } else { "b" };
        let ep = format!("{}", square((skipped * 8 + file) as u8));
        // The FEN's own text, not movegen's `fen()`: movegen names the square only while a
        // capture is legal, and the positions where the capture would expose the king (a
        // rank pin) are the ones lab 8 needs most.
        if position(&cells, side, "-", &ep).is_some() {
            out.push(format!("{} {side} - {ep} 0 1", inputs::placement(&cells)));
        }
    }
    out
}

/// Positions where the side to move has pawns one step from promotion.
pub fn promotions(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 200 {
        tries += 1;
        let base = inputs::random_sparse_position(&mut rng, 1 + tries % 6);
        let mut cells = cells_of(&base);
        let white = rng.below(2) == 0;
        for _ in 0..1 + rng.below(2) {
            let file = rng.below(8) as usize;
            let (sq, pawn) = if white {
                (48 + file, 'P')
            } else {
                (8 + file, 'p')
            };
            if cells[sq] == '.' {
                cells[sq] = pawn;
            }
        }
        let side = if white { "w" } else { "b" };
        if let Some(pos) = position(&cells, side, "-", "-") {
            out.push(pos.fen());
        }
    }
    out
}

/// Positions with a pin: the side to move's king, one of its pieces further along a line, and
/// an enemy rook, bishop or queen of the right kind behind it, among a few other pieces.
pub fn pins(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 200 {
        tries += 1;
        let base = inputs::random_sparse_position(&mut rng, tries % 5);
        let mut cells = cells_of(&base);
        let white = rng.below(2) == 0;
        let (king, enemy_king) = if white { ('K', 'k') } else { ('k', 'K') };
        let (df, dr) = DIRECTIONS[rng.below(8) as usize];
        let (kf, kr) = (rng.below(8) as i8, rng.below(8) as i8);
        let at = |n: i8| -> Option<usize> {
            let (f, r) = (kf + df * n, kr + dr * n);
            ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
        };
        let pinned_at = 1 + rng.below(3) as i8;
        let pinner_at = pinned_at + 1 + rng.below(3) as i8;
        let (Some(k), Some(p), Some(q)) = (at(0), at(pinned_at), at(pinner_at)) else {
            continue;
        };
        // Clear the line from the king to the pinner, and the kings elsewhere.
        for n in 0..=pinner_at {
            if let Some(s) = at(n) {
                cells[s] = '.';
            }
        }
        for cell in cells.iter_mut() {
            if *cell == king {
                *cell = '.';
            }
        }
        if !cells.contains(&enemy_king) {
            continue;
        }
        let straight = df == 0 || dr == 0;
        let pinned = b"PPPNBRQ"[rng.below(7) as usize] as char;
        let pinner = if straight { ['r', 'q'] } else { ['b', 'q'] }[rng.below(2) as usize];
        cells[k] = king;
        cells[p] = if white {
            pinned
        } else {
            pinned.to_ascii_lowercase()
        };
        cells[q] = if white {
            pinner
        } else {
            pinner.to_ascii_uppercase()
        };
        if (p / 8 == 0 || p / 8 == 7) && pinned == 'P' {
            continue;
        }
        let side = if white { "w" } else { "b" };
        if let Some(pos) = position(&cells, side, "-", "-") {
            out.push(pos.fen());
        }
    }
    out
}

/// What stands on one line from the king in [`pin_lines`].
#[derive(Clone, Copy)]
enum LinePattern {
    /// One of our pieces, then an enemy slider of the line's kind: a pin.
    Pin,
    /// Two of our pieces, then the slider: no pin.
    TwoOfOurs,
    /// Ours, an enemy piece that does not slide this way, then the slider: no pin.
    EnemyBetween,
    /// Ours, then an enemy slider of the other kind: no pin.
    WrongKind,
}

/// Positions that tell every pin rule apart: the king with two or three lines on which stand,
/// in some order, our pieces, enemy pieces and an enemy slider, so that there are pins of both
/// kinds at once, pinned sliders whose moves cross another pin line, two of our pieces on a
/// ray (no pin), an enemy piece in between (no pin), and a slider of the wrong kind (no pin).
pub fn pin_lines(seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 300 {
        tries += 1;
        let white = rng.below(2) == 0;
        let mine = |c: char| if white { c } else { c.to_ascii_lowercase() };
        let theirs = |c: char| if white { c.to_ascii_lowercase() } else { c };
        let mut cells = ['.'; 64];
        let (kf, kr) = (rng.below(8) as i8, rng.below(8) as i8);
        let king = (kr * 8 + kf) as usize;
        cells[king] = mine('K');
        // Two or three lines: the first two of different kinds (one straight, one diagonal).
        let first = rng.below(4) as usize;
        let second = 4 + rng.below(4) as usize;
        let mut dirs = vec![first, second];
        if rng.below(2) == 0 {
            dirs.push(rng.below(8) as usize);
        }
        let mut ok = true;
        for (n, &d) in dirs.iter().enumerate() {
            let (df, dr) = DIRECTIONS[d];
            let straight = df == 0 || dr == 0;
            // The first two lines pin (the crossing case); the others vary.
            let pattern = if n < 2 && rng.below(3) != 0 {
                LinePattern::Pin
            } else {
                [
                    LinePattern::Pin,
                    LinePattern::TwoOfOurs,
                    LinePattern::EnemyBetween,
                    LinePattern::WrongKind,
                ][rng.below(4) as usize]
            };
            // Pinned pieces are mostly sliders of the other kind or queens: their moves may
            // cross another pin line.
            let ours = |rng: &mut Rng| b"QQRBNP"[rng.below(6) as usize] as char;
            let slider = if straight { ['R', 'Q'] } else { ['B', 'Q'] }[rng.below(2) as usize];
            let wrong = if straight { 'B' } else { 'R' };
            let pieces: Vec<char> = match pattern {
                LinePattern::Pin => vec![mine(ours(&mut rng)), theirs(slider)],
                LinePattern::TwoOfOurs => {
                    vec![mine(ours(&mut rng)), mine(ours(&mut rng)), theirs(slider)]
                }
                LinePattern::EnemyBetween => {
                    let between = theirs(if rng.below(2) == 0 { 'N' } else { wrong });
                    if rng.below(2) == 0 {
                        vec![mine(ours(&mut rng)), between, theirs(slider)]
                    } else {
                        vec![between, mine(ours(&mut rng)), theirs(slider)]
                    }
                }
                LinePattern::WrongKind => vec![mine(ours(&mut rng)), theirs(wrong)],
            };
            let mut at = 0i8;
            for piece in pieces {
                at += 1 + rng.below(2) as i8;
                let (f, r) = (kf + df * at, kr + dr * at);
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    ok = false;
                    break;
                }
                let i = (r * 8 + f) as usize;
                if cells[i] != '.' {
                    ok = false;
                    break;
                }
                cells[i] = piece;
            }
        }
        // Pawns only off the back ranks; the enemy king somewhere free.
        if !ok
            || (0..8)
                .chain(56..64)
                .any(|i| cells[i].eq_ignore_ascii_case(&'p'))
        {
            continue;
        }
        let free: Vec<usize> = (0..64).filter(|&i| cells[i] == '.').collect();
        let enemy_king = free[rng.below(free.len() as u64) as usize];
        cells[enemy_king] = theirs('K');
        let side = if white { "w" } else { "b" };
        if let Some(pos) = position(&cells, side, "-", "-") {
            out.push(pos.fen());
        }
    }
    out
}

/// Simpler positions for shrinking: one piece fewer keeping every castling right that stays
/// valid, and one castling right fewer; then the course's general candidates.
pub fn simpler(fen: &str) -> Vec<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut out = Vec::new();
    if fields.len() >= 4 && fields[2] != "-" {
        let rights = fields[2];
        let with = |placement: &str, castling: &str| {
            let mut f: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
            f[0] = placement.to_string();
            f[2] = if castling.is_empty() {
                "-".to_string()
            } else {
                castling.to_string()
            };
            f.join(" ")
        };
        let Ok(pos) = Position::from_fen(fen) else {
            return crate::shrink::fewer_pieces(fen);
        };
        let mut cells = cells_of(&pos);
        for i in 0..64 {
            let c = cells[i];
            if c == '.' || c.eq_ignore_ascii_case(&'k') {
                continue;
            }
            cells[i] = '.';
            let placement = Position::from_fen(&format!("{} w - - 0 1", inputs::placement(&cells)))
                .map(|p| p.fen().split_whitespace().next().unwrap_or("").to_string());
            cells[i] = c;
            let Ok(placement) = placement else { continue };
            // Keep the rights that are still valid one by one.
            let kept: String = rights
                .chars()
                .filter(|r| Position::from_fen(&with(&placement, &r.to_string())).is_ok())
                .collect();
            let candidate = with(&placement, &kept);
            if Position::from_fen(&candidate).is_ok() {
                out.push(candidate);
            }
        }
        for r in rights.chars() {
            let fewer: String = rights.chars().filter(|&x| x != r).collect();
            let candidate = with(fields[0], &fewer);
            if Position::from_fen(&candidate).is_ok() {
                out.push(candidate);
            }
        }
    }
    out.extend(crate::shrink::fewer_pieces(fen));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::MoveKind;

    fn count(fens: &[String], kind: impl Fn(MoveKind) -> bool) -> usize {
        fens.iter()
            .filter(|f| {
                Position::from_fen(f)
                    .unwrap()
                    .legal_moves()
                    .iter()
                    .any(|m| kind(m.kind()))
            })
            .count()
    }

    #[test]
    fn the_sets_hold_what_their_labs_test() {
        let castling = castling(1, 30);
        assert_eq!(castling.len(), 30);
        assert!(count(&castling, |k| k == MoveKind::Castle) >= 15);
        // Some of them may not castle: in check, or through an attacked square.
        assert!(count(&castling, |k| k == MoveKind::Castle) < 30);

        let ep = en_passant(2, 30);
        assert_eq!(ep.len(), 30);
        assert!(ep.iter().all(|f| f.split(' ').nth(3) != Some("-")));
        let legal = count(&ep, |k| k == MoveKind::EnPassant);
        assert!(
            (10..30).contains(&legal),
            "{legal} of 30 may capture en passant"
        );

        let promotions = promotions(3, 30);
        assert!(count(&promotions, |k| matches!(k, MoveKind::Promotion(_))) >= 15);

        let pins = pins(4, 30);
        assert_eq!(pins.len(), 30);
        assert!(
            pins.iter()
                .all(|f| Position::from_fen(f).unwrap().pinned().nonempty()),
            "{pins:?}"
        );
    }

    #[test]
    fn shrinking_keeps_the_castling_rights_that_stay_valid() {
        let fen = "r3k2r/8/8/5r2/8/8/8/R3K2R w KQkq - 0 1";
        let fewer = simpler(fen);
        // The rook on a8 goes, and with it only black's queen-side right.
        assert!(
            fewer.contains(&"4k2r/8/8/5r2/8/8/8/R3K2R w KQk - 0 1".to_string()),
            "{fewer:?}"
        );
        assert!(
            fewer.contains(&"r3k2r/8/8/5r2/8/8/8/R3K2R w Qkq - 0 1".to_string()),
            "{fewer:?}"
        );
        assert!(fewer.iter().all(|f| Position::from_fen(f).is_ok()));
    }
}
