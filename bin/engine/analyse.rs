//! `engine analyse GAMES.pgn`: every mainline position of every game is
//! searched (two lines, for the only-move test), each move is judged by
//! `search::review`, and the game is written again as PGN with NAGs, the
//! better move as a variation, `[%eval ...]` comments and each player's
//! totals in the first comment.
//!
//! A game that cannot be read is reported on stderr (game number, move,
//! token) and the others are still analysed; the exit status is then
//! non-zero. The search runs on a thread of its own with a large stack, so
//! the main thread only waits for it and reports.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use movegen::pgn::{write_game, Line, Node, PgnGame, PgnReader};
use movegen::{Color, Game, Move, Position};
use search::review::{eval_text, flip, judge, MoveFacts, PlayerSummary, Verdict};
use search::{wdl_material, Limits, Score, SearchControl, Searcher};
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// Stack for the analysing thread: the search recurses deeply.
const STACK: usize = 64 << 20;
/// Plies of the best line written as the better move's variation.
const PV_PLIES: usize = 6;

/// What `engine analyse` was asked to do.
pub struct Options {
    /// The PGN file.
    pub file: PathBuf,
    /// Search each position to this depth (default when no movetime).
    pub depth: u32,
    /// Or search each position this long.
    pub movetime: Option<Duration>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size.
    pub hash_mb: usize,
    /// Where to write the annotated games (default: stdout).
    pub out: Option<PathBuf>,
}

/// Runs the analysis; `Err` names what went wrong (after writing every game
/// that could be analysed).
pub fn run(opts: Options) -> Result<(), String> {
    let open = || File::open(&opts.file).map_err(|e| format!("{}: {e}", opts.file.display()));
    // A first pass counts the games and positions, for the progress bar.
    let (mut count, mut total) = (0, 0);
    for game in PgnReader::new(BufReader::new(open()?)) {
        count += 1;
        total += game.map_or(0, |g| g.mainline.moves.len() as u64 + 1);
    }
    let games = PgnReader::new(BufReader::new(open()?));
    let out: Box<dyn Write + Send> = match &opts.out {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    };
    let name = opts.file.display().to_string();
    std::thread::Builder::new()
        .name("analyse".into())
        .stack_size(STACK)
        .spawn(move || analyse_all(&opts, games, out, (count, total), &name))
        .map_err(|e| format!("could not start the analysis thread: {e}"))?
        .join()
        .map_err(|_| "the analysis stopped on an internal error".to_string())?
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:20}] game {prefix}, {pos}/{len} positions, ETA {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

fn analyse_all(
    opts: &Options,
    games: PgnReader<BufReader<File>>,
    mut out: Box<dyn Write + Send>,
    (count, total): (usize, u64),
    name: &str,
) -> Result<(), String> {
    let bar = progress_bar(total);
    let mut searcher = Searcher::new(opts.hash_mb);
    let limits = Limits {
        depth: opts.movetime.is_none().then_some(opts.depth),
        movetime: opts.movetime,
        threads: opts.threads,
        multipv: 2,
        ..Limits::default()
    };
    let label = match opts.movetime {
        Some(t) => format!("{} ms a position", t.as_millis()),
        None => format!("depth {}", opts.depth),
    };
    let (mut read, mut bad) = (0, 0);
    for (i, item) in games.enumerate() {
        bar.set_prefix(format!("{}/{count}", i + 1));
        match item {
            Ok(mut game) => {
                read += 1;
                searcher.clear();
                review_game(&mut searcher, &limits, &mut game, &label, &bar)?;
                out.write_all(write_game(&game).as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("writing the annotated games: {e}"))?;
            }
            Err(e) => {
                bad += 1;
                bar.suspend(|| eprintln!("error: {name}: {e}"));
            }
        }
    }
    bar.finish_and_clear();
    match (read, bad) {
        (0, 0) => Err(format!("{name}: no games found")),
        (_, 0) => Ok(()),
        (read, bad) => Err(format!(
            "{name}: {bad} of {} games could not be read (the others were analysed)",
            read + bad
        )),
    }
}

/// What the search said about one position, for the side to move.
struct PositionEval {
    /// The score of the position.
    score: Score,
    /// The best move with its line, and the second-best move's score.
    best: Option<(Move, Vec<Move>)>,
    second: Option<(Move, Score)>,
}

fn evaluate(searcher: &mut Searcher, game: &Game, limits: &Limits) -> PositionEval {
    let pos = game.position();
    if !pos.has_legal_move() {
        // Mated: a certain loss (`Mate(0)`); stalemated: a draw.
        let score = if pos.in_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        return PositionEval {
            score,
            best: None,
            second: None,
        };
    }
    let mut lines: Vec<(Move, Score, Vec<Move>)> = Vec::new();
    let control = SearchControl::default();
    searcher.search(game, limits, &control, &mut |info| {
        if info.multipv == 1 {
            lines.clear();
        }
        if let Some(&mv) = info.pv.first() {
            lines.push((mv, info.score, info.pv.clone()));
        }
    });
    let mut lines = lines.into_iter();
    match lines.next() {
        Some((mv, score, pv)) => PositionEval {
            score,
            best: Some((mv, pv)),
            second: lines.next().map(|(m, s, _)| (m, s)),
        },
        None => PositionEval {
            score: Score::Cp(0),
            best: None,
            second: None,
        },
    }
}

fn review_game(
    searcher: &mut Searcher,
    limits: &Limits,
    game: &mut PgnGame,
    label: &str,
    bar: &ProgressBar,
) -> Result<(), String> {
    let mut replay = Game::new(game.start);
    let mut evals = Vec::with_capacity(game.mainline.moves.len() + 1);
    for node in &game.mainline.moves {
        evals.push(evaluate(searcher, &replay, limits));
        bar.inc(1);
        replay
            .play(node.mv)
            .map_err(|_| "a mainline move is not legal".to_string())?;
    }
    evals.push(evaluate(searcher, &replay, limits));
    bar.inc(1);
    let positions: Vec<Position> = replay.positions().to_vec();
    let mut summary = [PlayerSummary::default(); 2];
    for (i, node) in game.mainline.moves.iter_mut().enumerate() {
        let pos = positions[i];
        annotate(
            node,
            &pos,
            &evals[i],
            &evals[i + 1],
            &mut summary[pos.side_to_move().index()],
        );
    }
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let line = |c: Color| {
        let s = summary[c.index()];
        format!(
            "{c:?}: {}, {}, {}, accuracy {:.0}%, average loss {:.1}.",
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders"),
            s.accuracy(),
            s.average_loss()
        )
    };
    let head = format!(
        "Pinmask review, {label}. {} {}",
        line(Color::White),
        line(Color::Black)
    );
    game.mainline.comments.insert(0, head);
    game.set_tag("Annotator", "Pinmask");
    Ok(())
}

/// The score from White's point of view, given the side to move.
fn white_view(score: Score, side: Color) -> Score {
    if side == Color::White {
        score
    } else {
        flip(score)
    }
}

/// Judges the move of `node`, played in `pos`, and writes the verdict, the
/// evaluation and the better line into it.
fn annotate(
    node: &mut Node,
    pos: &Position,
    here: &PositionEval,
    next: &PositionEval,
    summary: &mut PlayerSummary,
) {
    let Some((best, pv)) = &here.best else {
        return;
    };
    let played_score = if node.mv == *best {
        here.score
    } else if let Some((_, s)) = here.second.filter(|(m, _)| *m == node.mv) {
        s
    } else if next.score == Score::Mate(0) {
        // The move mates (another mate than the search's best).
        Score::Mate(1)
    } else {
        flip(next.score)
    };
    let judgement = judge(&MoveFacts {
        played: node.mv,
        played_score,
        best: (*best, here.score),
        second: here.second.map(|(_, s)| s),
        material: wdl_material(pos),
        obvious: pos.in_check() || pos.is_capture(node.mv),
    });
    summary.add(&judgement);
    let side = pos.side_to_move();
    // Our verdict replaces any move assessment ($1-$6) already there.
    node.nags.retain(|&n| !(1..=6).contains(&n));
    let mut comment = match next.score {
        Score::Mate(0) => String::new(),
        score => format!("[%eval {}]", eval_text(white_view(score, !side))),
    };
    if let Some(nag) = judgement.verdict.nag() {
        node.nags.insert(0, nag);
    }
    if let Some(better) = judgement.better {
        let text = format!(
            "{}. {} was best.",
            judgement.verdict.name(),
            pos.san(better).expect("the search's best move is legal")
        );
        comment = if comment.is_empty() {
            text
        } else {
            format!("{comment} {text}")
        };
        node.variations.insert(0, better_line(pos, pv, here.score));
    }
    if judgement.verdict == Verdict::OnlyMove {
        comment = format!("{comment} Only move.").trim().to_string();
    }
    if !comment.is_empty() {
        node.comments.insert(0, comment);
    }
}

/// The best line from `pos` (its first plies), the evaluation on its first
/// move.
fn better_line(pos: &Position, pv: &[Move], score: Score) -> Line {
    let mut line = Line::default();
    let mut at = *pos;
    for &mv in pv.iter().take(PV_PLIES) {
        if !at.is_legal(mv) {
            break;
        }
        line.moves.push(Node::new(mv));
        at = at.play_unchecked(mv);
    }
    if let Some(first) = line.moves.first_mut() {
        first.comments.push(format!(
            "[%eval {}]",
            eval_text(white_view(score, pos.side_to_move()))
        ));
    }
    line
}
