//! Rook-like slides of the side to move's men: every empty square along the
//! four lines up to the first man or the edge.

use super::Move;
use super::board::{Bitboard, CROSS, FULL, down, left, right, squares, up};
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

/// The moves of `generate` that end on one of `targets`, in the same order.
#[inline]
pub fn generate_onto<S: MoveSink<Move>>(
    mine: Bitboard,
    occupied: Bitboard,
    targets: Bitboard,
    out: &mut S,
) {
    if targets == 0 {
        return;
    }
    for from in squares(mine) {
        // A man whose rank and file miss every target has no such move.
        if CROSS[from.index()] & targets == 0 {
            continue;
        }
        for d in 0..4 {
            let mut sq = from;
            while let Some(to) = sq.step(d) {
                if occupied & to.bit() != 0 {
                    break;
                }
                if targets & to.bit() != 0 {
                    out.push(Move { from, to });
                }
                sq = to;
            }
        }
    }
}

/// The number of moves `generate` would give: all men's slides at once,
/// one step a round, in each direction.
#[inline]
pub fn count(mine: Bitboard, occupied: Bitboard) -> usize {
    let empty = !occupied & FULL;
    let mut n = 0;
    for step in [up, down, right, left] {
        let mut front = step(mine) & empty;
        while front != 0 {
            n += front.count_ones() as usize;
            front = step(front) & empty;
        }
    }
    n
}
