//! The UCI protocol loop.
//!
//! Three threads: an input thread reads lines and turns each into a
//! [`Command`] sent on a crossbeam channel; the protocol thread (the caller of
//! [`run`]) owns the engine state and answers at once, `isready` included;
//! the search thread runs `go` on an owned copy of the position and polls a
//! stop flag, so `stop` and `quit` never wait behind a queued message.
//! Bad input is answered with one `info string error: ...` line and changes
//! nothing; only the end of input means quit.
#![deny(missing_docs)]

mod command;
mod display;
mod engine;
mod go;
mod options;
mod output;
mod worker;

pub use command::{parse_line, Command};
pub use display::describe;
pub use engine::{bench_line, Engine, Flow};
pub use go::{parse_go, GoRequest};
pub use options::Options;
pub use output::Output;

use std::io::{BufRead, BufReader, Read};
use std::thread;

/// Longest line we keep (longer ones are cut there); a FEN with thousands of
/// moves fits easily.
const MAX_LINE: usize = 1 << 20;

/// Runs the protocol on `input` until `quit` or the end of input.
pub fn run(input: impl Read + Send + 'static, out: Output) {
    let (tx, rx) = crossbeam_channel::unbounded();
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader
                    .by_ref()
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Invalid UTF-8 becomes U+FFFD and then an unknown command.
                        let line = String::from_utf8_lossy(&buf);
                        log::debug!("<< {}", line.trim_end());
                        if tx.send(parse_line(&line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Command::Quit);
        })
        .expect("the OS can start the input thread");
    let mut engine = Engine::new(out);
    for cmd in rx {
        if engine.handle(cmd) == Flow::Quit {
            break;
        }
    }
    engine.shutdown();
}
