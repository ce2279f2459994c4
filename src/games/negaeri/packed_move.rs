//! A Negaeri move in 16 bits. The search asks every move for its history
//! key, its continuation key and whether it is a killer, many times a node:
//! packed, those are masks and shifts, where an enum needed a match (and
//! the continuation key a look at the board for the moving kind).

use super::board::{Kind, SQUARES, Square, square_at};

/// Bits 0-5: the destination (0 for the pass). Bits 6-11: the square moved
/// from, or `DROP_FROM` + the kind dropped, or `PASS_FROM`. Bits 12-15:
/// what moves: the kind standing on the from square when the move was
/// generated (0-6), `DROP_WHAT` + the kind dropped, or `PASS_WHAT`.
///
/// Bits 0-11 are the move: equality looks at them alone. A board move's
/// kind is what its position holds on the from square, carried so that
/// playing and keying it need not look it up; a killer found in one
/// position is the same move in another whatever stands on its square.
#[derive(Copy, Clone)]
pub struct Move(u16);

/// The view of a move to match on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A board move of a `kind` piece (a capture when `to` holds an enemy
    /// piece).
    Step {
        kind: Kind,
        from: Square,
        to: Square,
    },
    /// A drop of an unpromoted piece from hand on an empty square.
    Drop { kind: Kind, to: Square },
    /// Only when there is no board move and no drop.
    Pass,
}

const TO_BITS: u16 = 6;
const FROM_SHIFT: u16 = TO_BITS;
const WHAT_SHIFT: u16 = 12;
const SQUARE_MASK: u16 = (1 << TO_BITS) - 1;
const ID_MASK: u16 = (1 << WHAT_SHIFT) - 1;
const DROP_FROM: u16 = SQUARES as u16;
const PASS_FROM: u16 = DROP_FROM + 3;
const DROP_WHAT: u16 = Kind::ALL.len() as u16;
const PASS_WHAT: u16 = DROP_WHAT + 3;

/// `Move::key` is below this.
pub const KEYS: usize = ((PASS_FROM << FROM_SHIFT) + 1) as usize;
/// `Move::cont_key` is below this.
pub const CONT_KEYS: usize = PASS_WHAT as usize * SQUARES + 1;

impl Move {
    pub const PASS: Move = Move(PASS_WHAT << WHAT_SHIFT | PASS_FROM << FROM_SHIFT);

    /// A board move of a piece of `kind` (what stands on `from`).
    #[inline]
    pub fn step(kind: Kind, from: Square, to: Square) -> Move {
        Move((kind as u16) << WHAT_SHIFT | (from.index() as u16) << FROM_SHIFT | to.index() as u16)
    }

    /// A drop of `kind` (Pawn, Rook or Bishop) on `to`.
    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Move {
        let k = kind as u16;
        Move((DROP_WHAT + k) << WHAT_SHIFT | (DROP_FROM + k) << FROM_SHIFT | to.index() as u16)
    }

    #[inline]
    pub fn action(self) -> Action {
        let what = self.0 >> WHAT_SHIFT;
        let to = square_at((self.0 & SQUARE_MASK) as u8);
        if what < DROP_WHAT {
            let from = square_at((self.0 >> FROM_SHIFT & SQUARE_MASK) as u8);
            Action::Step {
                kind: Kind::from_index(what as usize),
                from,
                to,
            }
        } else if what < PASS_WHAT {
            Action::Drop {
                kind: Kind::from_index((what - DROP_WHAT) as usize),
                to,
            }
        } else {
            Action::Pass
        }
    }

    /// The destination of a board move or a drop.
    #[inline]
    pub fn to(self) -> Option<Square> {
        (self.0 >> WHAT_SHIFT < PASS_WHAT).then(|| square_at((self.0 & SQUARE_MASK) as u8))
    }

    /// Distinct for distinct moves, below `KEYS`: the from square (or the
    /// kind dropped, or the pass) and the destination.
    #[inline]
    pub fn key(self) -> usize {
        usize::from(self.0 & ID_MASK)
    }

    /// What moves and where to, below `CONT_KEYS`: the kind moving (by
    /// destination), the kind dropped (by destination), or the pass.
    #[inline]
    pub fn cont_key(self) -> usize {
        usize::from(self.0 >> WHAT_SHIFT) * SQUARES + usize::from(self.0 & SQUARE_MASK)
    }
}

impl PartialEq for Move {
    #[inline]
    fn eq(&self, other: &Move) -> bool {
        (self.0 ^ other.0) & ID_MASK == 0
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0 & ID_MASK).hash(state);
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.action().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move unpacks to what it was made of; its keys are the plain
    /// arithmetic on those parts (history: from square or dropped kind,
    /// then destination; continuation: moving or dropped kind, then
    /// destination), inside their bounds; moves are equal exactly where
    /// their keys are, which is where they differ at most in the kind of a
    /// board move.
    #[test]
    fn packing_round_trips_and_keys_match_the_plain_arithmetic() {
        let squares = || (0..SQUARES as u8).map(square_at);
        let mut moves = vec![(Move::PASS, Action::Pass)];
        for to in squares() {
            for kind in Kind::HAND {
                moves.push((Move::drop(kind, to), Action::Drop { kind, to }));
            }
            for from in squares().filter(|&f| f != to) {
                for kind in Kind::ALL {
                    moves.push((Move::step(kind, from, to), Action::Step { kind, from, to }));
                }
            }
        }
        let plain = |a: Action| match a {
            Action::Step { kind, from, to } => (
                from.index() * 64 + to.index(),
                kind.index() * SQUARES + to.index(),
                Some(to),
            ),
            Action::Drop { kind, to } => (
                (SQUARES + kind.index()) * 64 + to.index(),
                (7 + kind.index()) * SQUARES + to.index(),
                Some(to),
            ),
            Action::Pass => ((SQUARES + 3) * 64, 10 * SQUARES, None),
        };
        let same = |a: Action, b: Action| match (a, b) {
            (Action::Step { from, to, .. }, Action::Step { from: f, to: t, .. }) => {
                (from, to) == (f, t)
            }
            _ => a == b,
        };
        let mut by_key = std::collections::HashMap::new();
        for &(m, action) in &moves {
            assert_eq!(m.action(), action);
            let (key, cont, to) = plain(action);
            assert_eq!((m.key(), m.cont_key(), m.to()), (key, cont, to), "{m:?}");
            assert!(key < KEYS && cont < CONT_KEYS);
            let (first, first_action) = *by_key.entry(key).or_insert((m, action));
            assert!(first == m && same(first_action, action), "{m:?}");
        }
        for (i, &(a, x)) in moves.iter().enumerate().step_by(97) {
            for &(b, y) in &moves[i..] {
                assert_eq!(a == b, same(x, y), "{a:?} {b:?}");
            }
        }
        assert_eq!(KEYS, (SQUARES + 3) * 64 + 1);
        assert_eq!(CONT_KEYS, 10 * SQUARES + 1);
    }
}
