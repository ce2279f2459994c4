//! The compact index of the solver: a bijection between `0..Index::len()`
//! and the main-phase positions (both Kings on the board) seen from the
//! side to move, one per class of the symmetries the rules allow.
//!
//! Two symmetries are used:
//! - **colour flip**: turning the board 180 degrees and swapping the
//!   colours (and hands) maps the rules onto themselves once both Kings are
//!   placed (no rule of the main phase names the first or second player,
//!   and "forward" turns with the board). So a position is stored as seen
//!   by the side to move: the *frame*, in which the side to move is the
//!   first player (`Color::First`, "us"). Positions with the second player
//!   to move are flipped first.
//! - **left-right mirror** (file a <-> file c): every move pattern of the
//!   table of pieces is symmetric left-right (Rook, Chariot, Wings,
//!   Go-between, Bishop, Tile, Cat, Dog and King all step or slide along
//!   directions closed under `file -> -file`), b2 (the drop ban) lies on
//!   the mirror line, and rules 4 and 5 are defined through attacks only.
//!   So mirroring maps legal moves to legal moves and keeps every value.
//!   A frame position is stored in the orientation where its King pair
//!   `(our King, their King)` is the smaller of itself and its mirror
//!   image; when both Kings stand on file b the pair is its own mirror and
//!   the position is stored as it is (its mirror image then has its own,
//!   equal, entry: no symmetry is used there, which costs 6 of the 39 King
//!   pairs a little duplication but keeps the classes simple).
//!
//! Layout: `index = king_pair * CUBES + pattern_offset + ((digits * (3 -
//! a) + our_orth_in_hand) * (3 - b) + our_diag_in_hand)`, where the
//! *pattern* says which of the 7 squares left by the Kings hold an
//! orthogonal cube (`a` of them) and which a diagonal one (`b`), *digits*
//! gives each occupied square, in square order, the base-8 digit
//! `colour * 4 + state`, and the hands hold the cubes not on the board
//! (their split between the two hands is the last two digits; `3 - a` is
//! `cubes of the family + 1 - a` in sub-games with fewer cubes). Every
//! number of the range is a valid position: no holes. With the real
//! game's cubes `CUBES` is 1,094,697, times 39 King pairs: 42,693,183.

use super::board::{Board, Family, Kind, SQUARES, Square, squares};
use super::{Hand, Nana};
use crate::core::Color;
use std::sync::OnceLock;

/// Free squares once both Kings stand.
const SLOTS: usize = 7;
/// King pairs up to the mirror: 33 mirror pairs plus 6 self-mirror pairs.
pub const KING_PAIRS: usize = 39;

/// Symmetry variants as bit sets: 1 = flip (180 degrees), 2 = mirror.
const FLIP: usize = 1;
const MIRROR: usize = 2;

/// A square under a symmetry variant (`FLIP`, `MIRROR` or both).
pub const fn map_square(v: usize, sq: usize) -> usize {
    let (mut f, mut r) = (sq % 3, sq / 3);
    if v & FLIP != 0 {
        f = 2 - f;
        r = 2 - r;
    }
    if v & MIRROR != 0 {
        f = 2 - f;
    }
    r * 3 + f
}

const SQMAP: [[u8; SQUARES]; 4] = {
    let mut t = [[0u8; SQUARES]; 4];
    let mut v = 0;
    while v < 4 {
        let mut s = 0;
        while s < SQUARES {
            t[v][s] = map_square(v, s) as u8;
            s += 1;
        }
        v += 1;
    }
    t
};

/// Set bits of a 7-bit number (`count_ones` is slow without a popcount
/// instruction in the baseline target).
const POP7: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// One cube pattern: which slots hold orthogonal and diagonal cubes.
#[derive(Copy, Clone, Debug)]
struct Pattern {
    offset: u32,
    orth: u8,
    diag: u8,
}

pub struct Index {
    /// `kp[ours][theirs]`: the King pair class and whether the position
    /// must be mirrored to reach its stored orientation.
    kp: [[(u8, bool); SQUARES]; SQUARES],
    /// The King squares of each class (ours, theirs).
    kings: [(u8, u8); KING_PAIRS],
    /// `compress[class][9-bit set]`: the set as 7 slot bits.
    compress: Vec<[u8; 512]>,
    /// `slot_square[class][slot]`.
    slot_square: [[u8; SLOTS]; KING_PAIRS],
    /// `offset[orth slots][diag slots]`, `u32::MAX` where they overlap or
    /// hold more than two cubes of a family.
    offset: Vec<u32>,
    /// The patterns by offset, for unranking.
    patterns: Vec<Pattern>,
    /// Positions per King pair.
    cubes: u32,
    material: Material,
    /// Cubes of each family in the game.
    orth: u32,
    diag: u32,
}

/// The cubes of a game: how many of each family each side holds when the
/// Kings are placed (all cubes start in hand). The real game is
/// `Material::FULL`; smaller ones give sub-games small enough to solve in a
/// test with a naive solver beside.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Material {
    /// `orth[color]`, `diag[color]`: cubes in each hand at the start.
    pub orth: [u8; 2],
    pub diag: [u8; 2],
}

impl Material {
    pub const FULL: Material = Material {
        orth: [1, 1],
        diag: [1, 1],
    };

    /// Cubes of each family in the whole game.
    pub const fn totals(self) -> (u32, u32) {
        (
            (self.orth[0] + self.orth[1]) as u32,
            (self.diag[0] + self.diag[1]) as u32,
        )
    }

    /// The start of the game: empty board, Kings and cubes in hand.
    pub fn start(self) -> Nana {
        let hand = |c: usize| Hand::new(1, self.orth[c], self.diag[c]);
        Nana::from_parts(Board::EMPTY, [hand(0), hand(1)], Color::First)
    }
}

impl Index {
    /// The index of the real game, built once.
    pub fn get() -> &'static Index {
        static INDEX: OnceLock<Index> = OnceLock::new();
        INDEX.get_or_init(|| Index::new(Material::FULL))
    }

    /// The index of a game with this material (at most two cubes of a
    /// family, as `Nana::new` accepts).
    #[allow(clippy::needless_range_loop)] // square numbers index the tables
    pub fn new(material: Material) -> Index {
        let (n_orth, n_diag) = material.totals();
        let mut kp = [[(u8::MAX, false); SQUARES]; SQUARES];
        let mut kings = [(0u8, 0u8); KING_PAIRS];
        let mut n = 0usize;
        for ku in 0..SQUARES {
            for kt in 0..SQUARES {
                if ku == kt {
                    continue;
                }
                let (mu, mt) = (map_square(MIRROR, ku), map_square(MIRROR, kt));
                if (ku, kt) <= (mu, mt) {
                    kp[ku][kt] = (n as u8, false);
                    kings[n] = (ku as u8, kt as u8);
                    n += 1;
                }
            }
        }
        debug_assert_eq!(n, KING_PAIRS);
        for ku in 0..SQUARES {
            for kt in 0..SQUARES {
                if ku != kt && kp[ku][kt].0 == u8::MAX {
                    let (mu, mt) = (map_square(MIRROR, ku), map_square(MIRROR, kt));
                    kp[ku][kt] = (kp[mu][mt].0, true);
                }
            }
        }
        let mut compress = vec![[0u8; 512]; KING_PAIRS];
        let mut slot_square = [[0u8; SLOTS]; KING_PAIRS];
        for (c, &(ku, kt)) in kings.iter().enumerate() {
            let free: Vec<usize> = (0..SQUARES)
                .filter(|&s| s != ku as usize && s != kt as usize)
                .collect();
            for (i, &s) in free.iter().enumerate() {
                slot_square[c][i] = s as u8;
            }
            for set in 0..512usize {
                compress[c][set] = free
                    .iter()
                    .enumerate()
                    .filter(|&(_, &s)| set & (1 << s) != 0)
                    .fold(0u8, |acc, (i, _)| acc | (1 << i));
            }
        }
        let mut offset = vec![u32::MAX; 128 * 128];
        let mut patterns = Vec::new();
        let mut total = 0u32;
        for orth in 0..128u32 {
            for diag in 0..128u32 {
                let (a, b) = (orth.count_ones(), diag.count_ones());
                if orth & diag != 0 || a > n_orth || b > n_diag {
                    continue;
                }
                offset[(orth * 128 + diag) as usize] = total;
                patterns.push(Pattern {
                    offset: total,
                    orth: orth as u8,
                    diag: diag as u8,
                });
                total += (1 << (3 * (a + b))) * (n_orth - a + 1) * (n_diag - b + 1);
            }
        }
        Index {
            kp,
            kings,
            compress,
            slot_square,
            offset,
            patterns,
            cubes: total,
            material,
            orth: n_orth,
            diag: n_diag,
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// Hand splits of the cubes of one family not on the board.
    #[inline(always)]
    fn splits(&self, orth_on_board: u32, diag_on_board: u32) -> (u32, u32) {
        (self.orth - orth_on_board + 1, self.diag - diag_on_board + 1)
    }

    /// The number of indices.
    pub fn len(&self) -> usize {
        KING_PAIRS * self.cubes as usize
    }

    /// Always false: there are positions.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Positions per King pair class.
    pub fn per_king_pair(&self) -> u32 {
        self.cubes
    }

    /// The King pair class of an index, and whether its King pair is its
    /// own mirror image (then the class stands for one position, otherwise
    /// for a position and its distinct mirror image).
    pub fn king_pair(&self, idx: u32) -> (usize, bool) {
        let c = (idx / self.cubes) as usize;
        let (ku, kt) = self.kings[c];
        let sym = map_square(MIRROR, ku as usize) == ku as usize
            && map_square(MIRROR, kt as usize) == kt as usize;
        (c, sym)
    }

    /// The index of a main-phase position given by its parts (`side` to
    /// move; both Kings on the board), and whether it had to be mirrored to
    /// reach its stored orientation (`false` means it is stored as it is,
    /// after the colour flip if the second player is to move).
    #[inline(always)]
    pub fn rank(&self, b: &Board, hand: &[Hand; 2], side: Color) -> Option<(u32, bool)> {
        let them = side.opponent();
        let flip = if side == Color::Second { FLIP } else { 0 };
        let (ku, kt) = (b.king(side)?, b.king(them)?);
        let (ku, kt) = (
            SQMAP[flip][ku.index()] as usize,
            SQMAP[flip][kt.index()] as usize,
        );
        let (class, mirrored) = self.kp[ku][kt];
        let v = flip | if mirrored { MIRROR } else { 0 };
        let map = &SQMAP[v];
        let cubes = b.occupied() & !(1 << b.king[0]) & !(1 << b.king[1]);
        let theirs = b.mine(them);
        // Each cube's digit on its canonical square, and the canonical
        // squares of each family.
        let mut cell = [0u8; SQUARES];
        let (mut orth, mut diag) = (0u16, 0u16);
        for s in squares(cubes) {
            let c = map[s.index()] as usize;
            let k = b.kind(s) as u8;
            cell[c] = (((theirs >> s.index()) & 1) as u8) << 2 | ((k - 1) & 3);
            if k >= Kind::Bishop as u8 {
                diag |= 1 << c;
            } else {
                orth |= 1 << c;
            }
        }
        let mut digits = 0u32;
        for (n, c) in squares(orth | diag).enumerate() {
            digits |= u32::from(cell[c.index()]) << (3 * n);
        }
        let comp = &self.compress[class as usize];
        let (o7, d7) = (comp[orth as usize] as u32, comp[diag as usize] as u32);
        let off = self.offset[(o7 * 128 + d7) as usize];
        let (a, bb) = (POP7[o7 as usize] as u32, POP7[d7 as usize] as u32);
        let h = hand[side.index()];
        let ou = u32::from(h.count(Family::Orth));
        let du = u32::from(h.count(Family::Diag));
        let (so, sd) = self.splits(a, bb);
        let local = off + (digits * so + ou) * sd + du;
        Some((class as u32 * self.cubes + local, mirrored))
    }

    /// Whether a frame position (side to move = "us") with these King
    /// squares is stored mirrored.
    #[inline(always)]
    pub fn mirrored(&self, ours: usize, theirs: usize) -> bool {
        self.kp[ours][theirs].1
    }

    /// Whether a position has this index's cubes (each family's count on
    /// the board and in both hands) and both Kings on the board.
    pub fn fits(&self, pos: &Nana) -> bool {
        let b = &pos.board;
        let on_board = |f: Family| {
            squares(b.occupied())
                .filter(|&s| b.kind(s).family() == f)
                .count() as u32
        };
        let in_hand = |f: Family| u32::from(pos.hand[0].count(f) + pos.hand[1].count(f));
        b.king(Color::First).is_some()
            && b.king(Color::Second).is_some()
            && pos.hand[0].count(Family::King) + pos.hand[1].count(Family::King) == 0
            && on_board(Family::Orth) + in_hand(Family::Orth) == self.orth
            && on_board(Family::Diag) + in_hand(Family::Diag) == self.diag
    }

    /// The index of a main-phase position.
    pub fn of(&self, pos: &Nana) -> Option<u32> {
        self.rank(&pos.board, &pos.hand, pos.side).map(|r| r.0)
    }

    /// The stored position of an index: the board and hands of the frame,
    /// the first player (us) to move.
    #[inline]
    pub fn unrank(&self, idx: u32) -> (Board, [Hand; 2]) {
        let class = (idx / self.cubes) as usize;
        let local = idx % self.cubes;
        let p = match self.patterns.binary_search_by(|p| p.offset.cmp(&local)) {
            Ok(i) => self.patterns[i],
            Err(i) => self.patterns[i - 1],
        };
        let (a, bb) = (p.orth.count_ones(), p.diag.count_ones());
        let (so, sd) = self.splits(a, bb);
        let mut rest = local - p.offset;
        let du = rest % sd;
        rest /= sd;
        let ou = rest % so;
        let mut digits = rest / so;
        let (ku, kt) = self.kings[class];
        let mut b = Board::EMPTY;
        b.put(Color::First, Kind::King, sq(ku as usize));
        b.put(Color::Second, Kind::King, sq(kt as usize));
        let occ = p.orth | p.diag;
        for slot in 0..SLOTS {
            if occ & (1 << slot) == 0 {
                continue;
            }
            let d = digits & 7;
            digits >>= 3;
            let base = if p.orth & (1 << slot) != 0 { 1 } else { 5 };
            let kind = Kind::ALL[base + (d & 3) as usize];
            let color = if d & 4 != 0 {
                Color::Second
            } else {
                Color::First
            };
            b.put(color, kind, sq(self.slot_square[class][slot] as usize));
        }
        let hands = [
            Hand::new(0, ou as u8, du as u8),
            Hand::new(0, (self.orth - a - ou) as u8, (self.diag - bb - du) as u8),
        ];
        (b, hands)
    }

    /// The stored position of an index as a `Nana`, first player to move.
    pub fn position(&self, idx: u32) -> Nana {
        let (board, hand) = self.unrank(idx);
        Nana::from_parts(board, hand, Color::First)
    }
}

/// The square of an index below 9 (every caller's index is one of the
/// board's squares by construction).
#[inline(always)]
pub fn sq(i: usize) -> Square {
    Square::new((i % 3) as u8, (i / 3) as u8)
}

/// The board mirrored (files a and c swapped).
#[inline]
pub fn mirror_board(b: &Board) -> Board {
    let mut m = Board::EMPTY;
    for c in Color::BOTH {
        for s in squares(b.mine(c)) {
            m.put(c, b.kind(s), sq(SQMAP[MIRROR][s.index()] as usize));
        }
    }
    m
}

/// A position under a symmetry: `flip` turns the board and swaps the
/// colours, hands and side to move; `mirror` swaps files a and c.
pub fn transform(pos: &Nana, flip: bool, mirror: bool) -> Nana {
    let v = if flip { FLIP } else { 0 } | if mirror { MIRROR } else { 0 };
    let mut b = Board::EMPTY;
    for c in Color::BOTH {
        for s in squares(pos.board.mine(c)) {
            let to = sq(SQMAP[v][s.index()] as usize);
            b.put(if flip { c.opponent() } else { c }, pos.board.kind(s), to);
        }
    }
    let (hand, side) = if flip {
        ([pos.hand[1], pos.hand[0]], pos.side.opponent())
    } else {
        (pos.hand, pos.side)
    };
    Nana::from_parts(b, hand, side)
}
