//! The units file: the unique positions of a split, one per line, after a
//! header naming the root, the split depth and the total depth.
//!
//! ```text
//! # pinmask perft units
//! # root rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! # split 2
//! # depth 5
//! # paths 400
//! # units 400
//! rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR w KQkq - 0 2;1
//! ...
//! ```
//!
//! Unit lines are `FEN;paths` and are numbered from 0 in file order. FENs use
//! X-FEN castling, which names a Chess960 rook by its file where `KQkq` would
//! be ambiguous, so the file needs no Chess960 flag.

use super::split::Unit;
use crate::castling_mode::CastlingMode;
use crate::fen::FenError;
use crate::position::Position;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::ops::{Bound, Range, RangeBounds};

/// The first line of every units file.
const MAGIC: &str = "# pinmask perft units";

/// What a units file's header says.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{read_units, split, write_units};
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let mut file = Vec::new();
/// write_units(&mut file, &root, 2, 5, &split(&root, 2)).unwrap();
/// let header = read_units(file.as_slice(), ..0).unwrap().header;
/// assert_eq!(header.root, root.to_string());
/// assert_eq!((header.split, header.depth), (2, 5));
/// assert_eq!((header.paths, header.units), (400, 400));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitsHeader {
    /// The root position's FEN.
    pub root: String,
    /// The depth S at which the tree was split.
    pub split: u32,
    /// The total depth D of the perft the units add up to.
    pub depth: u32,
    /// The number of paths to depth S: perft(S) of the root.
    pub paths: u64,
    /// The number of units (unique positions at depth S).
    pub units: usize,
}

/// Why a units file was rejected.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{read_units, split, write_units, UnitsError};
/// use movegen::Position;
///
/// assert_eq!(read_units("hello\n".as_bytes(), ..).unwrap_err(), UnitsError::NotUnits);
/// let root = Position::startpos();
/// let mut file = Vec::new();
/// write_units(&mut file, &root, 1, 3, &split(&root, 1)).unwrap();
/// // A file cut short is caught by the header's unit count.
/// let text = String::from_utf8(file).unwrap();
/// let cut: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
/// assert!(matches!(
///     read_units(cut.as_bytes(), ..),
///     Err(UnitsError::Count { expected: 20, found: 4 })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitsError {
    /// The file could not be read (the system's message).
    Io(String),
    /// The first line is not the units file's header line.
    NotUnits,
    /// A header field (named) is missing or not a valid value.
    Header(&'static str),
    /// The split depth is greater than the total depth.
    SplitBelowDepth,
    /// A unit line (1-based line number) is not `FEN;paths`.
    Line(usize),
    /// A unit line (1-based line number) whose FEN is rejected.
    Fen(usize, FenError),
    /// The file has a different number of units from its header.
    Count {
        /// What the header says.
        expected: usize,
        /// What the file holds.
        found: usize,
    },
    /// The units' paths do not add up to the header's.
    Paths {
        /// What the header says.
        expected: u64,
        /// The sum over the unit lines.
        found: u128,
    },
    /// A range of units that ends past the last unit or before its start.
    Range {
        /// The start asked for.
        from: usize,
        /// The end asked for (exclusive).
        to: usize,
        /// The number of units in the file.
        units: usize,
    },
}

impl fmt::Display for UnitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitsError::Io(e) => write!(f, "cannot read the units file: {e}"),
            UnitsError::NotUnits => write!(f, "not a units file (no '{MAGIC}' line first)"),
            UnitsError::Header(field) => {
                write!(f, "units header: '# {field}' is missing or invalid")
            }
            UnitsError::SplitBelowDepth => {
                f.write_str("units header: the split depth is beyond the total depth")
            }
            UnitsError::Line(n) => write!(f, "units line {n}: expected 'FEN;paths'"),
            UnitsError::Fen(n, e) => write!(f, "units line {n}: invalid FEN: {e}"),
            UnitsError::Count { expected, found } => write!(
                f,
                "the header promises {expected} units but the file holds {found} (truncated?)"
            ),
            UnitsError::Paths { expected, found } => write!(
                f,
                "the units' paths add up to {found}, the header says {expected}"
            ),
            UnitsError::Range { from, to, units } => write!(
                f,
                "unit range {from}..{to} does not fit in 0..{units} (from <= to <= units)"
            ),
        }
    }
}

impl std::error::Error for UnitsError {}

impl From<io::Error> for UnitsError {
    fn from(e: io::Error) -> UnitsError {
        UnitsError::Io(e.to_string())
    }
}

/// Writes the units of `root` split at depth `split`, for a perft of total
/// depth `depth`, as a units file.
///
/// # Errors
/// Whatever writing to `out` returns.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{split, write_units};
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let mut out = Vec::new();
/// write_units(&mut out, &root, 1, 4, &split(&root, 1)).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("# pinmask perft units\n"));
/// assert!(text.contains("# units 20\n"));
/// assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 20);
/// ```
pub fn write_units(
    out: &mut impl Write,
    root: &Position,
    split: u32,
    depth: u32,
    units: &[Unit],
) -> io::Result<()> {
    let paths: u64 = units.iter().map(|u| u.paths).sum();
    writeln!(out, "{MAGIC}")?;
    // X-FEN whatever the position's castling mode, as the format says.
    writeln!(out, "# root {}", root.fen_with(CastlingMode::Standard))?;
    writeln!(out, "# split {split}")?;
    writeln!(out, "# depth {depth}")?;
    writeln!(out, "# paths {paths}")?;
    writeln!(out, "# units {}", units.len())?;
    for unit in units {
        let fen = unit.position.fen_with(CastlingMode::Standard);
        writeln!(out, "{fen};{}", unit.paths)?;
    }
    Ok(())
}

/// A units file as read: the header, the positions of the units asked for
/// (with their indices) and the paths of every unit.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{read_units, split, write_units, UnitsFile};
/// use movegen::Position;
///
/// let root = Position::startpos();
/// let mut file = Vec::new();
/// write_units(&mut file, &root, 1, 3, &split(&root, 1)).unwrap();
/// let read: UnitsFile = read_units(file.as_slice(), 5..7).unwrap();
/// assert_eq!(read.positions.len(), 2);
/// assert_eq!(read.positions[0].0, 5);
/// assert_eq!(read.paths, vec![1; 20]);
/// ```
#[derive(Clone, Debug)]
pub struct UnitsFile {
    /// The header.
    pub header: UnitsHeader,
    /// The units in the range asked for, as (index, position).
    pub positions: Vec<(usize, Position)>,
    /// The paths of every unit, by index.
    pub paths: Vec<u64>,
}

/// Reads a units file, parsing the FENs of the units in `range` only (a
/// merge needs none, a batch a few; `..` is all), and checks the whole file
/// against its header: the unit count and the sum of paths.
///
/// # Errors
/// A [`UnitsError`] naming the line and the problem.
///
/// # Examples
///
/// ```
/// use movegen::perft::deep::{count_units, merge, read_units, result_line, split, write_units};
/// use movegen::perft::Perft;
/// use movegen::Position;
///
/// // The three steps of a split perft, in one process here.
/// let root = Position::startpos();
/// let mut file = Vec::new();
/// write_units(&mut file, &root, 2, 4, &split(&root, 2)).unwrap();
/// let units = read_units(file.as_slice(), ..).unwrap();
/// let mut results = String::new();
/// count_units(&units.positions, Perft::new(2), |i, n| {
///     results += &result_line(i, n);
///     results.push('\n');
///     true
/// });
/// assert_eq!(merge(&units.paths, results.as_bytes()), Ok(197_281));
/// ```
pub fn read_units(
    input: impl BufRead,
    range: impl RangeBounds<usize>,
) -> Result<UnitsFile, UnitsError> {
    let mut lines = input.lines().enumerate();
    let mut next_line = || lines.next().map(|(i, l)| l.map(|l| (i + 1, l)));
    match next_line().transpose()? {
        Some((_, first)) if first.trim_end() == MAGIC => {}
        _ => return Err(UnitsError::NotUnits),
    }
    let mut fields: [Option<String>; 5] = Default::default();
    const NAMES: [&str; 5] = ["root", "split", "depth", "paths", "units"];
    let mut first_unit = None;
    while let Some((n, line)) = next_line().transpose()? {
        let Some(comment) = line.strip_prefix('#') else {
            first_unit = Some((n, line));
            break;
        };
        let (name, value) = comment
            .trim()
            .split_once(' ')
            .unwrap_or((comment.trim(), ""));
        if let Some(i) = NAMES.iter().position(|&k| k == name) {
            fields[i] = Some(value.trim().to_owned());
        }
    }
    let header = parse_header(fields.map(|f| f.unwrap_or_default()))?;
    let range = resolve(range, header.units)?;
    // The header's count is only a hint until the lines are counted.
    let capacity = header.units.min(1 << 20);
    let mut file = UnitsFile {
        header,
        positions: Vec::with_capacity(range.len().min(capacity)),
        paths: Vec::with_capacity(capacity),
    };
    let mut line = first_unit;
    while let Some((n, text)) = line.take() {
        let text = text.trim();
        if !text.is_empty() && !text.starts_with('#') {
            let (fen, paths) = text.rsplit_once(';').ok_or(UnitsError::Line(n))?;
            let paths: u64 = paths.trim().parse().map_err(|_| UnitsError::Line(n))?;
            let index = file.paths.len();
            if range.contains(&index) {
                let pos = Position::from_fen(fen).map_err(|e| UnitsError::Fen(n, e))?;
                file.positions.push((index, pos));
            }
            file.paths.push(paths);
        }
        line = next_line().transpose()?;
    }
    check_totals(&file)?;
    Ok(file)
}

/// The indices `range` names in a file of `units` units.
fn resolve(range: impl RangeBounds<usize>, units: usize) -> Result<Range<usize>, UnitsError> {
    let from = match range.start_bound() {
        Bound::Included(&i) => i,
        Bound::Excluded(&i) => i.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let to = match range.end_bound() {
        Bound::Included(&i) => i.saturating_add(1),
        Bound::Excluded(&i) => i,
        Bound::Unbounded => units,
    };
    if from > to || to > units {
        return Err(UnitsError::Range { from, to, units });
    }
    Ok(from..to)
}

fn parse_header(fields: [String; 5]) -> Result<UnitsHeader, UnitsError> {
    let [root, split, depth, paths, units] = fields;
    Position::from_fen(&root).map_err(|_| UnitsError::Header("root"))?;
    let header = UnitsHeader {
        root,
        split: split.parse().map_err(|_| UnitsError::Header("split"))?,
        depth: depth.parse().map_err(|_| UnitsError::Header("depth"))?,
        paths: paths.parse().map_err(|_| UnitsError::Header("paths"))?,
        units: units.parse().map_err(|_| UnitsError::Header("units"))?,
    };
    if header.split > header.depth {
        return Err(UnitsError::SplitBelowDepth);
    }
    Ok(header)
}

fn check_totals(file: &UnitsFile) -> Result<(), UnitsError> {
    let header = &file.header;
    if file.paths.len() != header.units {
        return Err(UnitsError::Count {
            expected: header.units,
            found: file.paths.len(),
        });
    }
    let sum: u128 = file.paths.iter().map(|&p| p as u128).sum();
    if sum != header.paths as u128 {
        return Err(UnitsError::Paths {
            expected: header.paths,
            found: sum,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::deep::split::split;

    fn written(root: &Position, s: u32, d: u32) -> String {
        let mut out = Vec::new();
        write_units(&mut out, root, s, d, &split(root, s)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn units_round_trip_through_the_file() {
        let root = Position::startpos();
        let text = written(&root, 3, 5);
        let units = split(&root, 3);
        let file = read_units(text.as_bytes(), 10..20).unwrap();
        assert_eq!(file.header.split, 3);
        assert_eq!(file.header.depth, 5);
        assert_eq!(file.header.paths, 8902);
        assert_eq!(file.header.units, units.len());
        assert_eq!(
            file.paths,
            units.iter().map(|u| u.paths).collect::<Vec<_>>()
        );
        let expected: Vec<(usize, Position)> = (10..20).map(|i| (i, units[i].position)).collect();
        assert_eq!(file.positions, expected);
    }

    #[test]
    fn bad_files_are_rejected_with_their_reason() {
        let good = written(&Position::startpos(), 1, 3);
        let lines: Vec<&str> = good.lines().collect();
        let edit = |i: usize, with: &str| {
            let mut l = lines.clone();
            l[i] = with;
            l.join("\n")
        };
        let cases: Vec<(String, UnitsError)> = vec![
            (String::new(), UnitsError::NotUnits),
            (
                good.replacen("# root", "# rot", 1),
                UnitsError::Header("root"),
            ),
            (edit(2, "# split x"), UnitsError::Header("split")),
            (edit(2, "# split 4"), UnitsError::SplitBelowDepth),
            (edit(6, "not a unit line"), UnitsError::Line(7)),
            (
                edit(6, "8/8/8/8/8/8/8/8 w - - 0 1;1"),
                UnitsError::Fen(7, FenError::KingCount(crate::Color::White, 0)),
            ),
            (
                lines[..lines.len() - 1].join("\n"),
                UnitsError::Count {
                    expected: 20,
                    found: 19,
                },
            ),
            (
                good.replacen(";1\n", ";2\n", 1),
                UnitsError::Paths {
                    expected: 20,
                    found: 21,
                },
            ),
        ];
        for (text, error) in cases {
            let got = read_units(text.as_bytes(), 0..20).map(|_| ());
            assert_eq!(got, Err(error.clone()), "{error}");
        }
        assert_eq!(
            read_units(good.as_bytes(), 5..21).map(|_| ()),
            Err(UnitsError::Range {
                from: 5,
                to: 21,
                units: 20
            })
        );
        assert_eq!(
            read_units(good.as_bytes(), (Bound::Included(6), Bound::Excluded(5))).map(|_| ()),
            Err(UnitsError::Range {
                from: 6,
                to: 5,
                units: 20
            })
        );
        assert_eq!(
            read_units(good.as_bytes(), 19..).unwrap().positions.len(),
            1
        );
    }
}
