//! `pgn-bench FILE [ROUNDS]`: MB/s of reading FILE with movegen::pgn (the
//! whole game tree, every move checked), with pgn-reader + shakmaty checking
//! every move (variations too), and with pgn-reader alone (tokens only, no
//! move checked). Rounds are interleaved; the best round of each is
//! reported, then the ratios.

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::ops::ControlFlow;
use std::time::Instant;

/// pgn-reader visitor that plays every move, variations included.
struct Checked {
    moves: u64,
}

/// The lines open: (position before the last move, current position).
type Stack = Vec<(Chess, Chess)>;

impl Visitor for Checked {
    type Tags = Option<Chess>;
    type Movetext = Stack;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<bool, Stack> {
        let start = tags.unwrap_or_default();
        ControlFlow::Continue(vec![(start.clone(), start)])
    }

    fn san(&mut self, stack: &mut Stack, san: SanPlus) -> ControlFlow<bool> {
        let Some((before, pos)) = stack.last_mut() else {
            return ControlFlow::Break(false);
        };
        match san.san.to_move(pos) {
            Ok(m) => {
                *before = pos.clone();
                pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, stack: &mut Stack) -> ControlFlow<bool, Skip> {
        let before = stack.last().map(|l| l.0.clone()).unwrap_or_default();
        stack.push((before.clone(), before));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, stack: &mut Stack) -> ControlFlow<bool> {
        stack.pop();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Stack) -> bool {
        true
    }
}

/// pgn-reader visitor that only counts tokens.
struct Tokens {
    moves: u64,
}

impl Visitor for Tokens {
    type Tags = ();
    type Movetext = ();
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<bool> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), _: SanPlus) -> ControlFlow<bool> {
        self.moves += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(false))
    }

    fn end_game(&mut self, _: ()) -> bool {
        true
    }
}

fn count_moves(line: &movegen::pgn::Line) -> u64 {
    line.moves
        .iter()
        .map(|n| 1 + n.variations.iter().map(count_moves).sum::<u64>())
        .sum()
}

fn ours(data: &[u8]) -> (u64, u64) {
    let (mut games, mut moves) = (0, 0);
    for game in movegen::pgn::PgnReader::new(data) {
        let game = game.expect("the bench file is valid");
        games += 1;
        moves += count_moves(&game.mainline);
    }
    (games, moves)
}

fn theirs_checked(data: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(data);
    let mut v = Checked { moves: 0 };
    let mut games = 0;
    while let Some(ok) = reader.read_game(&mut v).expect("reading memory") {
        assert!(ok, "pgn-reader rejected a game");
        games += 1;
    }
    (games, v.moves)
}

fn theirs_tokens(data: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(data);
    let mut v = Tokens { moves: 0 };
    let mut games = 0;
    while reader.read_game(&mut v).expect("reading memory").is_some() {
        games += 1;
    }
    (games, v.moves)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: pgn-bench FILE [ROUNDS]");
    let rounds: usize = args.get(2).map_or(5, |r| r.parse().expect("ROUNDS is a number"));
    let data = std::fs::read(path).expect("the file reads");
    let mb = data.len() as f64 / 1e6;
    let readers: [(&str, fn(&[u8]) -> (u64, u64)); 3] = [
        ("movegen::pgn (tree, moves checked)", ours),
        ("pgn-reader + shakmaty (moves checked)", theirs_checked),
        ("pgn-reader (tokens only)", theirs_tokens),
    ];
    let mut best = [f64::MAX; 3];
    let mut counts = [(0, 0); 3];
    for _ in 0..rounds {
        for (i, (_, read)) in readers.iter().enumerate() {
            let start = Instant::now();
            counts[i] = read(&data);
            best[i] = best[i].min(start.elapsed().as_secs_f64());
        }
    }
    println!("file {path}: {mb:.2} MB, best of {rounds} interleaved rounds");
    for (i, (name, _)) in readers.iter().enumerate() {
        println!(
            "{name}: {:.1} MB/s ({} games, {} moves)",
            mb / best[i],
            counts[i].0,
            counts[i].1
        );
    }
    println!("ratio movegen::pgn / pgn-reader+shakmaty: {:.2}", best[1] / best[0]);
    println!("ratio movegen::pgn / pgn-reader tokens:   {:.2}", best[2] / best[0]);
}
