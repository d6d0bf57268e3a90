//! Streaming games from any [`BufRead`]: one line in memory at a time, plus
//! the game being built.

use super::error::{PgnError, PgnErrorKind};
use super::machine::Machine;
use super::PgnGame;
use std::io::{BufRead, ErrorKind};

/// Longest line the reader takes (longer ones are an error of their game).
pub(crate) const MAX_LINE: usize = 1 << 20;

/// Reads games one by one from a [`BufRead`], in memory bounded by the
/// longest game: each item is a game or the error that stopped one, after
/// which reading goes on with the next game. Invalid UTF-8 is read as
/// U+FFFD (and so is an error only where a token is expected). An I/O error
/// ends the iteration after it is reported.
///
/// ```
/// use movegen::pgn::PgnReader;
///
/// let file = "[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n";
/// let mut reader = PgnReader::new(file.as_bytes());
/// let first = reader.next().unwrap().unwrap();
/// assert_eq!(first.tag("Event"), Some("A"));
/// assert_eq!(reader.next().unwrap().unwrap().mainline.moves.len(), 2);
/// assert!(reader.next().is_none());
/// ```
pub struct PgnReader<R> {
    input: R,
    machine: Machine,
    line: Vec<u8>,
    done: bool,
}

/// What reading one line gave.
enum Read {
    Line,
    TooLong,
    End,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the games in `input`.
    ///
    /// # Examples
    ///
    /// ```
    /// use movegen::pgn::PgnReader;
    /// use std::io::BufReader;
    ///
    /// let file = "1. e4 e5 *\n\n1. d4 *\n";
    /// let reader = PgnReader::new(BufReader::new(file.as_bytes()));
    /// let moves: Vec<usize> = reader.map(|game| game.unwrap().mainline.moves.len()).collect();
    /// assert_eq!(moves, [2, 1]);
    /// ```
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            machine: Machine::new(),
            line: Vec::new(),
            done: false,
        }
    }

    /// Reads one line into `self.line` (without its `\n`), keeping at most
    /// [`MAX_LINE`] bytes of it.
    fn read_line(&mut self) -> std::io::Result<Read> {
        self.line.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(match (any, too_long) {
                    (false, _) => Read::End,
                    (true, true) => Read::TooLong,
                    (true, false) => Read::Line,
                });
            }
            any = true;
            let (chunk, used, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if self.line.len() + chunk.len() > MAX_LINE {
                too_long = true;
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.input.consume(used);
            if end {
                return Ok(if too_long { Read::TooLong } else { Read::Line });
            }
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.machine.out.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.read_line() {
                Ok(Read::Line) => {
                    let line = String::from_utf8_lossy(&self.line);
                    self.machine.line(&line);
                }
                Ok(Read::TooLong) => self.machine.bad_line(PgnErrorKind::LineTooLong),
                Ok(Read::End) => {
                    self.machine.finish();
                    self.done = true;
                }
                Err(e) => {
                    self.machine.bad_line(PgnErrorKind::Io(e.to_string()));
                    self.done = true;
                }
            }
        }
    }
}
