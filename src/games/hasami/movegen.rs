//! Rook-like slides of the side to move's men: every empty square along the
//! four lines up to the first man or the edge.

use super::Move;
use super::board::{Bitboard, CROSS, FULL, RAY, Square, down, left, right, squares, up};
use crate::core::MoveSink;

/// `DIRS` as square index steps: up, down, right, left.
const STRIDE: [i32; 4] = [9, -9, 1, -1];

/// The empty squares of the ray from `from` in direction `D` (`DIRS`)
/// before the first man or the edge, as the set `out` of them and their
/// number. Up and right go to higher indices, so the nearest man is the
/// lowest bit of the ray's men; down and left, the highest.
#[inline(always)]
fn run<const D: usize>(from: Square, occupied: Bitboard) -> (Bitboard, u32) {
    let ray = RAY[D][from.index()];
    let men = ray & occupied;
    if men == 0 {
        return (ray, ray.count_ones());
    }
    let open = if D == 0 || D == 2 {
        ray & ((men & men.wrapping_neg()) - 1)
    } else {
        ray & !(u128::MAX >> men.leading_zeros())
    };
    (open, open.count_ones())
}

/// Pushes the moves from `from` along `D` to its first `n` squares,
/// nearest first.
#[inline(always)]
fn push_run<const D: usize, S: MoveSink<Move>>(from: Square, n: u32, out: &mut S) {
    let mut to = from.index() as i32;
    for _ in 0..n {
        to += STRIDE[D];
        out.push(Move {
            from,
            to: Square::from_index(to as usize),
        });
    }
}

/// Pushes the moves from `from` along `D` onto the squares of `hits` (on
/// that ray), nearest first.
#[inline(always)]
fn push_hits<const D: usize, S: MoveSink<Move>>(from: Square, mut hits: Bitboard, out: &mut S) {
    while hits != 0 {
        let to = if D == 0 || D == 2 {
            let t = hits.trailing_zeros();
            hits &= hits - 1;
            t
        } else {
            let t = 127 - hits.leading_zeros();
            hits ^= 1 << t;
            t
        };
        out.push(Move {
            from,
            to: Square::from_index(to as usize),
        });
    }
}

#[inline]
pub fn generate<S: MoveSink<Move>>(mine: Bitboard, occupied: Bitboard, out: &mut S) {
    for from in squares(mine) {
        push_run::<0, S>(from, run::<0>(from, occupied).1, out);
        push_run::<1, S>(from, run::<1>(from, occupied).1, out);
        push_run::<2, S>(from, run::<2>(from, occupied).1, out);
        push_run::<3, S>(from, run::<3>(from, occupied).1, out);
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
        push_hits::<0, S>(from, run::<0>(from, occupied).0 & targets, out);
        push_hits::<1, S>(from, run::<1>(from, occupied).0 & targets, out);
        push_hits::<2, S>(from, run::<2>(from, occupied).0 & targets, out);
        push_hits::<3, S>(from, run::<3>(from, occupied).0 & targets, out);
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
