//! The learning environments' action space: every move text a game can
//! write maps to one fixed integer, the same in every position, so an
//! agent's output layer has one size per game and the legal moves are a
//! mask over it. The layout is documented in docs/python.md.

use koma::core::{Coord, MoveText, StepText};
use koma::games::GameId;

/// Which kinds of move a game writes, and so the size of its space.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    pub files: u8,
    pub ranks: u8,
    /// Movements may carry `+` (Kani Nari Ebi).
    pub promote: bool,
    /// A movement may be followed by a Bond movement (Kani Nari Ebi).
    pub bond: bool,
    /// The letters that can be dropped, in this order.
    pub drops: &'static [char],
    /// `pass` is a move (Negaeri).
    pub pass: bool,
}

impl ActionSpace {
    pub fn of(game: GameId) -> ActionSpace {
        let plain = |files, ranks| ActionSpace {
            files,
            ranks,
            promote: false,
            bond: false,
            drops: &[],
            pass: false,
        };
        match game {
            GameId::KaniNariEbi => ActionSpace {
                promote: true,
                bond: true,
                ..plain(5, 5)
            },
            GameId::Hasami => plain(9, 9),
            GameId::Nana => ActionSpace {
                drops: &['K', 'R', 'V', 'W', 'G', 'B', 'T', 'C', 'D'],
                ..plain(3, 3)
            },
            GameId::Negaeri => ActionSpace {
                drops: &['R', 'B', 'P'],
                pass: true,
                ..plain(6, 6)
            },
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

    fn bonds_start(&self) -> usize {
        self.pass_index() + usize::from(self.pass)
    }

    /// The number of actions: movements, then drops (`letter * squares +
    /// square`), then `pass`, then movement-and-Bond pairs (`first * steps
    /// + bond`).
    pub fn size(&self) -> usize {
        self.bonds_start()
            + if self.bond {
                self.steps() * self.steps()
            } else {
                0
            }
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

    fn step_text(&self, k: usize) -> StepText {
        let (key, promote) = if self.promote {
            (k / 2, k % 2 == 1)
        } else {
            (k, false)
        };
        StepText {
            from: self.coord(key / self.squares()),
            to: self.coord(key % self.squares()),
            promote,
        }
    }

    /// The action of a move text, or `None` when this game cannot write it.
    pub fn encode(&self, m: &MoveText) -> Option<usize> {
        match m {
            MoveText::Step(s) => self.step(s),
            MoveText::Drop { piece, to } => {
                let letter = self.drops.iter().position(|c| c == piece)?;
                Some(self.drops_start() + letter * self.squares() + self.square(*to)?)
            }
            MoveText::Pass => self.pass.then(|| self.pass_index()),
            MoveText::Bond(a, b) if self.bond => {
                Some(self.bonds_start() + self.step(a)? * self.steps() + self.step(b)?)
            }
            MoveText::Bond(..) => None,
        }
    }

    /// The move text of an action (legal or not), or `None` out of range.
    pub fn decode(&self, a: usize) -> Option<MoveText> {
        if a < self.steps() {
            return Some(MoveText::Step(self.step_text(a)));
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
        if a < self.size() {
            let k = a - self.bonds_start();
            let (first, bond) = (k / self.steps(), k % self.steps());
            return Some(MoveText::Bond(self.step_text(first), self.step_text(bond)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::new_position;
    use crate::rng::Rng;

    /// Every legal move met on random games encodes to a distinct action in
    /// range that decodes back to the same text.
    #[test]
    fn every_legal_move_has_one_action_that_decodes_back() {
        for &game in GameId::ALL {
            let space = ActionSpace::of(game);
            let mut rng = Rng::new(11);
            for _ in 0..20 {
                let mut pos = new_position(game, &[], None).unwrap();
                for _ in 0..200 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mut actions: Vec<usize> = moves
                        .iter()
                        .map(|m| {
                            let t = koma::protocol::parse_move(m).unwrap();
                            let a = space.encode(&t).unwrap_or_else(|| panic!("{game} {m}"));
                            assert!(a < space.size());
                            assert_eq!(space.decode(a), Some(t), "{game} {m}");
                            a
                        })
                        .collect();
                    actions.sort();
                    actions.dedup();
                    assert_eq!(actions.len(), moves.len(), "{game}");
                    pos.push(&moves[rng.below(moves.len())]).unwrap();
                }
            }
        }
    }

    #[test]
    fn sizes_are_as_documented() {
        let sizes: Vec<usize> = GameId::ALL
            .iter()
            .map(|&g| ActionSpace::of(g).size())
            .collect();
        // docs/python.md gives these.
        assert_eq!(sizes, [1250 + 1250 * 1250, 6561, 81 + 81, 1296 + 108 + 1]);
        let nana = ActionSpace::of(GameId::Nana);
        assert_eq!(nana.decode(nana.size()), None);
    }
}
