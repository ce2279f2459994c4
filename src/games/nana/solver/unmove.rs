//! Moves on the solver's bare positions (a `Board` and both hands): `apply`
//! plays a move the Nana move generator produced, as `Nana::play` does
//! without the hash; `unmoves` lists every position one legal move before
//! a given one (predecessors), each once, using the move generator's own
//! rule tests (`drop_allowed` for rules 3 and 4, `step_mates` for rule 5).

use crate::core::{Color, Game};
use crate::games::nana::{
    Board, CENTER, Family, Hand, Kind, Move, Nana, attackers_from, drop_allowed, king_steps,
    squares, step_mates,
};

/// Both hands.
pub type Hands = [Hand; 2];

/// The previous state of a cube's cycle (a King stays a King).
pub const fn prev_kind(k: Kind) -> Kind {
    match k {
        Kind::King => Kind::King,
        Kind::Rook => Kind::GoBetween,
        Kind::Chariot => Kind::Rook,
        Kind::Wings => Kind::Chariot,
        Kind::GoBetween => Kind::Wings,
        Kind::Bishop => Kind::Dog,
        Kind::Tile => Kind::Bishop,
        Kind::Cat => Kind::Tile,
        Kind::Dog => Kind::Cat,
    }
}

/// The bare position after `mv` (legal for `side`), as `Nana::play` gives it.
#[inline(always)]
pub fn apply(b: &Board, hand: &Hands, side: Color, mv: Move) -> (Board, Hands) {
    let (u, them) = (side.index(), side.opponent());
    let mut nb = *b;
    let mut nh = *hand;
    match mv {
        Move::Drop { kind, to } => {
            nh[u] = nh[u].minus(kind.family());
            nb.put(side, kind, to);
        }
        Move::Step { from, to } => {
            if nb.mine(them) & to.bit() != 0 {
                let taken = nb.kind(to);
                nb.remove(them, to);
                if taken != Kind::King {
                    nh[u] = nh[u].plus(taken.family());
                }
            }
            let k = nb.kind(from);
            nb.remove(side, from);
            nb.put(side, k.next(), to);
        }
    }
    (nb, nh)
}

/// Calls `f` with every position (board, hands; the opponent of `side` to
/// move) from which a legal move leads to this main-phase position, `side`
/// to move. Each predecessor comes once (two moves of one position never
/// lead to the same position). King placements are not undone: the
/// placement positions are outside the index. With `kings_only`, only the
/// predecessors whose last move was a King step are listed.
#[inline]
pub fn unmoves(
    b: &Board,
    hand: &Hands,
    side: Color,
    kings_only: bool,
    mut f: impl FnMut(&Board, &Hands),
) {
    let mover = side.opponent();
    let m = mover.index();
    let occ = b.occupied();
    let def_hand = hand[side.index()];
    let mut pieces = b.mine(mover);
    if kings_only {
        pieces &= b.king(mover).map_or(0, |k| k.bit());
    }
    for t in squares(pieces) {
        let k = b.kind(t);
        if k != Kind::King && t.bit() & CENTER == 0 {
            // Undo a drop on t.
            let mut pb = *b;
            pb.remove(mover, t);
            if drop_allowed(&pb, mover, k, t) {
                let mut ph = *hand;
                ph[m] = ph[m].plus(k.family());
                f(&pb, &ph);
            }
        }
        let pk = prev_kind(k);
        let froms = if k == Kind::King {
            king_steps(t)
        } else {
            attackers_from(mover, pk, t, occ)
        } & !occ;
        for from in squares(froms) {
            let mut pb = *b;
            pb.remove(mover, t);
            pb.put(mover, pk, from);
            // A quiet step: rule 5 binds if the mover held a cube.
            if hand[m].cubes() == 0 || !step_mates(&pb, mover, from, t, def_hand) {
                f(&pb, hand);
            }
            // A capture on t: the captive is in the mover's hand now and
            // stood on t in any of its four states.
            for fam in [Family::Orth, Family::Diag] {
                if hand[m].count(fam) == 0 {
                    continue;
                }
                let mut ph = *hand;
                ph[m] = ph[m].minus(fam);
                let restricted = ph[m].cubes() > 0;
                for &state in fam.states() {
                    let mut cb = pb;
                    cb.put(side, state, t);
                    if !restricted || !step_mates(&cb, mover, from, t, def_hand) {
                        f(&cb, &ph);
                    }
                }
            }
        }
    }
}

/// The predecessors of a position as `Nana` values, for tests.
pub fn predecessors(pos: &Nana) -> Vec<Nana> {
    let mut out = Vec::new();
    unmoves(
        pos.board(),
        pos.hands(),
        pos.side_to_move(),
        false,
        |b, h| {
            out.push(Nana::from_parts(*b, *h, pos.side_to_move().opponent()));
        },
    );
    out
}
