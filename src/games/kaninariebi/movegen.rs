//! Legal turns: every normal movement (with the current's choices merged by
//! resting square, and both promotion choices), and after each movement
//! that neither wins nor leaves the moved piece alone, every Bond step of a
//! member of its group. `count` gives the same number as `generate` without
//! building the moves (perft's bulk count).

use super::Move;
use super::board::{
    Bitboard, RIVER, Square, crab_targets, east, orthogonal, river_rest, squares, west,
};
use super::capture::{captured, targets};
use crate::core::MoveSink;

/// Pieces each side starts with; captures are counted from what is missing.
pub const PIECES: u32 = 5;

/// The position as the side to move sees it.
#[derive(Copy, Clone, Debug)]
pub struct Mover {
    pub own: Bitboard,
    /// The mover's Shrimps (a subset of `own`).
    pub shrimps: Bitboard,
    pub enemy: Bitboard,
    /// The opponent's home column, where the mover's Crabs promote.
    pub promotion_zone: Bitboard,
    /// `KaniBondAnyType`.
    pub any_type: bool,
}

/// Whether a side with `shrimps` Shrimps facing `enemy` pieces has won:
/// three captures (two or fewer enemy pieces left) or three own Shrimps.
#[inline]
pub fn has_won(shrimps: Bitboard, enemy: Bitboard) -> bool {
    enemy.count_ones() <= PIECES - 3 || shrimps.count_ones() >= 3
}

/// The movements of one piece onto the empty squares `reach` it can step
/// or slide to, on the board `occupied` (without the moving piece in the
/// River: a piece entering the River never comes from it). Returns the
/// resting squares (one movement each, without promotion) and those where
/// the piece may also promote (a Crab in the opponent's home column).
#[inline(always)]
pub fn resting(
    reach: Bitboard,
    occupied: Bitboard,
    crab: bool,
    zone: Bitboard,
) -> (Bitboard, Bitboard) {
    // No branches: whether a piece meets the River or may promote is
    // the board's chance, and a mispredicted branch costs more than the
    // table look (no entries rest nowhere) and the mask.
    let plain = (reach & !RIVER) | river_rest(occupied, reach & RIVER);
    // The River is never a home column, so `promote` rests where it arrives.
    let promote = reach & zone & u32::from(crab).wrapping_neg();
    (plain, promote)
}

impl Mover {
    /// Calls `f(from, to, promote, kin)` for every normal movement, `to`
    /// being the resting square and `kin` the other own pieces the moved
    /// piece bonds with (rule 6): those of the kind it rests as, or all with
    /// `KaniBondAnyType`. `kin` is found once per piece and choice of
    /// promotion, not per movement.
    #[inline(always)]
    fn movements(&self, mut f: impl FnMut(Square, Square, bool, Bitboard)) {
        let occupied = self.own | self.enemy;
        for from in squares(self.own) {
            let bf = from.bit();
            let crab = self.shrimps & bf == 0;
            let reach = if crab {
                crab_targets(from, occupied)
            } else {
                from.diagonal() & !occupied
            };
            let (plain, promote) = resting(reach, occupied, crab, self.promotion_zone);
            let (others, shrimps) = (self.own & !bf, self.shrimps & !bf);
            let (kin, kin_promoted) = match (self.any_type, crab) {
                (true, _) => (others, others),
                (false, true) => (others & !shrimps, shrimps),
                (false, false) => (shrimps, shrimps),
            };
            // One call of `f` in the loop, so that it is inlined (called
            // from two loops it was a call per movement).
            for (to_set, promotes, kin) in [(plain, false, kin), (promote, true, kin_promoted)] {
                for to in squares(to_set) {
                    f(from, to, promotes, kin);
                }
            }
        }
    }

    /// Own pieces and own Shrimps after a movement (before any capture).
    #[inline(always)]
    pub fn moved(&self, from: Square, to: Square, promote: bool) -> (Bitboard, Bitboard) {
        let (bf, bt) = (from.bit(), to.bit());
        let own = self.own ^ bf ^ bt;
        let is_shrimp = promote || self.shrimps & bf != 0;
        let shrimps = (self.shrimps & !bf) | if is_shrimp { bt } else { 0 };
        (own, shrimps)
    }

    /// The moved piece's Bond group on `to` (rule 6): it and the pieces of
    /// `kin` (as `movements` gives it) orthogonally connected to it, or 0
    /// when it has no such neighbour. Captures take enemy pieces only, so
    /// the group is the same before and after them.
    #[inline(always)]
    fn group(to: Square, kin: Bitboard) -> Bitboard {
        if to.neighbours() & kin == 0 {
            return 0;
        }
        let kin = kin | to.bit();
        let mut group = to.bit();
        loop {
            let grown = (group | orthogonal(group)) & kin;
            if grown == group {
                return group;
            }
            group = grown;
        }
    }

    /// For a movement with a Bond group: the enemy pieces left after its
    /// capture, or `None` when it wins (a winning movement ends the turn).
    #[inline(always)]
    fn bond_board(&self, own: Bitboard, shrimps: Bitboard, to: Square) -> Option<Bitboard> {
        let enemy = self.enemy & !captured(to, own, self.enemy);
        (!has_won(shrimps, enemy)).then_some(enemy)
    }

    /// Calls `f(from, plain, promote)` with each group member's Bond steps
    /// as `resting` gives them.
    #[inline(always)]
    fn bond_steps(
        &self,
        group: Bitboard,
        own: Bitboard,
        shrimps: Bitboard,
        enemy: Bitboard,
        mut f: impl FnMut(Square, Bitboard, Bitboard),
    ) {
        let occupied = own | enemy;
        for from in squares(group) {
            let crab = shrimps & from.bit() == 0;
            let (plain, promote) = resting(
                from.diagonal() & !occupied,
                occupied,
                crab,
                self.promotion_zone,
            );
            f(from, plain, promote);
        }
    }

    pub fn generate<S: MoveSink<Move>>(&self, out: &mut S) {
        self.turns::<false, S>(out);
    }

    /// The turns of `generate` that capture or promote, in the same order.
    pub fn generate_tactical<S: MoveSink<Move>>(&self, out: &mut S) {
        self.turns::<true, S>(out);
    }

    /// Every turn, each noted tactical when it captures or promotes; with
    /// `ONLY_TACTICAL` the others are left out. Where a movement captures
    /// is found once per board (`targets`), not per turn.
    #[inline(always)]
    fn turns<const ONLY_TACTICAL: bool, S: MoveSink<Move>>(&self, out: &mut S) {
        let first_targets = targets(self.own, self.enemy);
        self.movements(|from, to, promote, kin| {
            let takes = first_targets & to.bit() != 0;
            let shrimp = promote || self.shrimps & from.bit() != 0;
            let mut first = Move::single(from, to, promote).noted_cont(shrimp);
            if takes || promote {
                first = first.noted_tactical();
            }
            if !ONLY_TACTICAL || first.tactical() {
                out.push(first);
            }
            let group = Self::group(to, kin);
            if group == 0 {
                return;
            }
            let (own, shrimps) = self.moved(from, to, promote);
            // A winning movement ends the turn.
            let enemy = if takes {
                self.enemy & !captured(to, own, self.enemy)
            } else {
                self.enemy
            };
            if has_won(shrimps, enemy) {
                return;
            }
            if first.tactical() {
                self.bond_steps(group, own, shrimps, enemy, |bond_from, plain, promote| {
                    for t in squares(plain) {
                        out.push(first.with_bond(bond_from, t, false));
                    }
                    for t in squares(promote) {
                        out.push(first.with_bond(bond_from, t, true));
                    }
                });
                return;
            }
            let bond_targets = targets(own, enemy);
            // Quiescence wants captures and promotions only: none here
            // unless some landing captures or a Crab stands next to the
            // promotion column.
            if ONLY_TACTICAL
                && bond_targets == 0
                && group & !shrimps & (east(self.promotion_zone) | west(self.promotion_zone)) == 0
            {
                return;
            }
            self.bond_steps(group, own, shrimps, enemy, |bond_from, plain, promote| {
                let plain = if ONLY_TACTICAL {
                    plain & bond_targets
                } else {
                    plain
                };
                for t in squares(plain) {
                    let m = first.with_bond(bond_from, t, false);
                    out.push(if bond_targets & t.bit() != 0 {
                        m.noted_tactical()
                    } else {
                        m
                    });
                }
                for t in squares(promote) {
                    out.push(first.with_bond(bond_from, t, true).noted_tactical());
                }
            });
        });
    }

    /// Whether some piece has a normal movement (every turn starts with
    /// one; a piece that reaches a square always has a resting square).
    pub fn has_movement(&self) -> bool {
        let occupied = self.own | self.enemy;
        squares(self.own).any(|from| {
            if self.shrimps & from.bit() == 0 {
                crab_targets(from, occupied) != 0
            } else {
                from.diagonal() & !occupied != 0
            }
        })
    }

    pub fn count(&self) -> usize {
        let mut n = 0;
        self.movements(|from, to, promote, kin| {
            n += 1;
            let group = Self::group(to, kin);
            if group == 0 {
                return;
            }
            let (own, shrimps) = self.moved(from, to, promote);
            let Some(enemy) = self.bond_board(own, shrimps, to) else {
                return;
            };
            self.bond_steps(group, own, shrimps, enemy, |_, plain, promote| {
                n += (plain.count_ones() + promote.count_ones()) as usize;
            });
        });
        n
    }
}
