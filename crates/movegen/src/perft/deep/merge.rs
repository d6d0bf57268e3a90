//! Results of units (`index count` lines) and their exact merge into the
//! total: the sum over the units of paths times count.

use std::fmt;
use std::io::{self, BufRead};

/// Why a set of results does not give a total.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{merge, MergeError};
///
/// let paths = [2, 3];
/// assert_eq!(merge(&paths, "0 10\nx\n".as_bytes()), Err(MergeError::Line(2)));
/// assert_eq!(merge(&paths, "0 10\n0 10\n".as_bytes()), Err(MergeError::Duplicate(0)));
/// assert_eq!(merge(&paths, "5 1\n".as_bytes()), Err(MergeError::Index { line: 1, index: 5 }));
/// assert_eq!(
///     merge(&paths, "1 4\n".as_bytes()),
///     Err(MergeError::Missing { count: 1, first: 0 })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// The results could not be read (the system's message).
    Io(String),
    /// A line (1-based) that is not `index count`.
    Line(usize),
    /// A result (at a 1-based line) for a unit the units file does not have.
    Index {
        /// The line.
        line: usize,
        /// The unit index on it.
        index: usize,
    },
    /// A unit with more than one result.
    Duplicate(usize),
    /// Units without a result: how many, and the first of them.
    Missing {
        /// How many units have no result.
        count: usize,
        /// The lowest such index.
        first: usize,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MergeError::Io(ref e) => write!(f, "cannot read the results: {e}"),
            MergeError::Line(n) => write!(f, "results line {n}: expected 'index count'"),
            MergeError::Index { line, index } => {
                write!(f, "results line {line}: there is no unit {index}")
            }
            MergeError::Duplicate(i) => write!(f, "unit {i} has more than one result"),
            MergeError::Missing { count, first } => {
                write!(
                    f,
                    "{count} units have no result (the first is unit {first})"
                )
            }
        }
    }
}

impl std::error::Error for MergeError {}

impl From<io::Error> for MergeError {
    fn from(e: io::Error) -> MergeError {
        MergeError::Io(e.to_string())
    }
}

/// The line that reports unit `index`'s count (without a line break).
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{merge, result_line};
///
/// assert_eq!(result_line(7, 1234), "7 1234");
/// let results = format!("{}\n{}\n", result_line(1, 5), result_line(0, 4));
/// assert_eq!(merge(&[1, 2], results.as_bytes()), Ok(4 + 2 * 5));
/// ```
pub fn result_line(index: usize, count: u64) -> String {
    format!("{index} {count}")
}

/// Parses one results line: `Some((index, count))`, `None` for a blank line
/// or a `#` comment, `Err(())` for anything else.
fn parse_result_line(line: &str) -> Result<Option<(usize, u64)>, ()> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut words = line.split_ascii_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(i), Some(n), None) => match (i.parse(), n.parse()) {
            (Ok(i), Ok(n)) => Ok(Some((i, n))),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

/// The total of a split perft: the sum of `paths[i]` times unit `i`'s count
/// over every unit, exactly (a `u128` holds any sum of `u64` products over
/// fewer than 2^64 units).
///
/// # Errors
/// A [`MergeError`] if a line is malformed, names no unit, repeats a unit,
/// or if any unit has no result.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{merge, split};
/// use movegen::perft::perft;
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let units = split(&root, 3);
/// let paths: Vec<u64> = units.iter().map(|u| u.paths).collect();
/// // Count perft(1) below each unit, as `index count` lines in any order.
/// let results: String = units
///     .iter()
///     .enumerate()
///     .rev()
///     .map(|(i, u)| format!("{i} {}\n# a comment\n", perft(&u.position, 1)))
///     .collect();
/// assert_eq!(merge(&paths, results.as_bytes()), Ok(perft(&root, 4) as u128));
/// ```
pub fn merge(paths: &[u64], results: impl BufRead) -> Result<u128, MergeError> {
    let mut counts: Vec<Option<u64>> = vec![None; paths.len()];
    for (i, line) in results.lines().enumerate() {
        let line = line?;
        let Some((index, count)) =
            parse_result_line(&line).map_err(|()| MergeError::Line(i + 1))?
        else {
            continue;
        };
        let slot = counts
            .get_mut(index)
            .ok_or(MergeError::Index { line: i + 1, index })?;
        if slot.replace(count).is_some() {
            return Err(MergeError::Duplicate(index));
        }
    }
    let mut missing = counts.iter().enumerate().filter(|(_, c)| c.is_none());
    if let Some((first, _)) = missing.next() {
        return Err(MergeError::Missing {
            count: 1 + missing.count(),
            first,
        });
    }
    Ok(paths
        .iter()
        .zip(&counts)
        .map(|(&p, c)| p as u128 * c.expect("every unit has a count (checked above)") as u128)
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_sums_paths_times_counts_exactly() {
        let paths = [3, 1, u64::MAX];
        let results = "# a comment\n2 18446744073709551615\n0 5\n\n1 7\n";
        let total = merge(&paths, results.as_bytes()).unwrap();
        assert_eq!(total, 15 + 7 + (u64::MAX as u128) * (u64::MAX as u128));
    }

    #[test]
    fn merge_refuses_missing_duplicate_and_foreign_results() {
        let paths = [1, 1, 1, 1];
        let cases = [
            (
                "0 1\n1 1\n2 1\n",
                MergeError::Missing { count: 1, first: 3 },
            ),
            ("1 1\n3 1\n", MergeError::Missing { count: 2, first: 0 }),
            ("0 1\n1 1\n2 1\n3 1\n2 1\n", MergeError::Duplicate(2)),
            ("0 1\n4 1\n", MergeError::Index { line: 2, index: 4 }),
            ("0 1\n1 x\n", MergeError::Line(2)),
            ("0 1 2\n", MergeError::Line(1)),
            ("-1 5\n", MergeError::Line(1)),
        ];
        for (text, error) in cases {
            assert_eq!(
                merge(&paths, text.as_bytes()),
                Err(error.clone()),
                "{text:?}"
            );
        }
        assert_eq!(merge(&paths, "3 1\n2 1\n1 1\n0 1\n".as_bytes()), Ok(4));
    }
}
