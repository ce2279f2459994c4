//! The structured (already tokenised) forms of move and position text. The
//! protocol layer parses strings into these and formats them back; games
//! convert them to and from their own types and check them against the rules.

use super::{Color, Coord};

/// One movement of a piece from one square to another, optionally promoting.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StepText {
    pub from: Coord,
    pub to: Coord,
    pub promote: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// `<from><to>` with an optional `+`.
    Step(StepText),
    /// `<Letter>@<square>`; the letter is always upper case.
    Drop { piece: char, to: Coord },
    /// `pass`.
    Pass,
    /// A movement and the second movement it allows in the same turn (a
    /// Bond), `<step>,<step>`.
    Bond(StepText, StepText),
}

/// A piece in a position string: its letter (upper case), owner and whether
/// it carried a `+`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceText {
    pub letter: char,
    pub color: Color,
    pub promoted: bool,
}

/// A position string, split into its fields but not yet checked against any
/// game's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionText {
    /// Ranks from the top (highest rank) down; each rank from file `a`.
    pub ranks: Vec<Vec<Option<PieceText>>>,
    /// Pieces in hand; `None` when the string has no bracket at all.
    pub hand: Option<Vec<PieceText>>,
    pub side: Color,
    /// The numbers after the side to move; their meaning is the game's.
    pub counters: Vec<u32>,
}

impl PositionText {
    /// The piece text at a coordinate, if the board has that square.
    pub fn at(&self, c: Coord) -> Option<PieceText> {
        let rows = self.ranks.len();
        let row = rows.checked_sub(1 + c.rank as usize)?;
        self.ranks.get(row)?.get(c.file as usize).copied().flatten()
    }

    /// Builds the board grid of a `files` x `ranks` game from a lookup.
    pub fn grid(
        files: u8,
        ranks: u8,
        mut piece_at: impl FnMut(Coord) -> Option<PieceText>,
    ) -> Vec<Vec<Option<PieceText>>> {
        (0..ranks)
            .rev()
            .map(|r| (0..files).map(|f| piece_at(Coord::new(f, r))).collect())
            .collect()
    }

    /// Checks the board has exactly the game's dimensions.
    pub fn check_size(&self, files: u8, ranks: u8) -> Result<(), super::PositionError> {
        if self.ranks.len() != ranks as usize {
            return Err(super::PositionError::Ranks {
                found: self.ranks.len(),
                expected: ranks,
            });
        }
        for (i, row) in self.ranks.iter().enumerate() {
            if row.len() != files as usize {
                return Err(super::PositionError::Files {
                    rank: ranks as usize - i,
                    found: row.len(),
                    expected: files,
                });
            }
        }
        Ok(())
    }
}

/// A reflection of the board that a game's rules cannot tell from the
/// original: the same side to move, the same hands and counters, every
/// piece on the reflected square. Which one (if any) a game has is
/// `Game::MIRROR`; duplicate opening positions are found through it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// Left and right swapped: file `a` becomes the last file.
    Files,
    /// Rank 1 and the last rank swapped (each side keeps its pieces).
    Ranks,
}

impl Mirror {
    /// The reflected coordinate on a `files` x `ranks` board.
    pub fn coord(self, c: Coord, files: u8, ranks: u8) -> Coord {
        match self {
            Mirror::Files => Coord::new(files - 1 - c.file, c.rank),
            Mirror::Ranks => Coord::new(c.file, ranks - 1 - c.rank),
        }
    }

    /// The reflected position string (not checked against any rules).
    pub fn position(self, t: &PositionText) -> PositionText {
        let mut out = t.clone();
        match self {
            Mirror::Files => out.ranks.iter_mut().for_each(|r| r.reverse()),
            Mirror::Ranks => out.ranks.reverse(),
        }
        out
    }

    /// The reflected move string.
    pub fn move_text(self, m: MoveText, files: u8, ranks: u8) -> MoveText {
        let step = |s: StepText| StepText {
            from: self.coord(s.from, files, ranks),
            to: self.coord(s.to, files, ranks),
            promote: s.promote,
        };
        match m {
            MoveText::Step(s) => MoveText::Step(step(s)),
            MoveText::Drop { piece, to } => MoveText::Drop {
                piece,
                to: self.coord(to, files, ranks),
            },
            MoveText::Pass => MoveText::Pass,
            MoveText::Bond(a, b) => MoveText::Bond(step(a), step(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(letter: char) -> Option<PieceText> {
        Some(PieceText {
            letter,
            color: Color::First,
            promoted: false,
        })
    }

    #[test]
    fn mirrors_reflect_squares_and_are_their_own_inverse() {
        let t = PositionText {
            ranks: vec![vec![piece('A'), None, None], vec![None, None, piece('B')]],
            hand: None,
            side: Color::Second,
            counters: vec![7],
        };
        let f = Mirror::Files.position(&t);
        assert_eq!(f.ranks[0], vec![None, None, piece('A')]);
        assert_eq!(f.ranks[1], vec![piece('B'), None, None]);
        assert_eq!((f.side, &f.counters), (Color::Second, &vec![7]));
        let r = Mirror::Ranks.position(&t);
        assert_eq!(r.ranks[0], t.ranks[1]);
        for m in [Mirror::Files, Mirror::Ranks] {
            assert_eq!(m.position(&m.position(&t)), t);
        }
        let a1c2 = MoveText::Step(StepText {
            from: Coord::new(0, 0),
            to: Coord::new(2, 1),
            promote: true,
        });
        let want = MoveText::Step(StepText {
            from: Coord::new(2, 0),
            to: Coord::new(0, 1),
            promote: true,
        });
        assert_eq!(Mirror::Files.move_text(a1c2, 3, 2), want);
        let drop = MoveText::Drop {
            piece: 'K',
            to: Coord::new(0, 0),
        };
        assert_eq!(
            Mirror::Ranks.move_text(drop, 3, 2),
            MoveText::Drop {
                piece: 'K',
                to: Coord::new(0, 1)
            }
        );
    }
}
