//! A position's value in a review, from the first player's view: what the
//! engine said (centipawns or mate) or how the game ended there; the review,
//! its accuracy figures and the record's `Analysis` tag all read it.

use crate::core::Color;
use crate::protocol::InfoScore;
use serde::Serialize;
use std::fmt;

/// Scores are clamped to this for drops and the graph, a mate or a won game
/// counting as `CLAMP`.
pub const CLAMP: i32 = 1000;

/// A position's value from the first player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    Cp(i32),
    /// Moves to mate: positive when the first player mates.
    Mate(i32),
    /// The game is over here: 1 the first player won, -1 the second, 0 a draw.
    End(i8),
}

impl Eval {
    /// From the side to move's view (`score`, `mover`) to the first
    /// player's.
    pub(super) fn of(score: InfoScore, mover: Color) -> Eval {
        let s = if mover == Color::First { 1 } else { -1 };
        match score {
            InfoScore::Cp(v) => Eval::Cp(v.saturating_mul(s)),
            InfoScore::Mate(m) => Eval::Mate(m.saturating_mul(s)),
        }
    }

    /// Centipawns clamped to `CLAMP`, for drops and the graph.
    pub fn clamped(self) -> i32 {
        match self {
            Eval::Cp(v) => v.clamp(-CLAMP, CLAMP),
            Eval::Mate(m) if m >= 0 => CLAMP,
            Eval::Mate(_) => -CLAMP,
            Eval::End(w) => i32::from(w) * CLAMP,
        }
    }

    pub(super) fn parse(s: &str) -> Option<Eval> {
        match s {
            "1-0" => Some(Eval::End(1)),
            "0-1" => Some(Eval::End(-1)),
            "1/2" => Some(Eval::End(0)),
            _ => match s.strip_prefix('#') {
                Some(m) => m.parse().ok().map(Eval::Mate),
                None => s.parse().ok().map(Eval::Cp),
            },
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Cp(v) => write!(f, "{v:+}"),
            Eval::Mate(m) => write!(f, "#{m}"),
            Eval::End(1) => f.write_str("1-0"),
            Eval::End(-1) => f.write_str("0-1"),
            Eval::End(_) => f.write_str("1/2"),
        }
    }
}
