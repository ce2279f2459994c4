//! Rook-like slides of the side to move's men: every empty square along the
//! four lines up to the first man or the edge.

use super::Move;
use super::board::{Bitboard, Square, squares};
use crate::core::MoveSink;

#[inline]
pub fn generate<S: MoveSink<Move>>(mine: Bitboard, occupied: Bitboard, out: &mut S) {
    for from in squares(mine) {
        for d in 0..4 {
            let mut sq = from;
            while let Some(to) = sq.step(d) {
                if occupied & to.bit() != 0 {
                    break;
                }
                out.push(Move { from, to });
                sq = to;
            }
        }
    }
}

/// The number of moves `generate` would give.
#[inline]
pub fn count(mine: Bitboard, occupied: Bitboard) -> usize {
    let mut n = 0;
    for from in squares(mine) {
        for d in 0..4 {
            let mut sq: Square = from;
            while let Some(to) = sq.step(d) {
                if occupied & to.bit() != 0 {
                    break;
                }
                n += 1;
                sq = to;
            }
        }
    }
    n
}
