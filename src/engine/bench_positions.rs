//! A game's bench: its fixed positions (`Searchable::BENCH`) searched to
//! its fixed depth on one thread, a line per position. `bench` prints the
//! lines of a registry's games and their total; an `EngineGame` holds its
//! game's `positions`.

use crate::core::{Bench, Searchable};
use crate::games::{GameId, GameVisitor};
use crate::protocol::parse_position;
use crate::search::{self, Context, Limits, Settings, Tt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The game's bench positions and depth (`Searchable::BENCH`).
pub fn suite(game: GameId) -> Bench {
    struct Suite;
    impl GameVisitor for Suite {
        type Output = Bench;
        fn visit<G: Searchable>(self) -> Bench {
            G::BENCH
        }
    }
    game.visit(Suite)
}

pub struct BenchLine {
    pub position: String,
    pub nodes: u64,
    pub millis: u64,
}

/// Runs one game's bench positions; `depth` overrides the game's depth.
/// Once `stop` is set the position being searched ends early and no
/// other is begun.
pub fn run_game(game: GameId, depth: Option<u32>, stop: &AtomicBool) -> Vec<BenchLine> {
    struct Run<'a>(Option<u32>, &'a AtomicBool);
    impl GameVisitor for Run<'_> {
        type Output = Vec<BenchLine>;
        fn visit<G: Searchable>(self) -> Self::Output {
            positions::<G>(self.0, self.1)
        }
    }
    game.visit(Run(depth, stop))
}

/// `run_game` for the game `G`.
pub fn positions<G: Searchable>(depth: Option<u32>, stop: &AtomicBool) -> Vec<BenchLine> {
    let rules = G::Rules::default();
    G::BENCH
        .positions
        .iter()
        .take_while(|_| !stop.load(Ordering::Relaxed))
        .map(|&p| {
            let pos = if p == "startpos" {
                G::start(&rules)
            } else {
                let t = parse_position(p).unwrap_or_else(|e| panic!("bench position {p}: {e}"));
                G::from_text(&t, &rules).unwrap_or_else(|e| panic!("bench position {p}: {e}"))
            };
            let history = crate::core::History::starting_at(&pos);
            // A fresh table per position, one thread: the same
            // nodes on every run.
            let tt = Tt::new(16);
            let ctx = Context {
                tt: &tt,
                stop,
                limits: &Limits::depth(depth.unwrap_or(G::BENCH.depth)),
                settings: Settings::default(),
                poll: None,
            };
            let start = Instant::now();
            let r = search::search(&pos, &history, &ctx, |_| {});
            BenchLine {
                position: format!("{} {p}", G::NAME),
                nodes: r.nodes,
                millis: start.elapsed().as_millis() as u64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench is a signature of search and evaluation: the same nodes
    /// on every run, for every game (shallower than the real bench, to be
    /// quick).
    #[test]
    fn the_bench_counts_the_same_nodes_on_every_run() {
        let stop = AtomicBool::new(false);
        for &g in GameId::ALL {
            let depth = Some(suite(g).depth.saturating_sub(3).max(1));
            let nodes =
                |_| -> Vec<u64> { run_game(g, depth, &stop).iter().map(|l| l.nodes).collect() };
            let first = nodes(());
            assert!(first.iter().all(|&n| n > 0), "{g}: {first:?}");
            assert_eq!(nodes(()), first, "{g}");
        }
    }
}
