//! What stops `koma openings`: a setting that cannot make a suite, rules
//! the game refuses, too many positions to list, a suite line that does
//! not replay. The words are the ones the command prints.

use crate::core::{LineError, RuleError, SetError};
use std::fmt;

#[derive(Debug)]
pub enum OpeningsError {
    /// A flag that must be at least 1 (`--positions`, `--depth`...).
    Zero(&'static str),
    /// `--plies A-B` with A > B.
    Plies { min: u32, max: u32 },
    /// `--window LO,HI` with LO > HI.
    Window { lo: i32, hi: i32 },
    /// A depth or node count of 0.
    NoSearch,
    /// `--name` not one word.
    Name(String),
    /// `--rule NAME=VALUE` refused.
    Rule { name: &'static str, error: SetError },
    /// The rule values a suite's header names, as read.
    HeaderRules(RuleError),
    /// The rules those values make.
    Rules(RuleError),
    /// More than `cap` positions at `min` to `max` plies.
    TooMany { cap: u64, min: u32, max: u32 },
    /// A line that does not replay.
    Line(LineError),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Zero(flag) => write!(f, "{flag} must be at least 1"),
            OpeningsError::Plies { min, max } => {
                write!(f, "--plies {min}-{max}: the first number is the shortest")
            }
            OpeningsError::Window { lo, hi } => {
                write!(
                    f,
                    "--window={lo},{hi}: the first number is the lowest score"
                )
            }
            OpeningsError::NoSearch => {
                f.write_str("the search needs a depth or node count of at least 1")
            }
            OpeningsError::Name(n) => write!(f, "--name {n:?}: one word, please"),
            OpeningsError::Rule { name, error } => write!(f, "--rule {name}: {error}"),
            OpeningsError::HeaderRules(e) => write!(f, "rules: {e}"),
            OpeningsError::Rules(e) => e.fmt(f),
            OpeningsError::TooMany { cap, min, max } => write!(
                f,
                "more than {cap} positions at {min} to {max} plies: use fewer plies, a larger --max-candidates or a playout"
            ),
            OpeningsError::Line(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpeningsError {}

impl From<LineError> for OpeningsError {
    fn from(e: LineError) -> OpeningsError {
        OpeningsError::Line(e)
    }
}

/// A value `koma openings` cannot read (clap prints it after the flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Not `A-B` or `N`.
    Plies(String),
    /// Not `LO,HI` within ±10000.
    Window(String),
    /// Not 4 to 40 hex digits.
    Commit(String),
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Plies(s) => write!(f, "expected A-B or N (plies), got {s}"),
            ValueError::Window(s) => write!(f, "expected LO,HI in centipawns, got {s}"),
            ValueError::Commit(s) => {
                write!(f, "expected a git commit (4 to 40 hex digits), got {s}")
            }
        }
    }
}

impl std::error::Error for ValueError {}
