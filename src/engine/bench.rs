//! `bench`: a fixed search of each game's fixed positions at its fixed
//! depth (`Searchable::BENCH`) on one thread. Its node total is a signature of the search: identical on
//! every run of the same build, changed by any change to search or
//! evaluation.

use super::Output;
use super::registry::EngineGame;
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

/// The whole bench, printed line by line; returns the node total. A
/// `stop` ends it early: the total then counts what was searched and is
/// marked partial.
/// The games are a registry's (Koma's: `Registry::koma().games()`).
pub fn run(games: &[EngineGame], out: &Output, depth: Option<u32>, stop: &AtomicBool) -> u64 {
    let start = Instant::now();
    let mut total = 0;
    for game in games {
        let (mut nodes, mut ms) = (0, 0);
        for line in (game.bench)(depth, stop) {
            out.line(format_args!(
                "info string bench {} nodes {}",
                line.position, line.nodes
            ));
            nodes += line.nodes;
            ms += line.millis;
        }
        out.line(format_args!(
            "info string bench {} nodes {nodes} time {ms} nps {}",
            game.name,
            nodes * 1000 / ms.max(1)
        ));
        total += nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    if stop.load(Ordering::Relaxed) {
        out.line("info string bench stopped: the total counts only what was searched");
        out.line(format_args!("Nodes searched: {total} (partial)"));
        return total;
    }
    out.line(format_args!(
        "info string bench total nodes {total} time {ms} nps {}",
        total * 1000 / ms
    ));
    out.line(format_args!("Nodes searched: {total}"));
    total
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
