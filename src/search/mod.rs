//! Game-tree search, generic over `Game`: it never names a game and never
//! prints. The engine gives it a root, the game's history, limits and a stop
//! flag, and receives `Report`s to format as `info` lines.

mod alphabeta;
pub mod limits;
pub mod score;

pub use alphabeta::search;
pub use limits::Limits;
pub use score::{MATE, Score, is_mate};

use crate::core::Game;
use std::time::Duration;

/// What the search knows after a completed iteration.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

/// The search's answer: `best` is `None` only when the root has no move.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub best: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// The moves of a PV as the positions they are played in (for text).
pub fn pv_positions<G: Game>(root: &G, pv: &[G::Move]) -> Vec<(G, G::Move)> {
    let mut out = Vec::with_capacity(pv.len());
    let mut pos = root.clone();
    for &m in pv {
        let next = pos.play(m);
        out.push((pos, m));
        pos = next;
    }
    out
}
