//! A board coordinate as written in text: file letter from `a`, rank number
//! from 1, both seen from the first player's side. Each game maps it to its
//! own square type after checking it lies on its board.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// 0 = file `a`.
    pub file: u8,
    /// 0 = rank `1`.
    pub rank: u8,
}

impl Coord {
    pub const fn new(file: u8, rank: u8) -> Coord {
        Coord { file, rank }
    }

    pub fn on_board(self, files: u8, ranks: u8) -> bool {
        self.file < files && self.rank < ranks
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank as u32 + 1)
    }
}
