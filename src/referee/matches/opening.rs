//! Openings: book lines checked at start-up with the record's opening
//! check (so a bad line is a usage error naming it, not a lost game), and
//! random plies added from a slot's own generator.

use super::schedule::Rng;
use crate::core::Game;
use crate::record::opening::Opening;

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
    use crate::protocol::record::OpeningLine;
    use crate::record::opening::check;

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
