//! The only part of the board that knows particular games: what the page
//! shows beyond the generic board, moves and position strings. Kani Nari
//! Ebi's River entry squares (so a River move is made by dropping the
//! piece into the River and then picking the current's direction), and
//! Negaeri Shogi's flips level by level (from `Negaeri::flips`). Nothing
//! here decides legality: the moves come from the rules library, these
//! only describe them.

use crate::core::{Coord, Game, PositionText, StepText};
use crate::games::GameId;
use crate::games::negaeri::{self, Negaeri};
use std::any::Any;

/// Kani Nari Ebi's River: file c.
const RIVER_FILE: u8 = 2;

/// The River squares a movement can enter the River by, when it comes to
/// rest in the River after the current (empty otherwise). `before` is the
/// board the movement is made on (for a Bond movement, the board after
/// the turn's first movement). A Crab's normal movement slides along its
/// rank, so it enters on that rank; a Shrimp's step and any Bond step are
/// diagonal, entering one rank up or down. An entry counts when the
/// current, up or down from it, leaves the piece on the movement's square.
pub fn river_entries(
    game: GameId,
    before: &PositionText,
    step: &StepText,
    bond: bool,
    ranks: u8,
) -> Vec<Coord> {
    if game != GameId::KaniNariEbi || step.to.file != RIVER_FILE || step.from.file == RIVER_FILE {
        return Vec::new();
    }
    let diagonal = bond || before.at(step.from).is_some_and(|p| p.letter == 'S');
    let from_rank = i16::from(step.from.rank);
    let candidates: Vec<i16> = if diagonal {
        if step.from.file.abs_diff(RIVER_FILE) != 1 {
            return Vec::new();
        }
        vec![from_rank + 1, from_rank - 1]
    } else {
        vec![from_rank]
    };
    let empty = |r: i16| {
        (0..i16::from(ranks)).contains(&r) && before.at(Coord::new(RIVER_FILE, r as u8)).is_none()
    };
    let rest = |entry: i16, dir: i16| {
        let mut r = entry;
        while empty(r + dir) {
            r += dir;
        }
        r
    };
    candidates
        .into_iter()
        .filter(|&e| empty(e))
        .filter(|&e| {
            let to = i16::from(step.to.rank);
            rest(e, 1) == to || rest(e, -1) == to
        })
        .map(|e| Coord::new(RIVER_FILE, e as u8))
        .collect()
}

/// The squares a move flips, level by level (Negaeri Shogi's drops; empty
/// for every other move and game).
pub fn flip_levels<G: Game>(pos: &G, mv: G::Move) -> Vec<Vec<Coord>> {
    let (Some(p), Some(&m)) = (
        (pos as &dyn Any).downcast_ref::<Negaeri>(),
        (&mv as &dyn Any).downcast_ref::<negaeri::Move>(),
    ) else {
        return Vec::new();
    };
    let flips = p.flips(m);
    let mut levels = Vec::new();
    for &bits in &flips.levels[..flips.depth()] {
        let mut squares = Vec::new();
        for rank in 0..G::RANKS {
            for file in 0..G::FILES {
                let c = Coord::new(file, rank);
                if negaeri::Square::from_coord(c).is_some_and(|s| bits & s.bit() != 0) {
                    squares.push(c);
                }
            }
        }
        levels.push(squares);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{parse_move, parse_position};

    fn step(s: &str) -> StepText {
        match parse_move(s).unwrap() {
            crate::core::MoveText::Step(s) => s,
            _ => unreachable!(),
        }
    }

    fn coords(v: &[Coord]) -> Vec<String> {
        v.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn a_crab_enters_the_river_on_its_rank() {
        let p = parse_position("C3c/C3c/C3c/C3c/C3c w 1").unwrap();
        let g = GameId::KaniNariEbi;
        assert_eq!(
            coords(&river_entries(g, &p, &step("a3c5"), false, 5)),
            ["c3"]
        );
        assert_eq!(
            coords(&river_entries(g, &p, &step("a3c1"), false, 5)),
            ["c3"]
        );
        assert!(river_entries(g, &p, &step("a3d3"), false, 5).is_empty());
        assert!(river_entries(GameId::Hasami, &p, &step("a3c5"), false, 5).is_empty());
    }

    #[test]
    fn diagonal_steps_enter_one_rank_up_or_down_where_the_current_agrees() {
        // A Shrimp on b3, a blocker on c3: c5 is reached only through c4.
        let p = parse_position("5/5/1Sc2/5/5 w 1").unwrap();
        let g = GameId::KaniNariEbi;
        assert_eq!(
            coords(&river_entries(g, &p, &step("b3c5"), false, 5)),
            ["c4"]
        );
        assert_eq!(
            coords(&river_entries(g, &p, &step("b3c1"), false, 5)),
            ["c2"]
        );
        // Without the blocker both entries lead up to c5.
        let p = parse_position("5/5/1S3/5/5 w 1").unwrap();
        assert_eq!(
            coords(&river_entries(g, &p, &step("b3c5"), false, 5)),
            ["c4", "c2"]
        );
    }
}
