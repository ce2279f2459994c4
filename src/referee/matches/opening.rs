//! Openings: book lines checked with the rules library at start-up (so a
//! bad line is a usage error naming it, not a lost game), and random plies
//! added from a slot's own generator.

use super::schedule::Rng;
use crate::core::{Game, GameLine, LineError, MoveText, PositionText};
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

/// Checks a book line: legal, and the game still going at its end.
pub fn check<G: Game>(line: &OpeningLine, rules: &G::Rules) -> Result<Opening, String> {
    let played = GameLine::<G>::from_text(line.start.as_ref(), &line.moves, rules)
        .map_err(|e| e.to_string())?;
    if let Some(end) = played.status() {
        return Err(format!("the game is already over ({end})"));
    }
    Ok(Opening {
        start: played.start_text().cloned(),
        moves: played.moves().to_vec(),
    })
}

/// `base` and up to `plies` random moves after it, none of which ends the
/// game: at each ply the moves are tried in random order and the first
/// that leaves the game going is played. Fewer plies only when every move
/// would end it.
pub fn add_random_plies<G: Game>(
    base: &Opening,
    plies: u32,
    rng: &mut Rng,
    rules: &G::Rules,
) -> Opening {
    let Ok(mut line) = base.line::<G>(rules) else {
        return base.clone();
    };
    for _ in 0..plies {
        let mut moves = G::MoveList::default();
        line.current().generate(&mut moves);
        let mut candidates: Vec<G::Move> = moves.to_vec();
        let before = line.plies();
        while !candidates.is_empty() && line.plies() == before {
            line.play(candidates.swap_remove(rng.below(candidates.len())));
            if line.status().is_some() {
                line.undo_to(before);
            }
        }
        if line.plies() == before {
            break;
        }
    }
    Opening {
        start: base.start.clone(),
        moves: line.moves().to_vec(),
    }
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
        let e = check::<Hasami>(&parse_opening("a1a2 a2a3").unwrap(), &rules).unwrap_err();
        assert!(e.contains("move 2 (a2a3) is illegal"), "{e}");
        let e = check::<Hasami>(&parse_opening("5/5 w 1").unwrap(), &rules).unwrap_err();
        assert!(e.contains("invalid hasami position"), "{e}");
    }

    #[test]
    fn random_plies_are_legal_and_repeatable() {
        let rules = Default::default();
        let base = Opening::default();
        let a = add_random_plies::<Hasami>(&base, 8, &mut Rng::for_slot(1, 3), &rules);
        let b = add_random_plies::<Hasami>(&base, 8, &mut Rng::for_slot(1, 3), &rules);
        assert_eq!(a, b);
        assert_eq!(a.moves.len(), 8);
        let line = OpeningLine {
            start: None,
            moves: a.moves.clone(),
        };
        assert!(check::<Hasami>(&line, &rules).is_ok());
        let c = add_random_plies::<Hasami>(&base, 8, &mut Rng::for_slot(1, 4), &rules);
        assert_ne!(a, c);
    }
}
