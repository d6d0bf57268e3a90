//! Lab 12's queries: a UCI conversation with your `run`.
//! Provided by the course (rewritten by `course init`).

use super::arg;
use crate::lab12_uci::run;

/// Answers one query: `conversation <lines>` with the lines joined by `|`
/// and `_` for spaces; the answer is everything `run` wrote.
pub fn call(function: &str, args: &[&str]) -> Result<String, String> {
    match function {
        "conversation" => {
            let script = arg(args, 0)?.replace('_', " ").replace('|', "\n") + "\n";
            let mut output = Vec::new();
            run(std::io::Cursor::new(script.into_bytes()), &mut output);
            Ok(super::text(&String::from_utf8_lossy(&output)))
        }
        _ => Err(format!("lab 12 has no function {function}")),
    }
}
