//! Retrograde solving: Nana Shogi solved strongly, every position
//! reachable from the start labelled win, loss or draw for the side to
//! move, with its distance to the end in plies, under exactly the rules of
//! the Nana module (its move generator and end rules decide everything).
//! The game itself only probes the finished table (`super::index`, the
//! compact index; `super::tablebase`, the file and `NanaTable`); the
//! `solve` job reaches this through `core::Solver` (`NanaSolver`).
//!
//! - `unmove`: moves and unmoves on bare positions;
//! - `enumerate`: the positions reachable from the start, King placements
//!   included, and the move counts;
//! - `retro`: the retrograde analysis;
//! - `consistency`: the check of a table by the forward move generator
//!   (the `solve` job adds a check by the search).
//!
//! The ends: taking the King wins at once; a side without a legal move
//! loses; the fourth repetition is a draw, so what neither side can force
//! is a draw.

pub mod consistency;
pub mod enumerate;
pub mod error;
pub mod retro;
#[cfg(test)]
mod tests;
pub mod unmove;

pub use error::SolveError;

use super::Nana;
use super::index::{self, Index};
use super::tablebase::{NanaTable, Value, decode};
use crate::core::tablebase::principal_line;
use crate::core::{Game, SolvedTable, Solver, TableValue};
use std::path::Path;
use std::time::Instant;

/// A solved game: the value byte of every class of the index (see
/// `retro`), which classes were reached and with which side to move.
pub struct Solution {
    pub values: Vec<u8>,
    pub reach: Vec<u8>,
    /// Positions before both Kings are placed.
    pub placement: u64,
    pub longest: u32,
}

/// Enumerates and labels the game of `ix`, logging progress lines.
pub fn solve(ix: &Index, log: &mut dyn FnMut(String)) -> Result<Solution, SolveError> {
    let t0 = Instant::now();
    let r = enumerate::enumerate(ix, log);
    log(format!(
        "enumerated in {} sweeps, {} expansions, {:.1} s",
        r.sweeps,
        r.expansions,
        t0.elapsed().as_secs_f64()
    ));
    let s = retro::retro(ix, &r.reach, r.moves, log)?;
    log(format!("solved in {:.1} s", t0.elapsed().as_secs_f64()));
    Ok(Solution {
        values: s.values,
        reach: r.reach,
        placement: r.placement,
        longest: s.longest,
    })
}

/// Reachable positions (each position itself, not its class) by value
/// for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    pub positions: u64,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    /// Classes of the index reached, and the index's size.
    pub classes: u64,
    pub entries: u64,
    /// Positions with the first / second player to move.
    pub first_to_move: u64,
    pub second_to_move: u64,
}

/// Counts the reachable positions: a class reached with a side to move
/// stands for one position (both Kings on file b) or two (it and its
/// mirror image, which is reachable too: the start and the rules are
/// symmetric). The placement positions are counted by their own values.
pub fn census(ix: &Index, sol: &Solution, table: &NanaTable) -> Census {
    let mut c = Census {
        entries: ix.len() as u64,
        ..Census::default()
    };
    for (i, (&bits, &v)) in sol.reach.iter().zip(&sol.values).enumerate() {
        if bits == 0 {
            continue;
        }
        c.classes += 1;
        let (_, own_mirror) = ix.king_pair(i as u32);
        let size = if own_mirror { 1 } else { 2 };
        let first = u64::from(bits & enumerate::FIRST != 0) * size;
        let second = u64::from(bits & enumerate::SECOND != 0) * size;
        c.first_to_move += first;
        c.second_to_move += second;
        let n = first + second;
        match decode(v) {
            Value::Win(_) => c.won += n,
            Value::Loss(_) => c.lost += n,
            Value::Draw | Value::Unknown => c.drawn += n,
        }
    }
    // The start and the positions after the first King.
    let start = ix.material().start();
    let mut placement = vec![start.clone()];
    let mut ml = <Nana as Game>::MoveList::default();
    start.generate(&mut ml);
    placement.extend(ml.iter().map(|&m| start.play(m)));
    for (k, p) in placement.iter().enumerate() {
        match table.value(p) {
            Some(TableValue::Win(_)) => c.won += 1,
            Some(TableValue::Loss(_)) => c.lost += 1,
            _ => c.drawn += 1,
        }
        if k == 0 {
            c.first_to_move += 1;
        } else {
            c.second_to_move += 1;
        }
    }
    c.positions = c.won + c.lost + c.drawn;
    c
}

/// Solves the whole game, and returns the table and the report (value of
/// the start, census, a principal line).
pub fn run_solve(log: &mut dyn FnMut(String)) -> Result<(NanaTable, String), SolveError> {
    let ix = Index::get();
    log(format!(
        "index: {} entries ({} King pairs x {})",
        ix.len(),
        index::KING_PAIRS,
        ix.per_king_pair()
    ));
    let sol = solve(ix, log)?;
    let table = NanaTable::new(ix, sol.values.clone());
    let c = census(ix, &sol, &table);
    let start = ix.material().start();
    let value = table.value(&start).ok_or(SolveError::StartUnvalued)?;
    let line = principal_line(&table, &start, 400);
    let mut r = String::new();
    use std::fmt::Write;
    let _ = writeln!(r, "start: {value} for the first player");
    let _ = writeln!(
        r,
        "reachable positions: {} (first to move {}, second to move {})",
        c.positions, c.first_to_move, c.second_to_move
    );
    let _ = writeln!(
        r,
        "side to move wins {}, loses {}, draws {}",
        c.won, c.lost, c.drawn
    );
    let _ = writeln!(
        r,
        "index: {} entries, {} classes reached; longest win or loss {} plies",
        c.entries, c.classes, sol.longest
    );
    let _ = writeln!(
        r,
        "principal line ({} plies): {}",
        line.len(),
        line.join(" ")
    );
    Ok((table, r))
}

/// Nana's solver, for the registry.
pub struct NanaSolver;

impl Solver<Nana> for NanaSolver {
    type Table = NanaTable;

    fn solve(&self, log: &mut dyn FnMut(String)) -> Result<(NanaTable, String), SolveError> {
        run_solve(log)
    }

    fn load(&self, path: &Path) -> Result<NanaTable, SolveError> {
        NanaTable::load(Index::get(), path).map_err(SolveError::File)
    }
}

impl SolvedTable<Nana> for NanaTable {
    type Error = SolveError;

    fn save(&self, path: &Path) -> std::io::Result<()> {
        NanaTable::save(self, path)
    }

    fn check(&self, log: &mut dyn FnMut(String)) -> Result<u64, SolveError> {
        consistency::consistency(self, log)
    }

    fn sample(
        &self,
        max_plies: u32,
        per_distance: usize,
        seed: u64,
    ) -> Vec<Vec<(Nana, TableValue)>> {
        consistency::sample(self, max_plies, per_distance, seed)
    }
}
