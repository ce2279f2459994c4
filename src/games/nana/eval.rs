//! Nana evaluation for the search without the table, from the side to
//! move's view: material, King safety and mobility, each term times its
//! weight from the weights file (`weights.bin`, see `weights.md`).

use super::Nana;
use super::board::{self, Bitboard, Family, attacks, king_steps, squares};
use crate::core::{Color, Game};
use crate::eval::file::Params;
use crate::eval::net::Active;
use crate::eval::{Slot, Sum, Terms};

/// The terms, in the order of the weights file.
pub const TERMS: usize = 6;
pub const NAMES: [&str; TERMS] = [
    "cube",
    "king_en_prise",
    "in_check",
    "king_zone",
    "mobility",
    "tempo",
];
/// A cube, on the board or in hand: in hand it may come back in any state,
/// but it also forbids mating by a board move, so it is worth the same.
const CUBE: usize = 0;
/// The side to move attacks the enemy King: it takes it next move (the
/// only term then).
const KING_EN_PRISE: usize = 1;
/// Our King attacked with no King capture of our own: we must spend the
/// move answering.
const IN_CHECK: usize = 2;
/// Each square next to a King that the enemy attacks.
const KING_ZONE: usize = 3;
/// Each square a side's pieces attack (their mobility).
const MOBILITY: usize = 4;
/// Having the move (zero by hand; fitting may find it worth something).
const TEMPO: usize = 5;

/// The weights set by hand before they were fitted to self-play data:
/// where fitting starts.
pub const HAND_MADE: [i32; TERMS] = [100, 5_000, 60, 12, 6, 0];

/// The network's inputs per view: own and enemy pieces of each kind on
/// each square, then own and enemy cubes in hand (one input per cube of
/// each family) and Kings still in hand.
pub const INPUTS: usize = 2 * 9 * board::SQUARES + 2 * 5;
pub const HIDDEN: usize = 32;

pub type Weights = Params<TERMS, INPUTS, HIDDEN>;

static BUILT_IN: Weights = Weights::from_bytes_const(Nana::NAME, include_bytes!("weights.bin"));

/// The weights in force (the `EvalFile` option replaces them).
pub static WEIGHTS: Slot<Weights> = Slot::new(&BUILT_IN);

fn attacked(pos: &Nana, c: Color) -> Bitboard {
    let b = pos.board();
    let occ = b.occupied();
    squares(b.mine(c)).fold(0, |acc, sq| acc | attacks(c, b.kind(sq), sq, occ))
}

/// The evaluation's terms, from the side to move's view.
pub fn terms<A: Terms>(pos: &Nana, a: &mut A) {
    let us = pos.side;
    let them = us.opponent();
    let mine = attacked(pos, us);
    let theirs = attacked(pos, them);
    if let Some(ek) = pos.king_square(them)
        && mine & ek.bit() != 0
    {
        a.add(KING_EN_PRISE, 1);
        return;
    }
    a.add(TEMPO, 1);
    for (c, sign) in [(us, 1), (them, -1)] {
        let b = pos.board();
        let cubes_on_board =
            (b.mine(c) & !pos.king_square(c).map_or(0, |k| k.bit())).count_ones() as i32;
        let hand = pos.hand(c);
        let cubes = cubes_on_board + i32::from(hand.count(Family::Orth) + hand.count(Family::Diag));
        let reach = if c == us { mine } else { theirs } & !b.mine(c);
        let enemy = if c == us { theirs } else { mine };
        let zone = pos
            .king_square(c)
            .map_or(0, |k| (king_steps(k) & enemy).count_ones() as i32);
        a.add(CUBE, sign * cubes);
        a.add(MOBILITY, sign * reach.count_ones() as i32);
        a.add(KING_ZONE, -sign * zone);
    }
    if let Some(k) = pos.king_square(us)
        && theirs & k.bit() != 0
    {
        a.add(IN_CHECK, -1);
    }
}

/// The network's active inputs from each side's view (the side to move's
/// first): a side sees its own pieces as the first player's, the board
/// turned half a circle for the second player.
pub fn inputs(pos: &Nana) -> Active<16> {
    let mut act = Active::default();
    let us = pos.side;
    let b = pos.board();
    const HANDS: usize = 2 * 9 * board::SQUARES;
    for (v, view) in [us, us.opponent()].into_iter().enumerate() {
        for (side, c) in [view, view.opponent()].into_iter().enumerate() {
            for sq in squares(b.mine(c)) {
                let s = match view {
                    Color::First => sq.index(),
                    Color::Second => board::SQUARES - 1 - sq.index(),
                };
                act.push(v, (side * 9 + b.kind(sq).index()) * board::SQUARES + s);
            }
            let hand = pos.hand(c);
            let base = HANDS + side * 5;
            for k in 0..usize::from(hand.count(Family::Orth)).min(2) {
                act.push(v, base + k);
            }
            for k in 0..usize::from(hand.count(Family::Diag)).min(2) {
                act.push(v, base + 2 + k);
            }
            if hand.count(Family::King) > 0 {
                act.push(v, base + 4);
            }
        }
    }
    act
}

/// The static evaluation in centipawns from the side to move's view.
#[inline]
pub fn evaluate(pos: &Nana) -> i32 {
    evaluate_with(pos, WEIGHTS.get())
}

/// The static evaluation with the given weights.
#[inline]
pub fn evaluate_with(pos: &Nana, w: &Weights) -> i32 {
    let mut s = Sum::new(&w.terms);
    terms(pos, &mut s);
    crate::eval::bounded(match &w.net {
        None => s.total,
        Some(net) => s.total.wrapping_add(net.evaluate(&inputs(pos))),
    })
}

crate::impl_evaluation!(Nana, self);
