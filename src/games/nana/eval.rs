//! Nana evaluation for the first search, from the side to move's view:
//! material, King safety and mobility.

use super::Nana;
use super::board::{Bitboard, Family, attacks, king_steps, squares};
use crate::core::Color;

/// A cube, on the board or in hand: in hand it may come back in any state,
/// but it also forbids mating by a board move, so it is worth the same.
const CUBE: i32 = 100;
/// The side to move attacks the enemy King: it takes it next move.
const KING_EN_PRISE: i32 = 5_000;
/// Our King attacked with no King capture of our own: we must spend the
/// move answering.
const IN_CHECK: i32 = 60;
/// Each square next to a King that the enemy attacks.
const KING_ZONE: i32 = 12;
/// Each square a side's pieces attack (their mobility).
const MOBILITY: i32 = 6;

fn attacked(pos: &Nana, c: Color) -> Bitboard {
    let b = pos.board();
    let occ = b.occupied();
    squares(b.mine(c)).fold(0, |acc, sq| acc | attacks(c, b.kind(sq), sq, occ))
}

pub fn evaluate(pos: &Nana) -> i32 {
    let us = pos.side;
    let them = us.opponent();
    let mine = attacked(pos, us);
    let theirs = attacked(pos, them);
    if let Some(ek) = pos.king_square(them)
        && mine & ek.bit() != 0
    {
        return KING_EN_PRISE;
    }
    let mut score = 0;
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
        score += sign * (cubes * CUBE + reach.count_ones() as i32 * MOBILITY - zone * KING_ZONE);
    }
    if let Some(k) = pos.king_square(us)
        && theirs & k.bit() != 0
    {
        score -= IN_CHECK;
    }
    score
}
