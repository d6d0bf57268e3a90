//! The course's modules import one way: the process driver, the student's harness, the lab
//! record and its check helpers, the oracle helpers, the labs, the workspace, the runner,
//! grading and the command line, each using only those before it. This test reads every
//! module's `crate::` paths (its `use` lines and the paths written in its code) and fails on
//! a circle, naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// References that close a circle today and are on their way out, as (file, path): lab 12
/// names the workspace's engine binary text. Its owner moves that text beside the lab (an
/// `include_str!` of its own); then this entry goes.
const LEAVING: &[(&str, &str)] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The crate's top-level modules, from `lib.rs`'s `pub mod NAME;` lines.
fn modules() -> Vec<String> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("lib.rs reads");
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The files of module `name`: `name.rs` and everything under `name/`.
fn files_of(name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        files.push(file);
    }
    let mut dirs = vec![src().join(name)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The code of a file without its comment lines (doc links are not imports).
fn code(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first names after each `crate::` in `code`: `crate::a::b` gives `a`, and
/// `use crate::{a, b::c}` gives `a` and `b`.
fn crate_names(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The names at the group's first level.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        names.insert(ident(&group[i..]));
                        start = false;
                    }
                    c if !c.is_whitespace() => start = false,
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// Who imports whom: each module and the other modules it names, with the file that does.
fn import_map() -> BTreeMap<String, BTreeMap<String, String>> {
    let modules = modules();
    let known: BTreeSet<&str> = modules.iter().map(String::as_str).collect();
    let mut map = BTreeMap::new();
    for module in &modules {
        let mut uses = BTreeMap::new();
        for file in files_of(module) {
            let text = fs::read_to_string(&file).expect("a source file reads");
            let shown = file
                .strip_prefix(src())
                .expect("under src")
                .display()
                .to_string();
            for name in crate_names(&code(&text)) {
                let leaving = LEAVING.iter().any(|&(f, n)| f == shown && n == name);
                if name != *module && known.contains(name.as_str()) && !leaving {
                    uses.entry(name).or_insert(shown.clone());
                }
            }
        }
        map.insert(module.clone(), uses);
    }
    map
}

/// A circle in `map`, as the modules along it, if there is one.
fn circle(map: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        module: &str,
        map: &BTreeMap<String, BTreeMap<String, String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(module) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = path
                    .iter()
                    .position(|m| m == module)
                    .expect("open is on the path");
                let mut found = path[from..].to_vec();
                found.push(module.to_string());
                return Some(found);
            }
            None => {}
        }
        marks.insert(module.to_string(), Mark::Open);
        path.push(module.to_string());
        for next in map.get(module).into_iter().flat_map(|u| u.keys()) {
            if let Some(found) = visit(next, map, marks, path) {
                return Some(found);
            }
        }
        path.pop();
        marks.insert(module.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    map.keys()
        .find_map(|m| visit(m, map, &mut marks, &mut Vec::new()))
}

#[test]
fn the_modules_import_one_way() {
    let map = import_map();
    assert!(map.contains_key("checker") && map.contains_key("process"));
    if let Some(found) = circle(&map) {
        let steps: Vec<String> = found
            .windows(2)
            .map(|w| format!("{} -> {} (in {})", w[0], w[1], map[&w[0]][&w[1]]))
            .collect();
        panic!("an import circle: {}", steps.join(", "));
    }
}

#[test]
fn the_driver_and_the_harness_sit_below_the_labs() {
    let map = import_map();
    let below = |module: &str, others: &[&str]| {
        for other in others {
            assert!(
                !map[module].contains_key(*other),
                "{module} imports {other} (in {}), which is above it",
                map[module][*other]
            );
        }
    };
    let above_student = ["checker", "labs", "workspace", "runner", "grade", "cli"];
    below("process", &["student", "referee", "tournament"]);
    below("process", &above_student);
    below("student", &above_student);
    below("verdict", &above_student);
    below("checker", &["labs", "workspace", "runner", "grade", "cli"]);
}

#[test]
fn the_reader_finds_grouped_and_inline_paths() {
    let names =
        crate_names("use crate::{labs, workspace::Solutions};\nlet x = crate::grade::merge();");
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(names, ["grade", "labs", "workspace"]);
    let map: BTreeMap<String, BTreeMap<String, String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(m, u)| (m.into(), [(u.to_string(), String::new())].into()))
        .collect();
    assert_eq!(
        circle(&map),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

/// The harness tells a lab's own unwritten function from an earlier lab's by the file of the
/// `todo!()`: a lab's module is `labNN_<name>`.
#[test]
fn every_lab_module_is_named_after_its_number() {
    for lab in course::labs::all() {
        let prefix = format!("lab{:02}_", lab.number());
        assert!(
            lab.module().starts_with(&prefix),
            "lab {}'s module `{}` does not start with `{prefix}`",
            lab.number(),
            lab.module()
        );
    }
}
