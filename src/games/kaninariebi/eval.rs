//! Kani Nari Ebi evaluation for the first search, in centipawns from the
//! side to move's view: material, Shrimps toward the three-Shrimp win,
//! Crabs advancing toward the promotion column, and mobility.

use super::KaniNariEbi;
use super::board::{self, squares};
use super::movegen::Mover;
use crate::core::{Color, Game};

/// One piece on the board.
const PIECE: i32 = 100;
/// Extra cost of standing one capture from defeat (three pieces left).
const LAST_SPARE: i32 = 80;
/// Each own Shrimp is a third of the Shrimp win; the second one makes the
/// threat concrete (any promotion or Shrimp kept wins).
const SHRIMP: i32 = 45;
const SECOND_SHRIMP: i32 = 60;
/// Per file a Crab has advanced from its home column toward the opponent's,
/// where it may promote.
const CRAB_ADVANCE: i32 = 8;
/// Per normal movement: a side short of movements is close to the
/// no-legal-movement loss and has fewer ways to sandwich.
const MOBILITY: i32 = 4;

fn side_score(pos: &KaniNariEbi, c: Color) -> i32 {
    let pieces = pos.pieces(c).count_ones() as i32;
    let mut s = pieces * PIECE;
    if pieces <= 3 {
        s -= LAST_SPARE;
    }
    let shrimps = pos.shrimps(c).count_ones() as i32;
    s += shrimps * SHRIMP;
    if shrimps >= 2 {
        s += SECOND_SHRIMP;
    }
    for sq in squares(pos.crabs(c)) {
        let advanced = match c {
            Color::First => sq.file(),
            Color::Second => board::FILES - 1 - sq.file(),
        };
        s += advanced as i32 * CRAB_ADVANCE;
    }
    let mobility = Mover {
        own: pos.pieces(c),
        shrimps: pos.shrimps(c),
        enemy: pos.pieces(c.opponent()),
        promotion_zone: board::home(c.opponent()),
        any_type: pos.rules().bond_any_type,
    }
    .movement_count();
    s + mobility as i32 * MOBILITY
}

pub fn evaluate(pos: &KaniNariEbi) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, us.opponent())
}
