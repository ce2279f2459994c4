//! Legal moves: King drops while a King is in hand (rule 1); afterwards
//! drops that do not attack the enemy King (rules 3, 4) and board moves,
//! less the checkmating board moves of a side holding a piece (rule 5),
//! decided by the one-ply mate test of rule 5 (`docs/rules/nana.md`).

use super::board::{
    ALL, Bitboard, Board, CENTER, Family, Kind, REACH, Square, attackers_from, attacks, king_steps,
    squares,
};
use super::{Hand, Move, Nana};
use crate::core::{Color, MoveSink};

/// Where the side to move may drop: empty and not b2.
#[inline(always)]
fn drop_squares(b: &Board) -> Bitboard {
    ALL & !b.occupied() & !CENTER
}

/// The squares where a piece of `kind` may be dropped by `us`: not
/// attacking the enemy King on `ek` (only the dropped piece's own attacks
/// count, with the slides blocked by what stands on the board).
#[inline(always)]
fn drop_targets(b: &Board, us: Color, kind: Kind, ek: Option<Square>) -> Bitboard {
    let free = drop_squares(b);
    match ek {
        Some(ek) => free & !attackers_from(us, kind, ek, b.occupied()),
        None => free,
    }
}

/// Whether `us` may drop a `kind` on `to` (rules 3 and 4), both Kings
/// being on the board: what `generate` allows, for the solver's unmoves.
#[inline]
pub fn drop_allowed(b: &Board, us: Color, kind: Kind, to: Square) -> bool {
    drop_targets(b, us, kind, b.king(us.opponent())) & to.bit() != 0
}

pub fn generate<S: MoveSink<Move>>(pos: &Nana, out: &mut S) {
    let us = pos.side;
    let them = us.opponent();
    let b = &pos.board;
    let hand = pos.hand[us.index()];
    if hand.count(Family::King) > 0 {
        for to in squares(drop_targets(b, us, Kind::King, b.king(them))) {
            out.push(Move::Drop {
                kind: Kind::King,
                to,
            });
        }
        return;
    }
    let (Some(_), Some(ek)) = (b.king(us), b.king(them)) else {
        return;
    };
    for f in [Family::Orth, Family::Diag] {
        if hand.count(f) > 0 {
            for &kind in f.states() {
                for to in squares(drop_targets(b, us, kind, Some(ek))) {
                    out.push(Move::Drop { kind, to });
                }
            }
        }
    }
    board_moves(pos, us, ek, |m| out.push(m));
}

/// The number of moves `generate` gives.
pub fn count(pos: &Nana) -> usize {
    let us = pos.side;
    let them = us.opponent();
    let b = &pos.board;
    let hand = pos.hand[us.index()];
    if hand.count(Family::King) > 0 {
        return drop_targets(b, us, Kind::King, b.king(them)).count_ones() as usize;
    }
    let (Some(_), Some(ek)) = (b.king(us), b.king(them)) else {
        return 0;
    };
    let mut n = 0;
    for f in [Family::Orth, Family::Diag] {
        if hand.count(f) > 0 {
            for &kind in f.states() {
                n += drop_targets(b, us, kind, Some(ek)).count_ones() as usize;
            }
        }
    }
    board_moves(pos, us, ek, |_| n += 1);
    n
}

#[inline(always)]
fn board_moves(pos: &Nana, us: Color, ek: Square, mut push: impl FnMut(Move)) {
    let b = &pos.board;
    let occ = b.occupied();
    let mine = b.mine(us);
    // Rule 5 only binds a side holding a piece; capturing the King is
    // always legal.
    let restricted = pos.hand[us.index()].cubes() > 0;
    let defender_hand = pos.hand[us.opponent().index()];
    for from in squares(mine) {
        let targets = attacks(us, b.kind(from), from, occ) & !mine;
        for to in squares(targets) {
            if restricted && to != ek && step_mates(b, us, from, to, defender_hand) {
                continue;
            }
            push(Move::Step { from, to });
        }
    }
}

/// Whether the board move `from`-`to` of `us` (not capturing the King)
/// checkmates in the sense of rule 5.
#[inline]
pub fn step_mates(b: &Board, us: Color, from: Square, to: Square, defender_hand: Hand) -> bool {
    let them = us.opponent();
    let mut after = *b;
    let kind = b.kind(from);
    if after.mine(them) & to.bit() != 0 {
        after.remove(them, to);
    }
    after.remove(us, from);
    after.put(us, kind.next(), to);
    match after.king(them) {
        Some(ek) => after.attacked_by(us, ek) && is_mated(&after, them, defender_hand),
        None => false,
    }
}

/// Rule 5's checkmate, with `def` to move in `b` and its King attacked: no
/// reply (board move, or drop allowed by rules 3 and 4) leaves the King
/// unattacked or takes the attacker's King. Rule 5 itself is not applied
/// to the replies.
pub fn is_mated(b: &Board, def: Color, def_hand: Hand) -> bool {
    let atk = def.opponent();
    let (Some(dk), Some(ak)) = (b.king(def), b.king(atk)) else {
        // No King to mate, or none to take: not a checkmate.
        return false;
    };
    let occ = b.occupied();
    let mine = b.mine(def);
    let theirs = b.mine(atk);
    // A reply taking the attacker's King.
    if b.hits(def, mine, occ, ak.bit()) {
        return false;
    }
    // King steps, including captures of attackers; the King's old square
    // is empty afterwards, which may open a slide onto the new one.
    for to in squares(king_steps(dk) & !mine) {
        let occ2 = (occ & !dk.bit()) | to.bit();
        if !b.hits(atk, theirs & !to.bit(), occ2, to.bit()) {
            return false;
        }
    }
    // Any other reply that helps lands on an attacker or on the middle
    // square of an attacking slide: moving elsewhere leaves every attack
    // standing (emptying a square can only open lines).
    let mut helps = 0;
    for sq in squares(theirs) {
        let r = &REACH[atk.index()][b.kind(sq).index()][sq.index()];
        if r.near & dk.bit() != 0 {
            helps |= sq.bit();
        } else if r.far & dk.bit() != 0 && occ & r.mid == 0 {
            helps |= sq.bit() | r.mid;
        }
    }
    for from in squares(mine & !dk.bit()) {
        for to in squares(attacks(def, b.kind(from), from, occ) & !mine & helps) {
            let occ2 = (occ & !from.bit()) | to.bit();
            if !b.hits(atk, theirs & !to.bit(), occ2, dk.bit()) {
                return false;
            }
        }
    }
    // Interposing drops, in a state that does not attack the attacker's
    // King (rule 4); never on b2 (rule 3).
    if def_hand.cubes() > 0 {
        for to in squares(helps & !occ & !CENTER) {
            if b.hits(atk, theirs, occ | to.bit(), dk.bit()) {
                continue;
            }
            for f in [Family::Orth, Family::Diag] {
                if def_hand.count(f) > 0
                    && f.states()
                        .iter()
                        .any(|&k| attacks(def, k, to, occ) & ak.bit() == 0)
                {
                    return false;
                }
            }
        }
    }
    true
}
