//! The UCI options the engine offers and how `setoption` changes them.

use vampirc_uci::{UciMessage, UciOptionConfig};

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest transposition table in MiB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most threads `go perft` may use.
pub const MAX_THREADS: i64 = 256;
/// Default reserve per move, in milliseconds, for GUI and pipe delays.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Hash`, MiB.
    pub hash_mb: usize,
    /// `Threads` (used by `go perft`; the search runs on one thread).
    pub threads: usize,
    /// `Perft Hash`, MiB of subtree counts for `go perft` (0: off).
    pub perft_hash_mb: usize,
    /// `Move Overhead`, ms.
    pub move_overhead_ms: u64,
    /// `UCI_Chess960`.
    pub chess960: bool,
    /// `Ponder` (only tells the GUI it may send `go ponder`).
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            perft_hash_mb: 0,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            chess960: false,
            ponder: false,
        }
    }
}

/// A change `setoption` asks for, after validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// Resize the transposition table.
    Hash(usize),
    /// Clear the transposition table.
    ClearHash,
    /// Anything that only updates [`Options`].
    Plain,
}

/// The `option` lines sent in answer to `uci`.
pub fn option_lines() -> Vec<String> {
    let spin = |name: &str, default: i64, min: i64, max: i64| UciOptionConfig::Spin {
        name: name.to_string(),
        default: Some(default),
        min: Some(min),
        max: Some(max),
    };
    let check = |name: &str| UciOptionConfig::Check {
        name: name.to_string(),
        default: Some(false),
    };
    [
        spin("Hash", DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB),
        UciOptionConfig::Button {
            name: "Clear Hash".to_string(),
        },
        spin("Threads", 1, 1, MAX_THREADS),
        spin("Perft Hash", 0, 0, MAX_HASH_MB),
        spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS as i64, 0, 5000),
        check("Ponder"),
        check("UCI_Chess960"),
    ]
    .into_iter()
    .map(|o| UciMessage::Option(o).to_string())
    .collect()
}

/// A numeric option value clamped to `lo..=hi`, with a note when clamped.
fn spin(name: &str, value: &str, lo: i64, hi: i64, notes: &mut Vec<String>) -> Result<i64, String> {
    let n: i64 = value
        .parse()
        .or_else(|e: std::num::ParseIntError| {
            use std::num::IntErrorKind::*;
            match e.kind() {
                PosOverflow => Ok(i64::MAX),
                NegOverflow => Ok(i64::MIN),
                _ => Err(()),
            }
        })
        .map_err(|_| format!("setoption {name}: '{value}' is not an integer"))?;
    let clamped = n.clamp(lo, hi);
    if clamped != n {
        notes.push(format!(
            "{name} {n} is out of range {lo}..{hi}; using {clamped}"
        ));
    }
    Ok(clamped)
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "setoption {name}: expected true or false, got '{value}'"
        )),
    }
}

impl Options {
    /// Applies `setoption name <name> [value <value>]`. Names match without
    /// regard to case; `notes` receives messages about clamped values.
    ///
    /// # Errors
    /// A message for an unknown option or a value of the wrong type; the
    /// options are then unchanged.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
        notes: &mut Vec<String>,
    ) -> Result<OptionChange, String> {
        let value = value.map(str::trim).unwrap_or("");
        let need = || -> Result<&str, String> {
            if value.is_empty() {
                Err(format!("setoption {name}: a value is needed"))
            } else {
                Ok(value)
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = spin("Hash", need()?, 1, MAX_HASH_MB, notes)? as usize;
                self.hash_mb = mb;
                Ok(OptionChange::Hash(mb))
            }
            "clear hash" => Ok(OptionChange::ClearHash),
            "threads" => {
                self.threads = spin("Threads", need()?, 1, MAX_THREADS, notes)? as usize;
                Ok(OptionChange::Plain)
            }
            "perft hash" => {
                self.perft_hash_mb = spin("Perft Hash", need()?, 0, MAX_HASH_MB, notes)? as usize;
                Ok(OptionChange::Plain)
            }
            "move overhead" => {
                self.move_overhead_ms = spin("Move Overhead", need()?, 0, 5000, notes)? as u64;
                Ok(OptionChange::Plain)
            }
            "uci_chess960" => {
                self.chess960 = check("UCI_Chess960", need()?)?;
                Ok(OptionChange::Plain)
            }
            "ponder" => {
                self.ponder = check("Ponder", need()?)?;
                Ok(OptionChange::Plain)
            }
            _ => Err(format!("setoption: no option named '{name}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_values_are_trimmed() {
        let mut o = Options::default();
        let mut notes = Vec::new();
        assert_eq!(
            o.set("hAsH", Some(" 64 "), &mut notes),
            Ok(OptionChange::Hash(64))
        );
        assert_eq!(
            o.set("move overhead", Some("100"), &mut notes),
            Ok(OptionChange::Plain)
        );
        assert_eq!(o.move_overhead_ms, 100);
        assert_eq!(
            o.set("uci_chess960", Some("TRUE"), &mut notes),
            Ok(OptionChange::Plain)
        );
        assert!(o.chess960);
        assert!(notes.is_empty());
    }

    #[test]
    fn out_of_range_is_clamped_with_a_note() {
        let mut o = Options::default();
        let mut notes = Vec::new();
        o.set("Threads", Some("0"), &mut notes).unwrap();
        assert_eq!(o.threads, 1);
        o.set("Hash", Some("99999999999999999999999"), &mut notes)
            .unwrap();
        assert_eq!(o.hash_mb, MAX_HASH_MB as usize);
        assert_eq!(notes.len(), 2);
    }

    #[test]
    fn bad_values_leave_options_unchanged() {
        let mut o = Options::default();
        let mut notes = Vec::new();
        assert!(o.set("Hash", Some("lots"), &mut notes).is_err());
        assert!(o.set("Hash", None, &mut notes).is_err());
        assert!(o.set("UCI_Chess960", Some("yes"), &mut notes).is_err());
        assert!(o.set("Contempt", Some("5"), &mut notes).is_err());
        assert_eq!(o, Options::default());
    }

    #[test]
    fn option_lines_are_well_formed() {
        let lines = option_lines();
        assert_eq!(
            lines[0],
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
    }
}
