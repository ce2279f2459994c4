//! `bench`: a fixed search of each game's fixed positions at its fixed
//! depth (`Searchable::BENCH`, searched by `bench_positions`) on one
//! thread. Its node total is a signature of the search: identical on every
//! run of the same build, changed by any change to search or evaluation.

use super::Output;
use super::registry::EngineGame;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
