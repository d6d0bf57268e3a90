//! The checker's query loop. Provided by the course (rewritten by `course init`).
//!
//! Reads one query a line from stdin, answers one line on stdout (after a `\x1e` marker): `ok <answer>`, `todo` (the
//! function still calls `todo!()`), `panic <message>` or `error <message>`. A panic in your code
//! is caught here, so one wrong function doesn't stop the others being checked.

use std::io::Write;
use std::panic;
use std::sync::Mutex;

/// The last panic's message and place, kept by the hook (which prints nothing).
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

fn answer(line: &str) -> String {
    let mut words = line.split_whitespace();
    let lab = words.next().and_then(|w| w.parse::<u8>().ok());
    let (Some(lab), Some(function)) = (lab, words.next()) else {
        return format!("error bad query: {line}");
    };
    let args: Vec<&str> = words.collect();
    LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
    match panic::catch_unwind(|| chess_labs::harness::call(lab, function, &args)) {
        Ok(Ok(text)) => format!("ok {}", text.replace('\n', "\\n")),
        Ok(Err(message)) => format!("error {message}"),
        Err(payload) => {
            let message = payload_text(payload.as_ref());
            let place = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
            if message.starts_with("not yet implemented") || message.starts_with("not implemented") {
                // Where the todo!() is: the checker tells "this lab not started" from "uses
                // an earlier lab's function that is still todo!()".
                let at = place.as_deref().and_then(|p| p.rsplit_once(" (at ")).map(|(_, at)| at.trim_end_matches(')'));
                return at.map_or_else(|| "todo".to_string(), |at| format!("todo {at}"));
            }
            format!("panic {}", place.unwrap_or(message).replace('\n', " "))
        }
    }
}

fn main() {
    panic::set_hook(Box::new(|info| {
        let message = payload_text(info.payload());
        let place = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{message}{place}"));
    }));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Stdin is locked only while a query is read, so that a student's function that reads
    // stdin blocks in the read itself, which the checker can see and name, not on the lock.
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        let reply = answer(line);
        // The record separator marks the checker's lines apart from anything the student's
        // own code prints while being checked.
        if writeln!(out, "\u{1e}{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
