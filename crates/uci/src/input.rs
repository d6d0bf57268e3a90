//! Reading input lines with a length limit: a line over the limit is
//! consumed to its end and dropped whole, never split into commands.

use std::io::{self, BufRead};

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its end; invalid UTF-8 becomes U+FFFD.
    Text(String),
    /// A line longer than the limit, skipped.
    TooLong,
}

/// Reads the next line of at most `limit` bytes (its newline not counted);
/// `None` at the end of input. Memory use stays within `limit` whatever
/// comes in.
///
/// # Errors
/// Errors of the reader other than `Interrupted`.
pub fn read_line(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut started = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(started.then(|| finish(buf, too_long)));
        }
        started = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        if !too_long {
            if buf.len() + part.len() > limit {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = newline.map_or(chunk.len(), |i| i + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(finish(buf, too_long)));
        }
    }
}

fn finish(buf: Vec<u8>, too_long: bool) -> Line {
    if too_long {
        Line::TooLong
    } else {
        Line::Text(String::from_utf8_lossy(&buf).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(input: Vec<u8>, limit: usize) -> Vec<Line> {
        // A tiny buffer makes lines cross many reads.
        let mut reader = BufReader::with_capacity(7, Cursor::new(input));
        std::iter::from_fn(|| read_line(&mut reader, limit).unwrap()).collect()
    }

    #[test]
    fn an_overlong_line_is_dropped_whole() {
        let mut input = b"isready\n".to_vec();
        input.extend(std::iter::repeat_n(b' ', 100));
        input.extend(b"uci\nstop\n\nlast");
        assert_eq!(
            lines(input, 50),
            [
                Line::Text("isready".into()),
                Line::TooLong,
                Line::Text("stop".into()),
                Line::Text(String::new()),
                Line::Text("last".into()),
            ]
        );
    }

    #[test]
    fn a_line_at_the_limit_is_kept() {
        let input = [b"x".repeat(50), b"\n".to_vec(), b"y".repeat(51)].concat();
        assert_eq!(
            lines(input, 50),
            [Line::Text("x".repeat(50)), Line::TooLong]
        );
        assert_eq!(
            lines(b"\xffa\n".to_vec(), 50),
            [Line::Text("\u{fffd}a".into())]
        );
    }
}
