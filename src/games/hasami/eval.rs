//! Hasami evaluation for the first search: material (men on the board).

use super::Hasami;
use crate::core::Game;

const MAN: i32 = 100;

pub fn evaluate(pos: &Hasami) -> i32 {
    let us = pos.side_to_move();
    let mine = pos.men(us).count_ones() as i32;
    let theirs = pos.men(us.opponent()).count_ones() as i32;
    (mine - theirs) * MAN
}
