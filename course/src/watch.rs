//! `course watch`: re-check on every save, as Rustlings does.

use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::checker::LabRecord;

/// How long to wait after a change for the editor's other writes (save = several events).
const SETTLE: Duration = Duration::from_millis(200);

/// Whether an event is a change to a Rust source file.
fn is_source_change(event: &notify::Event) -> bool {
    matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
    ) && event
        .paths
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "rs"))
}

/// Checks `labs` in `dir`, then again after every change to a `.rs` file under `dir/src`,
/// until interrupted. `check` prints one round's report.
pub fn watch_with(
    dir: &Path,
    labs: &[&'static LabRecord],
    mut check: impl FnMut(&Path, &[&'static LabRecord]),
) -> Result<ExitCode, String> {
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            // The receiver is gone only when watching ends.
            let _ = tx.send(event);
        }
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    let src = dir.join("src");
    watcher
        .watch(&src, RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", src.display()))?;
    loop {
        check(dir, labs);
        crate::say!("\nwatching {} for changes (Ctrl-C to stop)", src.display());
        // Block until a source file changes, then let the burst of events of one save pass.
        loop {
            let event = rx
                .recv()
                .map_err(|_| "the file watcher stopped".to_string())?;
            if is_source_change(&event) {
                break;
            }
        }
        while rx.recv_timeout(SETTLE).is_ok() {}
        crate::say!("\n---- {} changed: checking again ----\n", src.display());
    }
}
