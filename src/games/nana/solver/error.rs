//! What goes wrong solving Nana, loading its table or checking it: each
//! names the fault (the check's faults are positions in words, for the
//! person who reads the report).

use super::super::tablebase::{MAX_DISTANCE, TableFileError};
use std::fmt;

#[derive(Debug)]
pub enum SolveError {
    /// A distance beyond `MAX_DISTANCE` plies.
    TooDeep,
    /// `broken` predecessor updates found a class with no move left.
    Unmoves {
        broken: u64,
    },
    StartUnvalued,
    /// `count` classes disagree with their moves; the first few, described.
    Inconsistent {
        count: u64,
        first: Vec<String>,
    },
    File(TableFileError),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooDeep => write!(
                f,
                "distances beyond {MAX_DISTANCE} plies do not fit the table's bytes"
            ),
            SolveError::Unmoves { broken } => write!(
                f,
                "{broken} predecessor updates found a class with no move left: the unmoves and the move counts disagree"
            ),
            SolveError::StartUnvalued => f.write_str("the start position has no value"),
            SolveError::Inconsistent { count, first } => write!(
                f,
                "{count} inconsistent classes, first: {}",
                first.join("; ")
            ),
            SolveError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolveError {}
