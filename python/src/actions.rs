//! The learning environments' action space: a fixed set of integers per
//! game, the same in every position, so an agent's output layer has one
//! size per game and the legal moves are a mask over it. A move is one
//! action, except a turn whose movement allows a Bond (`Encoding::bond`): the
//! movement, then a second action of the same player, the Bond movement
//! or `end` (the turn without the Bond), as Go's and chess's environments
//! factor their moves. The layout is documented in docs/python.md.

use koma::core::{Coord, MoveText, StepText};
use koma::games::GameEntry;

/// Which kinds of move a game writes, and so the size of its space (from
/// its entry's `Encoding`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    pub files: u8,
    pub ranks: u8,
    /// Movements may carry `+`.
    pub promote: bool,
    /// A movement may be followed by a Bond movement:
    /// the space has the `end` action.
    pub bond: bool,
    /// The letters that can be dropped, in this order.
    pub drops: &'static [char],
    /// `pass` is a move.
    pub pass: bool,
}

/// The actions of one move: its first, and the follow-up when the first
/// leaves the player a second choice (the Bond movement, or `end`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveActions {
    pub first: usize,
    pub then: Option<usize>,
}

impl ActionSpace {
    /// The actions of the game of `entry`, as its encoding lists them.
    pub fn of(entry: &GameEntry) -> ActionSpace {
        let e = entry.encoding;
        ActionSpace {
            files: entry.files,
            ranks: entry.ranks,
            promote: e.promote,
            bond: e.bond,
            drops: e.drops,
            pass: e.pass,
        }
    }

    fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Movements: `(from * squares + to) * 2 + promote` (without the
    /// promotion bit where the game has none).
    pub fn steps(&self) -> usize {
        self.squares() * self.squares() * if self.promote { 2 } else { 1 }
    }

    fn drops_start(&self) -> usize {
        self.steps()
    }

    fn pass_index(&self) -> usize {
        self.drops_start() + self.drops.len() * self.squares()
    }

    /// `end`: the movement chosen alone, without its Bond.
    pub fn end(&self) -> Option<usize> {
        self.bond
            .then(|| self.pass_index() + usize::from(self.pass))
    }

    /// The number of actions: movements, then drops (`letter * squares +
    /// square`), then `pass`, then `end`.
    pub fn size(&self) -> usize {
        self.pass_index() + usize::from(self.pass) + usize::from(self.bond)
    }

    fn square(&self, c: Coord) -> Option<usize> {
        c.on_board(self.files, self.ranks)
            .then(|| c.rank as usize * self.files as usize + c.file as usize)
    }

    fn coord(&self, sq: usize) -> Coord {
        let f = self.files as usize;
        Coord::new((sq % f) as u8, (sq / f) as u8)
    }

    fn step(&self, s: &StepText) -> Option<usize> {
        if s.promote && !self.promote {
            return None;
        }
        let key = self.square(s.from)? * self.squares() + self.square(s.to)?;
        Some(if self.promote {
            key * 2 + usize::from(s.promote)
        } else {
            key
        })
    }

    /// The movement of a movement action.
    pub fn step_text(&self, k: usize) -> Option<StepText> {
        if k >= self.steps() {
            return None;
        }
        let (key, promote) = if self.promote {
            (k / 2, k % 2 == 1)
        } else {
            (k, false)
        };
        Some(StepText {
            from: self.coord(key / self.squares()),
            to: self.coord(key % self.squares()),
            promote,
        })
    }

    /// A move's actions as its text alone gives them: a Bond turn is its
    /// movement then its Bond movement; any other move one action (whether
    /// a movement alone needs `end` depends on the position: see
    /// `actions_in`). `None` when this game cannot write the move.
    pub fn encode(&self, m: &MoveText) -> Option<MoveActions> {
        let one = |first| MoveActions { first, then: None };
        match m {
            MoveText::Step(s) => self.step(s).map(one),
            MoveText::Drop { piece, to } => {
                let letter = self.drops.iter().position(|c| c == piece)?;
                Some(one(self.drops_start()
                    + letter * self.squares()
                    + self.square(*to)?))
            }
            MoveText::Pass => self.pass.then(|| one(self.pass_index())),
            MoveText::Bond(a, b) if self.bond => Some(MoveActions {
                first: self.step(a)?,
                then: Some(self.step(b)?),
            }),
            MoveText::Bond(..) => None,
        }
    }

    /// The move an action stands for on its own (a movement, drop or
    /// pass; legal or not), or `None` for `end` and out of range.
    pub fn decode(&self, a: usize) -> Option<MoveText> {
        if a < self.steps() {
            return self.step_text(a).map(MoveText::Step);
        }
        if a < self.pass_index() {
            let k = a - self.drops_start();
            return Some(MoveText::Drop {
                piece: self.drops[k / self.squares()],
                to: self.coord(k % self.squares()),
            });
        }
        if self.pass && a == self.pass_index() {
            return Some(MoveText::Pass);
        }
        None
    }

    /// The move of a movement action followed by `then` (a Bond movement,
    /// or `end` for the movement alone).
    pub fn decode_pair(&self, first: usize, then: usize) -> Option<MoveText> {
        let a = self.step_text(first)?;
        if Some(then) == self.end() {
            return Some(MoveText::Step(a));
        }
        self.bond
            .then_some(())
            .and(self.step_text(then))
            .map(|b| MoveText::Bond(a, b))
    }

    /// The actions of a move (`m`, as `encode` gives it) among the legal
    /// moves `legal` of a position: a movement alone needs `end` when the
    /// same movement also starts a Bond turn there.
    pub fn actions_in(&self, m: MoveActions, legal: &[MoveActions]) -> MoveActions {
        if m.then.is_none()
            && self.bond
            && legal.iter().any(|l| l.first == m.first && l.then.is_some())
        {
            MoveActions {
                first: m.first,
                then: self.end(),
            }
        } else {
            m
        }
    }

    /// Whether the first action `first` leaves a second choice among the
    /// legal moves `legal`.
    pub fn needs_follow_up(&self, first: usize, legal: &[MoveActions]) -> bool {
        self.bond && legal.iter().any(|l| l.first == first && l.then.is_some())
    }

    /// The actions a player may take now among the legal moves `legal`:
    /// the first actions, or after `pending` its follow-ups (the Bond
    /// movements and `end` when the movement alone is legal). Sorted.
    pub fn choices(&self, legal: &[MoveActions], pending: Option<usize>) -> Vec<usize> {
        let mut out: Vec<usize> = match pending {
            None => legal.iter().map(|l| l.first).collect(),
            Some(p) => legal
                .iter()
                .filter(|l| l.first == p)
                .filter_map(|l| l.then.or(self.end()))
                .collect(),
        };
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::new_position;
    use crate::rng::Rng;
    use koma::games::GameId;

    /// Every legal move met on random games has its own actions, in
    /// range, that decode back to its text; the choices at each step are
    /// exactly the legal moves' actions.
    #[test]
    fn every_legal_move_has_its_own_actions_that_decode_back() {
        for &game in GameId::ALL {
            let space = ActionSpace::of(game.entry());
            let mut rng = Rng::new(11);
            let mut bonds = 0;
            for _ in 0..20 {
                let mut pos = new_position(game, &[], None).unwrap();
                for _ in 0..200 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let texts: Vec<MoveText> = moves
                        .iter()
                        .map(|m| koma::protocol::parse_move(m).unwrap())
                        .collect();
                    let legal: Vec<MoveActions> = texts
                        .iter()
                        .map(|t| space.encode(t).unwrap_or_else(|| panic!("{game} {t}")))
                        .collect();
                    let mut seen: Vec<MoveActions> = Vec::new();
                    for (t, &m) in texts.iter().zip(&legal) {
                        let a = space.actions_in(m, &legal);
                        assert!(a.first < space.size());
                        let back = match a.then {
                            None => {
                                assert!(!space.needs_follow_up(a.first, &legal));
                                space.decode(a.first)
                            }
                            Some(then) => {
                                bonds += 1;
                                assert!(space.needs_follow_up(a.first, &legal));
                                assert!(space.choices(&legal, Some(a.first)).contains(&then));
                                space.decode_pair(a.first, then)
                            }
                        };
                        assert_eq!(back.as_ref(), Some(t), "{game} {t}");
                        assert!(space.choices(&legal, None).contains(&a.first));
                        seen.push(a);
                    }
                    seen.sort();
                    seen.dedup();
                    assert_eq!(seen.len(), moves.len(), "{game}");
                    pos.push(&moves[rng.below(moves.len())]).unwrap();
                }
            }
            assert_eq!(bonds > 0, space.bond, "{game}");
        }
    }

    #[test]
    fn sizes_are_as_documented() {
        let sizes: Vec<usize> = GameId::ALL
            .iter()
            .map(|&g| ActionSpace::of(g.entry()).size())
            .collect();
        // docs/python.md gives these.
        assert_eq!(sizes, [1250 + 1, 6561, 81 + 81, 1296 + 108 + 1]);
        let nana = ActionSpace::of(GameId::from_name("nana").unwrap().entry());
        assert_eq!(nana.decode(nana.size()), None);
        let kani = ActionSpace::of(GameId::from_name("kaninariebi").unwrap().entry());
        assert_eq!(kani.decode(1250), None);
        assert_eq!(kani.end(), Some(1250));
    }
}
