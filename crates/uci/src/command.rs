//! Turning one input line into one of our own commands.
//!
//! Lines are routed by their first word. `position`, `go` and `setoption` are
//! parsed by our own code; the other standard commands go through
//! `vampirc_uci::parse_one`; `d`, `eval`, `bench` and `go perft` are our
//! extensions.

use std::fmt;
use vampirc_uci::UciMessage;

/// A command from the GUI, parsed as far as it can be without engine state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget the previous game.
    UciNewGame,
    /// `debug on|off`.
    Debug(bool),
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name, its words joined by single spaces.
        name: String,
        /// The value, if given.
        value: Option<String>,
    },
    /// `position ...`: the tokens after `position`.
    Position(Vec<String>),
    /// `go ...`: the tokens after `go`.
    Go(Vec<String>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`: stop every job (each still answers) and leave.
    Quit,
    /// The end of the input: finish the jobs that end by themselves, stop
    /// the ones that would wait for a `stop` (each still answers), then leave.
    EndOfInput,
    /// `d`: draw the board and its derived state.
    Display,
    /// `eval`: the static evaluation, term by term.
    Eval,
    /// `bench [depth]`.
    Bench(Option<String>),
    /// `register ...`: nothing to register.
    Register,
    /// A line that is not a command, and why.
    Invalid(CommandError),
    /// A blank line.
    Empty,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command we know (clipped for display).
    Unknown(String),
    /// A command that takes no arguments was given some.
    NoArguments(String),
    /// `debug` without `on` or `off`.
    Debug,
    /// `setoption` not followed by `name`.
    SetOptionName,
    /// `setoption name` with no name before `value`.
    SetOptionNoName,
    /// `bench` with more than one argument.
    BenchArguments,
    /// A line longer than the input limit (in bytes), dropped whole.
    TooLong(usize),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::NoArguments(word) => write!(f, "{word}: takes no arguments"),
            CommandError::Debug => f.write_str("debug: expected 'on' or 'off'"),
            CommandError::SetOptionName => f.write_str("setoption: expected 'name'"),
            CommandError::SetOptionNoName => f.write_str("setoption: the option name is missing"),
            CommandError::BenchArguments => {
                f.write_str("bench: expected at most one argument (the depth)")
            }
            CommandError::TooLong(limit) => {
                write!(f, "line longer than {limit} bytes ignored")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// Parses one line of input.
pub fn parse_line(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Command::Empty;
    };
    let owned = || rest.iter().map(|s| s.to_string()).collect();
    match first {
        "position" => Command::Position(owned()),
        "go" => Command::Go(owned()),
        "setoption" => parse_setoption(rest),
        "d" => no_arguments(first, rest, Command::Display),
        "eval" => no_arguments(first, rest, Command::Eval),
        "bench" if rest.len() <= 1 => Command::Bench(rest.first().map(|s| s.to_string())),
        "bench" => Command::Invalid(CommandError::BenchArguments),
        "register" => Command::Register,
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" | "debug" => {
            simple(first, &tokens.join(" "))
        }
        _ => Command::Invalid(CommandError::Unknown(clip(first))),
    }
}

fn no_arguments(word: &str, rest: &[&str], cmd: Command) -> Command {
    if rest.is_empty() {
        cmd
    } else {
        Command::Invalid(CommandError::NoArguments(word.to_string()))
    }
}

/// The standard argument-less commands and `debug`, through vampirc-uci.
fn simple(word: &str, line: &str) -> Command {
    match vampirc_uci::parse_one(line) {
        UciMessage::Uci => Command::Uci,
        UciMessage::IsReady => Command::IsReady,
        UciMessage::UciNewGame => Command::UciNewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        UciMessage::Debug(on) => Command::Debug(on),
        _ if word == "debug" => Command::Invalid(CommandError::Debug),
        _ => Command::Invalid(CommandError::NoArguments(word.to_string())),
    }
}

/// `setoption name <words> [value <words>]`: names may contain spaces.
fn parse_setoption(rest: &[&str]) -> Command {
    if rest.first() != Some(&"name") {
        return Command::Invalid(CommandError::SetOptionName);
    }
    let value_at = rest.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(rest.len());
    let name = rest[1..name_end].join(" ");
    if name.is_empty() {
        return Command::Invalid(CommandError::SetOptionNoName);
    }
    let value = value_at.map(|v| rest[v + 1..].join(" "));
    Command::SetOption { name, value }
}

/// At most 40 characters of user text, for error messages.
pub fn clip(text: &str) -> String {
    let clipped: String = text.chars().take(40).collect();
    if clipped.len() < text.len() {
        format!("{clipped}...")
    } else {
        clipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_by_first_word() {
        assert_eq!(parse_line("  isready  "), Command::IsReady);
        assert_eq!(parse_line("uci"), Command::Uci);
        assert_eq!(parse_line("debug on"), Command::Debug(true));
        assert_eq!(parse_line(""), Command::Empty);
        assert_eq!(parse_line(" \t "), Command::Empty);
        assert_eq!(
            parse_line("position  startpos   moves  e2e4"),
            Command::Position(vec!["startpos".into(), "moves".into(), "e2e4".into()])
        );
        assert_eq!(
            parse_line("xboard"),
            Command::Invalid(CommandError::Unknown("xboard".into()))
        );
        // vampirc-uci reads the command word and ignores trailing words, as Stockfish does.
        assert_eq!(parse_line("isready now"), Command::IsReady);
        assert_eq!(
            parse_line("debug maybe"),
            Command::Invalid(CommandError::Debug)
        );
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse_line("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse_line("setoption name  Move   Overhead value  100 "),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse_line("setoption Hash 5"),
            Command::Invalid(CommandError::SetOptionName)
        );
        assert_eq!(
            parse_line("setoption name value 5"),
            Command::Invalid(CommandError::SetOptionNoName)
        );
    }

    #[test]
    fn clips_long_text() {
        let long = "x".repeat(100);
        assert_eq!(clip(&long).len(), 43);
        assert_eq!(clip("é".repeat(50).as_str()).chars().count(), 43);
    }
}
