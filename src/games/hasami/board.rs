//! The 9x9 board as 81-bit sets in a `u128`, squares, neighbour tables and
//! Zobrist keys.

use crate::core::zobrist;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 9;
pub const SQUARES: usize = 81;

pub type Bitboard = u128;

pub const RANK_1: Bitboard = 0x1ff;
pub const RANK_9: Bitboard = 0x1ff << 72;
/// Every square of the board.
pub const FULL: Bitboard = (1 << SQUARES) - 1;
/// File a: bit `9 * rank` of every rank.
pub const FILE_A: Bitboard = {
    let mut b = 0;
    let mut r = 0;
    while r < RANKS {
        b |= 1 << (r * FILES);
        r += 1;
    }
    b
};
pub const FILE_I: Bitboard = FILE_A << (FILES - 1);

/// The squares one step up (toward rank 9) of a set.
#[inline]
pub const fn up(b: Bitboard) -> Bitboard {
    (b << FILES) & FULL
}

/// One step down (toward rank 1).
#[inline]
pub const fn down(b: Bitboard) -> Bitboard {
    b >> FILES
}

/// One step right (toward file i).
#[inline]
pub const fn right(b: Bitboard) -> Bitboard {
    (b << 1) & !FILE_A & FULL
}

/// One step left (toward file a).
#[inline]
pub const fn left(b: Bitboard) -> Bitboard {
    (b >> 1) & !FILE_I
}

/// The orthogonal neighbours of every square of a set.
#[inline]
pub const fn orthogonal(b: Bitboard) -> Bitboard {
    up(b) | down(b) | right(b) | left(b)
}

/// `ADJACENT[s]`: the orthogonal neighbours of square `s`.
pub static ADJACENT: [Bitboard; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        t[s] = orthogonal(1 << s);
        s += 1;
    }
    t
};

crate::core::coord::square_type!(files: FILES, ranks: RANKS, bitboard: Bitboard);

impl Square {
    /// The square of an index below 81.
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < SQUARES);
        Square(i as u8)
    }
}

/// Up, down, right, left.
pub const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const NONE: u8 = u8::MAX;

const fn neighbours() -> [[u8; SQUARES]; 4] {
    let mut t = [[NONE; SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < SQUARES {
            let f = (s % 9) as i8 + DIRS[d].0;
            let r = (s / 9) as i8 + DIRS[d].1;
            if f >= 0 && f < 9 && r >= 0 && r < 9 {
                t[d][s] = (r * 9 + f) as u8;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAY[d][s]`: the squares from `s` (not included) to the edge in
/// direction `DIRS[d]`.
pub static RAY: [[Bitboard; SQUARES]; 4] = {
    let t = neighbours();
    let mut rays = [[0; SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < SQUARES {
            let mut n = t[d][s];
            while n != NONE {
                rays[d][s] |= 1 << n;
                n = t[d][n as usize];
            }
            s += 1;
        }
        d += 1;
    }
    rays
};

/// The corners with their two neighbours, along the rank and along the
/// file.
pub const CORNERS: [[Bitboard; 3]; 4] = {
    let mut t = [[0; 3]; 4];
    let mut i = 0;
    while i < 4 {
        let (f, r) = ([0, 8, 0, 8][i], [0, 0, 8, 8][i]);
        t[i] = [
            Square::new(f, r).bit(),
            Square::new(if f == 0 { 1 } else { 7 }, r).bit(),
            Square::new(f, if r == 0 { 1 } else { 7 }).bit(),
        ];
        i += 1;
    }
    t
};

/// The four corner squares.
pub const CORNER_SQUARES: Bitboard = CORNERS[0][0] | CORNERS[1][0] | CORNERS[2][0] | CORNERS[3][0];

/// `CROSS[s]`: the other squares of the rank and file of `s`.
pub static CROSS: [Bitboard; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = (s % 9, s / 9);
        t[s] = ((FILE_A << f) | (RANK_1 << (9 * r))) & !(1 << s);
        s += 1;
    }
    t
};

const KEYS: [u64; 2 * SQUARES + 1] = zobrist::keys(0x4841_5341_4d49);
pub static ZOBRIST_MEN: [[u64; SQUARES]; 2] = {
    let mut t = [[0; SQUARES]; 2];
    let mut i = 0;
    while i < SQUARES {
        t[0][i] = KEYS[i];
        t[1][i] = KEYS[SQUARES + i];
        i += 1;
    }
    t
};
pub const ZOBRIST_SIDE: u64 = KEYS[2 * SQUARES];
