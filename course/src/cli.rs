//! The course program's command line, in two builds: the student's `course` ([`run`] with
//! no solutions: `init --solutions`, `grade` and `merge` are refused) and the instructor's
//! `course-instructor` (with the answer key, `course_key`). Only the instructor's binary links
//! the key, so the student's holds no solution text at all, not merely one it does not print.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::checker::LabRecord;
use crate::report::{LabReport, StudentReport};
use crate::runner::{self, Outcome};
use crate::sandbox::SandboxLimits;
use crate::workspace::Solutions;
use crate::{labs, workspace};

/// How the student's build answers what only the instructor's build does.
const INSTRUCTOR_ONLY: &str = "is in the instructor's build of the course, `course-instructor` \
     (cargo install --path course --features instructor); this is the student's `course`, which \
     has no reference solutions";

#[derive(Parser)]
#[command(
    name = "course",
    about = "Weekly labs: build your own bitboard chess engine, checked as you go"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write a student workspace into DIR (missing lab files only; your work is never overwritten).
    Init {
        /// The workspace folder.
        dir: PathBuf,
        /// Fill the labs with the reference solutions (the instructor's copy; course-instructor only).
        #[arg(long)]
        solutions: bool,
    },
    /// Build the workspace and check one lab, or every lab.
    Check {
        /// The lab number (1-12); every lab when left out.
        lab: Option<u8>,
        /// The workspace folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// Print the results as JSON (the per-student report `course-instructor grade` writes).
        #[arg(long)]
        json: bool,
    },
    /// Re-check on every save.
    Watch {
        /// The lab number; every lab when left out.
        lab: Option<u8>,
        /// The workspace folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Print a lab's text (the same as labs/NN-slug.md in your workspace).
    Text {
        /// The lab number.
        lab: u8,
    },
    /// Show a lab's hints.
    Hint {
        /// The lab number.
        lab: u8,
    },
    /// List the labs and your progress.
    List {
        /// The workspace folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Check a folder of student workspaces (one sub-folder each), each in a sandbox, and
    /// write grades as CSV and a report per student.
    Grade {
        /// The folder of submissions.
        submissions: PathBuf,
        /// The CSV file to write (the reports go to a folder beside it, NAME-reports/).
        #[arg(short, long, default_value = "grades.csv")]
        output: PathBuf,
        /// Seconds allowed per student (build and checks together).
        #[arg(long, default_value_t = 300)]
        time_limit: u64,
        /// Seconds one query to a student's function may take.
        #[arg(long, default_value_t = 5)]
        query_timeout: u64,
        /// Only these labs, e.g. `--labs 1,2,3` (every lab when left out).
        #[arg(long, value_delimiter = ',')]
        labs: Vec<u8>,
        /// Students graded at once (default: the number of cores).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Grade only the K-th of N slices of the class, by name (`--shard 2/4`); join the
        /// shards' results with `course-instructor merge`.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
        /// Memory each process of student code may use, in MiB.
        #[arg(long, default_value_t = SandboxLimits::default().memory_mib)]
        memory_mib: u64,
        /// Run student code with your own rights, where the kernel cannot give the sandbox
        /// (said in the CSV's first line).
        #[arg(long)]
        no_sandbox: bool,
    },
    /// Join the CSVs and reports of `course-instructor grade --shard` runs.
    Merge {
        /// The shards' CSV files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The CSV file to write.
        #[arg(short, long, default_value = "grades.csv")]
        output: PathBuf,
    },
    /// Grade the workspace in the current folder (what `grade` runs per student, in a
    /// sandboxed child process).
    #[command(hide = true)]
    GradeOne {
        #[arg(long, value_delimiter = ',')]
        labs: Vec<u8>,
        #[arg(long, default_value_t = 5000)]
        query_timeout_ms: u64,
        #[arg(long, default_value_t = 300_000)]
        time_limit_ms: u64,
        #[arg(long)]
        toolchain: PathBuf,
        #[arg(long, default_value_t = SandboxLimits::default().memory_mib)]
        memory_mib: u64,
        #[arg(long, default_value_t = SandboxLimits::default().build_memory_mib)]
        build_memory_mib: u64,
        #[arg(long, default_value_t = SandboxLimits::default().file_mib)]
        file_mib: u64,
        #[arg(long)]
        no_sandbox: bool,
    },
    /// A round robin between UCI engines, refereed by the course: crosstable, standings, PGN.
    Tournament(crate::tournament::Args),
    /// Draw a bitboard (0x...), a FEN, or `numbers` (the square numbering) as the lab texts do.
    #[command(hide = true)]
    Diagram {
        /// A bitboard in hex, or a FEN.
        what: Vec<String>,
    },
}

/// Runs the command line: the student's `course` with `solutions` `None`, `course-instructor`
/// with the answer key's.
pub fn run(solutions: Option<Solutions>) -> ExitCode {
    let mut command = Cli::command();
    if solutions.is_some() {
        command = command.name("course-instructor").about(
            "The instructor's course program: everything `course` does, with the reference \
             solutions (`init --solutions`), `grade` and `merge`",
        );
    } else {
        // What the student's build refuses is not offered in its help.
        command = command
            .mut_subcommand("init", |c| c.mut_arg("solutions", |a| a.hide(true)))
            .mut_subcommand("grade", |c| c.hide(true))
            .mut_subcommand("merge", |c| c.hide(true));
    }
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match dispatch(cli.command, solutions) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("course: {message}");
            ExitCode::from(2)
        }
    }
}

/// `what` refused by the student's build.
fn instructor_only(what: &str) -> String {
    format!("`{what}` {INSTRUCTOR_ONLY}")
}

fn dispatch(command: Cmd, key: Option<Solutions>) -> Result<ExitCode, String> {
    match command {
        Cmd::Init {
            solutions: true, ..
        } if key.is_none() => Err(instructor_only("init --solutions")),
        Cmd::Init { dir, solutions } => init(&dir, key.filter(|_| solutions)),
        Cmd::Grade { .. } if key.is_none() => Err(instructor_only("grade")),
        Cmd::Merge { .. } if key.is_none() => Err(instructor_only("merge")),
        Cmd::Check { lab, dir, json } => check(lab, &dir, json),
        Cmd::Watch { lab, dir } => watch(lab, &dir),
        Cmd::Text { lab } => text(lab),
        Cmd::Hint { lab } => hint(lab),
        Cmd::List { dir } => list(&dir),
        Cmd::Grade {
            submissions,
            output,
            time_limit,
            query_timeout,
            labs,
            jobs,
            shard,
            memory_mib,
            no_sandbox,
        } => pick_many(&labs).and_then(|labs| {
            let exe = std::env::current_exe()
                .map_err(|e| format!("cannot find the course program: {e}"))?;
            let options = crate::grade::GradeOptions {
                labs,
                limit: Duration::from_secs(time_limit),
                query_timeout: Duration::from_secs(query_timeout),
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                shard,
                sandbox: !no_sandbox,
                limits: SandboxLimits {
                    memory_mib,
                    ..SandboxLimits::default()
                },
            };
            crate::grade::grade(&exe, &submissions, &output, &options)
        }),
        Cmd::Merge { inputs, output } => crate::grade::merge(&inputs, &output),
        Cmd::GradeOne {
            labs,
            query_timeout_ms,
            time_limit_ms,
            toolchain,
            memory_mib,
            build_memory_mib,
            file_mib,
            no_sandbox,
        } => {
            let Some(solutions) = key else {
                return Err(instructor_only("grade-one"));
            };
            let labs = pick_many(&labs)?;
            crate::grade::grade_one(&crate::grade::OneOptions {
                labs,
                query_timeout: Duration::from_millis(query_timeout_ms),
                limit: Duration::from_millis(time_limit_ms),
                toolchain,
                sandbox: (!no_sandbox).then_some(SandboxLimits {
                    memory_mib,
                    build_memory_mib,
                    file_mib,
                }),
                solutions,
            })
        }
        Cmd::Tournament(args) => crate::tournament::run(&args),
        Cmd::Diagram { what } => diagram(&what.join(" ")),
    }
}

/// The labs `lab` asks for: that one, or all.
pub fn pick(lab: Option<u8>) -> Result<Vec<&'static LabRecord>, String> {
    match lab {
        None => Ok(labs::all()),
        Some(n) => labs::get(n).map(|l| vec![l]).ok_or_else(|| {
            let have: Vec<String> = labs::all().iter().map(|l| l.number().to_string()).collect();
            format!("there is no lab {n} (the labs are {})", have.join(", "))
        }),
    }
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N (e.g. 2/4)"))?;
    let (k, n): (usize, usize) = (
        k.trim()
            .parse()
            .map_err(|_| format!("`{k}` is not a number"))?,
        n.trim()
            .parse()
            .map_err(|_| format!("`{n}` is not a number"))?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(format!("`{text}`: K must be within 1..=N"));
    }
    Ok((k, n))
}

/// The labs a list names (every lab for an empty list).
fn pick_many(numbers: &[u8]) -> Result<Vec<&'static LabRecord>, String> {
    if numbers.is_empty() {
        return Ok(labs::all());
    }
    let mut out = Vec::new();
    for &n in numbers {
        out.extend(pick(Some(n))?);
    }
    Ok(out)
}

fn init(dir: &Path, solutions: Option<Solutions>) -> Result<ExitCode, String> {
    let written = workspace::init(dir, &labs::all(), solutions)
        .map_err(|e| format!("cannot write the workspace in {}: {e}", dir.display()))?;
    crate::say!(
        "wrote the workspace in {} ({} lab files new)",
        dir.display(),
        written.len()
    );
    crate::say!("next: cd {} && course check 1", dir.display());
    Ok(ExitCode::SUCCESS)
}

fn require_workspace(dir: &Path) -> Result<(), String> {
    if workspace::is_workspace(dir) {
        Ok(())
    } else {
        Err(format!(
            "{} is not a course workspace (no Cargo.toml and src/bin/harness.rs); write one with `course init DIR`",
            dir.display()
        ))
    }
}

fn check(lab: Option<u8>, dir: &Path, json: bool) -> Result<ExitCode, String> {
    require_workspace(dir)?;
    let chosen = pick(lab)?;
    refresh(dir)?;
    if json {
        return Ok(print_json(dir, &chosen));
    }
    Ok(print_check(dir, &chosen))
}

/// `course check --json`: the report as `course grade` writes it for each student.
fn print_json(dir: &Path, chosen: &[&'static LabRecord]) -> ExitCode {
    let name = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let report = match runner::check(dir, chosen) {
        Outcome::BuildFailed(messages) => {
            let first = workspace::compile_errors(&messages)
                .first()
                .map(workspace::CompileError::describe)
                .unwrap_or_else(|| "does not compile".into());
            let labs = chosen
                .iter()
                .map(|l| LabReport::new(l, "BUILD FAILED", &first))
                .collect();
            StudentReport::new(&name, labs)
        }
        Outcome::Checked(verdicts) => runner::to_report(&name, chosen, &verdicts),
    };
    crate::say!("{}", report.json());
    if report.passed == chosen.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Checks and prints the report; the exit code says whether every lab passed.
pub fn print_check(dir: &Path, chosen: &[&'static LabRecord]) -> ExitCode {
    match runner::check(dir, chosen) {
        Outcome::BuildFailed(messages) => {
            crate::say!("{messages}");
            crate::say!(
                "BUILD FAILED: your code does not compile; the compiler's messages are above."
            );
            crate::say!("0 passed, {} failed", chosen.len());
            ExitCode::FAILURE
        }
        Outcome::Checked(verdicts) => {
            crate::say_raw!("{}", runner::report(chosen, &verdicts));
            if verdicts.iter().all(|(_, v)| v.passed()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn watch(lab: Option<u8>, dir: &Path) -> Result<ExitCode, String> {
    require_workspace(dir)?;
    let chosen = pick(lab)?;
    refresh(dir)?;
    crate::watch::watch_with(dir, &chosen, |dir, labs| {
        print_check(dir, labs);
    })
}

/// Brings a workspace up to this version of the course: the provided files (where they
/// differ) and the files of labs added since it was written (as skeletons). A student's own
/// lab files are never touched.
fn refresh(dir: &Path) -> Result<(), String> {
    let added = workspace::init(dir, &labs::all(), None)
        .map_err(|e| format!("cannot update the workspace in {}: {e}", dir.display()))?;
    for path in added {
        crate::say!("new lab: wrote {}", path.display());
    }
    Ok(())
}

fn text(lab: u8) -> Result<ExitCode, String> {
    let lab = pick(Some(lab))?[0];
    crate::say_raw!("{}", lab.files().readme);
    Ok(ExitCode::SUCCESS)
}

fn hint(lab: u8) -> Result<ExitCode, String> {
    let lab = pick(Some(lab))?[0];
    crate::say!("{}", lab.files().hints.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn list(dir: &Path) -> Result<ExitCode, String> {
    let progress = runner::read_progress(dir);
    for lab in labs::all() {
        let state = progress
            .iter()
            .find(|(n, _)| *n == lab.number())
            .map_or("not checked yet", |(_, w)| w.as_str());
        crate::say!("{:02} {:<24} {state}", lab.number(), lab.title());
    }
    let passed = progress.iter().filter(|(_, w)| w == "PASS").count();
    crate::say!(
        "{passed} of {} labs passed at their last check (run `course check` to check your code as it is now)",
        labs::all().len()
    );
    Ok(ExitCode::SUCCESS)
}

fn diagram(what: &str) -> Result<ExitCode, String> {
    if what == "numbers" {
        crate::say!("{}", crate::diagram::square_numbers());
    } else if let Some(bits) = crate::checker::parse_bitboard(what) {
        crate::say!("{}", crate::diagram::bitboard(bits));
    } else if let Some(board) = crate::diagram::board(what) {
        crate::say!("{board}");
    } else {
        return Err(format!("not a bitboard (0x...) or a FEN: {what}"));
    }
    Ok(ExitCode::SUCCESS)
}
