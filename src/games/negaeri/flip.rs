//! Flips after a drop (`negaeri.md`, "Flips after a drop"): sandwiches in
//! eight directions closed by an own piece or the edge, loyalty around the
//! enemy King, and chains resolved level by level. Pure bit arithmetic on
//! the precomputed rays; nothing allocates.
//!
//! Why no piece can flip twice in one move: every flip turns an enemy piece
//! into one of the mover's, and only enemy pieces are ever in a run, so a
//! flipped piece is never seen as flippable again in the same move. (Within
//! one level two sources may sandwich the same piece; the level's set is a
//! union, so it flips once.) Loyalty is fixed for the whole move: Kings do
//! not move during a drop and enemy pieces only ever leave the enemy side,
//! so the loyal enemy pieces are those on the enemy King's square and the 8
//! around it, on the board as the drop found it.
//!
//! Only the newest level looks for the next one, as the rules say; letting
//! older levels look again would find nothing more anyway: a run from an
//! older own piece closed by a newer flip is the same run the newer piece
//! sees looking back (the edge and loyalty do not change within a move).

use super::board::{ALL, Bitboard, KING, RAY, STEP, nearest, squares};
use super::rules::MAX_CHAIN;

/// What one drop flips, level by level.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Flips {
    /// `levels[n - 1]`: the pieces flipped at level `n`.
    pub levels: [Bitboard; MAX_CHAIN as usize],
    /// Every flipped piece.
    pub all: Bitboard,
}

impl Flips {
    /// The deepest level that flipped something (0 when nothing flipped).
    pub fn depth(&self) -> usize {
        self.levels
            .iter()
            .rposition(|&l| l != 0)
            .map_or(0, |i| i + 1)
    }
}

/// The enemy pieces sandwiched from `src` on a board where `ours` are the
/// mover's pieces (with `src` among them) and `flippable` the enemy pieces
/// that may flip (not the enemy King, not loyal to it). A run ends at the
/// first square that is not flippable: an own piece closes it; an empty
/// square or a loyal or royal enemy piece leaves it open; running off the
/// board closes it when `edge` is on.
#[inline]
pub fn sandwiched(src: usize, ours: Bitboard, flippable: Bitboard, edge: bool) -> Bitboard {
    // Fast path: without a flippable neighbour there is no run at all.
    if KING[src] & flippable == 0 {
        return 0;
    }
    let mut out = 0;
    for d in 0..8 {
        if STEP[d][src] & flippable == 0 {
            continue;
        }
        let ray = RAY[d][src];
        let stop = ray & !flippable;
        if stop == 0 {
            if edge {
                out |= ray;
            }
            continue;
        }
        let b = nearest(d, stop);
        if ours & (1 << b) != 0 {
            // The squares strictly between `src` and the closing piece.
            out |= ray & !RAY[d][b] & !(1 << b);
        }
    }
    out
}

/// The enemy pieces loyal to the enemy King on `their_king` (its square
/// and the eight around it; none without a King): they never flip.
#[inline]
pub fn loyal(their_king: Bitboard) -> Bitboard {
    match their_king {
        0 => 0,
        k => k | KING[k.trailing_zeros() as usize],
    }
}

/// Resolves a drop on `dropped`: `ours` and `theirs` are the two sides'
/// pieces before the drop (the dropped piece not yet in `ours`),
/// `their_king` the enemy King's square set (may be empty), `limit` the
/// highest level that flips.
#[inline]
pub fn resolve(
    dropped: usize,
    ours: Bitboard,
    theirs: Bitboard,
    their_king: Bitboard,
    edge: bool,
    limit: u8,
) -> Flips {
    let mut flips = Flips::default();
    flips.all = resolve_levels(
        dropped,
        ours,
        theirs,
        their_king,
        edge,
        limit,
        |level, next| {
            flips.levels[level] = next;
        },
    );
    flips
}

/// Every piece `resolve` flips, the levels not kept (playing a drop needs
/// no more).
#[inline]
pub fn resolve_all(
    dropped: usize,
    ours: Bitboard,
    theirs: Bitboard,
    their_king: Bitboard,
    edge: bool,
    limit: u8,
) -> Bitboard {
    resolve_levels(dropped, ours, theirs, their_king, edge, limit, |_, _| {})
}

/// `resolve`'s work: calls `level(n - 1, pieces)` for each level `n` that
/// flips something and returns every flipped piece.
#[inline(always)]
fn resolve_levels(
    dropped: usize,
    ours: Bitboard,
    theirs: Bitboard,
    their_king: Bitboard,
    edge: bool,
    limit: u8,
    mut level_found: impl FnMut(usize, Bitboard),
) -> Bitboard {
    // Without an enemy neighbour nothing flips, loyal or not: the usual
    // drop, told before the King's neighbourhood is looked up.
    if KING[dropped] & theirs == 0 {
        return 0;
    }
    let mut all = 0;
    let loyal = loyal(their_king);
    let mut ours = ours | (1 << dropped);
    let mut theirs = theirs;
    let mut frontier: Bitboard = 1 << dropped;
    for level in 0..limit.min(MAX_CHAIN) as usize {
        let flippable = theirs & !loyal;
        let mut next = 0;
        // Every source of this level looks at the same board: `ours` and
        // `theirs` change only after the whole level is found.
        for src in squares(frontier) {
            next |= sandwiched(src.index(), ours, flippable, edge);
        }
        if next == 0 {
            break;
        }
        level_found(level, next);
        all |= next;
        ours |= next;
        theirs &= !next;
        frontier = next;
    }
    all
}

/// Whether a drop on `dropped` flips anything (level 1 decides it).
#[inline]
pub fn flips_any(
    dropped: usize,
    ours: Bitboard,
    theirs: Bitboard,
    their_king: Bitboard,
    edge: bool,
) -> bool {
    let loyal = loyal(their_king);
    sandwiched(dropped, ours | (1 << dropped), theirs & !loyal, edge) != 0
}

/// Squares on file a and on file f (masks for the sideways shifts).
const FILE_A: Bitboard = 0x4104_1041;
const FILE_F: Bitboard = FILE_A << 5;

/// The set moved one step in direction `d` (`DIRS` order: N, NE, E, SE,
/// S, SW, W, NW), squares leaving the board dropped.
#[inline(always)]
fn shift(d: usize, b: Bitboard) -> Bitboard {
    match d {
        0 => (b << 6) & ALL,
        1 => (b << 7) & ALL & !FILE_A,
        2 => (b << 1) & ALL & !FILE_A,
        3 => (b >> 5) & !FILE_A,
        4 => b >> 6,
        5 => (b >> 7) & !FILE_F,
        6 => (b >> 1) & !FILE_F,
        _ => (b << 5) & ALL & !FILE_F,
    }
}

/// What one drop of each side could flip at level 1, over all drop
/// squares at once (bit-parallel along each direction, as Othello programs
/// find their moves): `[0]` the enemy pieces some drop of the side owning
/// `colors[0]` would sandwich, `[1]` the same for the other side; `kings`
/// each side's King square set. Having something in hand to drop is the
/// caller's business; chains (levels 2 and up) are not followed. The two
/// sides are worked out lane by lane with the same operations, which the
/// compiler does as one vector operation each, and each direction is its
/// own instance (the shifts and the edge's closers constants).
#[inline]
pub fn level1_targets_both(
    colors: [Bitboard; 2],
    kings: [Bitboard; 2],
    edge: bool,
) -> [Bitboard; 2] {
    // The edge rule decided once, not in every direction.
    if edge {
        targets_both::<true>(colors, kings)
    } else {
        targets_both::<false>(colors, kings)
    }
}

/// `level1_targets_both` with the edge rule `EDGE`.
#[inline(always)]
fn targets_both<const EDGE: bool>(colors: [Bitboard; 2], kings: [Bitboard; 2]) -> [Bitboard; 2] {
    let empty = ALL & !(colors[0] | colors[1]);
    let flippable = Two([colors[1] & !loyal(kings[1]), colors[0] & !loyal(kings[0])]);
    let either = flippable.0[0] | flippable.0[1];
    if either == 0 || empty == 0 {
        return [0, 0];
    }
    let ours = Two(colors);
    let t = targets_line::<0, EDGE>(ours, flippable, either, empty)
        .or(targets_line::<1, EDGE>(ours, flippable, either, empty))
        .or(targets_line::<2, EDGE>(ours, flippable, either, empty))
        .or(targets_line::<3, EDGE>(ours, flippable, either, empty));
    t.0
}

/// Two bitboards, one per side, under the same operations.
#[derive(Copy, Clone)]
struct Two([Bitboard; 2]);

impl Two {
    #[inline(always)]
    fn splat(b: Bitboard) -> Two {
        Two([b, b])
    }

    #[inline(always)]
    fn and(self, o: Two) -> Two {
        Two([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }

    #[inline(always)]
    fn or(self, o: Two) -> Two {
        Two([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }

    /// `n` steps in direction `d` as bare bit shifts: squares leaving the
    /// board wrap or stay, so the result is only read through a `Fill`'s
    /// masks.
    #[inline(always)]
    fn raw_shift(self, d: usize, n: u32) -> Two {
        Two([raw_shift(d, n, self.0[0]), raw_shift(d, n, self.0[1])])
    }

    #[inline(always)]
    fn none(self) -> bool {
        self.0[0] | self.0[1] == 0
    }
}

/// `b` moved `n` steps in direction `d` as a bare bit shift (`shift`
/// without its masks).
#[inline(always)]
fn raw_shift(d: usize, n: u32, b: Bitboard) -> Bitboard {
    const DELTA: [i32; 8] = [6, 7, 1, -5, -6, -7, -1, 5];
    let k = DELTA[d] * n as i32;
    if k > 0 { b << k } else { b >> -k }
}

/// Runs of flippable pieces followed in one direction, doubling the
/// distance covered at each step after the first (1, then 2 and 2: every
/// run of up to 6) where a plain fill takes one step at a time.
#[derive(Copy, Clone)]
struct Fill {
    /// The direction (`DIRS` order).
    d: usize,
    /// Flippable pieces one step `d` past a square of the board.
    one: Two,
    /// Those whose square one step back is one too (two steps back is
    /// then a square of the board).
    two: Two,
}

impl Fill {
    #[inline(always)]
    fn new(d: usize, flippable: Two) -> Self {
        let one = flippable.and(Two::splat(shift(d, ALL)));
        Fill {
            d,
            one,
            two: one.and(one.raw_shift(d, 1)),
        }
    }

    /// The flippable pieces one step `d` past a square of `b`.
    #[inline(always)]
    fn next_to(self, b: Two) -> Two {
        b.raw_shift(self.d, 1).and(self.one)
    }

    /// The flippable pieces reached from `seed` (flippable pieces) going
    /// `d` without leaving a run.
    #[inline(always)]
    fn from(self, seed: Two) -> Two {
        let g = seed.or(self.next_to(seed));
        let g = g.or(g.raw_shift(self.d, 2).and(self.two));
        g.or(g.raw_shift(self.d, 2).and(self.two))
    }
}

/// `level1_targets_both` along the line of direction `D` (below 4) and its
/// opposite: the two directions share the fills' masks.
#[inline(always)]
fn targets_line<const D: usize, const EDGE: bool>(
    ours: Two,
    flippable: Two,
    either: Bitboard,
    empty: Bitboard,
) -> Two {
    let forth = Fill::new(D, flippable);
    let back = Fill::new(D + 4, flippable);
    targets_along::<EDGE>(ours, flippable, either, empty, forth, back).or(targets_along::<EDGE>(
        ours, flippable, either, empty, back, forth,
    ))
}

/// `level1_targets_both` in `forth`'s direction alone (`back` the
/// opposite one): the pieces of runs reached from an empty square that
/// reach a closer. `either` is the two sides' `flippable` together (a test
/// on it needs no vector lane read).
#[inline(always)]
fn targets_along<const EDGE: bool>(
    ours: Two,
    flippable: Two,
    either: Bitboard,
    empty: Bitboard,
    forth: Fill,
    back: Fill,
) -> Two {
    let next_to_empty = shift(forth.d, empty);
    if next_to_empty & either == 0 {
        return Two::splat(0);
    }
    let from_empty = Two::splat(next_to_empty).and(flippable);
    let mut to_closer = back.next_to(ours);
    if EDGE {
        // Flippable pieces with no square past them going `forth`.
        to_closer = to_closer.or(flippable.and(Two::splat(ALL & !shift(back.d, ALL))));
    }
    if to_closer.none() {
        return Two::splat(0);
    }
    forth.from(from_empty).and(back.from(to_closer))
}

/// The empty squares where a drop of the side owning `ours` flips
/// something at level 1, over all drop squares at once (`theirs` the enemy
/// pieces, `their_king` the enemy King's square set): an empty square
/// flips along a direction exactly when the square after it starts a run
/// that reaches a closer, so only runs toward closers are followed.
#[inline]
pub fn level1_drops(
    ours: Bitboard,
    theirs: Bitboard,
    their_king: Bitboard,
    edge: bool,
) -> Bitboard {
    let flippable = theirs & !loyal(their_king);
    let empty = ALL & !(ours | theirs);
    if flippable == 0 || empty == 0 {
        return 0;
    }
    // The edge rule decided once, not in every direction.
    if edge {
        drops::<true>(ours, flippable, empty)
    } else {
        drops::<false>(ours, flippable, empty)
    }
}

/// `level1_drops` with the edge rule `EDGE`.
#[inline(always)]
fn drops<const EDGE: bool>(ours: Bitboard, flippable: Bitboard, empty: Bitboard) -> Bitboard {
    drops_along::<0, EDGE>(ours, flippable, empty)
        | drops_along::<1, EDGE>(ours, flippable, empty)
        | drops_along::<2, EDGE>(ours, flippable, empty)
        | drops_along::<3, EDGE>(ours, flippable, empty)
        | drops_along::<4, EDGE>(ours, flippable, empty)
        | drops_along::<5, EDGE>(ours, flippable, empty)
        | drops_along::<6, EDGE>(ours, flippable, empty)
        | drops_along::<7, EDGE>(ours, flippable, empty)
}

/// The pieces of `flippable` whose run going `D` ends on a closer: an
/// own piece, or the edge when `EDGE` is on.
#[inline(always)]
fn closed_along<const D: usize, const EDGE: bool>(ours: Bitboard, flippable: Bitboard) -> Bitboard {
    let back = (D + 4) & 7;
    let mut closer = shift(back, ours);
    if EDGE {
        closer |= ALL & !shift(back, ALL);
    }
    let mut to_closer = closer & flippable;
    // A run holds at most 5 pieces on a 6-square line.
    for _ in 0..4 {
        to_closer |= shift(back, to_closer) & flippable;
    }
    to_closer
}

/// `level1_drops` in direction `D` alone.
#[inline(always)]
fn drops_along<const D: usize, const EDGE: bool>(
    ours: Bitboard,
    flippable: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    // No flippable piece just past an empty square: no drop flips this way.
    if shift(D, empty) & flippable == 0 {
        return 0;
    }
    shift((D + 4) & 7, closed_along::<D, EDGE>(ours, flippable)) & empty
}
