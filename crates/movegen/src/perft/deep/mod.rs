//! Perft too deep for one machine, in three steps that may run anywhere:
//! [`split`] the tree at depth S into unique positions with their paths
//! (written as a units file by [`write_units`], read back by
//! [`read_units`]), count perft(D - S) below ranges of those units
//! ([`count_units`], reporting `index count` lines made by
//! [`result_line`]), and [`merge`] the results into the exact total.
//!
//! The engine's `engine perft split | units | merge` and
//! `scripts/perft-dask` are built on these; docs/deep-perft.md describes
//! the workflow and the file formats.
//!
//! ```
//! use movegen::perft::deep::{count_units, merge, split};
//! use movegen::perft::{perft, Perft};
//! use movegen::Position;
//!
//! let root = Position::startpos();
//! let units = split(&root, 2);
//! let numbered: Vec<(usize, Position)> =
//!     units.iter().enumerate().map(|(i, u)| (i, u.position)).collect();
//! let mut results = String::new();
//! count_units(&numbered, Perft::new(2), |i, n| {
//!     results += &format!("{i} {n}\n");
//!     true
//! });
//! let paths: Vec<u64> = units.iter().map(|u| u.paths).collect();
//! assert_eq!(merge(&paths, results.as_bytes()), Ok(perft(&root, 4) as u128));
//! ```

mod batch;
mod merge;
mod split;
mod units;

pub use batch::count_units;
pub use merge::{merge, result_line, MergeError};
pub use split::{split, Unit};
pub use units::{read_units, write_units, UnitsError, UnitsFile, UnitsHeader};
