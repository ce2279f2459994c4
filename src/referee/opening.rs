//! Openings: book lines checked with the rules library at start-up (so a
//! bad line is a usage error naming it, not a lost game), and random plies
//! added from a slot's own generator.

use super::schedule::Rng;
use crate::core::{Game, History, MoveText, PositionText, status_with_history};
use crate::protocol::record::OpeningLine;

/// A checked opening: canonical start text (`None`: the game's start
/// position) and moves that are legal and do not end the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub start: Option<PositionText>,
    pub moves: Vec<MoveText>,
}

/// The position and history at the start of `start`, under `rules`.
pub fn start_position<G: Game>(
    start: Option<&PositionText>,
    rules: &G::Rules,
) -> Result<G, String> {
    match start {
        None => Ok(G::start(rules)),
        Some(t) => G::from_text(t, rules).map_err(|e| format!("invalid position ({e})")),
    }
}

/// Plays `moves` from `start`, refusing illegal moves and moves after the
/// end; returns the position, its history and the canonical move texts.
pub fn replay<G: Game>(
    start: G,
    moves: &[MoveText],
) -> Result<(G, History, Vec<MoveText>), String> {
    let mut pos = start;
    let mut history = History::starting_at(&pos);
    let mut canon = Vec::with_capacity(moves.len());
    for (k, m) in moves.iter().enumerate() {
        if let Some(end) = status_with_history(&pos, &history) {
            return Err(format!("move {} ({m}) comes after the end ({end})", k + 1));
        }
        let mv = pos
            .find_move(m)
            .ok_or_else(|| format!("move {} ({m}) is illegal", k + 1))?;
        canon.push(pos.move_text(mv));
        pos = pos.play(mv);
        history.push(pos.repetition_key());
    }
    Ok((pos, history, canon))
}

/// Checks a book line: legal, and the game still going at its end.
pub fn check<G: Game>(line: &OpeningLine, rules: &G::Rules) -> Result<Opening, String> {
    let start = start_position::<G>(line.start.as_ref(), rules)?;
    let start_text = line.start.as_ref().map(|_| start.to_text());
    let (pos, history, moves) = replay(start, &line.moves)?;
    if let Some(end) = status_with_history(&pos, &history) {
        return Err(format!("the game is already over ({end})"));
    }
    Ok(Opening {
        start: start_text,
        moves,
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
    let Ok(start) = start_position::<G>(base.start.as_ref(), rules) else {
        return base.clone();
    };
    let Ok((mut pos, mut history, _)) = replay(start, &base.moves) else {
        return base.clone();
    };
    let mut out = base.clone();
    for _ in 0..plies {
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        let mut candidates: Vec<G::Move> = moves.to_vec();
        let mut chosen = None;
        while !candidates.is_empty() {
            let mv = candidates.swap_remove(rng.below(candidates.len()));
            let next = pos.play(mv);
            history.push(next.repetition_key());
            if status_with_history(&next, &history).is_none() {
                chosen = Some((mv, next));
                break;
            }
            history.pop();
        }
        let Some((mv, next)) = chosen else { break };
        out.moves.push(pos.move_text(mv));
        pos = next;
    }
    out
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
        assert!(e.contains("invalid position"), "{e}");
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
