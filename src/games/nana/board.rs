//! The 3x3 board: squares, 9-bit sets in a `u16`, the nine piece kinds (the
//! King and the eight cube states), their attack tables per side, square and
//! state, and the Zobrist keys.

use crate::core::{Color, zobrist};

pub const FILES: u8 = 3;
pub const RANKS: u8 = 3;
pub const SQUARES: usize = 9;

/// A set of squares: bit `rank * 3 + file`.
pub type Bitboard = u16;

/// Every square of the board.
pub const ALL: Bitboard = 0x1ff;
/// b2, where nothing may be dropped.
pub const CENTER: Bitboard = 1 << 4;

crate::core::coord::square_type!(files: FILES, ranks: RANKS, bitboard: Bitboard);

impl Square {
    /// The square with index `i` (`rank * 3 + file`), if below 9.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// All nine squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.coord().fmt(f)
    }
}

/// What stands on a square: the King or one state of a cube. The discriminant
/// is the index used by the tables.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King = 0,
    /// 飛: one step orthogonally.
    Rook = 1,
    /// 反: 1 or 2 squares straight forward or back.
    Chariot = 2,
    /// 羽: one step left or right.
    Wings = 3,
    /// 仲: one step forward or back.
    GoBetween = 4,
    /// 角: 1 or 2 squares diagonally.
    Bishop = 5,
    /// 瓦: one step diagonally forward or straight back.
    Tile = 6,
    /// 猫: one step diagonally.
    Cat = 7,
    /// 犬: one step straight forward or diagonally back.
    Dog = 8,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::King,
        Kind::Rook,
        Kind::Chariot,
        Kind::Wings,
        Kind::GoBetween,
        Kind::Bishop,
        Kind::Tile,
        Kind::Cat,
        Kind::Dog,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Kind> {
        if i < 9 { Some(Kind::ALL[i]) } else { None }
    }

    /// The letter of docs/rules/notation.md (upper case).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Rook => 'R',
            Kind::Chariot => 'V',
            Kind::Wings => 'W',
            Kind::GoBetween => 'G',
            Kind::Bishop => 'B',
            Kind::Tile => 'T',
            Kind::Cat => 'C',
            Kind::Dog => 'D',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// The state a cube turns to after a board move; a King stays a King.
    pub const fn next(self) -> Kind {
        match self {
            Kind::King => Kind::King,
            Kind::Rook => Kind::Chariot,
            Kind::Chariot => Kind::Wings,
            Kind::Wings => Kind::GoBetween,
            Kind::GoBetween => Kind::Rook,
            Kind::Bishop => Kind::Tile,
            Kind::Tile => Kind::Cat,
            Kind::Cat => Kind::Dog,
            Kind::Dog => Kind::Bishop,
        }
    }

    pub const fn family(self) -> Family {
        match self {
            Kind::King => Family::King,
            Kind::Rook | Kind::Chariot | Kind::Wings | Kind::GoBetween => Family::Orth,
            _ => Family::Diag,
        }
    }
}

/// A piece as it is held in hand: the King, or a cube without a state.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    King = 0,
    /// The orthogonal cube, written `R` in hand.
    Orth = 1,
    /// The diagonal cube, written `B` in hand.
    Diag = 2,
}

impl Family {
    /// Canonical hand order: K, R, B.
    pub const ALL: [Family; 3] = [Family::King, Family::Orth, Family::Diag];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter a piece in hand is written with.
    pub const fn letter(self) -> char {
        match self {
            Family::King => 'K',
            Family::Orth => 'R',
            Family::Diag => 'B',
        }
    }

    /// The states a piece of this family may be dropped in.
    pub const fn states(self) -> &'static [Kind] {
        match self {
            Family::King => &[Kind::King],
            Family::Orth => &[Kind::Rook, Kind::Chariot, Kind::Wings, Kind::GoBetween],
            Family::Diag => &[Kind::Bishop, Kind::Tile, Kind::Cat, Kind::Dog],
        }
    }
}

/// The squares one piece attacks from one square: `near` always (unless
/// off the board), `far` only when `mid` is empty. Only the Chariot and the
/// Bishop have a `far` square (their two-square slides).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub near: Bitboard,
    pub mid: Bitboard,
    pub far: Bitboard,
}

/// Step directions `(file, rank)` of each kind for the first player, whose
/// forward is +rank; `slides` says whether the second square of the line
/// is reached too. The second player's are the same with rank negated.
const fn pattern(k: usize) -> (&'static [(i8, i8)], bool) {
    const ORTHO: &[(i8, i8)] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAG: &[(i8, i8)] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
    match k {
        0 => (
            &[
                (0, 1),
                (0, -1),
                (1, 0),
                (-1, 0),
                (1, 1),
                (-1, 1),
                (1, -1),
                (-1, -1),
            ],
            false,
        ),
        1 => (ORTHO, false),
        2 => (&[(0, 1), (0, -1)], true),
        3 => (&[(1, 0), (-1, 0)], false),
        4 => (&[(0, 1), (0, -1)], false),
        5 => (DIAG, true),
        6 => (&[(1, 1), (-1, 1), (0, -1)], false),
        7 => (DIAG, false),
        _ => (&[(0, 1), (1, -1), (-1, -1)], false),
    }
}

const fn on(f: i8, r: i8) -> bool {
    f >= 0 && f < 3 && r >= 0 && r < 3
}

const fn reach_table() -> [[[Reach; SQUARES]; 9]; 2] {
    let empty = Reach {
        near: 0,
        mid: 0,
        far: 0,
    };
    let mut t = [[[empty; SQUARES]; 9]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 9 {
            let (dirs, slides) = pattern(k);
            let mut s = 0;
            while s < SQUARES {
                let (f0, r0) = ((s % 3) as i8, (s / 3) as i8);
                let mut e = empty;
                let mut d = 0;
                while d < dirs.len() {
                    let df = dirs[d].0;
                    let dr = if c == 0 { dirs[d].1 } else { -dirs[d].1 };
                    if on(f0 + df, r0 + dr) {
                        let near = 1 << ((r0 + dr) * 3 + f0 + df);
                        e.near |= near;
                        if slides && on(f0 + 2 * df, r0 + 2 * dr) {
                            // On a 3x3 board at most one line of a piece
                            // is two squares long.
                            e.mid = near;
                            e.far = 1 << ((r0 + 2 * dr) * 3 + f0 + 2 * df);
                        }
                    }
                    d += 1;
                }
                t[c][k][s] = e;
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// `REACH[color][kind][square]`.
pub static REACH: [[[Reach; SQUARES]; 9]; 2] = reach_table();

/// The squares a `kind` of `color` on `sq` attacks when `occ` is occupied.
#[inline(always)]
pub fn attacks(color: Color, kind: Kind, sq: Square, occ: Bitboard) -> Bitboard {
    let r = &REACH[color.index()][kind.index()][sq.index()];
    r.near | (r.far & (((occ & r.mid) == 0) as u16).wrapping_neg())
}

/// The squares from which a `kind` of `color` would attack `target`: a
/// piece of the other side moves along exactly the reversed directions.
#[inline(always)]
pub fn attackers_from(color: Color, kind: Kind, target: Square, occ: Bitboard) -> Bitboard {
    attacks(color.opponent(), kind, target, occ)
}

/// King steps from each square.
#[inline(always)]
pub fn king_steps(sq: Square) -> Bitboard {
    REACH[0][0][sq.index()].near
}

const HAND_KEYS: usize = 2 * 3 * 3;
const KEYS: [u64; 2 * 9 * SQUARES + HAND_KEYS + 1] = zobrist::keys(0x4e41_4e41_5348_4f47);

/// `ZOBRIST_PIECE[color][kind][square]`.
pub static ZOBRIST_PIECE: [[[u64; SQUARES]; 9]; 2] = {
    let mut t = [[[0; SQUARES]; 9]; 2];
    let mut i = 0;
    while i < 2 * 9 * SQUARES {
        t[i / (9 * SQUARES)][(i / SQUARES) % 9][i % SQUARES] = KEYS[i];
        i += 1;
    }
    t
};

/// `ZOBRIST_HAND[color][family][count]`; an empty hand hashes to 0.
pub static ZOBRIST_HAND: [[[u64; 3]; 3]; 2] = {
    let mut t = [[[0; 3]; 3]; 2];
    let mut i = 0;
    while i < HAND_KEYS {
        let n = i % 3;
        if n > 0 {
            t[i / 9][(i / 3) % 3][n] = KEYS[2 * 9 * SQUARES + i];
        }
        i += 1;
    }
    t
};

pub const ZOBRIST_SIDE: u64 = KEYS[2 * 9 * SQUARES + HAND_KEYS];

/// Where the pieces stand: the kind on each square (meaningless, and kept
/// `King`, on empty squares), each side's squares and each side's King
/// square. Copied whole by the mate test, so it is kept to 16 bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) cells: [Kind; SQUARES],
    pub(super) occ: [Bitboard; 2],
    /// The King's square index, or `NO_SQUARE` when it is in hand or taken.
    pub(super) king: [u8; 2],
}

pub const NO_SQUARE: u8 = SQUARES as u8;

impl Board {
    pub const EMPTY: Board = Board {
        cells: [Kind::King; SQUARES],
        occ: [0; 2],
        king: [NO_SQUARE; 2],
    };

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    #[inline(always)]
    pub fn mine(&self, c: Color) -> Bitboard {
        self.occ[c.index()]
    }

    /// The kind on an occupied square (`King` on an empty one).
    #[inline(always)]
    pub fn kind(&self, sq: Square) -> Kind {
        self.cells[sq.index()]
    }

    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<Square> {
        let k = self.king[c.index()];
        (k != NO_SQUARE).then_some(Square(k))
    }

    /// The owner of an occupied square.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.occ[c.index()] & sq.bit() != 0)
    }

    /// Puts a piece on an empty square.
    #[inline(always)]
    pub fn put(&mut self, c: Color, kind: Kind, sq: Square) {
        self.cells[sq.index()] = kind;
        self.occ[c.index()] |= sq.bit();
        if kind == Kind::King {
            self.king[c.index()] = sq.0;
        }
    }

    /// Empties a square of `c`'s piece.
    #[inline(always)]
    pub fn remove(&mut self, c: Color, sq: Square) {
        if self.king[c.index()] == sq.0 {
            self.king[c.index()] = NO_SQUARE;
        }
        self.cells[sq.index()] = Kind::King;
        self.occ[c.index()] &= !sq.bit();
    }

    /// Whether any of the pieces of `c` on `pieces` (a subset of its
    /// squares) attacks a square of `target` when `occ` is occupied.
    #[inline(always)]
    pub fn hits(&self, c: Color, pieces: Bitboard, occ: Bitboard, target: Bitboard) -> bool {
        squares(pieces).any(|sq| attacks(c, self.kind(sq), sq, occ) & target != 0)
    }

    /// Whether `c` attacks `target` in this placement.
    #[inline(always)]
    pub fn attacked_by(&self, c: Color, target: Square) -> bool {
        self.hits(c, self.mine(c), self.occupied(), target.bit())
    }
}
