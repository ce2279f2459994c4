//! Game-tree search, generic over `Game`: it never names a game and never
//! prints. The engine gives it a root, the game's history, limits, a shared
//! transposition table and a stop flag, and receives `Report`s to format as
//! `info` lines.
//!
//! Principal variation search with iterative deepening and aspiration
//! windows, a lock-free transposition table shared by Lazy SMP threads,
//! move ordering (hash move, tactical moves, killers, history), quiescence
//! search over tactical moves, null-move pruning where a game allows it,
//! reverse futility pruning and late move reductions; MultiPV and strength
//! levels at the root.

pub mod limits;
mod ordering;
mod path;
pub mod score;
pub mod skill;
#[cfg(test)]
mod tests;
pub mod tt;
mod vote;
mod worker;

pub use limits::Limits;
pub use score::{MATE, Score, is_mate};
pub use skill::Skill;
pub use tt::Tt;

use crate::core::{History, Searchable};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use worker::Worker;

/// Endgame tables the search consults: after an exit (a move that leaves
/// its table: a capture or a promotion, as Stockfish probes after zeroing
/// moves) the position's win, draw or loss, where the tables hold it.
pub trait Probe<G: Searchable>: Send + Sync {
    /// Whether move `m` of `pos` leaves the table `pos` is in.
    fn is_exit(&self, pos: &G, m: G::Move) -> bool;
    /// 1, 0 or -1: the side to move wins, draws or loses with perfect play
    /// (the position taken as a fresh game); `None` outside the tables.
    fn wdl(&self, pos: &G) -> Option<i8>;
}

/// Deepest ply the search visits, quiescence included.
pub const MAX_PLY: usize = 128;

#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    pub multipv: usize,
    pub skill: Skill,
    /// Seeds the weaker levels' choices; any value for full strength.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            skill: Skill::Hard,
            seed: 0,
        }
    }
}

pub struct Context<'a> {
    pub tt: &'a Tt,
    pub stop: &'a AtomicBool,
    pub limits: &'a Limits,
    pub settings: Settings,
    /// Called by the main thread about every 1024 nodes, where it looks at
    /// the clock (the engine hands its input loop over when a search runs
    /// long).
    pub poll: Option<&'a (dyn Fn() + Sync)>,
}

/// One line of a completed iteration.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1 for the best line.
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// Positions whose value came from the endgame tables.
    pub tbhits: u64,
    pub pv: Vec<M>,
}

/// The search's answer: `best` is `None` only when the root has no move.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// Searches `root` (whose game so far is `history`, ending with `root`)
/// within the limits or until `stop`.
pub fn search<G: Searchable>(
    root: &G,
    history: &History,
    ctx: &Context,
    on_report: impl FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    search_with_tables(root, history, ctx, None, on_report)
}

/// `search`, consulting endgame tables after exits (`Probe`).
pub fn search_with_tables<G: Searchable>(
    root: &G,
    history: &History,
    ctx: &Context,
    tables: Option<&dyn Probe<G>>,
    mut on_report: impl FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    ctx.tt.new_search();
    let nodes = AtomicU64::new(0);
    let tbhits = AtomicU64::new(0);
    let tables = tables.map(|t| (t, &tbhits));
    let helpers_stop = AtomicBool::new(false);
    let threads = ctx.settings.threads.max(1);
    let mut main = Worker::<G>::new(root, history, ctx, &nodes, ctx.stop, 0, tables);
    if main.root_moves.is_empty() {
        return SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![],
        };
    }
    // The first move of the last best line printed: protocol.md promises
    // it is the move played, whatever chose that move below.
    let last_first = std::cell::Cell::new(None);
    let mut report = |rep: &Report<G::Move>| {
        if rep.multipv == 1 {
            last_first.set(rep.pv.first().copied());
        }
        on_report(rep);
    };
    let (answer, helpers) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|id| {
                let nodes = &nodes;
                let helpers_stop = &helpers_stop;
                scope.spawn(move || {
                    let mut w =
                        Worker::<G>::new(root, history, ctx, nodes, helpers_stop, id, tables);
                    w.iterate(&mut |_| {})
                })
            })
            .collect();
        let out = main.iterate(&mut report);
        helpers_stop.store(true, Ordering::Release);
        // A helper that panicked gives no answer; the main thread's stands.
        let helpers: Vec<_> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        (out, helpers)
    });
    let result = if helpers.is_empty() || !votes(ctx) {
        answer
    } else {
        let mut answers = vec![answer];
        answers.extend(helpers);
        let chosen = vote::vote(&answers);
        answers.swap_remove(chosen)
    };
    let mut out = skill::choose(result, &main, &ctx.settings);
    // A helper's move (the vote), a weaker level's pick, or an iteration
    // the limit cut short after its new best move was searched: none of
    // them was printed yet.
    if out.best.is_some() && out.best != last_first.get() {
        report(&Report {
            depth: out.depth,
            seldepth: out.depth,
            multipv: 1,
            score: out.score,
            nodes: nodes.load(Ordering::Relaxed),
            elapsed: ctx.limits.elapsed(),
            hashfull: ctx.tt.hashfull(),
            tbhits: tbhits.load(Ordering::Relaxed),
            pv: out.pv.clone(),
        });
    }
    out.nodes = nodes.load(Ordering::Relaxed);
    out
}

/// Whether the threads vote on the answer: not where the answer must be
/// the main thread's own (several lines, a weaker level, a fixed depth).
fn votes(ctx: &Context) -> bool {
    ctx.settings.multipv == 1 && ctx.settings.skill == Skill::Hard && ctx.limits.depth.is_none()
}

/// The moves of a PV as the positions they are played in (for text).
pub fn pv_positions<G: Searchable>(root: &G, pv: &[G::Move]) -> Vec<(G, G::Move)> {
    let mut out = Vec::with_capacity(pv.len());
    let mut pos = root.clone();
    for &m in pv {
        let next = pos.play(m);
        out.push((pos, m));
        pos = next;
    }
    out
}
