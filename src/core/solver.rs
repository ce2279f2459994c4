//! A game solved strongly by its own retrograde analysis: the game builds
//! its table of solved positions and checks one against its own moves. The
//! `solve` job finds a game's solver through the registry and adds what
//! needs the search; nothing here names a game.

use super::{Game, TableValue, Tablebase};
use std::path::Path;

/// How a game solves itself.
pub trait Solver<G: Game> {
    /// The table it builds.
    type Table: SolvedTable<G>;
    /// Labels every position reachable from the start won, lost or drawn
    /// with its distance to the end, logging progress: the table, and a
    /// report of what was found (one line per figure).
    fn solve(
        &self,
        log: &mut dyn FnMut(String),
    ) -> Result<(Self::Table, String), <Self::Table as SolvedTable<G>>::Error>;
    /// Reads a table file written by `SolvedTable::save`, checking it
    /// whole; the error says what is wrong with the file (without naming
    /// it: the caller does).
    fn load(&self, path: &Path) -> Result<Self::Table, <Self::Table as SolvedTable<G>>::Error>;
}

/// A table a `Solver` built.
pub trait SolvedTable<G>: Tablebase<G> {
    /// What goes wrong building, loading or checking the table.
    type Error: std::error::Error + Send + Sync + 'static;
    fn save(&self, path: &Path) -> std::io::Result<()>;
    /// Checks every entry against the entries its moves lead to, by the
    /// game's own move generator rather than the solver's: how many were
    /// checked, or the first faults found.
    fn check(&self, log: &mut dyn FnMut(String)) -> Result<u64, Self::Error>;
    /// Up to `per_distance` positions decided in `d` plies for each `d` in
    /// `1..=max_plies`, with their values, the same for the same `seed`:
    /// element `d` holds those of distance `d` (element 0 is empty).
    fn sample(&self, max_plies: u32, per_distance: usize, seed: u64) -> Vec<Vec<(G, TableValue)>>;
}
