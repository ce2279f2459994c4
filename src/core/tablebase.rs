//! Tables of solved positions: a game may load one from a file (its
//! `TableFile`, which the registry lists) and answer, for a position, its
//! value with perfect play. `best_move` picks the move that keeps the best
//! value; nothing here names a game.

use super::{Game, History, Outcome, game_status, status_with_history};
use std::any::Any;
use std::path::Path;
use std::sync::Arc;

/// The value of a position for the side to move under perfect play, with
/// the distance to the end of the game in plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableValue {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies (0: the game is over).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl TableValue {
    /// The value for the side that moved into a position of this value
    /// (one ply further from the end).
    pub fn before(self) -> TableValue {
        match self {
            TableValue::Win(d) => TableValue::Loss(d + 1),
            TableValue::Loss(d) => TableValue::Win(d + 1),
            TableValue::Draw => TableValue::Draw,
        }
    }

    /// An order on values for the side to move: higher is better. Wins
    /// sooner are better, losses later are better.
    pub fn rank(self) -> i64 {
        match self {
            TableValue::Win(d) => i64::from(u32::MAX) - i64::from(d),
            TableValue::Draw => 0,
            TableValue::Loss(d) => -(i64::from(u32::MAX) - i64::from(d)),
        }
    }
}

impl std::fmt::Display for TableValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableValue::Win(d) => write!(f, "win in {d} plies"),
            TableValue::Loss(d) => write!(f, "loss in {d} plies"),
            TableValue::Draw => f.write_str("draw"),
        }
    }
}

/// A loaded table of solved positions of some game `G`: an `Arc<dyn
/// Tablebase<G>>` behind `Any`, so that callers not generic over the game
/// (the engine, the registry) can hold one.
pub type SharedTable = Arc<dyn Any + Send + Sync>;

/// How a game's table of solved positions is found and loaded.
#[derive(Copy, Clone, Debug)]
pub struct TableFile {
    /// The engine option naming the file.
    pub option: &'static str,
    /// Where `koma solve` writes the table by default and the engine finds
    /// it without the option: this file in the folder of the endgame tables
    /// (`solve::tables::probe::default_root`).
    pub default_file: &'static str,
    /// Loads the table (a `SharedTable` holding an `Arc<dyn Tablebase<G>>`)
    /// from a file, checking it whole; the error says what is wrong with
    /// the file (without naming it: the caller does).
    pub load: fn(&Path) -> Result<SharedTable, FileFault>,
}

/// What is wrong with a file a game reads (its table, its weights), as the
/// game's own error type, which the rules' layer does not know.
pub type FileFault = Box<dyn std::error::Error + Send + Sync>;

/// A table of solved positions of one game.
pub trait Tablebase<G>: Send + Sync {
    /// The value of `pos` (side to move's view), or `None` when the table
    /// does not hold it.
    fn probe(&self, pos: &G) -> Option<TableValue>;
}

/// The move of `pos` keeping the best value, and that value, when the game
/// is not over and the table (or the rules, for moves that end the game)
/// gives the value of every move. `history` is the game so far, ending
/// with `pos`: a move repeating a position for the last allowed time is a
/// draw whatever the table says. Ties go to the first move generated.
pub fn best_move<G: Game>(
    table: &dyn Tablebase<G>,
    pos: &G,
    history: &History,
) -> Option<(G::Move, TableValue)> {
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    let us = pos.side_to_move();
    let mut best: Option<(G::Move, TableValue)> = None;
    for &m in moves.iter() {
        let child = pos.play(m);
        let value = if let Some(end) = game_status(&child) {
            match end.outcome {
                Outcome::Win(c) if c == us => TableValue::Win(1),
                Outcome::Win(_) => TableValue::Loss(1),
                Outcome::Draw => TableValue::Draw,
            }
        } else if pos.repetition_limit().is_some_and(|limit| {
            let key = child.repetition_key();
            history.keys().iter().filter(|&&k| k == key).count() + 1 >= limit
        }) {
            TableValue::Draw
        } else {
            table.probe(&child)?.before()
        };
        if best.is_none_or(|(_, b)| value.rank() > b.rank()) {
            best = Some((m, value));
        }
    }
    best
}

/// A line of perfect play from `pos` by `best_move` (shortest win,
/// longest loss, a draw kept), as move texts, until the game ends, the
/// table lacks a value or `max` plies.
pub fn principal_line<G: Game>(table: &dyn Tablebase<G>, pos: &G, max: usize) -> Vec<String> {
    let mut pos = pos.clone();
    let mut history = History::starting_at(&pos);
    let mut line = Vec::new();
    while line.len() < max && status_with_history(&pos, &history).is_none() {
        let Some((m, _)) = best_move(table, &pos, &history) else {
            break;
        };
        line.push(pos.move_text(m).to_string());
        pos = pos.play(m);
        history.push(pos.repetition_key());
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_order_and_step_back() {
        use TableValue::*;
        assert!(Win(1).rank() > Win(3).rank());
        assert!(Win(99).rank() > Draw.rank());
        assert!(Draw.rank() > Loss(100).rank());
        assert!(Loss(100).rank() > Loss(2).rank());
        assert_eq!(Loss(0).before(), Win(1));
        assert_eq!(Win(1).before(), Loss(2));
        assert_eq!(Draw.before(), Draw);
    }
}
