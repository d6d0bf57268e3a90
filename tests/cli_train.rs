//! `engine train` on the command line: a network trained on a small
//! datagen file is a valid network file, the same on one thread and two;
//! bad arguments and bad data get a message and a non-zero exit, and leave
//! no file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    let mut path = std::env::temp_dir();
    path.push(format!("pinmask-train-{}-{name}", std::process::id()));
    path
}

fn engine(args: &[&str], paths: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .args(paths)
        .output()
        .expect("the engine binary runs")
}

fn part(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

#[test]
fn a_trained_network_loads_and_bad_input_is_refused() {
    let data = temp("data.bin");
    let made = engine(
        &[
            "datagen", "--games", "30", "--nodes", "300", "--seed", "4", "-o",
        ],
        &[&data],
    );
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );

    let (a, b) = (temp("a.nnue"), temp("b.nnue"));
    let args = ["train", "--epochs", "3", "--batch", "256", "--lr", "0.005"];
    let first = engine(
        &[&args[..], &["--threads", "1", "-o"]].concat(),
        &[&a, &data],
    );
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    for line in ["K ", "epoch   1", "epoch   3", "quantisation", "positions"] {
        assert!(stdout.contains(line), "no {line:?} in\n{stdout}");
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes.len(), search::nnue::FILE_BYTES);
    let net = search::nnue::Network::from_bytes(&bytes).expect("the network loads");
    assert!((50..=1000).contains(&net.scale()), "{net:?}");
    assert!(!part(&a).exists(), "the part file is renamed at the end");

    let second = engine(
        &[&args[..], &["--threads", "2", "-o"]].concat(),
        &[&b, &data],
    );
    assert!(second.status.success());
    assert_eq!(
        std::fs::read(&b).unwrap(),
        bytes,
        "the same bytes on one thread and two"
    );

    let odd = temp("odd.bin");
    let mut cut = std::fs::read(&data).unwrap();
    cut.pop();
    std::fs::write(&odd, &cut).unwrap();
    let empty = temp("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let missing = temp("missing.bin");
    let out = temp("never.nnue");
    let cases: [(&[&str], &Path, &str); 7] = [
        (&["--epochs", "0"], &data, "--epochs"),
        (&["--lambda", "1.5"], &data, "lambda"),
        (&["--lambda", "-0.1"], &data, "lambda"),
        (&["--valid", "1"], &data, "validation"),
        (&[], &missing, "cannot read"),
        (&[], &empty, "is empty"),
        (&[], &odd, "not a whole number"),
    ];
    let no_data = engine(&["train", "-o"], &[&out]);
    assert!(!no_data.status.success(), "training without data succeeded");
    for (extra, input, message) in cases {
        let result = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["train", "--epochs", "1"])
            .args(extra)
            .arg("-o")
            .arg(&out)
            .arg(input)
            .output()
            .expect("the engine binary runs");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{extra:?} {input:?} succeeded");
        assert!(stderr.contains("error"), "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?} wrote a file");
        assert!(!part(&out).exists(), "{extra:?} left a part file");
    }
    for path in [&data, &a, &b, &odd, &empty] {
        let _ = std::fs::remove_file(path);
    }
}
