//! The 5x5 board as 25-bit sets in a `u32` (bit `rank * 5 + file`), squares,
//! the precomputed tables move generation reads (diagonal and orthogonal
//! neighbours, Crab slides, River currents) and the Zobrist keys.

use crate::core::{Color, zobrist};

pub const FILES: u8 = 5;
pub const RANKS: u8 = 5;
pub const SQUARES: usize = 25;

pub type Bitboard = u32;

pub const FULL: Bitboard = (1 << SQUARES) - 1;
pub const FILE_A: Bitboard = 0b00001_00001_00001_00001_00001;
pub const FILE_C: Bitboard = FILE_A << 2;
pub const FILE_E: Bitboard = FILE_A << 4;
/// File c, the River.
pub const RIVER: Bitboard = FILE_C;

/// A player's home column: the edge file where their Crabs start.
#[inline]
pub const fn home(c: Color) -> Bitboard {
    match c {
        Color::First => FILE_A,
        Color::Second => FILE_E,
    }
}

crate::core::coord::square_type!(files: FILES, ranks: RANKS, bitboard: Bitboard);

impl Square {
    /// The square of an index below 25 (callers take it from a bitboard).
    #[inline]
    pub const fn from_index(i: u32) -> Square {
        Square(i as u8)
    }
}

/// The orthogonal neighbours of every square of a set.
#[inline]
pub const fn orthogonal(b: Bitboard) -> Bitboard {
    (((b << 1) & !FILE_A) | ((b >> 1) & !FILE_E) | (b << 5) | (b >> 5)) & FULL
}

/// `NEIGHBOURS[s]`: `orthogonal` of the one square `s`, looked up (move
/// generation asks it for every movement). 32 rows, as `DIAGONAL`: see
/// `Square::neighbours`.
static NEIGHBOURS: [Bitboard; 32] = {
    let mut t = [0; 32];
    let mut s = 0;
    while s < SQUARES {
        t[s] = orthogonal(1 << s);
        s += 1;
    }
    t
};

impl Square {
    /// The orthogonal neighbours of the square. The tables have 32 rows
    /// (rows 25..32 never read), so that the index masked to 5 bits needs
    /// no bounds check.
    #[inline]
    pub fn neighbours(self) -> Bitboard {
        NEIGHBOURS[self.index() & 31]
    }

    /// The diagonal neighbours of the square.
    #[inline]
    pub fn diagonal(self) -> Bitboard {
        DIAGONAL[self.index() & 31]
    }
}

/// One step toward rank 5, rank 1, file e, file a, of every square of a set.
#[inline]
pub const fn north(b: Bitboard) -> Bitboard {
    (b << 5) & FULL
}

#[inline]
pub const fn south(b: Bitboard) -> Bitboard {
    b >> 5
}

#[inline]
pub const fn east(b: Bitboard) -> Bitboard {
    (b << 1) & !FILE_A & FULL
}

#[inline]
pub const fn west(b: Bitboard) -> Bitboard {
    (b >> 1) & !FILE_E
}

/// Up, down, right, left: the four directions of a sandwich.
pub const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn diagonal_table() -> [Bitboard; 32] {
    let mut t = [0; 32];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 5) as i8, (s / 5) as i8);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][d];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 5 && nr >= 0 && nr < 5 {
                t[s] |= 1 << (nr * 5 + nf);
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The diagonal neighbours of each square (a Shrimp's steps, a Bond's
/// steps), as `NEIGHBOURS`.
static DIAGONAL: [Bitboard; 32] = diagonal_table();

const fn crab_table() -> [[u8; 32]; 5] {
    let mut t = [[0u8; 32]; 5];
    let mut file = 0;
    while file < 5 {
        let mut occ = 0;
        while occ < 32 {
            let mut f = file as i32 + 1;
            while f < 5 && occ & (1 << f) == 0 {
                t[file][occ] |= 1 << f;
                f += 1;
            }
            let mut f = file as i32 - 1;
            while f >= 0 && occ & (1 << f) == 0 {
                t[file][occ] |= 1 << f;
                f -= 1;
            }
            occ += 1;
        }
        file += 1;
    }
    t
}

/// `CRAB_SLIDE[file][rank occupancy]`: the files a Crab on `file` reaches
/// along its rank, stopping before the first piece either way.
const CRAB_SLIDE: [[u8; 32]; 5] = crab_table();

/// `CRAB_REACH[s][occupancy of the rank of s]`: `CRAB_SLIDE` as squares,
/// and `RANK_SHIFT[s]` the shift that brings the rank of `s` to bits 0..5.
/// Both have 32 rows, so that a square's index masked to 5 bits needs no
/// bounds check (rows 25..32 are never read).
static CRAB_REACH: [[Bitboard; 32]; 32] = {
    let mut t = [[0; 32]; 32];
    let mut s = 0;
    while s < SQUARES {
        let mut occ = 0;
        while occ < 32 {
            t[s][occ] = (CRAB_SLIDE[s % 5][occ] as Bitboard) << (5 * (s / 5));
            occ += 1;
        }
        s += 1;
    }
    t
};

static RANK_SHIFT: [u8; 32] = {
    let mut t = [0; 32];
    let mut s = 0;
    while s < SQUARES {
        t[s] = (5 * (s / 5)) as u8;
        s += 1;
    }
    t
};

/// The empty squares a Crab on `from` slides to.
#[inline]
pub fn crab_targets(from: Square, occupied: Bitboard) -> Bitboard {
    let s = from.index() & 31;
    let rank_occ = (occupied >> RANK_SHIFT[s]) & 31;
    CRAB_REACH[s][rank_occ as usize]
}

/// The River file of a set, squeezed into 5 bits (bit k = rank k + 1).
/// The multiplier moves bit `5k` (after the shift) to bit `20 + k`; the
/// partial products land on distinct bits (5j - 4k = 5j' - 4k' has no
/// other solution in 0..5), so nothing carries.
#[inline]
pub const fn river_bits(b: Bitboard) -> usize {
    const MAGIC: u32 = (1 << 4) | (1 << 8) | (1 << 12) | (1 << 16) | (1 << 20);
    ((((b & FILE_C) >> 2).wrapping_mul(MAGIC) >> 20) & 31) as usize
}

const fn river_table() -> [[Bitboard; 32]; 32] {
    let mut t = [[0; 32]; 32];
    let mut occ = 0;
    while occ < 32 {
        let mut entries = 0;
        while entries < 32 {
            let mut r = 0;
            while r < 5 {
                if entries & (1 << r) != 0 && occ & (1 << r) == 0 {
                    // Up: slide while the next square is on the board and empty.
                    let mut up = r;
                    while up + 1 < 5 && occ & (1 << (up + 1)) == 0 {
                        up += 1;
                    }
                    let mut down = r;
                    while down > 0 && occ & (1 << (down - 1)) == 0 {
                        down -= 1;
                    }
                    t[occ][entries] |= (1 << (up * 5 + 2)) | (1 << (down * 5 + 2));
                }
                r += 1;
            }
            entries += 1;
        }
        occ += 1;
    }
    t
}

/// `RIVER_REST[occupancy][entries]` (both as `river_bits`): every square
/// where a piece entering the River on one of `entries` can come to rest,
/// the current carrying it up or down to the next piece or the edge. As a
/// set, two choices that end on the same square count once.
static RIVER_REST: [[Bitboard; 32]; 32] = river_table();

/// The resting squares of a movement onto the empty River squares `entries`
/// of the board `occupied` (which does not hold the moving piece).
#[inline]
pub fn river_rest(occupied: Bitboard, entries: Bitboard) -> Bitboard {
    RIVER_REST[river_bits(occupied)][river_bits(entries)]
}

const KEYS: [u64; 4 * SQUARES + 1] = zobrist::keys(0x004b_414e_4945_4249);

/// `ZOBRIST[color][kind][square]`, kind 0 = Crab, 1 = Shrimp.
pub static ZOBRIST: [[[u64; SQUARES]; 2]; 2] = {
    let mut t = [[[0; SQUARES]; 2]; 2];
    let mut i = 0;
    while i < 4 * SQUARES {
        t[i / (2 * SQUARES)][(i / SQUARES) % 2][i % SQUARES] = KEYS[i];
        i += 1;
    }
    t
};
pub const ZOBRIST_SIDE: u64 = KEYS[4 * SQUARES];
