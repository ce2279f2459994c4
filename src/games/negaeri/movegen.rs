//! Legal moves of the side to move: board moves of every piece (onto empty
//! squares or enemy pieces; moving into attack is legal), drops of each kind
//! in hand on every empty square, and `pass` only when there is neither.

use super::board::{ALL, Kind, attacks, squares};
use super::{Move, Negaeri};
use crate::core::MoveSink;

#[inline]
pub fn generate<S: MoveSink<Move>>(pos: &Negaeri, out: &mut S) {
    let c = pos.side;
    let ours = pos.colors[c.index()];
    let occupied = pos.occupied();
    let mut any = false;
    for k in Kind::ALL {
        for from in squares(pos.kinds[k.index()] & ours) {
            let targets = attacks(k, c, from.index(), occupied) & !ours;
            for to in squares(targets) {
                out.push(Move::Step { from, to });
                any = true;
            }
        }
    }
    let empty = !occupied & ALL;
    for k in Kind::HAND {
        if pos.hands[c.index()][k.index()] > 0 {
            for to in squares(empty) {
                out.push(Move::Drop { kind: k, to });
                any = true;
            }
        }
    }
    if !any {
        out.push(Move::Pass);
    }
}

/// The number of moves `generate` would give, without listing them.
#[inline]
pub fn count(pos: &Negaeri) -> usize {
    let c = pos.side;
    let ours = pos.colors[c.index()];
    let occupied = pos.occupied();
    let mut n = 0;
    for k in Kind::ALL {
        for from in squares(pos.kinds[k.index()] & ours) {
            n += (attacks(k, c, from.index(), occupied) & !ours).count_ones() as usize;
        }
    }
    let kinds_in_hand = pos.hands[c.index()].iter().filter(|&&h| h > 0).count();
    n += kinds_in_hand * (!occupied & ALL).count_ones() as usize;
    n.max(1)
}
