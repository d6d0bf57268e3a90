//! The fixed-capacity move list, and the lists a position hands out.

use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::Deref;

/// Capacity of a [`MoveList`]. Reachable positions have at most 218 legal
/// moves; the FEN parser allows at most 16 pieces a side, and 15 queens and a
/// king have at most 15 * 27 + 8 = 413, so no position we accept overflows it.
///
/// # Examples
///
/// ```
/// use movegen::{Position, MAX_MOVES};
///
/// // The position with the most legal moves known has 218.
/// let pos = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
/// assert_eq!(pos.legal_moves().len(), 218);
/// assert!(218 <= MAX_MOVES);
/// ```
pub const MAX_MOVES: usize = 416;

/// A fixed-capacity list of moves: no allocation.
///
/// The slots past the length are left uninitialised: writing all 416 of them
/// made `legal_moves()` about 6% more instructions and 15% slower.
///
/// # Examples
///
/// ```
/// use movegen::{MoveList, Position};
///
/// let list: MoveList = Position::startpos().legal_moves();
/// assert_eq!(list.len(), 20); // derefs to a slice of moves
/// assert!(list.iter().any(|mv| mv.to_string() == "g1f3"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{Move, MoveKind, MoveList, Square};
    ///
    /// let mut list = MoveList::new();
    /// assert!(list.is_empty());
    /// list.push(Move::new(Square::E2, Square::E4, MoveKind::Normal));
    /// assert_eq!(list.len(), 1);
    /// ```
    #[inline(always)]
    pub fn new() -> MoveList {
        let mut list = MaybeUninit::<MoveList>::uninit();
        // SAFETY: `len` is written before `assume_init`, and the array is of
        // `MaybeUninit`, which needs no initialisation. Measured on
        // `legal_moves()` over 178 positions: 1,193 instructions a call
        // (callgrind) with the 840-byte memset that an array of
        // `MaybeUninit::uninit()` or `Move::NULL` still compiles to, 1,126
        // without; 0.26 against 0.22 us a call, interleaved.
        unsafe {
            core::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves, which no legal position reaches.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::{MoveList, Position};
    ///
    /// let pos = Position::startpos();
    /// let mut knights = MoveList::new();
    /// for mv in pos.legal_moves() {
    ///     if mv.from().to_string().ends_with('1') && pos.piece_on(mv.from()) == Some(movegen::Piece::Knight) {
    ///         knights.push(mv);
    ///     }
    /// }
    /// assert_eq!(knights.len(), 4);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// The moves as a mutable slice (for sorting).
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let mut list = Position::startpos().legal_moves();
    /// list.as_mut_slice().sort_by_key(|mv| mv.to_string());
    /// assert_eq!(list[0].to_string(), "a2a3");
    /// assert_eq!(list[list.len() - 1].to_string(), "h2h4");
    /// ```
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` slots were written by `push`, and
        // `MaybeUninit<Move>` has the layout of `Move`. (Leaving the other
        // slots unwritten is measured at `MoveList::new`.)
        unsafe { &mut *(&mut self.moves[..self.len] as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }

    /// Empties the list.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let mut list = Position::startpos().legal_moves();
    /// list.clear();
    /// assert!(list.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        // SAFETY: as in `as_mut_slice`: the first `len` slots are written.
        unsafe { &*(&self.moves[..self.len] as *const [MaybeUninit<Move>] as *const [Move]) }
    }
}

/// Iterates the moves by value: `for mv in pos.legal_moves() { ... }`.
impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIter;

    fn into_iter(self) -> MoveListIter {
        MoveListIter {
            list: self,
            next: 0,
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> core::slice::Iter<'a, Move> {
        self.iter()
    }
}

/// The moves of a [`MoveList`], by value.
///
/// # Examples
///
/// ```
/// use movegen::{MoveListIter, Position};
///
/// let mut moves: MoveListIter = Position::startpos().legal_moves().into_iter();
/// assert_eq!(moves.len(), 20);
/// let first = moves.next().unwrap();
/// assert_eq!(moves.len(), 19);
/// assert!(Position::startpos().is_legal(first));
/// ```
#[derive(Clone, Debug)]
pub struct MoveListIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let mv = self.list.get(self.next).copied()?;
        self.next += 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIter {}

impl Position {
    /// The legal moves of the piece on `from` (none if the square is empty
    /// or holds a piece of the side not to move).
    ///
    /// ```
    /// use movegen::{Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let g1: Square = "g1".parse().unwrap();
    /// let targets: Vec<String> = pos.moves_from(g1).map(|m| m.to().to_string()).collect();
    /// assert_eq!(targets, ["f3", "h3"]);
    /// ```
    pub fn moves_from(&self, from: Square) -> MoveListIter {
        let mut list = MoveList::new();
        self.generate_moves(|moves| {
            if moves.from == from {
                for mv in moves {
                    list.push(mv);
                }
            }
            false
        });
        list.into_iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MoveKind, Square};

    #[test]
    fn holds_what_was_pushed_up_to_capacity() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        let moves: Vec<Move> = (0..MAX_MOVES)
            .map(|i| {
                let from = Square::from_index_masked(i % 64);
                let to = Square::from_index_masked(i / 64);
                Move::new(from, to, MoveKind::Normal)
            })
            .collect();
        for &mv in &moves {
            list.push(mv);
        }
        assert_eq!(&list[..], &moves[..]);
        list.as_mut_slice().reverse();
        assert_eq!(list[0], moves[MAX_MOVES - 1]);
        let copy = list.clone();
        list.clear();
        assert!(list.is_empty());
        assert_eq!(copy.len(), MAX_MOVES);
        let by_value: Vec<Move> = copy.clone().into_iter().collect();
        let by_ref: Vec<Move> = (&copy).into_iter().copied().collect();
        assert_eq!(by_value, by_ref);
        assert_eq!(copy.into_iter().len(), MAX_MOVES);
    }

    #[test]
    fn moves_from_one_square_are_that_pieces_legal_moves() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(kiwipete).unwrap();
        let mut all: Vec<Move> = Vec::new();
        for i in 0..64 {
            let sq = Square::from_index(i).unwrap();
            let some: Vec<Move> = pos.moves_from(sq).collect();
            assert!(some.iter().all(|m| m.from() == sq));
            all.extend(some);
        }
        let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let key = |m: &Move| m.bits();
        all.sort_by_key(key);
        legal.sort_by_key(key);
        assert_eq!(all, legal);
        // Pawns come out one by one from the set-wise generator, too.
        assert_eq!(pos.moves_from(Square::parse("a2").unwrap()).len(), 2);
        assert_eq!(pos.moves_from(Square::parse("a8").unwrap()).len(), 0);
    }
}
