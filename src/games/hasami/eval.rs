//! Hasami evaluation, in centipawns from the side to move's view. Each
//! term is what a strong player counts; the weights were set by fixed-node
//! self-play matches (see the commit messages).

use super::board::{Bitboard, FULL, RANK_1, RANK_9, Square, down, left, right, up};
use super::{Hasami, WinRule};
use crate::core::{Color, Game, sandwich};

#[derive(Clone, Debug)]
pub struct Weights {
    /// Per man more than the opponent.
    pub man: i32,
    /// The side one capture from the win (per `HasamiWin`).
    pub goal_near: i32,
    /// Two captures from the win.
    pub goal_two: i32,
    /// Per move.
    pub mobility: i32,
    /// Side to move: own men an enemy move could capture next.
    pub hanging_us: i32,
    /// Side to move: enemy men we can capture now.
    pub hanging_them: i32,
    /// Men on the edge (no sandwich across the edge).
    pub edge: i32,
    /// Men with an own man orthogonally next to them.
    pub pair: i32,
    /// Percent added to the material term at the 300-ply limit (linear in
    /// the ply), where the side ahead wins.
    pub late: i32,
}

/// The tuned weights; a candidate set is tried by building it.
const WEIGHTS: Weights = Weights {
    man: 100,
    goal_near: 60,
    goal_two: 25,
    mobility: 2,
    hanging_us: 40,
    hanging_them: 20,
    edge: 8,
    pair: 6,
    late: 50,
};

/// Squares one side's men slide to, and how many moves that is.
pub fn reach(men: Bitboard, empty: Bitboard) -> (Bitboard, u32) {
    let mut squares = 0;
    let mut n = 0;
    for step in [up, down, right, left] {
        let mut front = step(men) & empty;
        while front != 0 {
            squares |= front;
            n += front.count_ones();
            front = step(front) & empty;
        }
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
    if rules.corners {
        const CORNERS: [(u8, u8); 4] = [(0, 0), (8, 0), (0, 8), (8, 8)];
        for (f, r) in CORNERS {
            let corner = Square::new(f, r).bit();
            if ours & corner == 0 {
                continue;
            }
            let a = Square::new(if f == 0 { 1 } else { 7 }, r).bit();
            let b = Square::new(f, if r == 0 { 1 } else { 7 }).bit();
            if (theirs & a != 0 && landing & b != 0) || (theirs & b != 0 && landing & a != 0) {
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

fn goal(w: &Weights, needed: i32) -> i32 {
    match needed {
        1 => w.goal_near,
        2 => w.goal_two,
        _ => 0,
    }
}

fn side_static(w: &Weights, men: Bitboard) -> i32 {
    (men & EDGE).count_ones() as i32 * w.edge
        + (men & super::board::orthogonal(men)).count_ones() as i32 * w.pair
}

const EDGE: Bitboard = RANK_1 | RANK_9 | super::board::FILE_A | super::board::FILE_I;

pub fn evaluate(pos: &Hasami) -> i32 {
    let w = &WEIGHTS;
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (pos.men(us), pos.men(them));
    let empty = !(ours | theirs) & FULL;
    let material = (ours.count_ones() as i32 - theirs.count_ones() as i32) * w.man;
    let mut s = material + material * w.late * pos.ply().min(300) as i32 / 300 / 100;
    s += goal(w, needed(pos, us)) - goal(w, needed(pos, them));
    let (reach_us, mob_us) = reach(ours, empty);
    let (reach_them, mob_them) = reach(theirs, empty);
    s += (mob_us as i32 - mob_them as i32) * w.mobility;
    s += side_static(w, ours) - side_static(w, theirs);
    if w.hanging_us != 0 {
        s -= exposed(pos, ours, theirs, reach_them).count_ones() as i32 * w.hanging_us;
    }
    if w.hanging_them != 0 {
        s += exposed(pos, theirs, ours, reach_us).count_ones() as i32 * w.hanging_them;
    }
    s
}
