//! What stops learning: a data file that cannot be read or written, a line
//! of it that is not Koma's data, too little data to fit. Each names the
//! file (and line) it is about.

use super::sample::SampleError;
use crate::eval::WeightsError;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum LearnError {
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Line `line` (from 1) of a data file.
    Line {
        path: PathBuf,
        line: usize,
        what: LineError,
    },
    /// `datagen --out` names a file made with other settings (its header
    /// line `found`).
    OtherSettings {
        path: PathBuf,
        found: String,
    },
    /// Too few positions to fit (`task`: "fit", "train").
    TooFew {
        train: usize,
        validation: usize,
        task: &'static str,
    },
    Weights(WeightsError),
    /// The game (its name) has no evaluation of weights to fit.
    NoWeights(&'static str),
}

/// What is wrong with one line of a data file.
#[derive(Debug)]
pub enum LineError {
    Sample(SampleError),
    /// The header of another game's data.
    OtherGame(String),
    /// The position is not one (its notation or its rules).
    Position(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::NoWeights(game) => {
                write!(f, "{game} has no evaluation of weights to fit")
            }
            LearnError::Read { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            LearnError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            LearnError::Line { path, line, what } => {
                write!(f, "{} line {line}: {what}", path.display())
            }
            LearnError::OtherSettings { path, found } => write!(
                f,
                "{} was made with other settings ({found:?}); give another --out or the same settings",
                path.display()
            ),
            LearnError::TooFew {
                train,
                validation,
                task,
            } => write!(
                f,
                "{train} training and {validation} validation positions: too few to {task}"
            ),
            LearnError::Weights(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Sample(e) => e.fmt(f),
            LineError::OtherGame(h) => write!(f, "data of another game ({h})"),
            LineError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LearnError {}

impl From<WeightsError> for LearnError {
    fn from(e: WeightsError) -> LearnError {
        LearnError::Weights(e)
    }
}
