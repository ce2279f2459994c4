//! The `solve` job over any game with a solver (`GameId::visit_solver`):
//! the game's own retrograde analysis builds or checks its table
//! (`core::Solver`); what needs the search, the second opinion on a table
//! (`verify`), lives here, generic over the game.

pub mod tables;
#[cfg(test)]
mod tests;
pub mod verify;

use crate::core::{Searchable, SolvedTable, Solver};
use std::fmt;
use std::time::Instant;

/// Why a table failed its verification.
#[derive(Debug)]
pub enum VerifyError<E> {
    /// The game's own check of every entry (`SolvedTable::check`).
    Check(E),
    /// The exact search disagrees with the table: the report so far, for
    /// the person who runs the check.
    Disagrees(String),
}

impl<E: fmt::Display> fmt::Display for VerifyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Check(e) => e.fmt(f),
            VerifyError::Disagrees(report) => f.write_str(report),
        }
    }
}

impl<E: fmt::Display + fmt::Debug> std::error::Error for VerifyError<E> {}

/// Solves the game: the table and the report (the game's figures, then
/// the time and the peak memory).
pub fn run_solve<G: Searchable, S: Solver<G>>(
    solver: &S,
    log: &mut dyn FnMut(String),
) -> Result<(S::Table, String), <S::Table as SolvedTable<G>>::Error> {
    let t0 = Instant::now();
    let (table, mut report) = solver.solve(log)?;
    let secs = t0.elapsed().as_secs_f64();
    report += &format!(
        "solve time {secs:.1} s, peak memory {} MiB\n",
        peak_rss_mib().map_or("?".into(), |m| m.to_string())
    );
    Ok((table, report))
}

/// Peak resident memory of this process in MiB (Linux), if known.
fn peak_rss_mib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Checks a table: the game's check of every entry against its moves
/// (`SolvedTable::check`), then the search's agreement on `per_distance`
/// sampled positions of each distance up to `max_plies`.
pub fn run_verify<G: Searchable, T: SolvedTable<G>>(
    table: &T,
    max_plies: u32,
    per_distance: usize,
    log: &mut dyn FnMut(String),
) -> Result<String, VerifyError<T::Error>> {
    let t0 = Instant::now();
    let checked = table.check(log).map_err(VerifyError::Check)?;
    let mut r = format!(
        "consistency: {checked} classes, every value agrees with its moves ({:.1} s)\n",
        t0.elapsed().as_secs_f64()
    );
    let a = verify::search_agreement(table, max_plies, per_distance, 0x5eed, log);
    r += &format!(
        "exact full-width alpha-beta: {}/{} sampled positions (distances 1..={max_plies}) agree with the table\n",
        a.exact_agreed, a.sampled
    );
    r += &format!(
        "engine search: {}/{} agree with the table; the exact search sides with the table in {} of the {} others\n",
        a.agreed,
        a.sampled,
        a.table_confirmed,
        a.sampled - a.agreed,
    );
    for d in &a.disagreements {
        r += &format!("  disagrees: {d}\n");
    }
    if a.exact_agreed != a.sampled {
        return Err(VerifyError::Disagrees(r));
    }
    Ok(r)
}
