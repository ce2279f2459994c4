//! Kani Nari Ebi evaluation, in centipawns from the side to move's view.
//! Each term is what a strong player counts, times its weight from the
//! weights file (`weights.bin`, see `weights.md` for how it is made).

use super::KaniNariEbi;
use super::board::{self, Bitboard, east, north, south, squares, west};
use super::movegen::{PIECES, resting};
use crate::core::{Color, Game};
use crate::eval::file::Params;
use crate::eval::net::{Active, Network};
use crate::eval::{Slot, Sum, Terms};
use crate::games::sandwich::exposed_along_within;

/// The terms, in the order of the weights file.
pub const TERMS: usize = 15;
pub const NAMES: [&str; TERMS] = [
    "lost_one",
    "lost_two",
    "shrimp_one",
    "shrimp_two",
    "crab_advance",
    "promo_ready",
    "promo_wins",
    "crab_open",
    "mobility",
    "low_mobility",
    "hanging_us",
    "hanging_shrimp",
    "hanging_them",
    "threat_win",
    "tempo",
];
/// Pieces on the board: three captures win, so each lost piece weighs
/// more than the one before. By pieces left (4, 3 or fewer); 5 is the zero.
const LOST_ONE: usize = 0;
const LOST_TWO: usize = 1;
/// Own Shrimps: three win. One and two Shrimps.
const SHRIMP_ONE: usize = 2;
const SHRIMP_TWO: usize = 3;
/// Per file a Crab has advanced toward the promotion column.
const CRAB_ADVANCE: usize = 4;
/// Crabs that can reach the promotion column with their next movement.
const PROMO_READY: usize = 5;
/// The same with two Shrimps already: the next movement wins.
const PROMO_WINS: usize = 6;
/// Crabs with no enemy piece between them and the promotion column on
/// their rank (the lane may open for them).
const CRAB_OPEN: usize = 7;
/// Per normal movement.
const MOBILITY: usize = 8;
/// Per movement short of four: close to the no-legal-movement loss.
const LOW_MOBILITY: usize = 9;
/// Side to move: own pieces an enemy movement could sandwich next.
const HANGING_US: usize = 10;
/// Extra for a hanging Shrimp of the side to move.
const HANGING_SHRIMP: usize = 11;
/// Side to move: enemy pieces we can sandwich now.
const HANGING_THEM: usize = 12;
/// The side not to move threatens to win with its next movement.
const THREAT_WIN: usize = 13;
/// Having the move (zero by hand; fitting may find it worth something).
const TEMPO: usize = 14;

/// The weights set by hand and fixed-node matches before they were
/// fitted to self-play data: where fitting starts.
pub const HAND_MADE: [i32; TERMS] = [100, 280, 45, 150, 8, 15, 200, 10, 4, 30, 30, 30, 15, 300, 0];

/// The network's inputs per view: own and enemy Crabs and Shrimps on each
/// square (see `inputs`).
pub const INPUTS: usize = 4 * board::SQUARES;
pub const HIDDEN: usize = 32;

pub type Weights = Params<TERMS, INPUTS, HIDDEN>;

static BUILT_IN: Weights =
    Weights::from_bytes_const(KaniNariEbi::NAME, include_bytes!("weights.bin"));

/// The weights in force (the `EvalFile` option replaces them).
pub static WEIGHTS: Slot<Weights> = Slot::new(&BUILT_IN);

/// `ADVANCE_BITS[c]`: the files whose Crabs count 1, 2 and 4 in `c`'s
/// advance (file a..e are 0..4 for the first player, 4..0 for the second),
/// so that the advance is three bit counts.
const ADVANCE_BITS: [[Bitboard; 3]; 2] = {
    let a = board::FILE_A;
    [
        [a << 1 | a << 3, a << 2 | a << 3, a << 4],
        [a << 1 | a << 3, a << 1 | a << 2, a],
    ]
};

/// The squares with a piece of `pieces` further along their rank in the
/// direction opposite to `step`: up to four steps, in three shifts.
#[inline(always)]
fn before(pieces: Bitboard, step: impl Fn(Bitboard) -> Bitboard) -> Bitboard {
    let x = step(pieces);
    let x = x | step(x);
    x | step(step(x))
}

/// What one side's normal movements reach.
pub struct Reach {
    /// Every resting square of a movement.
    pub squares: Bitboard,
    /// Number of normal movements (promotion choices counted apart).
    movements: u32,
    /// Crabs with a movement into the promotion column.
    promo_ready: u32,
}

#[inline(always)]
pub fn reach(own: Bitboard, shrimps: Bitboard, enemy: Bitboard, zone: Bitboard) -> Reach {
    let occupied = own | enemy;
    let mut r = Reach {
        squares: 0,
        movements: 0,
        promo_ready: 0,
    };
    // Without branches on the piece's kind or its promotions: which one a
    // square holds is the board's chance, and a mispredicted branch costs
    // more than looking up both kinds' steps.
    for from in squares(own) {
        let crab = shrimps & from.bit() == 0;
        let kind = u32::from(crab).wrapping_neg();
        let to =
            (board::crab_targets(from, occupied) & kind) | (from.diagonal() & !occupied & !kind);
        let (plain, promote) = resting(to, occupied, crab, zone);
        r.squares |= plain;
        r.movements += plain.count_ones() + promote.count_ones();
        r.promo_ready += u32::from(promote != 0);
    }
    r
}

/// The pieces of `ours` that a movement of the other side onto one of
/// `their_reach` would sandwich against a piece of `theirs`.
#[inline(always)]
pub fn exposed(ours: Bitboard, theirs: Bitboard, their_reach: Bitboard) -> Bitboard {
    // A line of five squares holds at most three men between a landing
    // square and an enemy man.
    let landing = !(ours | theirs) & their_reach;
    exposed_along_within::<_, 3>(ours, theirs, landing, north, south)
        | exposed_along_within::<_, 3>(ours, theirs, landing, south, north)
        | exposed_along_within::<_, 3>(ours, theirs, landing, east, west)
        | exposed_along_within::<_, 3>(ours, theirs, landing, west, east)
}

/// The terms that do not depend on who is to move, for side `c`, counted
/// `sign` times.
#[inline(always)]
fn side_terms<A: Terms>(a: &mut A, pos: &KaniNariEbi, c: Color, r: &Reach, sign: i32) {
    let own = pos.pieces(c);
    let shrimps = pos.shrimps(c);
    let crabs = own & !shrimps;
    match own.count_ones() {
        n if n >= PIECES => {}
        4 => a.add(LOST_ONE, -sign),
        _ => a.add(LOST_TWO, -sign),
    }
    match shrimps.count_ones() {
        0 => {}
        1 => a.add(SHRIMP_ONE, sign),
        _ => a.add(SHRIMP_TWO, sign),
    }
    let enemy = pos.pieces(c.opponent());
    let [one, two, four] = ADVANCE_BITS[c.index()];
    let advance = (crabs & one).count_ones()
        + 2 * (crabs & two).count_ones()
        + 4 * (crabs & four).count_ones();
    // A lane is open with no enemy piece between the Crab and the
    // promotion column: the first player's lie east, the second's west.
    let blocked = match c {
        Color::First => before(enemy, west),
        Color::Second => before(enemy, east),
    };
    let open = (crabs & !blocked).count_ones();
    a.add(CRAB_ADVANCE, sign * advance as i32);
    a.add(CRAB_OPEN, sign * open as i32);
    a.add(PROMO_READY, sign * r.promo_ready as i32);
    a.add(MOBILITY, sign * r.movements as i32);
    a.add(
        LOW_MOBILITY,
        -sign * 4u32.saturating_sub(r.movements) as i32,
    );
}

/// Whether the side not to move wins with its next normal movement: a
/// promotion to its third Shrimp, or its third capture.
pub fn threatened(pos: &KaniNariEbi) -> bool {
    let us = pos.side_to_move();
    let them = us.opponent();
    let ours = pos.pieces(us);
    let two_shrimps = pos.shrimps(them).count_ones() == 2;
    let last_three = ours.count_ones() == PIECES - 2;
    if !two_shrimps && !last_three {
        return false;
    }
    let theirs = pos.pieces(them);
    let r = reach(theirs, pos.shrimps(them), ours, board::home(us));
    (two_shrimps && r.promo_ready > 0) || (last_three && exposed(ours, theirs, r.squares) != 0)
}

/// The evaluation's terms, from the side to move's view.
pub fn terms<A: Terms>(pos: &KaniNariEbi, a: &mut A) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (pos.pieces(us), pos.pieces(them));
    let r_us = reach(ours, pos.shrimps(us), theirs, board::home(them));
    let r_them = reach(theirs, pos.shrimps(them), ours, board::home(us));
    side_terms(a, pos, us, &r_us, 1);
    side_terms(a, pos, them, &r_them, -1);
    a.add(TEMPO, 1);
    let hanging_us = exposed(ours, theirs, r_them.squares);
    let hanging_them = exposed(theirs, ours, r_us.squares);
    a.add(HANGING_US, -(hanging_us.count_ones() as i32));
    a.add(
        HANGING_SHRIMP,
        -((hanging_us & pos.shrimps(us)).count_ones() as i32),
    );
    a.add(HANGING_THEM, hanging_them.count_ones() as i32);
    // The side not to move wins next unless we stop it: a promotion to the
    // third Shrimp, or the third capture.
    let they_win_next = (pos.shrimps(them).count_ones() == 2 && r_them.promo_ready > 0)
        || (ours.count_ones() == 3 && hanging_us != 0);
    if they_win_next {
        a.add(THREAT_WIN, -1);
    }
    if pos.shrimps(them).count_ones() == 2 {
        a.add(PROMO_WINS, -(r_them.promo_ready as i32));
    }
    if pos.shrimps(us).count_ones() == 2 {
        a.add(PROMO_WINS, r_us.promo_ready as i32);
    }
}

/// The network's active inputs from each side's view (the side to move's
/// first): a side sees its own pieces as the first player's, the board
/// turned half a circle for the second player.
pub fn inputs(pos: &KaniNariEbi) -> Active<{ 2 * PIECES as usize }> {
    let mut act = Active::default();
    let us = pos.side_to_move();
    for (v, view) in [us, us.opponent()].into_iter().enumerate() {
        for (side, c) in [view, view.opponent()].into_iter().enumerate() {
            let shrimps = pos.shrimps(c);
            for sq in squares(pos.pieces(c)) {
                let s = match view {
                    Color::First => sq.index(),
                    Color::Second => board::SQUARES - 1 - sq.index(),
                };
                let kind = usize::from(shrimps & sq.bit() != 0);
                act.push(v, (side * 2 + kind) * board::SQUARES + s);
            }
        }
    }
    act
}

/// The static evaluation in centipawns from the side to move's view.
#[inline]
pub fn evaluate(pos: &KaniNariEbi) -> i32 {
    evaluate_with(pos, WEIGHTS.get())
}

/// The static evaluation with the given weights.
#[inline]
pub fn evaluate_with(pos: &KaniNariEbi, w: &Weights) -> i32 {
    let mut s = Sum::new(&w.terms);
    terms(pos, &mut s);
    crate::eval::bounded(match &w.net {
        None => s.total,
        Some(net) => s.total.wrapping_add(net_output(pos, net)),
    })
}

/// `net.evaluate(&inputs(pos))`, the inputs added as the board's pieces
/// are found instead of listed first (both views in one pass; the sums
/// wrap, so their order does not matter).
#[inline(always)]
pub fn net_output(pos: &KaniNariEbi, net: &Network<INPUTS, HIDDEN>) -> i32 {
    // One loop per side to move, so that each has its squares' turning
    // fixed instead of choosing it per piece.
    match pos.side_to_move() {
        Color::First => hidden_sums::<false>(pos, net),
        Color::Second => hidden_sums::<true>(pos, net),
    }
}

/// `net_output` with the side to move the second player (`TURNED`: its
/// view turns the board) or the first. One loop over every piece, its side
/// and kind found by arithmetic: loops per side and kind would end after a
/// number of pieces the branch predictor cannot know.
#[inline(always)]
fn hidden_sums<const TURNED: bool>(pos: &KaniNariEbi, net: &Network<INPUTS, HIDDEN>) -> i32 {
    let us = pos.side_to_move();
    let [mut own_view, mut other_view] = net.start();
    let last = board::SQUARES - 1;
    let theirs = pos.pieces(us.opponent());
    for sq in squares(pos.pieces(us) | theirs) {
        let side = (theirs >> sq.index() & 1) as usize;
        let kind = (pos.shrimps >> sq.index() & 1) as usize;
        // In the other view these pieces are the other side's.
        let first0 = (side * 2 + kind) * board::SQUARES;
        let first1 = ((1 - side) * 2 + kind) * board::SQUARES;
        let (s0, s1) = if TURNED {
            (last - sq.index(), sq.index())
        } else {
            (sq.index(), last - sq.index())
        };
        net.add_known(&mut own_view, first0 + s0);
        net.add_known(&mut other_view, first1 + s1);
    }
    net.output(&[own_view, other_view])
}

crate::impl_evaluation!(KaniNariEbi, self);
