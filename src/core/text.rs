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
    /// Kani Nari Ebi: a movement and its Bond movement, `<step>,<step>`.
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
            return Err(super::PositionError::new(format!(
                "board has {} ranks, expected {ranks}",
                self.ranks.len()
            )));
        }
        for (i, row) in self.ranks.iter().enumerate() {
            if row.len() != files as usize {
                return Err(super::PositionError::new(format!(
                    "rank {} has {} files, expected {files}",
                    ranks as usize - i,
                    row.len()
                )));
            }
        }
        Ok(())
    }
}
