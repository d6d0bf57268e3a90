//! The UCI protocol loop.
//!
//! Three threads. The input thread reads lines and turns each into a
//! [`Command`] sent on a channel. The protocol thread (the caller of [`run`])
//! owns the engine state, answers at once (`isready` included) and hands out
//! work; it never waits for a job. The worker thread runs jobs (searches,
//! perfts, benches) one at a time in the order they were sent; each job owns
//! its stop flag, so `stop` ends exactly the jobs sent before it, and each
//! job's end is reported on a channel. Bad input is answered with one
//! `info string error: ...` line and changes nothing. The end of the input
//! means "no more commands", not "abandon the work": a piped
//! `position startpos` / `go perft 5` prints its count before the exit.
#![deny(missing_docs)]

mod command;
mod display;
mod engine;
mod eval_table;
mod go;
mod input;
mod options;
mod output;
mod perft;
mod position;
mod report;
mod worker;

pub use command::{parse_line, Command, CommandError};
pub use display::describe;
pub use engine::{bench_line, Engine, Flow};
pub use eval_table::eval_lines;
pub use go::{parse_go, GoError, GoRequest, GoWarning, MAX_DEPTH};
pub use input::{read_line, Line};
pub use options::{memory_cap_mb, OptionError, UciOptions};
pub use output::Output;
pub use position::{parse_position, PositionError};
pub use report::{bench_summary, bestmove_line, divide_line, divide_lines, info_line, perft_lines};

use std::io::{BufReader, Read};
use std::thread;

/// Longest line we read (longer ones are dropped whole); a FEN with
/// thousands of moves fits easily.
pub const MAX_LINE: usize = 1 << 20;

/// Runs the protocol on `input` until `quit` or the end of input, and
/// returns when every job sent has answered: after `quit` each job is
/// stopped (a search still prints its `bestmove`, a perft `info string perft
/// stopped`); at the end of the input the jobs that end by themselves run to
/// their end with all their output, and searches that would wait for `stop`
/// (infinite, unlimited, pondering) are stopped.
pub fn run(input: impl Read + Send + 'static, out: Output) {
    let (tx, rx) = crossbeam_channel::unbounded();
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            while let Ok(Some(line)) = read_line(&mut reader, MAX_LINE) {
                let cmd = match line {
                    Line::Text(text) => {
                        log::debug!("<< {}", text.trim_end());
                        parse_line(&text)
                    }
                    Line::TooLong => Command::Invalid(CommandError::TooLong(MAX_LINE)),
                };
                if tx.send(cmd).is_err() {
                    return;
                }
            }
            let _ = tx.send(Command::EndOfInput);
        })
        .expect("the OS can start the input thread");
    let mut engine = Engine::new(out);
    for cmd in rx {
        if engine.handle(cmd) == Flow::Quit {
            break;
        }
    }
    engine.finish();
}
