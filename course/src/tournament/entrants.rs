//! Who plays: engine programs named after their workspace folder, named engines with their
//! arguments and UCI options (`--engine NAME=CMD option.NAME=VALUE`), and Pinmask at a handicap.

use std::path::{Path, PathBuf};

use crate::referee::EngineSpec;

/// What introduces a UCI option in `--engine`: the option's name runs to the next `=` and may
/// hold spaces (`option.Skill Level=0`); its value runs to the next ` option.`.
const OPTION: &str = " option.";

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

/// Reads `NAME=PROGRAM [ARGS...] [option.NAME=VALUE ...]`. The command is split at spaces into
/// the program and its arguments, unless the whole command names a file (a path with spaces).
/// An option without `=` is a button (`option.Clear Hash`).
///
/// # Errors
/// A sentence naming what is missing.
pub fn parse_named(text: &str) -> Result<EngineSpec, String> {
    let usage = || {
        format!(
            "--engine \"{text}\": expected NAME=PROGRAM [option.NAME=VALUE ...], \
             e.g. --engine \"sf-skill0=/usr/games/stockfish option.Skill Level=0\""
        )
    };
    let (name, rest) = text.split_once('=').ok_or_else(usage)?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_control) {
        return Err(usage());
    }
    let mut parts = rest.split(OPTION);
    let command = parts.next().unwrap_or("").trim();
    if command.is_empty() {
        return Err(usage());
    }
    let (program, args) = if Path::new(command).is_file() {
        (PathBuf::from(command), Vec::new())
    } else {
        let mut words = command.split_whitespace().map(str::to_string);
        let program = words.next().ok_or_else(usage)?;
        (PathBuf::from(program), words.collect())
    };
    let mut options = Vec::new();
    for option in parts {
        let (option, value) = match option.split_once('=') {
            Some((o, v)) => (o.trim(), Some(v.trim().to_string())),
            None => (option.trim(), None),
        };
        if option.is_empty() {
            return Err(format!(
                "--engine \"{text}\": an option without a name (write option.NAME=VALUE)"
            ));
        }
        options.push((option.to_string(), value));
    }
    Ok(EngineSpec {
        name: name.to_string(),
        program,
        args,
        options,
        sandbox: None,
    })
}

/// Pinmask's engine at `UCI_Elo` `elo`, named `pinmask-uci-elo-N`.
///
/// # Errors
/// An `elo` outside the engine's `UCI_Elo` range.
pub fn pinmask(path: &Path, elo: u32) -> Result<EngineSpec, String> {
    if !(search::ELO_MIN..=search::ELO_MAX).contains(&elo) {
        return Err(format!(
            "--elo must be within {}..={} (the engine's UCI_Elo range)",
            search::ELO_MIN,
            search::ELO_MAX
        ));
    }
    Ok(EngineSpec {
        name: format!("pinmask-uci-elo-{elo}"),
        program: path.to_path_buf(),
        args: Vec::new(),
        options: vec![
            ("UCI_LimitStrength".into(), Some("true".into())),
            ("UCI_Elo".into(), Some(elo.to_string())),
        ],
        sandbox: None,
    })
}

/// Every player: the programs in `paths` (named after their folders; a repeated name gets
/// `-2`, `-3`), then the `named` ones, then Pinmask.
///
/// # Errors
/// A malformed `--engine`, a bad `--elo`, or two players given the same name.
pub fn entrants(
    paths: &[PathBuf],
    named: &[String],
    pinmask_at: Option<(&Path, u32)>,
) -> Result<Vec<EngineSpec>, String> {
    let mut chosen: Vec<EngineSpec> = named
        .iter()
        .map(|t| parse_named(t))
        .collect::<Result<_, _>>()?;
    if let Some((path, elo)) = pinmask_at {
        chosen.push(pinmask(path, elo)?);
    }
    for (i, spec) in chosen.iter().enumerate() {
        if chosen[..i].iter().any(|s| s.name == spec.name) {
            return Err(format!("two engines are named `{}`", spec.name));
        }
    }
    let mut all: Vec<EngineSpec> = Vec::new();
    for path in paths {
        let base = engine_name(path);
        let mut name = base.clone();
        let mut n = 1;
        while all.iter().chain(&chosen).any(|s| s.name == name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        all.push(EngineSpec {
            name,
            program: path.clone(),
            args: Vec::new(),
            options: Vec::new(),
            sandbox: None,
        });
    }
    all.extend(chosen);
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_engines_by_workspace_folder() {
        assert_eq!(
            engine_name(Path::new("/s/alice/target/release/engine")),
            "alice"
        );
        assert_eq!(engine_name(Path::new("bin/stockfish")), "stockfish");
    }

    #[test]
    fn named_engines_carry_arguments_and_options_with_spaces() {
        let spec = parse_named(
            "sf-skill0=/no/such/stockfish --flag option.Skill Level=0 option.Hash = 16 option.Clear Hash",
        )
        .expect("valid");
        assert_eq!(spec.name, "sf-skill0");
        assert_eq!(spec.program, PathBuf::from("/no/such/stockfish"));
        assert_eq!(spec.args, ["--flag"]);
        assert_eq!(
            spec.options,
            [
                ("Skill Level".to_string(), Some("0".to_string())),
                ("Hash".to_string(), Some("16".to_string())),
                ("Clear Hash".to_string(), None),
            ]
        );
        for bad in [
            "",
            "noequals",
            "=prog",
            "name=",
            "name= option.X=1",
            "n=p option.=1",
        ] {
            assert!(parse_named(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pinmask_is_labelled_with_its_elo_and_names_stay_apart() {
        let all = entrants(
            &[
                "/a/x/target/release/engine".into(),
                "/b/x/target/release/engine".into(),
            ],
            &["ref=/bin/ref".into()],
            Some((Path::new("/p/engine"), 1500)),
        )
        .expect("valid");
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["x", "x-2", "ref", "pinmask-uci-elo-1500"]);
        assert_eq!(
            all[3].options,
            [
                ("UCI_LimitStrength".to_string(), Some("true".to_string())),
                ("UCI_Elo".to_string(), Some("1500".to_string())),
            ]
        );
        assert!(entrants(&[], &[], Some((Path::new("/p"), 100))).is_err());
        let twice = entrants(&[], &["a=/x".into(), "a=/y".into()], None);
        assert_eq!(twice.err().as_deref(), Some("two engines are named `a`"));
    }
}
