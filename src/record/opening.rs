//! A book line as an opening: a start and moves the rules accept, the
//! game still going at its end; what the referee plays from and the
//! opening tools check a suite with, so the check lives with the format.

use crate::core::{End, Game, GameLine, LineError, MoveText, PositionText};
use crate::protocol::record::OpeningLine;

/// A checked opening: canonical start text (`None`: the game's start
/// position) and moves that are legal and do not end the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub start: Option<PositionText>,
    pub moves: Vec<MoveText>,
}

impl Opening {
    /// The opening played out under `rules`.
    pub fn line<G: Game>(&self, rules: &G::Rules) -> Result<GameLine<G>, LineError> {
        GameLine::from_text(self.start.as_ref(), &self.moves, rules)
    }
}

/// Why a book line cannot open a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// Its start or a move is not legal.
    Line(LineError),
    /// The game ends on it.
    Over(End),
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningError::Line(e) => e.fmt(f),
            OpeningError::Over(end) => write!(f, "the game is already over ({end})"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Checks a book line: legal, and the game still going at its end.
pub fn check<G: Game>(line: &OpeningLine, rules: &G::Rules) -> Result<Opening, OpeningError> {
    let played = GameLine::<G>::from_text(line.start.as_ref(), &line.moves, rules)
        .map_err(OpeningError::Line)?;
    if let Some(end) = played.status() {
        return Err(OpeningError::Over(end));
    }
    Ok(Opening {
        start: played.start_text().cloned(),
        moves: played.moves().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hasami::Hasami;
    use crate::protocol::record::parse_opening;

    #[test]
    fn book_lines_are_checked_and_made_canonical() {
        let rules = Default::default();
        let o = check::<Hasami>(&parse_opening("a1a2 i9i8").unwrap(), &rules).unwrap();
        assert_eq!(o.moves.len(), 2);
        let e = check::<Hasami>(&parse_opening("a1a2 a2a3").unwrap(), &rules)
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 2 (a2a3) is illegal"), "{e}");
        let e = check::<Hasami>(&parse_opening("5/5 w 1").unwrap(), &rules)
            .unwrap_err()
            .to_string();
        assert!(e.contains("invalid hasami position"), "{e}");
    }
}
