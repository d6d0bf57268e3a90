//! `course tournament`: a round robin between UCI engines through cutechess-cli, which plays
//! the games, keeps the time and writes the PGN and the crosstable.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The settings of one round robin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// The engines' executables.
    pub engines: Vec<PathBuf>,
    /// Games per pairing (colors alternate).
    pub games: u32,
    /// cutechess-cli's time control, `moves/seconds+increment`.
    pub tc: String,
    /// Where the games go.
    pub pgn: PathBuf,
    /// Pinmask's engine as one more player, limited to this Elo (`UCI_Elo`), if given.
    pub pinmask: Option<(PathBuf, u32)>,
}

/// Finds a program on `PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A display name for an engine: its workspace folder's name for `.../NAME/target/release/engine`,
/// else the file name.
pub fn engine_name(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(i) = parts.iter().rposition(|p| p == "target") {
        if i > 0 {
            return parts[i - 1].clone();
        }
    }
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The cutechess-cli arguments for `t`.
pub fn arguments(t: &Tournament) -> Vec<String> {
    let mut args = vec!["-tournament".to_string(), "round-robin".to_string()];
    let mut names: Vec<String> = Vec::new();
    for engine in &t.engines {
        let mut name = engine_name(engine);
        // Two engines of the same name would merge in the crosstable.
        while names.contains(&name) {
            name.push('\'');
        }
        names.push(name.clone());
        args.extend([
            "-engine".into(),
            format!("cmd={}", engine.display()),
            format!("name={name}"),
        ]);
    }
    if let Some((path, elo)) = &t.pinmask {
        args.extend([
            "-engine".into(),
            format!("cmd={}", path.display()),
            format!("name=pinmask-{elo}"),
            "option.UCI_LimitStrength=true".into(),
            format!("option.UCI_Elo={elo}"),
        ]);
    }
    args.extend(["-each".into(), "proto=uci".into(), format!("tc={}", t.tc)]);
    args.extend([
        "-games".into(),
        t.games.to_string(),
        "-repeat".into(),
        "-recover".into(),
    ]);
    args.extend(["-pgnout".into(), t.pgn.display().to_string()]);
    args
}

/// Checks the engines and runs the round robin through cutechess-cli.
pub fn run(t: &Tournament) -> Result<ExitCode, String> {
    let players = t.engines.len() + usize::from(t.pinmask.is_some());
    if players < 2 {
        return Err("a tournament needs at least two engines (or one and --pinmask)".into());
    }
    for engine in t.engines.iter().chain(t.pinmask.as_ref().map(|(p, _)| p)) {
        if !engine.is_file() {
            return Err(format!(
                "{} is not an engine program (build yours with `cargo build --release --bin engine`)",
                engine.display()
            ));
        }
    }
    if let Some((_, elo)) = t.pinmask {
        if !(search::ELO_MIN..=search::ELO_MAX).contains(&elo) {
            return Err(format!(
                "--elo must be within {}..={} (the engine's UCI_Elo range)",
                search::ELO_MIN,
                search::ELO_MAX
            ));
        }
    }
    if t.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let Some(cutechess) = find_program("cutechess-cli") else {
        return Err(
            "cutechess-cli is not installed (not found on PATH). Install it \
                    (https://github.com/cutechess/cutechess), then run this again."
                .into(),
        );
    };
    let status = Command::new(&cutechess)
        .args(arguments(t))
        .status()
        .map_err(|e| format!("cannot run {}: {e}", cutechess.display()))?;
    if status.success() {
        crate::say!("games in {}", t.pgn.display());
        Ok(ExitCode::SUCCESS)
    } else {
        Err(format!("cutechess-cli failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_engines_by_workspace_and_adds_pinmask_at_its_elo() {
        let t = Tournament {
            engines: vec![
                "/s/alice/target/release/engine".into(),
                "/s/bob/target/release/engine".into(),
            ],
            games: 2,
            tc: "40/10+0.1".into(),
            pgn: "out.pgn".into(),
            pinmask: Some(("/bin/pinmask".into(), 1500)),
        };
        let args = arguments(&t).join(" ");
        assert!(
            args.starts_with(
                "-tournament round-robin -engine cmd=/s/alice/target/release/engine name=alice"
            ),
            "{args}"
        );
        assert!(args.contains("name=bob"), "{args}");
        assert!(
            args.contains("name=pinmask-1500 option.UCI_LimitStrength=true option.UCI_Elo=1500"),
            "{args}"
        );
        assert!(
            args.ends_with(
                "-each proto=uci tc=40/10+0.1 -games 2 -repeat -recover -pgnout out.pgn"
            ),
            "{args}"
        );
    }
}
