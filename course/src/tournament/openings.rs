//! The start positions of the games: the course's own file (`course/openings.epd`, built in)
//! or an EPD or FEN file given with `--openings`, read by the same reader as `engine datagen`'s.

use std::fs;
use std::path::Path;

use movegen::Position;

/// The built-in openings: 36 short main lines (see the file's header).
pub const BUILT_IN: &str = include_str!("../../openings.epd");

/// The openings of `path`, or the built-in ones.
///
/// # Errors
/// A file that cannot be read, or has a line that is not a position a game can start from,
/// or no position at all.
pub fn load(path: Option<&Path>) -> Result<Vec<Position>, String> {
    let Some(path) = path else {
        return search::datagen::parse_openings(BUILT_IN)
            .map_err(|e| format!("the built-in openings are broken: {e}"));
    };
    let text = fs::read_to_string(path)
        .map_err(|e| format!("cannot read the openings file {}: {e}", path.display()))?;
    search::datagen::parse_openings(&text).map_err(|e| {
        format!(
            "{} is not an openings file (EPD or FEN lines): {e}",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Game;

    /// Each built-in line's position is the one its `c0` moves reach from the start, with the
    /// clocks its `hmvc` and `fmvn` say.
    #[test]
    fn the_built_in_openings_are_the_lines_they_name() {
        let positions = load(None).expect("the built-in file reads");
        let lines: Vec<&str> = BUILT_IN
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        assert_eq!(positions.len(), 36);
        assert_eq!(lines.len(), positions.len());
        for (line, pos) in lines.iter().zip(&positions) {
            let op = |name: &str| {
                let start = line.find(&format!(" {name} ")).expect(name) + name.len() + 2;
                line[start..]
                    .split(';')
                    .next()
                    .expect("ends")
                    .trim_matches('"')
            };
            let mut game = Game::default();
            for mv in op("c0").split(' ') {
                game.play_uci(mv).expect(line);
            }
            let reached = game.position();
            let four = |fen: String| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
            assert_eq!(four(reached.fen()), four(pos.fen()), "{line}");
            assert_eq!(reached.halfmove_clock().to_string(), op("hmvc"), "{line}");
            assert_eq!(reached.fullmove_number().to_string(), op("fmvn"), "{line}");
            let score: i32 = op("ce").parse().expect("a score");
            assert!(score.abs() <= 70, "{line}");
        }
    }

    #[test]
    fn a_bad_openings_file_is_one_clear_error() {
        let dir = std::env::temp_dir().join(format!("course-openings-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let bad = dir.join("bad.epd");
        fs::write(
            &bad,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
        )
        .expect("writable");
        let err = load(Some(&bad)).expect_err("line 2 is not a position");
        assert!(
            err.contains("bad.epd is not an openings file") && err.contains("line 2"),
            "{err}"
        );
        let err = load(Some(&dir.join("missing.epd"))).expect_err("no file");
        assert!(err.starts_with("cannot read the openings file"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }
}
