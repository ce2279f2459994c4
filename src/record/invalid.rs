//! Why a record is not valid, by the stage of the replay check that
//! found it: its tags, its rules, its start and moves, its end. The words
//! are those `koma-referee --replay` prints.

use super::adjudicate::AdjudicationError;
use crate::client::reason::Reason;
use crate::core::{End, EndReason, LineError, Outcome, RuleError};
use crate::protocol::ParseError;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    Tag(TagError),
    Rules(RuleError),
    Fen(ParseError),
    Line(LineError),
    End(EndError),
}

/// A tag wrong before the game is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    TwoTags(String),
    /// A number tag that is not plain digits of at least `min`.
    NotWhole {
        name: &'static str,
        value: String,
        min: u64,
    },
    /// A number tag with an upper bound, outside `min..=max`.
    OutOfRange {
        name: &'static str,
        value: String,
        min: u64,
        max: u64,
    },
    /// A `Game` tag past the games of the match its command describes.
    PastTheMatch {
        game: u64,
        total: u64,
    },
    BadShard(String),
    PlyCount {
        said: u64,
        moves: usize,
    },
    OpeningPlies {
        said: u64,
        moves: usize,
    },
    NoVariant,
    UnknownVariant(String),
    /// The `Result` tag and the movetext's result differ.
    ResultDiffers {
        tag: String,
        movetext: String,
    },
    NoResult(String),
    NoTermination,
    UnknownTermination(String),
}

/// A recorded end the final position or the move comments deny.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndError {
    /// The record's end by the rules is not the rules' verdict.
    NotTheRulesEnd {
        outcome: Outcome,
        reason: EndReason,
        end: End,
    },
    NotOver(EndReason),
    /// A failure or adjudication recorded after the rules' end.
    AlreadyOver {
        reason: Reason,
        end: End,
    },
    PlyLimitNotDrawn,
    /// A tablebase adjudication without a readable `TablebaseAdjudication` tag.
    NoTablebaseRule,
    BeforeThePlyLimit {
        plies: usize,
        max: u64,
    },
    MustBeDrawn(Reason),
    CannotBeDrawn(Reason),
    /// The `DrawAdjudication` or `ResignAdjudication` tag cannot be read.
    Adjudication(AdjudicationError),
    NotCalled(Reason),
    /// The scores call for another adjudication, or elsewhere.
    CalledOtherwise {
        outcome: Outcome,
        reason: Reason,
        plies: usize,
        called: (Outcome, Reason),
        ply: usize,
    },
    /// The scores call for an adjudication before the recorded end.
    CalledBefore {
        called: Reason,
        ply: usize,
        reason: Reason,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Tag(e) => e.fmt(f),
            RecordError::Rules(e) => e.fmt(f),
            RecordError::Fen(e) => write!(f, "FEN: {e}"),
            RecordError::Line(e) => e.fmt(f),
            RecordError::End(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TagError::*;
        match self {
            TwoTags(name) => write!(f, "two {name} tags"),
            NotWhole { name, value, min } => {
                write!(f, "{name} {value:?} is not a whole number of {min} or more")
            }
            OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "{name} {value:?} is not a whole number from {min} to {max}"
            ),
            PastTheMatch { game, total } => write!(f, "game {game} of a match of {total} games"),
            BadShard(v) => write!(f, "Shard {v:?} is not I/N with 1 <= I <= N"),
            PlyCount { said, moves } => {
                write!(f, "PlyCount says {said}, the record has {moves} moves")
            }
            OpeningPlies { said, moves } => {
                write!(f, "OpeningPlies says {said}, the record has {moves} moves")
            }
            NoVariant => f.write_str("no Variant tag"),
            UnknownVariant(v) => write!(f, "unknown variant {v}"),
            ResultDiffers { tag, movetext } => {
                write!(f, "the Result tag says {tag}, the movetext {movetext}")
            }
            NoResult(r) => write!(f, "no result ({r})"),
            NoTermination => f.write_str("no Termination tag"),
            UnknownTermination(t) => write!(f, "unknown Termination {t}"),
        }
    }
}

impl fmt::Display for EndError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EndError::*;
        match self {
            NotTheRulesEnd {
                outcome,
                reason,
                end,
            } => write!(
                f,
                "recorded {} {}, the rules give {end}",
                outcome.score_text(),
                reason.message()
            ),
            NotOver(reason) => write!(
                f,
                "recorded an end by {}, but the game is not over",
                reason.message()
            ),
            AlreadyOver { reason, end } => write!(
                f,
                "recorded {}, but the rules had ended the game ({end})",
                reason.message()
            ),
            PlyLimitNotDrawn => f.write_str("a ply-limit adjudication must be a draw"),
            NoTablebaseRule => f.write_str(
                "a tablebase adjudication needs a TablebaseAdjudication tag (pieces=N|all mode=WIN_LOSS|DRAW|BOTH)",
            ),
            BeforeThePlyLimit { plies, max } => {
                write!(f, "adjudicated at {plies} plies, before the limit of {max}")
            }
            MustBeDrawn(reason) => write!(f, "a {} must be a draw", reason.message()),
            CannotBeDrawn(reason) => write!(f, "{} cannot be a draw", reason.message()),
            Adjudication(e) => e.fmt(f),
            NotCalled(reason) => write!(
                f,
                "recorded {}, but the scores in the move comments do not call for it",
                reason.message()
            ),
            CalledOtherwise {
                outcome,
                reason,
                plies,
                called,
                ply,
            } => write!(
                f,
                "recorded {} {} at ply {plies}, the scores in the move comments give {} {} at ply {ply}",
                outcome.score_text(),
                reason.message(),
                called.0.score_text(),
                called.1.message()
            ),
            CalledBefore {
                called,
                ply,
                reason,
            } => write!(
                f,
                "the scores in the move comments call for {} at ply {ply}, but the game went on to {}",
                called.message(),
                reason.message()
            ),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<TagError> for RecordError {
    fn from(e: TagError) -> RecordError {
        RecordError::Tag(e)
    }
}

impl From<RuleError> for RecordError {
    fn from(e: RuleError) -> RecordError {
        RecordError::Rules(e)
    }
}

impl From<EndError> for RecordError {
    fn from(e: EndError) -> RecordError {
        RecordError::End(e)
    }
}
