//! Negaeri evaluation for the first search: material (promoted values, and
//! a premium for pieces in hand), King safety, and flip exposure on the
//! edge. First-guess weights, to be tuned by a later issue.

use super::Negaeri;
use super::board::{Bitboard, EDGE, KING, Kind};
use crate::core::{Color, Game};

/// Board values by kind: P, R, B, K, +P, +R, +B. A flip promotes, so the
/// promoted values matter as much as the plain ones: the tokin moves like a
/// gold general, the dragon and horse add the King's steps.
pub const VALUE: [i32; 7] = [100, 520, 420, 0, 260, 720, 620];
/// In hand a piece is worth a little more than on the board: a drop goes
/// anywhere and is the only move that flips.
pub const HAND_VALUE: [i32; 3] = [120, 560, 460];
/// Own piece next to the own King: it is loyal (never flips) and shields
/// the King from captures.
const GUARD: i32 = 15;
/// Enemy piece next to the own King: one move from capturing it.
const KING_ATTACKER: i32 = 35;
/// Own piece on the board's edge that is not loyal, while the opponent has
/// something to drop: the edge closes a sandwich, so one drop next to it
/// can flip it (and what stands in line with it).
const EDGE_EXPOSED: i32 = 12;

fn side_score(pos: &Negaeri, c: Color) -> i32 {
    let ours = pos.pieces(c);
    let theirs = pos.pieces(c.opponent());
    let mut s = 0;
    for k in Kind::ALL {
        s += VALUE[k.index()] * pos.pieces_of(c, k).count_ones() as i32;
    }
    for k in Kind::HAND {
        s += HAND_VALUE[k.index()] * pos.in_hand(c, k) as i32;
    }
    let king = pos.pieces_of(c, Kind::King);
    let zone = match king {
        0 => 0,
        b => KING[b.trailing_zeros() as usize],
    };
    s += GUARD * (zone & ours).count_ones() as i32;
    s -= KING_ATTACKER * (zone & theirs).count_ones() as i32;
    let opponent_can_drop = Kind::HAND.iter().any(|&k| pos.in_hand(c.opponent(), k) > 0);
    if opponent_can_drop {
        s -= EDGE_EXPOSED * (ours & EDGE & !zone & !king).count_ones() as i32;
    }
    s
}

pub fn evaluate(pos: &Negaeri) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, us.opponent())
}

/// What flipping the pieces of `flipped` (enemy pieces) swings the
/// material: each is lost by the opponent and gained, promoted, by the
/// mover.
pub fn flip_swing(pos: &Negaeri, flipped: Bitboard) -> i32 {
    Kind::ALL
        .into_iter()
        .map(|k| {
            (pos.kinds[k.index()] & flipped).count_ones() as i32
                * (VALUE[k.index()] + VALUE[k.promoted().index()])
        })
        .sum()
}
