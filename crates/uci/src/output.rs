//! The protocol output: whole lines, flushed one by one, shared by threads.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where protocol lines go (stdout in the engine, a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to any writer.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Writes one line and flushes it. A closed output (the GUI went away) is
    /// not an error worth dying for; the input side will see EOF.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }

    /// Writes an `info string` line.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    /// Reports a bad command: one `info string error:` line, and a log warning.
    pub fn error(&self, text: &str) {
        log::warn!("{text}");
        self.line(&format!("info string error: {text}"));
    }
}
