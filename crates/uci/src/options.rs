//! The UCI options the engine offers and how `setoption` changes them.

use search::nnue::Network;
use std::fmt;
use std::sync::Arc;
use vampirc_uci::{UciMessage, UciOptionConfig};

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash` and `Perft Hash` the option range offers, in MiB; the
/// memory cap ([`memory_cap_mb`]) usually binds first.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most threads the search and `go perft` may use.
pub const MAX_THREADS: i64 = 256;
/// Most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: i64 = 256;
/// Default reserve per move, in milliseconds, for GUI and pipe delays.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOptions {
    /// `Hash`, MiB.
    pub hash_mb: usize,
    /// `Threads`, for the search and for `go perft`.
    pub threads: usize,
    /// `MultiPV`: best lines reported per depth.
    pub multipv: usize,
    /// `Perft Hash`, MiB of subtree counts for `go perft` (0: off).
    pub perft_hash_mb: usize,
    /// `Move Overhead`, ms.
    pub move_overhead_ms: u64,
    /// `UCI_Chess960`.
    pub chess960: bool,
    /// `Ponder` (only tells the GUI it may send `go ponder`).
    pub ponder: bool,
    /// `UCI_LimitStrength`: play at `UCI_Elo` rather than full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`, within `search::ELO_MIN..=search::ELO_MAX`.
    pub elo: u32,
    /// `UCI_ShowWDL`: add `wdl W D L` to the search's `info` lines.
    pub show_wdl: bool,
    /// `Use NNUE`: evaluate with the network (`false`: the hand-written
    /// evaluation).
    pub use_nnue: bool,
    /// `EvalFile`: the network file loaded, or [`BUILT_IN_NET`].
    pub eval_file: String,
}

/// `EvalFile`'s value for the network built into the binary.
pub const BUILT_IN_NET: &str = "<built-in>";

impl Default for UciOptions {
    fn default() -> UciOptions {
        UciOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            perft_hash_mb: 0,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            chess960: false,
            ponder: false,
            limit_strength: false,
            elo: search::ELO_MIN,
            show_wdl: false,
            use_nnue: true,
            eval_file: BUILT_IN_NET.to_string(),
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
    /// Evaluate with this network (the one `EvalFile` loaded).
    Network(Arc<Network>),
    /// `Use NNUE` changed.
    UseNnue,
    /// Anything that only updates [`UciOptions`].
    Plain,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The option needs a value and none was given.
    NoValue(String),
    /// A spin option's value is not an integer.
    NotInteger(String, String),
    /// A check option's value is neither `true` nor `false`.
    NotBool(String, String),
    /// `EvalFile` could not be read or is not a network of this build.
    EvalFile(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "setoption: no option named '{name}'"),
            OptionError::NoValue(name) => write!(f, "setoption {name}: a value is needed"),
            OptionError::NotInteger(name, value) => {
                write!(f, "setoption {name}: '{value}' is not an integer")
            }
            OptionError::NotBool(name, value) => {
                write!(f, "setoption {name}: expected true or false, got '{value}'")
            }
            OptionError::EvalFile(why) => {
                write!(f, "setoption EvalFile: {why}; the network is unchanged")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// The most MiB `Hash` or `Perft Hash` may take: half of what Linux reports
/// as available memory (`MemAvailable` in `/proc/meminfo`), read when the
/// option is set, within the option range. Elsewhere, the option range.
pub fn memory_cap_mb() -> i64 {
    let available_kb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_available_kb(&text));
    match available_kb {
        Some(kb) => (kb / 1024 / 2).clamp(1, MAX_HASH_MB as u64) as i64,
        None => MAX_HASH_MB,
    }
}

/// The `MemAvailable:` figure of a `/proc/meminfo` text, in kB.
fn mem_available_kb(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
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
        spin("MultiPV", 1, 1, MAX_MULTIPV),
        spin("Perft Hash", 0, 0, MAX_HASH_MB),
        spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS as i64, 0, 5000),
        check("Ponder"),
        check("UCI_Chess960"),
        check("UCI_LimitStrength"),
        spin(
            "UCI_Elo",
            i64::from(search::ELO_MIN),
            i64::from(search::ELO_MIN),
            i64::from(search::ELO_MAX),
        ),
        check("UCI_ShowWDL"),
        UciOptionConfig::Check {
            name: "Use NNUE".to_string(),
            default: Some(true),
        },
        UciOptionConfig::String {
            name: "EvalFile".to_string(),
            default: Some(BUILT_IN_NET.to_string()),
        },
    ]
    .into_iter()
    .map(|o| UciMessage::Option(o).to_string())
    .collect()
}

/// The range a spin option's value is clamped to, and why its top is there
/// when that is not the option range.
struct Range {
    lo: i64,
    hi: i64,
    why: &'static str,
}

impl Range {
    fn new(lo: i64, hi: i64) -> Range {
        Range { lo, hi, why: "" }
    }

    /// `0..=MAX_HASH_MB` (or from 1) capped by the machine's memory.
    fn memory(lo: i64) -> Range {
        let cap = memory_cap_mb();
        let why = if cap < MAX_HASH_MB {
            " (half the available memory)"
        } else {
            ""
        };
        Range {
            lo,
            hi: cap.max(lo),
            why,
        }
    }
}

/// A numeric option value clamped to its range, with one note when clamped.
fn spin(
    name: &str,
    value: &str,
    range: Range,
    notes: &mut Vec<String>,
) -> Result<i64, OptionError> {
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
        .map_err(|_| OptionError::NotInteger(name.to_string(), crate::command::clip(value)))?;
    let clamped = n.clamp(range.lo, range.hi);
    if clamped != n {
        notes.push(format!(
            "{name} {n} is out of range {}..{}{}; using {clamped}",
            range.lo, range.hi, range.why
        ));
    }
    Ok(clamped)
}

fn check(name: &str, value: &str) -> Result<bool, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotBool(
            name.to_string(),
            crate::command::clip(value),
        )),
    }
}

/// The network of an `EvalFile` value: [`BUILT_IN_NET`] (or `<empty>`,
/// as GUIs send an empty string) for the built-in one, else a file.
fn load_network(value: &str) -> Result<Arc<Network>, OptionError> {
    if value == BUILT_IN_NET || value == "<empty>" {
        return Ok(Network::built_in());
    }
    let bytes = std::fs::read(value).map_err(|e| {
        OptionError::EvalFile(format!(
            "cannot read '{}': {e}",
            crate::command::clip(value)
        ))
    })?;
    let net = Network::from_bytes(&bytes)
        .map_err(|e| OptionError::EvalFile(format!("'{}': {e}", crate::command::clip(value))))?;
    Ok(Arc::new(net))
}

impl UciOptions {
    /// Applies `setoption name <name> [value <value>]`. Names match without
    /// regard to case; `notes` receives messages about clamped values.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown option or a value of the wrong type;
    /// the options are then unchanged.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
        notes: &mut Vec<String>,
    ) -> Result<OptionChange, OptionError> {
        let value = value.map(str::trim).unwrap_or("");
        let need = || -> Result<&str, OptionError> {
            if value.is_empty() {
                Err(OptionError::NoValue(name.to_string()))
            } else {
                Ok(value)
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = spin("Hash", need()?, Range::memory(1), notes)? as usize;
                self.hash_mb = mb;
                Ok(OptionChange::Hash(mb))
            }
            "clear hash" => Ok(OptionChange::ClearHash),
            "threads" => {
                let range = Range::new(1, MAX_THREADS);
                self.threads = spin("Threads", need()?, range, notes)? as usize;
                Ok(OptionChange::Plain)
            }
            "multipv" => {
                let range = Range::new(1, MAX_MULTIPV);
                self.multipv = spin("MultiPV", need()?, range, notes)? as usize;
                Ok(OptionChange::Plain)
            }
            "perft hash" => {
                let mb = spin("Perft Hash", need()?, Range::memory(0), notes)?;
                self.perft_hash_mb = mb as usize;
                Ok(OptionChange::Plain)
            }
            "move overhead" => {
                let range = Range::new(0, 5000);
                self.move_overhead_ms = spin("Move Overhead", need()?, range, notes)? as u64;
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
            "uci_limitstrength" => {
                self.limit_strength = check("UCI_LimitStrength", need()?)?;
                Ok(OptionChange::Plain)
            }
            "uci_elo" => {
                let range = Range {
                    why: " (the top is the strongest calibrated level; UCI_LimitStrength false is full strength)",
                    ..Range::new(i64::from(search::ELO_MIN), i64::from(search::ELO_MAX))
                };
                self.elo = spin("UCI_Elo", need()?, range, notes)? as u32;
                Ok(OptionChange::Plain)
            }
            "uci_showwdl" => {
                self.show_wdl = check("UCI_ShowWDL", need()?)?;
                Ok(OptionChange::Plain)
            }
            "use nnue" => {
                self.use_nnue = check("Use NNUE", need()?)?;
                Ok(OptionChange::UseNnue)
            }
            "evalfile" => {
                let net = load_network(need()?)?;
                self.eval_file = value.to_string();
                Ok(OptionChange::Network(net))
            }
            _ => Err(OptionError::Unknown(crate::command::clip(name))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_values_are_trimmed() {
        let mut o = UciOptions::default();
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
        let mut o = UciOptions::default();
        let mut notes = Vec::new();
        o.set("Threads", Some("0"), &mut notes).unwrap();
        assert_eq!(o.threads, 1);
        o.set("Hash", Some("99999999999999999999999"), &mut notes)
            .unwrap();
        assert_eq!(o.hash_mb, memory_cap_mb() as usize);
        assert!(o.hash_mb <= MAX_HASH_MB as usize);
        o.set("MultiPV", Some("1000"), &mut notes).unwrap();
        assert_eq!(o.multipv, 256);
        o.set("UCI_Elo", Some("2400"), &mut notes).unwrap();
        assert_eq!(o.elo, search::ELO_MAX);
        assert_eq!(notes.len(), 4, "one note per clamped value: {notes:?}");
        assert!(
            notes[3].contains("strongest calibrated level"),
            "{}",
            notes[3]
        );
    }

    #[test]
    fn bad_values_leave_options_unchanged() {
        let mut o = UciOptions::default();
        let mut notes = Vec::new();
        assert_eq!(
            o.set("Hash", Some("lots"), &mut notes),
            Err(OptionError::NotInteger("Hash".into(), "lots".into()))
        );
        assert_eq!(
            o.set("Hash", None, &mut notes),
            Err(OptionError::NoValue("Hash".into()))
        );
        assert!(o.set("UCI_Chess960", Some("yes"), &mut notes).is_err());
        assert_eq!(
            o.set("Contempt", Some("5"), &mut notes),
            Err(OptionError::Unknown("Contempt".into()))
        );
        assert_eq!(o, UciOptions::default());
    }

    #[test]
    fn memory_cap_reads_mem_available() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   16384000 kB\n";
        assert_eq!(mem_available_kb(text), Some(16_384_000));
        assert_eq!(mem_available_kb("MemTotal: 5 kB\n"), None);
        assert!((1..=MAX_HASH_MB).contains(&memory_cap_mb()));
    }

    #[test]
    fn option_lines_are_well_formed() {
        let lines = option_lines();
        assert_eq!(
            lines[0],
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(
            lines.contains(&"option name MultiPV type spin default 1 min 1 max 256".to_string())
        );
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
        assert!(lines
            .contains(&"option name UCI_Elo type spin default 1350 min 1350 max 2100".to_string()));
        assert!(
            lines.contains(&"option name UCI_LimitStrength type check default false".to_string())
        );
        assert!(lines.contains(&"option name UCI_ShowWDL type check default false".to_string()));
    }
}
