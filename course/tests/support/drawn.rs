//! Diagrams in the lab texts are the course's own drawings.

use std::path::Path;

/// Fails, naming each, if a lab text lacks one of `drawings`: (lab folder, what the drawing
/// shows, the drawing), each expected as a fenced block in the lab's README.md.
pub fn assert_drawn(drawings: Vec<(&str, &str, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs");
    let mut missing = Vec::new();
    for (lab, what, drawing) in drawings {
        let text = std::fs::read_to_string(root.join(lab).join("README.md")).expect("the lab text");
        let block = format!("```\n{drawing}\n```");
        if !text.contains(&block) {
            missing.push(format!("{lab}: {what}:\n{block}"));
        }
    }
    assert!(
        missing.is_empty(),
        "lab texts lack these drawings:\n\n{}",
        missing.join("\n\n")
    );
}
