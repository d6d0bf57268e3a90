//! The student workspace: `course init` writes it, `course check` builds it.
//!
//! One Cargo package with no dependencies (it builds in seconds): `src/labNN_*.rs` are the
//! student's files, `src/types.rs` and `src/harness/` are provided, `src/bin/harness.rs` is the
//! query loop the checker talks to. It builds in its own `target/`, never the repository's.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::checker::LabRecord;
/// The harness binary of a built workspace (the harness's own knowledge, named here too).
pub use crate::student::harness_exe;

/// The provided types every lab uses.
pub const TYPES_RS: &str = include_str!("../student/types.rs");
/// The provided part of `src/harness/mod.rs` (argument readers, answer formatting).
pub const HARNESS_MOD_RS: &str = include_str!("../student/harness.rs");
/// The provided query loop.
pub const HARNESS_BIN_RS: &str = include_str!("../student/bin_harness.rs");

/// The student module lab `lab` fills (`src/<module>.rs`), from its record.
pub fn module_name(lab: u8) -> Option<&'static str> {
    crate::labs::get(lab).map(|l| l.module())
}

/// The student's file for `lab` in workspace `dir`.
pub fn lab_file(dir: &Path, lab: u8) -> Option<PathBuf> {
    Some(dir.join("src").join(format!("{}.rs", module_name(lab)?)))
}

/// The package manifest: no dependencies; overflow checks on in the builds the checker uses
/// (a shift past bit 63 is a mistake to report, not a wrap to hide).
fn manifest() -> String {
    "[package]\nname = \"chess-labs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n\n\
     # The checker builds this profile: fast enough for perft and search, overflow checks on.\n\
     [profile.dev]\nopt-level = 2\ndebug = false\n\n\
     # Not part of any enclosing workspace.\n[workspace]\n"
        .to_string()
}

fn lib_rs(labs: &[&LabRecord]) -> String {
    let mut s = String::from(
        "//! My chess engine, one lab a week. `course check` checks it; `course hint N` helps.\n\n\
         pub mod types;\n",
    );
    for lab in labs {
        if let Some(m) = module_name(lab.number()) {
            let _ = writeln!(s, "pub mod {m};");
        }
    }
    s.push_str("#[doc(hidden)]\npub mod harness;\n");
    s
}

fn harness_mod_rs(labs: &[&LabRecord]) -> String {
    let mut s = HARNESS_MOD_RS.to_string();
    s.push('\n');
    for lab in labs {
        let _ = writeln!(s, "pub mod lab{:02};", lab.number());
    }
    s.push_str(
        "\n/// Routes a query to its lab's dispatcher.\n\
         pub fn call(lab: u8, function: &str, args: &[&str]) -> Result<String, String> {\n    match lab {\n",
    );
    for lab in labs {
        let _ = writeln!(
            s,
            "        {n} => lab{n:02}::call(function, args),",
            n = lab.number()
        );
    }
    s.push_str("        _ => Err(format!(\"no lab {lab}\")),\n    }\n}\n");
    s
}

/// Each lab's reference solution, by lab number: `course_key::solution`, which only the
/// instructor's build has (the student's `course` is built without that crate).
pub type Solutions = fn(u8) -> Option<&'static str>;

/// Writes a student workspace into `dir`: the provided files always (so a newer course's
/// harness replaces an older one), each lab's file only where it is missing (a student's
/// work is never overwritten). With `solutions`, missing lab files get the reference
/// solution instead of the skeleton. Returns the lab files written.
pub fn init(
    dir: &Path,
    labs: &[&LabRecord],
    solutions: Option<Solutions>,
) -> io::Result<Vec<PathBuf>> {
    write_provided(dir, labs)?;
    write_lib_rs(dir, labs)?;
    let mut written = Vec::new();
    for lab in labs {
        let Some(path) = lab_file(dir, lab.number()) else {
            continue;
        };
        if !path.exists() {
            let text = match solutions {
                None => lab.files().skeleton,
                Some(solution) => solution(lab.number()).ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("the answer key has no solution of lab {}", lab.number()),
                    )
                })?,
            };
            fs::write(&path, text)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Writes `src/lib.rs`, or, where the student has one, adds only the modules of new labs (a
/// student may have added modules of their own).
fn write_lib_rs(dir: &Path, labs: &[&LabRecord]) -> io::Result<()> {
    let path = dir.join("src/lib.rs");
    let Ok(mut text) = fs::read_to_string(&path) else {
        return fs::write(path, lib_rs(labs));
    };
    let before = text.len();
    for lab in labs {
        if let Some(m) = module_name(lab.number()) {
            if !text.contains(&format!("mod {m};")) {
                let _ = writeln!(text, "pub mod {m};");
            }
        }
    }
    if !text.contains("mod harness;") {
        text.push_str("#[doc(hidden)]\npub mod harness;\n");
    }
    if text.len() == before {
        return Ok(());
    }
    fs::write(path, text)
}

/// Writes the files the course provides (manifest, types, harness), replacing whatever is
/// there: a workspace being graded gets the course's own harness, not an edited one.
pub fn write_provided(dir: &Path, labs: &[&LabRecord]) -> io::Result<()> {
    fs::create_dir_all(dir.join("src/harness"))?;
    fs::create_dir_all(dir.join("src/bin"))?;
    write_if_changed(dir.join("Cargo.toml"), manifest())?;
    write_if_changed(dir.join(".gitignore"), "/target\n")?;
    write_if_changed(dir.join("src/types.rs"), TYPES_RS)?;
    write_if_changed(dir.join("src/harness/mod.rs"), harness_mod_rs(labs))?;
    write_if_changed(dir.join("src/bin/harness.rs"), HARNESS_BIN_RS)?;
    for (path, text) in labs.iter().flat_map(|l| l.extra_files()) {
        write_if_changed(dir.join(path), text)?;
    }
    for lab in labs {
        write_if_changed(
            dir.join(format!("src/harness/lab{:02}.rs", lab.number())),
            lab.files().harness,
        )?;
    }
    // The lab texts, and what they refer to, so that the workspace is all a student needs.
    fs::create_dir_all(dir.join("labs"))?;
    for lab in labs {
        write_if_changed(dir.join(text_path(lab)), lab.files().readme)?;
    }
    if labs.iter().any(|l| l.number() == 10) {
        write_if_changed(dir.join("labs/crowd_export.epd"), crate::labs::CROWD_EXPORT)?;
    }
    Ok(())
}

/// Where a workspace keeps `lab`'s text: `labs/01-bitboards.md`.
pub fn text_path(lab: &LabRecord) -> String {
    format!("labs/{:02}-{}.md", lab.number(), lab.slug())
}

/// Writes `text` to `path` unless it already holds exactly that: an unchanged file keeps its
/// time stamp, so cargo doesn't rebuild.
fn write_if_changed(path: impl AsRef<Path>, text: impl AsRef<[u8]>) -> io::Result<()> {
    let (path, text) = (path.as_ref(), text.as_ref());
    if fs::read(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text)
}

/// Whether `dir` looks like a student workspace.
pub fn is_workspace(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join("src/bin/harness.rs").is_file()
}

/// Builds the workspace's harness in its own target dir. `Err` carries the compiler's
/// messages.
pub fn build(dir: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    build_with(dir, cargo.as_ref(), None)
}

/// [`build`] with this `cargo` program, in `sandbox` when grading.
pub fn build_with(
    dir: &Path,
    cargo: &std::ffi::OsStr,
    sandbox: Option<&crate::sandbox::Sandbox>,
) -> Result<(), String> {
    // The harness, and lab 12's engine program where the workspace has it.
    cargo_build(dir, cargo, sandbox, &["--bins"])
}

/// Builds the workspace's engine (lab 12) as a tournament plays it, optimised, in `sandbox`
/// unless `None`, and returns the program.
pub fn build_engine(
    dir: &Path,
    cargo: &std::ffi::OsStr,
    sandbox: Option<&crate::sandbox::Sandbox>,
) -> Result<PathBuf, String> {
    cargo_build(dir, cargo, sandbox, &["--release", "--bin", "engine"])?;
    Ok(dir
        .join("target/release")
        .join(format!("engine{}", std::env::consts::EXE_SUFFIX)))
}

fn cargo_build(
    dir: &Path,
    cargo: &std::ffi::OsStr,
    sandbox: Option<&crate::sandbox::Sandbox>,
    what: &[&str],
) -> Result<(), String> {
    let mut command = Command::new(cargo);
    if let Some(sandbox) = sandbox {
        sandbox.confine_build(&mut command)?;
    }
    let output = command
        .args(["build", "--quiet", "--offline", "--color", "never"])
        .args(what)
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("target"))
        // An outer `cargo test` may set these for its own build; the student's is separate.
        // Incremental builds stay on for it: a student's workspace is rebuilt after every
        // change to one file (CI's CARGO_INCREMENTAL=0 took the labs' tests from 75 to 196 s).
        .env_remove("CARGO_INCREMENTAL")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// One error of the compiler's: its message line and where it points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// `error[E0308]: mismatched types`.
    pub message: String,
    /// `src/lab02_pawns.rs:12:5`, where the compiler says.
    pub place: Option<String>,
}

impl CompileError {
    /// `src/lab02_pawns.rs:12:5: error[E0308]: mismatched types`.
    pub fn describe(&self) -> String {
        match &self.place {
            Some(place) => format!("{place}: {}", self.message),
            None => self.message.clone(),
        }
    }

    /// The lab whose file the error is in: the student's `src/labNN_*.rs`, or the harness's
    /// `src/harness/labNN.rs` (which calls that lab's functions, so a changed signature shows
    /// there).
    pub fn lab(&self) -> Option<u8> {
        let file = self.place.as_deref()?.split(':').next()?;
        let name = file
            .strip_prefix("src/harness/lab")
            .or_else(|| file.strip_prefix("src/lab"))?;
        let number: u8 = name.get(..2)?.parse().ok()?;
        (module_name(number).is_some()).then_some(number)
    }
}

/// The errors in cargo's messages, in order (warnings and the closing "could not compile"
/// left out).
pub fn compile_errors(messages: &str) -> Vec<CompileError> {
    let mut errors: Vec<CompileError> = Vec::new();
    let mut open = false;
    for line in messages.lines() {
        if line.starts_with("error") {
            open = !line.starts_with("error: could not compile")
                && !line.starts_with("error: aborting");
            if open {
                errors.push(CompileError {
                    message: line.trim().to_string(),
                    place: None,
                });
            }
        } else if line.starts_with("warning") {
            open = false;
        } else if let (true, Some(place)) = (open, line.trim_start().strip_prefix("--> ")) {
            if let Some(last) = errors.last_mut() {
                last.place = Some(place.trim().to_string());
            }
            open = false;
        }
    }
    errors
}
