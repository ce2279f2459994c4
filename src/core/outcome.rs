//! How a game ends: the result and the rule that decided it. Every way a
//! game can end has one fixed message; the games name their own.

use super::Color;
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// "1-0", "0-1" or "1/2-1/2", first player's score first.
    pub fn score_text(self) -> &'static str {
        match self {
            Outcome::Win(Color::First) => "1-0",
            Outcome::Win(Color::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Decides a game by comparing two counts (pieces, captures), the first
    /// player's count first; equal counts draw.
    pub fn by_count(first: u32, second: u32) -> Outcome {
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::First),
            std::cmp::Ordering::Less => Outcome::Win(Color::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// Reads `score_text` back: `"1-0".parse() == Ok(Outcome::Win(First))`.
impl std::str::FromStr for Outcome {
    type Err = UnknownResult;
    fn from_str(s: &str) -> Result<Outcome, UnknownResult> {
        [
            Outcome::Win(Color::First),
            Outcome::Win(Color::Second),
            Outcome::Draw,
        ]
        .into_iter()
        .find(|o| o.score_text() == s)
        .ok_or(UnknownResult)
    }
}

/// A result text other than `1-0`, `0-1` or `1/2-1/2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnknownResult;

/// The rule that ended a game. Core knows the endings any game may have;
/// the rest are the games' own (`EndReason::Game`), each a constant of
/// its game with its words, listed in `Game::ENDINGS`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no legal move and loses.
    NoLegalMove,
    /// A limit on the number of moves was reached (`Game::limit_end`).
    MoveLimit,
    /// The position occurred the number of times the rules allow.
    Repetition,
    /// An ending the game's own rules define, by its message: the words a
    /// result is written with and a record's `Termination` tag (so no two
    /// endings of any games may share one unless they mean the same).
    Game(&'static str),
}

impl EndReason {
    /// The endings core knows, every game's possible ones.
    pub const GENERIC: [EndReason; 3] = [
        EndReason::NoLegalMove,
        EndReason::MoveLimit,
        EndReason::Repetition,
    ];

    pub fn message(self) -> &'static str {
        match self {
            EndReason::NoLegalMove => "no legal move",
            EndReason::MoveLimit => "move limit",
            EndReason::Repetition => "repetition",
            EndReason::Game(message) => message,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct End {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl End {
    pub const fn new(outcome: Outcome, reason: EndReason) -> End {
        End { outcome, reason }
    }

    pub const fn win(color: Color, reason: EndReason) -> End {
        End {
            outcome: Outcome::Win(color),
            reason,
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            Outcome::Win(c) => write!(
                f,
                "{} {{{} wins by {}}}",
                self.outcome.score_text(),
                c,
                self.reason
            ),
            Outcome::Draw => write!(
                f,
                "{} {{draw by {}}}",
                self.outcome.score_text(),
                self.reason
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_as_written() {
        for o in [
            Outcome::Win(Color::First),
            Outcome::Win(Color::Second),
            Outcome::Draw,
        ] {
            assert_eq!(o.score_text().parse(), Ok(o));
        }
        assert_eq!("*".parse::<Outcome>(), Err(UnknownResult));
        assert_eq!("1-0 ".parse::<Outcome>(), Err(UnknownResult));
    }
}
