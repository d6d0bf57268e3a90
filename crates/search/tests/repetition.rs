//! Repetitions in the search: a position repeated inside the search is a
//! draw, and so is the third occurrence of a position of the game; a
//! position seen only once in the game before the search is not.

use movegen::{Game, Move, Position};
use search::{Limits, Score, SearchControl, Searcher};

/// The game from `fen` after `moves` (UCI).
fn game(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    for mv in moves {
        game.play_uci(mv).unwrap();
    }
    game
}

/// The best move and the score of the last completed depth of a search of
/// `game` to `depth`, among `only` when it is not empty.
fn search(game: &Game, depth: u32, only: &[&str]) -> (Move, Score) {
    let pos = game.position();
    let searchmoves = only
        .iter()
        .map(|mv| pos.parse_uci_move(mv).unwrap())
        .collect();
    let limits = Limits {
        depth: Some(depth),
        searchmoves,
        ..Limits::default()
    };
    let mut score = None;
    let result = Searcher::new(8).search(game, &limits, &SearchControl::default(), &mut |i| {
        score = Some(i.score)
    });
    (result.best.unwrap(), score.unwrap())
}

/// White: Kg6 and a rook; Black: Kh8 or Kg8. White shuffles the rook
/// between b1 and a1 while Black shuffles the king.
const SHUFFLE: &str = "7k/8/6K1/8/8/8/8/1R6 w - - 0 1";

#[test]
fn a_winning_line_through_a_position_seen_once_is_still_a_win() {
    // Rb1-a1 Kh8-g8 Ra1-b1 Kg8-h8: the start is back, and Ra1 now leads to
    // the position after the game's first move, seen once. From there Black
    // has only Kg8, and Ra8 mates: a mate in 2, not a draw.
    let game = game(SHUFFLE, &["b1a1", "h8g8", "a1b1", "g8h8"]);
    assert_eq!(game.position().key(), game.keys().as_slice()[0]);
    let (best, score) = search(&game, 6, &["b1a1"]);
    assert_eq!(best.to_string(), "b1a1");
    assert_eq!(score, Score::Mate(2));
}

#[test]
fn walking_into_mate_through_a_position_seen_once_is_seen() {
    // The game: White missed Ra8 mate with Ra1-a2, Black played Kg8 and White
    // went back with Ra2-a1. Black's Kh8 now repeats the position in which
    // White missed the mate, seen once; White need not miss it again.
    let game = game("7k/8/6K1/8/8/8/8/R7 w - - 0 1", &["a1a2", "h8g8", "a2a1"]);
    let (_, score) = search(&game, 6, &["g8h8"]);
    assert_eq!(score, Score::Mate(-1));
    // So Black plays Kf8, lost in the long run but not mated at once.
    let (best, score) = search(&game, 6, &[]);
    assert_eq!(best.to_string(), "g8f8");
    assert!(
        matches!(score, Score::Cp(s) if s < -300) || matches!(score, Score::Mate(n) if n < -1),
        "{score:?}"
    );
}

/// A rook against a bare king, Black (to move) shuffling Kh8-g8-h8 while
/// White shuffles the rook: `Kg8` now makes the position after it occur for
/// the `nth` time.
fn rook_down(nth: usize) -> Game {
    let after_kg8 = "6k1/8/8/8/8/8/R7/K7 w - - 0 1";
    let mut moves = vec!["a2a3", "g8h8", "a3a2"];
    for _ in 2..nth {
        moves.extend(["h8g8", "a2a3", "g8h8", "a3a2"]);
    }
    let game = game(after_kg8, &moves);
    let kg8 = game.position().parse_uci_move("h8g8").unwrap();
    let key = game.position().play(kg8).key();
    let seen = game.keys().as_slice().iter().filter(|&&k| k == key).count();
    assert_eq!(seen, nth - 1);
    game
}

#[test]
fn a_third_occurrence_is_a_draw() {
    // Kg8 is a draw by threefold repetition, which beats every losing line.
    let (best, score) = search(&rook_down(3), 6, &[]);
    assert_eq!(best.to_string(), "h8g8");
    assert_eq!(score, Score::Cp(0));
}

#[test]
fn a_second_occurrence_is_not_a_draw() {
    // After Kg8 White avoids a third occurrence: Black is simply lost, as
    // lost as without the game's history.
    let (_, score) = search(&rook_down(2), 6, &[]);
    assert!(matches!(score, Score::Cp(s) if s < -300), "{score:?}");
    let fresh = Game::new(*rook_down(2).position());
    let (_, score) = search(&fresh, 6, &[]);
    assert!(matches!(score, Score::Cp(s) if s < -300), "{score:?}");
}

#[test]
fn a_perpetual_check_inside_the_search_is_a_draw() {
    // A queen against two rooks and a knight, with no game before it: Qe8+
    // Kh7 Qh5+ Kg8 Qe8+ repeats a position of the search once, and that is
    // the draw.
    let fen = "6k1/6p1/8/n7/8/rr6/8/4Q2K w - - 0 1";
    let (best, score) = search(&game(fen, &[]), 8, &[]);
    assert_eq!(best.to_string(), "e1e8");
    assert_eq!(score, Score::Cp(0));
    // Without the checks White is lost.
    let (_, score) = search(&game(fen, &[]), 8, &["h1g2"]);
    assert!(matches!(score, Score::Cp(s) if s < -300), "{score:?}");
}
