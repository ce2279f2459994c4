//! Negaeri evaluation, from the side to move's view: material (promoted
//! values, and a premium for pieces in hand), King safety, flip exposure on
//! the edge, and the flips each side's next drop threatens.

use super::Negaeri;
use super::board::{Bitboard, EDGE, KING, Kind};
use super::flip;
use crate::core::{Color, Game};

/// Board values by kind: P, R, B, K, +P, +R, +B. A flip promotes, so the
/// promoted values matter as much as the plain ones: the tokin moves like a
/// gold general, the dragon and horse add the King's steps.
const VALUE: [i32; 7] = [100, 520, 420, 0, 260, 720, 620];
/// In hand a piece is worth a little more than on the board: a drop goes
/// anywhere and is the only move that flips.
const HAND_VALUE: [i32; 3] = [120, 560, 460];
/// Own piece next to the own King: it is loyal (never flips) and shields
/// the King from captures.
const GUARD: i32 = 15;
/// Enemy piece next to the own King: one move from capturing it.
const KING_ATTACKER: i32 = 35;
/// Own piece on the board's edge that is not loyal, while the opponent has
/// something to drop: the edge closes a sandwich, so one drop next to it
/// can flip it (and what stands in line with it).
const EDGE_EXPOSED: i32 = 12;
/// Flip threats, in 64ths of the swing: what one side's drops would flip
/// at the first level (all drop squares together), for a side with
/// something in hand. The side to move can carry out one of them; the
/// other side's are what the side to move must parry. Flips are the
/// game's big material swings, and a quiescence search that looks at only
/// a few drops does not see them all (24 for both: +275 +/- 98 Elo,
/// 100 games at 10000 nodes).
const THREAT_US: i32 = 24;
const THREAT_THEM: i32 = 24;

/// Board value of a kind.
#[inline]
pub fn value(k: Kind) -> i32 {
    VALUE[k.index()]
}

/// Value in hand of a kind that can be in hand (P, R, B).
#[inline]
pub fn hand_value(k: Kind) -> i32 {
    HAND_VALUE[k.index()]
}

/// What flipping the pieces of `flipped` (enemy pieces) swings the
/// material: each is lost by the opponent and gained, promoted, by the
/// mover.
pub fn flip_swing(pos: &Negaeri, flipped: Bitboard) -> i32 {
    Kind::ALL
        .into_iter()
        .map(|k| {
            (pos.kinds[k.index()] & flipped).count_ones() as i32 * (value(k) + value(k.promoted()))
        })
        .sum()
}

fn has_hand(pos: &Negaeri, c: Color) -> bool {
    pos.hands[c.index()].iter().any(|&n| n > 0)
}

fn side_score(pos: &Negaeri, c: Color) -> i32 {
    let ours = pos.pieces(c);
    let theirs = pos.pieces(c.opponent());
    let mut s = 0;
    for k in Kind::ALL {
        s += value(k) * pos.pieces_of(c, k).count_ones() as i32;
    }
    for k in Kind::HAND {
        s += hand_value(k) * pos.in_hand(c, k) as i32;
    }
    let king = pos.pieces_of(c, Kind::King);
    let zone = match king {
        0 => 0,
        b => KING[b.trailing_zeros() as usize],
    };
    s += GUARD * (zone & ours).count_ones() as i32;
    s -= KING_ATTACKER * (zone & theirs).count_ones() as i32;
    if has_hand(pos, c.opponent()) {
        s -= EDGE_EXPOSED * (ours & EDGE & !zone & !king).count_ones() as i32;
    }
    s
}

pub fn evaluate(pos: &Negaeri) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut score = side_score(pos, us) - side_score(pos, them);
    let edge = pos.rules.edge;
    let (ours, theirs) = (pos.colors[us.index()], pos.colors[them.index()]);
    if has_hand(pos, us) {
        let (t, _) = flip::level1(ours, theirs, pos.king(them), edge);
        score += THREAT_US * flip_swing(pos, t) / 64;
    }
    if has_hand(pos, them) {
        let (t, _) = flip::level1(theirs, ours, pos.king(us), edge);
        score -= THREAT_THEM * flip_swing(pos, t) / 64;
    }
    score
}
