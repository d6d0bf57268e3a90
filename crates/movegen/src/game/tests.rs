use super::*;

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn play_all(game: &mut Game, sans: &str) {
    for san in sans.split_whitespace() {
        game.play_san(san)
            .unwrap_or_else(|e| panic!("{san} at {}: {e}", game.position()));
    }
}

#[test]
fn mates_and_stalemates_end_the_game() {
    let mut mate = Game::default();
    play_all(&mut mate, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7");
    let won = Outcome::Checkmate {
        winner: Color::White,
    };
    assert_eq!(mate.outcome(), Some(won));
    assert_eq!((won.result(), won.winner()), ("1-0", Some(Color::White)));
    assert_eq!(mate.movetext(), "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#");
    let mut stale = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    assert_eq!(stale.outcome(), None);
    play_all(&mut stale, "Qf7");
    assert_eq!(stale.outcome(), Some(Outcome::Stalemate));
    assert_eq!(Outcome::Stalemate.result(), "1/2-1/2");
}

#[test]
fn insufficient_material_cases() {
    let dead = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",
        // Bishops all on squares of one colour (c4 and e2; c8 and f1).
        "4k3/8/8/8/2B5/8/4B3/4K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
    ];
    for fen in dead {
        let g = game(fen);
        assert!(g.position().is_insufficient_material(), "{fen}");
        assert_eq!(g.outcome(), Some(Outcome::InsufficientMaterial), "{fen}");
    }
    let alive = [
        "4k3/8/8/8/8/8/8/3RK3 w - - 0 1",
        "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3NK3 w - - 0 1",
        "3bk3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1",
    ];
    for fen in alive {
        assert!(!game(fen).position().is_insufficient_material(), "{fen}");
    }
    // A capture that leaves bare kings ends the game.
    let mut g = game("4k3/8/8/8/8/8/3r4/3NK3 b - - 0 1");
    play_all(&mut g, "Rxd1+ Kxd1");
    assert_eq!(g.outcome(), Some(Outcome::InsufficientMaterial));
}

#[test]
fn fifty_moves_unless_the_last_one_mates() {
    let mut g = game("7k/8/8/8/8/8/8/R5K1 w - - 99 80");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Kf2");
    assert_eq!(g.outcome(), Some(Outcome::FiftyMoves));
    let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play_all(&mut g, "Ra8");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    // A pawn move resets the count.
    let mut g = game("7k/8/8/8/8/8/P7/R5K1 w - - 99 80");
    play_all(&mut g, "a3");
    assert_eq!(g.outcome(), None);
}

#[test]
fn threefold_repetition() {
    let mut g = Game::default();
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!((g.repetitions(), g.outcome()), (2, None));
    play_all(&mut g, "Nf3 Nf6 Ng1");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Ng8");
    assert_eq!(
        (g.repetitions(), g.outcome()),
        (3, Some(Outcome::Repetition))
    );
    // Taking back a move takes back the repetition.
    assert!(g.undo().is_some());
    assert_eq!((g.repetitions(), g.outcome()), (2, None));
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let shuffle = "Rh2 Rh7 Rh1 Rh8";
    play_all(&mut g, shuffle);
    play_all(&mut g, shuffle);
    // Same pieces as at the start a third time, but the start could castle short.
    assert_eq!((g.repetitions(), g.outcome()), (2, None));
    play_all(&mut g, shuffle);
    assert_eq!(
        (g.repetitions(), g.outcome()),
        (3, Some(Outcome::Repetition))
    );
}

#[test]
fn a_dead_en_passant_square_does_not_count() {
    // The FEN names e3, but no black pawn can take there: the position is the
    // same as when it recurs without the square.
    let mut g = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    play_all(&mut g, "Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1");
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
    // A live one does.
    let mut g = game("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    play_all(&mut g, "Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1");
    assert_eq!((g.repetitions(), g.outcome()), (2, None));
}

#[test]
fn illegal_moves_leave_the_game_alone() {
    let mut g = Game::default();
    let e4 = g.play_uci("e2e4").unwrap();
    let before = g.clone();
    assert_eq!(g.play_uci("e2e4"), Err(MoveError::Illegal));
    assert_eq!(g.play(e4), Err(MoveError::Illegal));
    assert_eq!(g.play_san("Ke2"), Err(SanError::Illegal));
    assert_eq!(g.moves(), before.moves());
    assert_eq!(g.positions(), before.positions());
    assert_eq!(g.undo(), Some(e4));
    assert_eq!(g.undo(), None);
    assert_eq!(g.position(), &Position::startpos());
}

#[test]
fn movetext_from_black_to_move() {
    let mut g = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    play_all(&mut g, "e5 Nf3");
    assert_eq!(g.movetext(), "1... e5 2. Nf3");
}

#[test]
fn candidates_look_back_at_the_same_side_within_reach() {
    let mut keys = KeyHistory::new();
    for k in 0..6 {
        keys.push(k);
    }
    let list = |reversible, floor| keys.candidates(reversible, floor).collect::<Vec<_>>();
    assert_eq!(list(100, 0), [4, 2, 0]);
    assert_eq!(list(4, 0), [4, 2]);
    assert_eq!(list(1, 0), Vec::<usize>::new());
    assert_eq!(list(100, 3), [4]);
    assert!(keys.repeats(2, 100, 0));
    assert!(!keys.repeats(3, 100, 0));
    assert!(!keys.repeats(0, 4, 0));
    let copy = keys.with_room(10);
    assert_eq!(copy.as_slice(), keys.as_slice());
}
