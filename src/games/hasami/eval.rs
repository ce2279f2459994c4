//! Hasami evaluation, in centipawns from the side to move's view. Each
//! term is what a strong player counts, times its weight from the weights
//! file (`weights.bin`, see `weights.md` for how it is made).

use super::board::{
    Bitboard, CORNER_SQUARES, CORNERS, FILE_A, FILE_I, FILES, FULL, RANK_1, RANK_9, SQUARES, down,
    left, right, squares, up,
};
use super::{Hasami, MEN, WinRule};
use crate::core::{Color, Game};
use crate::eval::file::Params;
use crate::eval::net::Active;
use crate::eval::{Slot, Sum, Terms};
use crate::games::sandwich;

/// The terms, in the order of the weights file.
pub const TERMS: usize = 10;
pub const NAMES: [&str; TERMS] = [
    "man",
    "late",
    "goal_near",
    "goal_two",
    "mobility",
    "hanging_us",
    "hanging_them",
    "edge",
    "pair",
    "tempo",
];
/// Per man more than the opponent.
const MAN: usize = 0;
/// Per man more than the opponent at the 300-ply limit, where the side
/// ahead wins; linear in the ply from nothing at the start.
const LATE: usize = 1;
/// The side one capture from the win (per `HasamiWin`).
const GOAL_NEAR: usize = 2;
/// Two captures from the win.
const GOAL_TWO: usize = 3;
/// Per move.
const MOBILITY: usize = 4;
/// Side to move: own men an enemy move could capture next.
const HANGING_US: usize = 5;
/// Side to move: enemy men we can capture now.
const HANGING_THEM: usize = 6;
/// Men on the edge (no sandwich across the edge).
const EDGE: usize = 7;
/// Men with an own man orthogonally next to them.
const PAIR: usize = 8;
/// Having the move (zero by hand; fitting may find it worth something).
const TEMPO: usize = 9;

/// The weights set by hand and fixed-node matches before they were
/// fitted to self-play data: where fitting starts.
pub const HAND_MADE: [i32; TERMS] = [100, 50, 60, 25, 2, 40, 20, 8, 6, 0];

/// The network's inputs per view: own and enemy men on each square.
pub const INPUTS: usize = 2 * SQUARES;
pub const HIDDEN: usize = 32;

pub type Weights = Params<TERMS, INPUTS, HIDDEN>;

static BUILT_IN: Weights = Weights::from_bytes_const(Hasami::NAME, include_bytes!("weights.bin"));

/// The weights in force (the `EvalFile` option replaces them).
pub static WEIGHTS: Slot<Weights> = Slot::new(&BUILT_IN);

/// The empty squares reached from `men` sliding over `empty` one way:
/// `shift(b, k)` moves a set `k` squares that way, `unit` squares being
/// one step, and `entry` holds the squares a step may arrive on (a step
/// along a rank must not wrap to the next). Doubling steps (1, 2, then 4
/// empty squares at once) cover the eight squares of a line in three
/// rounds where a step at a time needs one round per square.
#[inline(always)]
fn slide(
    men: Bitboard,
    empty: Bitboard,
    shift: impl Fn(Bitboard, u32) -> Bitboard,
    unit: u32,
    entry: Bitboard,
) -> Bitboard {
    let mut reached = men;
    let mut open = empty & entry;
    reached |= open & shift(reached, unit);
    open &= shift(open, unit);
    reached |= open & shift(reached, 2 * unit);
    open &= shift(open, 2 * unit);
    reached |= open & shift(reached, 4 * unit);
    shift(reached, unit) & entry & empty
}

/// `slide` toward file i, by one subtraction: with the last file counted
/// as occupied, subtracting twice the men clears each man's first
/// occupied square toward file i (in its rank) and sets the empty ones
/// before it, so the bits that change are that run and its end.
#[inline(always)]
fn slide_right(men: Bitboard, empty: Bitboard) -> Bitboard {
    let stops = (FULL & !empty) | FILE_I;
    ((stops - ((men & !FILE_I) << 1)) ^ stops) & empty
}

/// Squares one side's men slide to, and how many moves that is.
pub fn reach(men: Bitboard, empty: Bitboard) -> (Bitboard, u32) {
    let higher = |b: Bitboard, k: u32| b << k;
    let lower = |b: Bitboard, k: u32| b >> k;
    let rank = u32::from(FILES);
    // In one direction an empty square is reached from the nearest man
    // behind it only: the four sets are each counted once.
    let mut squares = 0;
    let mut n = 0;
    for along in [
        slide(men, empty, higher, rank, FULL),
        slide(men, empty, lower, rank, FULL),
        slide_right(men, empty),
        slide(men, empty, lower, 1, FULL & !FILE_I),
    ] {
        squares |= along;
        n += along.count_ones();
    }
    (squares, n)
}

/// The men of `ours` that the other side would capture by moving onto one
/// of `reach` (the squares its men slide to).
#[inline]
pub fn exposed(pos: &Hasami, ours: Bitboard, theirs: Bitboard, reach: Bitboard) -> Bitboard {
    let rules = pos.rules();
    let landing = !(ours | theirs) & reach;
    let lines = rules.lines;
    let mut taken = exposed_along(lines, ours, theirs, landing, up, down)
        | exposed_along(lines, ours, theirs, landing, down, up)
        | exposed_along(lines, ours, theirs, landing, right, left)
        | exposed_along(lines, ours, theirs, landing, left, right);
    if rules.corners && ours & CORNER_SQUARES != 0 {
        for [corner, a, b] in CORNERS {
            if ours & corner != 0
                && ((theirs & a != 0 && landing & b != 0) || (theirs & b != 0 && landing & a != 0))
            {
                taken |= corner;
            }
        }
    }
    taken
}

/// `exposed` for the sandwiches whose run goes `fwd` from the landing
/// square to the closing enemy man; `back` is the inverse step.
#[inline(always)]
fn exposed_along(
    lines: bool,
    ours: Bitboard,
    theirs: Bitboard,
    landing: Bitboard,
    fwd: impl Fn(Bitboard) -> Bitboard,
    back: impl Fn(Bitboard) -> Bitboard,
) -> Bitboard {
    if !lines {
        // Only a lone man is taken.
        return ours & back(theirs) & fwd(landing);
    }
    sandwich::exposed_along(ours, theirs, landing, fwd, back)
}

/// Captures `c` still needs to win under the rule in force.
fn needed(pos: &Hasami, c: Color) -> i32 {
    let mine = pos.captured_by(c) as i32;
    match pos.rules().win {
        WinRule::Five => 5 - mine,
        WinRule::All => pos.men(c.opponent()).count_ones() as i32,
        WinRule::Lead3 => 3 - (mine - pos.captured_by(c.opponent()) as i32),
    }
}

fn goal<A: Terms>(a: &mut A, needed: i32, sign: i32) {
    match needed {
        1 => a.add(GOAL_NEAR, sign),
        2 => a.add(GOAL_TWO, sign),
        _ => {}
    }
}

const EDGES: Bitboard = RANK_1 | RANK_9 | FILE_A | FILE_I;

/// The evaluation's terms, from the side to move's view.
pub fn terms<A: Terms>(pos: &Hasami, a: &mut A) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (pos.men(us), pos.men(them));
    let empty = !(ours | theirs) & FULL;
    let men = ours.count_ones() as i32 - theirs.count_ones() as i32;
    a.add(MAN, men);
    a.add(TEMPO, 1);
    a.scaled(300, |a| a.add(LATE, men * pos.ply().min(300) as i32));
    goal(a, needed(pos, us), 1);
    goal(a, needed(pos, them), -1);
    let (reach_us, mob_us) = reach(ours, empty);
    let (reach_them, mob_them) = reach(theirs, empty);
    a.add(MOBILITY, mob_us as i32 - mob_them as i32);
    let count = |b: Bitboard| b.count_ones() as i32;
    a.add(EDGE, count(ours & EDGES) - count(theirs & EDGES));
    let paired = |men: Bitboard| count(men & super::board::orthogonal(men));
    a.add(PAIR, paired(ours) - paired(theirs));
    a.add(HANGING_US, -count(exposed(pos, ours, theirs, reach_them)));
    a.add(HANGING_THEM, count(exposed(pos, theirs, ours, reach_us)));
}

/// The network's active inputs from each side's view (the side to move's
/// first): a side sees its own men as the first player's, the board
/// turned half a circle for the second player.
pub fn inputs(pos: &Hasami) -> Active<{ 2 * MEN as usize }> {
    let mut act = Active::default();
    let us = pos.side_to_move();
    for (v, view) in [us, us.opponent()].into_iter().enumerate() {
        for (side, c) in [view, view.opponent()].into_iter().enumerate() {
            for sq in squares(pos.men(c)) {
                let s = match view {
                    Color::First => sq.index(),
                    Color::Second => SQUARES - 1 - sq.index(),
                };
                act.push(v, side * SQUARES + s);
            }
        }
    }
    act
}

/// The static evaluation in centipawns from the side to move's view.
#[inline]
pub fn evaluate(pos: &Hasami) -> i32 {
    evaluate_with(pos, WEIGHTS.get())
}

/// The static evaluation with the given weights.
#[inline]
pub fn evaluate_with(pos: &Hasami, w: &Weights) -> i32 {
    let mut s = Sum::new(&w.terms);
    terms(pos, &mut s);
    crate::eval::bounded(match &w.net {
        None => s.total,
        Some(net) => s.total.wrapping_add(net.evaluate(&inputs(pos))),
    })
}

crate::impl_evaluation!(Hasami, self);
