//! Opening suites for fair matches: `koma openings` makes them (`generate`:
//! playouts scored by a fixed search of the strongest level, kept inside a
//! score window, duplicates and mirror images removed) and checks or
//! rescores them (`check`). The file format and the shipped suites are
//! `record::suite`'s.

pub mod check;
pub mod cli;
pub mod error;
pub mod generate;
#[cfg(test)]
mod tests;

pub use error::OpeningsError;

use crate::core::{Game, GameLine, History, LineError, MoveText, Searchable};
use crate::search::{self, Context, Limits, Score, Settings, Tt};
use std::sync::atomic::AtomicBool;

/// The search that scores a position: a fixed depth or a fixed node count,
/// on one thread with a fresh table, so that the score is a function of
/// the position, its history and the build alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
}

impl Limit {
    fn limits(self) -> Limits {
        let mut l = Limits::infinite();
        match self {
            Limit::Depth(d) => l.depth = Some(d),
            Limit::Nodes(n) => l.nodes = Some(n),
        }
        l
    }

    /// As the command line writes it: `--depth 7`, `--nodes 20000`.
    pub fn flag(self) -> String {
        match self {
            Limit::Depth(d) => format!("--depth {d}"),
            Limit::Nodes(n) => format!("--nodes {n}"),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

/// Megabytes of the table a scoring search uses (as `koma bench`).
pub const SCORE_TT_MB: usize = 16;

/// The score of `pos` (reached with `history`) for the side to move, by a
/// full-strength search within `limit`; `tt` is cleared first.
pub fn score<G: Searchable>(pos: &G, history: &History, limit: Limit, tt: &Tt) -> Score {
    tt.clear();
    search_no_clear(pos, history, limit, tt)
}

/// `score` with the table as it is (playouts share one per candidate).
fn search_no_clear<G: Searchable>(pos: &G, history: &History, limit: Limit, tt: &Tt) -> Score {
    let stop = AtomicBool::new(false);
    let limits = limit.limits();
    let ctx = Context {
        tt,
        stop: &stop,
        limits: &limits,
        settings: Settings::default(),
        poll: None,
    };
    search::search(pos, history, &ctx, |_| {}).score
}

/// Replays an opening (moves from the start position under `rules`) and
/// scores the position it reaches, as the generator did.
pub fn score_line<G: Searchable>(
    moves: &[MoveText],
    rules: &G::Rules,
    limit: Limit,
    tt: &Tt,
) -> Result<Score, LineError> {
    let line = GameLine::<G>::from_text(None, moves, rules)?;
    Ok(score(line.current(), line.history(), limit, tt))
}

/// The key duplicates are found by: the position's repetition key (board,
/// hands, side to move; no move counters), the smaller of its own and its
/// mirror image's where the game's rules are symmetric.
pub fn canonical_key<G: Game>(pos: &G, rules: &G::Rules) -> u64 {
    let own = pos.repetition_key();
    crate::core::mirror(pos, rules).map_or(own, |m| own.min(m.repetition_key()))
}
