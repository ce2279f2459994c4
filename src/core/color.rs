//! The two sides. "First" moves first from every start position; position
//! strings write it `w`, and its pieces in upper case.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    First,
    Second,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::First, Color::Second];

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::First => Color::Second,
            Color::Second => Color::First,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used for the side to move in position strings.
    pub const fn fen_char(self) -> char {
        match self {
            Color::First => 'w',
            Color::Second => 'b',
        }
    }

    /// +1 for the first player, -1 for the second: turns a first-player score
    /// into the side's own view.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Color::First => 1,
            Color::Second => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::First => "first player",
            Color::Second => "second player",
        })
    }
}
