//! Why a position string was refused, as a value callers can match on: the
//! faults every game shares have their own variant, and the words a person
//! reads are built only by `Display` (the protocol and referee print them).

use super::{Coord, PieceText};
use std::fmt;

/// Where a refused piece was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Square(Coord),
    Hand,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Square(c) => write!(f, "on {c}"),
            Place::Hand => f.write_str("in hand"),
        }
    }
}

/// Why a position string was refused, in words that name the offending part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The board has the wrong number of ranks.
    Ranks { found: usize, expected: u8 },
    /// A rank (numbered as written, 1 at the bottom) has the wrong number of files.
    Files {
        rank: usize,
        found: usize,
        expected: u8,
    },
    /// A piece letter the game does not have; `known` lists the ones it has.
    UnknownPiece {
        piece: PieceText,
        place: Place,
        known: &'static str,
    },
    /// A piece of the game written where or how the game never writes it
    /// (a `+` it does not take, a piece that is never in hand); `why` says so.
    Miswritten {
        piece: PieceText,
        place: Place,
        why: &'static str,
    },
    /// A hand in the string of a game without hands.
    NoHand { game: &'static str },
    /// The move number is below 1 or above `max`.
    MoveNumber { max: Option<u32> },
    /// Not the counters the game writes; `expected` names them.
    Counters {
        game: &'static str,
        expected: &'static str,
    },
    /// More pieces than the game's set holds, in the game's words.
    TooMany(String),
    /// A position no game reaches (the side that just moved has lost, a
    /// pass that could not have been played...), in the game's words.
    Unreachable(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Ranks { found, expected } => {
                write!(f, "board has {found} ranks, expected {expected}")
            }
            PositionError::Files {
                rank,
                found,
                expected,
            } => write!(f, "rank {rank} has {found} files, expected {expected}"),
            PositionError::UnknownPiece {
                piece,
                place,
                known,
            } => write!(f, "unknown piece {piece} {place}: {known}"),
            PositionError::Miswritten { piece, place, why } => {
                write!(f, "{piece} {place}: {why}")
            }
            PositionError::NoHand { game } => write!(f, "{game} has no pieces in hand"),
            PositionError::MoveNumber { max: None } => f.write_str("the move number starts at 1"),
            PositionError::MoveNumber { max: Some(max) } => {
                write!(f, "the move number is from 1 to {max}")
            }
            PositionError::Counters { game, expected } => {
                write!(f, "{game} position strings have {expected}")
            }
            PositionError::TooMany(words) | PositionError::Unreachable(words) => f.write_str(words),
        }
    }
}

impl std::error::Error for PositionError {}
