//! How a game ends: the result and the rule that decided it. Every way a
//! game can end is one variant with one fixed message.

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

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Captured the number of pieces the rules require (Hasami five, Kani three).
    Captures,
    /// Hasami `all`: every enemy man captured.
    AllCaptured,
    /// Hasami `lead3`: a lead of three captures at the start of the own turn.
    CaptureLead,
    /// Kani Nari Ebi: three own Shrimps on the board.
    Shrimps,
    /// Nana, Negaeri: the enemy King was captured.
    KingCaptured,
    /// The side to move has no legal move and loses.
    NoLegalMove,
    /// Hasami: the ply limit was reached, decided by captures.
    MoveLimit,
    /// The position occurred the number of times the rules allow.
    Repetition,
    /// Negaeri: two passes in a row, decided by pieces on the board.
    DoublePass,
}

impl EndReason {
    pub fn message(self) -> &'static str {
        match self {
            EndReason::Captures => "enough captures",
            EndReason::AllCaptured => "all enemy pieces captured",
            EndReason::CaptureLead => "capture lead",
            EndReason::Shrimps => "three Shrimps",
            EndReason::KingCaptured => "King captured",
            EndReason::NoLegalMove => "no legal move",
            EndReason::MoveLimit => "move limit",
            EndReason::Repetition => "repetition",
            EndReason::DoublePass => "two passes in a row",
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
