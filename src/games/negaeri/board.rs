//! The 6x6 board as 36-bit sets in a `u64`, squares, piece kinds, the
//! precomputed step and ray tables move generation and flipping read, and
//! the Zobrist keys.

use crate::core::{Color, zobrist};

pub const FILES: u8 = 6;
pub const RANKS: u8 = 6;
pub const SQUARES: usize = 36;

pub type Bitboard = u64;

/// Every square of the board.
pub const ALL: Bitboard = (1 << SQUARES) - 1;
/// Squares on the board's border (files a and f, ranks 1 and 6).
pub const EDGE: Bitboard = {
    let mut b = 0;
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = (s % 6, s / 6);
        if f == 0 || f == 5 || r == 0 || r == 5 {
            b |= 1 << s;
        }
        s += 1;
    }
    b
};

crate::core::coord::square_type!(files: FILES, ranks: RANKS, bitboard: Bitboard);

/// The square with index `i` (below `SQUARES`), for the packed move.
#[inline]
pub(super) const fn square_at(i: u8) -> Square {
    debug_assert!((i as usize) < SQUARES);
    Square(i)
}

/// The kinds of piece. The three that can be in hand come first, so a hand
/// is indexed by kind; `promoted(k) = k + 4` for those three.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    Rook = 1,
    Bishop = 2,
    King = 3,
    /// `+P`
    Tokin = 4,
    /// `+R`
    Dragon = 5,
    /// `+B`
    Horse = 6,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Pawn,
        Kind::Rook,
        Kind::Bishop,
        Kind::King,
        Kind::Tokin,
        Kind::Dragon,
        Kind::Horse,
    ];
    /// The kinds that can be in hand, in the canonical order hands are
    /// written in (shogi's and Fairy-Stockfish's: Rook, Bishop, Pawn).
    pub const HAND_ORDER: [Kind; 3] = [Kind::Rook, Kind::Bishop, Kind::Pawn];
    pub const HAND: [Kind; 3] = [Kind::Pawn, Kind::Rook, Kind::Bishop];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (below 7).
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// What it becomes when flipped (promoted pieces and the King stay).
    pub const fn promoted(self) -> Kind {
        match self {
            Kind::Pawn => Kind::Tokin,
            Kind::Rook => Kind::Dragon,
            Kind::Bishop => Kind::Horse,
            k => k,
        }
    }

    /// What it becomes when captured into hand.
    pub const fn unpromoted(self) -> Kind {
        match self {
            Kind::Tokin => Kind::Pawn,
            Kind::Dragon => Kind::Rook,
            Kind::Horse => Kind::Bishop,
            k => k,
        }
    }

    pub const fn is_promoted(self) -> bool {
        matches!(self, Kind::Tokin | Kind::Dragon | Kind::Horse)
    }

    /// The letter of the unpromoted form (upper case).
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Kind::Pawn => 'P',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            _ => 'K',
        }
    }

    /// The kind written with `letter` (upper case) and an optional `+`.
    pub fn from_letter(letter: char, promoted: bool) -> Option<Kind> {
        let base = match letter {
            'P' => Kind::Pawn,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'K' => Kind::King,
            _ => return None,
        };
        match (promoted, base) {
            (false, k) => Some(k),
            (true, Kind::King) => None,
            (true, k) => Some(k.promoted()),
        }
    }
}

/// The eight directions as (file, rank) steps: N, NE, E, SE, S, SW, W, NW.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// Whether stepping in the direction raises the square index (N, NE, E and
/// NW do): the nearest set square of a ray is then its lowest bit.
pub const POSITIVE: [bool; 8] = [true, true, true, false, false, false, false, true];

/// `RAY[d][s]`: the squares from `s` (excluded) to the edge in direction `d`.
pub static RAY: [[Bitboard; SQUARES]; 8] = {
    let mut t = [[0; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < SQUARES {
            let mut f = (s % 6) as i8 + DIRS[d].0;
            let mut r = (s / 6) as i8 + DIRS[d].1;
            while f >= 0 && f < 6 && r >= 0 && r < 6 {
                t[d][s] |= 1 << (r * 6 + f);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// `STEP[d][s]`: the neighbour of `s` in direction `d` as a set (empty off
/// the board).
pub static STEP: [[Bitboard; SQUARES]; 8] = STEP_TABLE;

const fn steps_in(dirs: &[usize]) -> [Bitboard; SQUARES] {
    let mut t = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < dirs.len() {
            t[s] |= STEP_TABLE[dirs[i]][s];
            i += 1;
        }
        s += 1;
    }
    t
}

// `STEP` as a constant, for the other constant initialisers.
const STEP_TABLE: [[Bitboard; SQUARES]; 8] = {
    let mut t = [[0; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < SQUARES {
            let f = (s % 6) as i8 + DIRS[d].0;
            let r = (s / 6) as i8 + DIRS[d].1;
            if f >= 0 && f < 6 && r >= 0 && r < 6 {
                t[d][s] = 1 << (r * 6 + f);
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// The eight squares around each square: the King's moves, and the squares
/// whose pieces are loyal to a King standing there.
pub static KING: [Bitboard; SQUARES] = steps_in(&[0, 1, 2, 3, 4, 5, 6, 7]);
/// One step orthogonally (what the horse adds to the bishop).
pub static ORTHO_STEP: [Bitboard; SQUARES] = steps_in(&[0, 2, 4, 6]);
/// One step diagonally (what the dragon adds to the rook).
pub static DIAG_STEP: [Bitboard; SQUARES] = steps_in(&[1, 3, 5, 7]);
/// Tokin steps per side: forward, both diagonally forward, both sideways
/// and straight back. "Forward" is N for the first player, S for the second.
pub static TOKIN: [[Bitboard; SQUARES]; 2] =
    [steps_in(&[0, 1, 7, 2, 6, 4]), steps_in(&[4, 3, 5, 2, 6, 0])];

/// The pawn's one step forward, per side.
#[inline]
pub const fn pawn_pushes(pawns: Bitboard, c: Color) -> Bitboard {
    match c {
        Color::First => (pawns << 6) & ALL,
        Color::Second => pawns >> 6,
    }
}

/// The squares a slider reaches from `s` along direction `d`: up to and
/// including the first occupied square.
#[inline]
pub fn ray_attacks(d: usize, s: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAY[d][s];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    ray ^ RAY[d][nearest(d, blockers)]
}

/// The square of `set` (a subset of a ray in direction `d`) nearest the
/// ray's origin.
#[inline]
pub fn nearest(d: usize, set: Bitboard) -> usize {
    if POSITIVE[d] {
        set.trailing_zeros() as usize
    } else {
        63 - set.leading_zeros() as usize
    }
}

#[inline]
pub fn rook_attacks(s: usize, occupied: Bitboard) -> Bitboard {
    ray_attacks(0, s, occupied)
        | ray_attacks(2, s, occupied)
        | ray_attacks(4, s, occupied)
        | ray_attacks(6, s, occupied)
}

#[inline]
pub fn bishop_attacks(s: usize, occupied: Bitboard) -> Bitboard {
    ray_attacks(1, s, occupied)
        | ray_attacks(3, s, occupied)
        | ray_attacks(5, s, occupied)
        | ray_attacks(7, s, occupied)
}

/// The squares a piece of kind `k` and side `c` on `s` reaches (its own
/// pieces not excluded).
#[inline]
pub fn attacks(k: Kind, c: Color, s: usize, occupied: Bitboard) -> Bitboard {
    match k {
        Kind::Pawn => pawn_pushes(1 << s, c),
        Kind::Rook => rook_attacks(s, occupied),
        Kind::Bishop => bishop_attacks(s, occupied),
        Kind::King => KING[s],
        Kind::Tokin => TOKIN[c.index()][s],
        Kind::Dragon => rook_attacks(s, occupied) | DIAG_STEP[s],
        Kind::Horse => bishop_attacks(s, occupied) | ORTHO_STEP[s],
    }
}

const fn lines_in(dirs: [usize; 4]) -> [Bitboard; SQUARES] {
    let mut t = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < 4 {
            t[s] |= RAY[dirs[i]][s];
            i += 1;
        }
        s += 1;
    }
    t
}

/// The rook's and the bishop's lines through each square to the edges,
/// whatever stands on them.
static ROOK_LINES: [Bitboard; SQUARES] = lines_in([0, 2, 4, 6]);
static BISHOP_LINES: [Bitboard; SQUARES] = lines_in([1, 3, 5, 7]);

/// Whether a piece of `of(kind)` (for each kind) stands where it attacks
/// `s`, `c` being the side whose pieces on `s` would reach it: the patterns
/// are point-symmetric once the colour (the pawn's and tokin's forward) is
/// swapped. The rook's and bishop's lines are found once for the Dragon
/// and Horse too, and only with such a piece somewhere on them: most
/// calls (every quiet move the search asks `gives_check` of) find none.
#[inline]
pub fn attacked(s: usize, c: Color, occupied: Bitboard, of: impl Fn(Kind) -> Bitboard) -> bool {
    let steps = (pawn_pushes(1 << s, c) & of(Kind::Pawn))
        | (KING[s] & of(Kind::King))
        | (TOKIN[c.index()][s] & of(Kind::Tokin))
        | (DIAG_STEP[s] & of(Kind::Dragon))
        | (ORTHO_STEP[s] & of(Kind::Horse));
    if steps != 0 {
        return true;
    }
    let rooks = of(Kind::Rook) | of(Kind::Dragon);
    let bishops = of(Kind::Bishop) | of(Kind::Horse);
    (ROOK_LINES[s] & rooks != 0 && rook_attacks(s, occupied) & rooks != 0)
        || (BISHOP_LINES[s] & bishops != 0 && bishop_attacks(s, occupied) & bishops != 0)
}

/// Most pieces of one kind a hand can hold: every pawn of the set (13).
pub const MAX_IN_HAND: usize = 13;

const PIECE_KEYS: usize = 2 * 7 * SQUARES;
const HAND_KEYS: usize = 2 * 3 * (MAX_IN_HAND + 1);
const KEYS: [u64; PIECE_KEYS + HAND_KEYS + 1 + 3] = zobrist::keys(0x004e_4547_4145_5249);

/// `ZOBRIST_PIECE[color][kind][square]`.
pub static ZOBRIST_PIECE: [[[u64; SQUARES]; 7]; 2] = {
    let mut t = [[[0; SQUARES]; 7]; 2];
    let mut i = 0;
    while i < PIECE_KEYS {
        t[i / (7 * SQUARES)][(i / SQUARES) % 7][i % SQUARES] = KEYS[i];
        i += 1;
    }
    t
};
/// `ZOBRIST_HAND[color][hand kind][count]`; count 0 has key 0, so an empty
/// hand adds nothing.
pub static ZOBRIST_HAND: [[[u64; MAX_IN_HAND + 1]; 3]; 2] = {
    let mut t = [[[0; MAX_IN_HAND + 1]; 3]; 2];
    let mut i = 0;
    while i < HAND_KEYS {
        let n = i % (MAX_IN_HAND + 1);
        if n > 0 {
            t[i / (3 * (MAX_IN_HAND + 1))][(i / (MAX_IN_HAND + 1)) % 3][n] = KEYS[PIECE_KEYS + i];
        }
        i += 1;
    }
    t
};
pub const ZOBRIST_SIDE: u64 = KEYS[PIECE_KEYS + HAND_KEYS];
/// By the number of passes in a row (0 has key 0).
pub const ZOBRIST_PASSES: [u64; 3] = [
    0,
    KEYS[PIECE_KEYS + HAND_KEYS + 1],
    KEYS[PIECE_KEYS + HAND_KEYS + 2],
];
