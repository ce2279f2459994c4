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

/// Stamps a game's `Square` (an index `rank * files + file`, always on the
/// board: constructed only from checked coordinates or set bits) and
/// `squares`, the squares of a bitboard lowest first. One definition for
/// the four games, whose boards differ only in size and bitboard type; a
/// game adds its own methods in a second `impl Square`.
macro_rules! square_type {
    (files: $files:expr, ranks: $ranks:expr, bitboard: $bb:ty) => {
        /// A square index: `rank * FILES + file`, always on the board.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct Square(u8);

        impl Square {
            /// `file` and `rank` from 0, on the board.
            #[inline]
            pub const fn new(file: u8, rank: u8) -> Square {
                debug_assert!(file < $files && rank < $ranks);
                Square(rank * $files + file)
            }

            pub fn from_coord(c: $crate::core::Coord) -> Option<Square> {
                c.on_board($files, $ranks)
                    .then(|| Square::new(c.file, c.rank))
            }

            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            #[inline]
            pub const fn file(self) -> u8 {
                self.0 % $files
            }

            #[inline]
            pub const fn rank(self) -> u8 {
                self.0 / $files
            }

            #[inline]
            pub const fn bit(self) -> $bb {
                1 << self.0
            }

            pub fn coord(self) -> $crate::core::Coord {
                $crate::core::Coord::new(self.file(), self.rank())
            }
        }

        /// The squares of a set, lowest first.
        #[inline]
        pub fn squares(mut b: $bb) -> impl Iterator<Item = Square> {
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let s = b.trailing_zeros() as u8;
                b &= b - 1;
                Some(Square(s))
            })
        }
    };
}
pub(crate) use square_type;
