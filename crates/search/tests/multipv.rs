//! MultiPV: N lines per depth, best first, with distinct first moves.

use movegen::{Game, Move, Position};
use search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher};

fn run(fen: &str, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let pos = Position::from_fen(fen).unwrap();
    let mut infos = Vec::new();
    let result = Searcher::new(8).search(
        &Game::new(pos),
        &limits,
        &SearchControl::default(),
        &mut |i| infos.push(i.clone()),
    );
    (result, infos)
}

fn multipv(depth: u32, lines: usize) -> Limits {
    Limits {
        depth: Some(depth),
        multipv: lines,
        ..Limits::default()
    }
}

/// The infos of each depth, in the order reported.
fn by_depth(infos: &[SearchInfo]) -> Vec<Vec<SearchInfo>> {
    let mut out: Vec<Vec<SearchInfo>> = Vec::new();
    for info in infos {
        match out.last_mut() {
            Some(group) if group[0].depth == info.depth => group.push(info.clone()),
            _ => out.push(vec![info.clone()]),
        }
    }
    out
}

fn key(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// Checks one depth's lines: ranks 1..=n in order, legal distinct first
/// moves, scores best first.
fn check_lines(fen: &str, lines: &[SearchInfo], n: usize) {
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(lines.len(), n, "{lines:?}");
    let mut firsts: Vec<Move> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line.multipv as usize, k + 1);
        let first = line.pv[0];
        assert!(pos.is_legal(first));
        assert!(!firsts.contains(&first), "{first} twice in {lines:?}");
        firsts.push(first);
        if k > 0 {
            assert!(key(lines[k - 1].score) >= key(line.score), "{lines:?}");
        }
    }
}

#[test]
fn gives_n_distinct_lines_best_first_at_every_depth() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1";
    let (result, infos) = run(fen, multipv(5, 4));
    let depths = by_depth(&infos);
    assert_eq!(depths.len(), 5);
    for lines in &depths {
        check_lines(fen, lines, 4);
    }
    let last = depths.last().unwrap();
    assert_eq!(
        result.best,
        Some(last[0].pv[0]),
        "bestmove is the first line's move"
    );
}

#[test]
fn fewer_legal_moves_than_lines() {
    // In check on the a-file, Black has only a couple of king moves.
    let fen = "k7/8/8/8/8/8/1K6/R7 b - - 0 1";
    let legal = Position::from_fen(fen).unwrap().legal_moves().len();
    assert!(legal < 10);
    let (_, infos) = run(fen, multipv(4, 10));
    for lines in by_depth(&infos) {
        check_lines(fen, &lines, legal);
    }
}

#[test]
fn lines_come_from_searchmoves_only() {
    let pos = Position::startpos();
    let allowed: Vec<Move> = ["e2e4", "d2d4", "g1f3"]
        .iter()
        .map(|m| pos.parse_uci_move(m).unwrap())
        .collect();
    let limits = Limits {
        searchmoves: allowed.clone(),
        ..multipv(4, 5)
    };
    let (result, infos) = run(movegen::STARTPOS_FEN, limits);
    for lines in by_depth(&infos) {
        check_lines(movegen::STARTPOS_FEN, &lines, 3);
        assert!(lines.iter().all(|l| allowed.contains(&l.pv[0])));
    }
    assert!(allowed.contains(&result.best.unwrap()));
}

#[test]
fn every_mate_in_one_is_a_line_and_the_next_line_is_not() {
    // Both rooks mate on the back rank; which moves mate is worked out here
    // from the move generator, not typed in.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let mates: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            let next = pos.play(m);
            next.in_check() && next.legal_moves().is_empty()
        })
        .collect();
    assert!(mates.len() >= 2, "{mates:?}");
    let (_, infos) = run(fen, multipv(4, mates.len() + 1));
    let depths = by_depth(&infos);
    let last = depths.last().unwrap();
    check_lines(fen, last, mates.len() + 1);
    for line in &last[..mates.len()] {
        assert_eq!(line.score, Score::Mate(1));
        assert!(mates.contains(&line.pv[0]));
    }
    assert_ne!(last[mates.len()].score, Score::Mate(1));
}

#[test]
fn one_line_by_default() {
    let (_, infos) = run(movegen::STARTPOS_FEN, multipv(3, 0));
    assert_eq!(infos.len(), 3);
    assert!(infos.iter().all(|i| i.multipv == 1));
}
