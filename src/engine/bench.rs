//! `bench`: a fixed search of fixed positions per game at a fixed depth on
//! one thread. Its node total is a signature of the search: identical on
//! every run of the same build, changed by any change to search or
//! evaluation.

use super::Output;
use crate::core::Searchable;
use crate::games::{GameId, GameVisitor};
use crate::protocol::parse_position;
use crate::search::{self, Context, Limits, Settings, Tt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Positions per game: the start and a few middlegames, with the depth each
/// game is searched to (chosen so that the whole bench takes seconds).
pub fn suite(game: GameId) -> (u32, &'static [&'static str]) {
    match game {
        GameId::KaniNariEbi => (
            9,
            &[
                "startpos",
                "1C1sc/C1S2/2cCs/C2c1/5 w 12",
                "CC1cc/C3c/5/C4/C2cc w 1",
                "2S2/1s1C1/S3c/1c1s1/C3c b 20",
            ],
        ),
        GameId::Negaeri => (
            5,
            &[
                "startpos",
                "2bkr1/2ppp1/6/Rpp3/1PPP2/1RKB2[Rbp] w 0 1",
                "+r+PbP2/2bkr1/B1pP1R/p1PB+PP/pP1P2/1RK3[pp] b 0 14",
                "R1Pkr1/2pp2/2+pp1B/6/pPbPpr/PRKBp+p[BP] w 0 11",
                "2bkr+R/3pp+B/5+P/+RPp1BP/+PPPPPP/1RKB2[p] b 0 8",
            ],
        ),
        GameId::Nana => (
            12,
            &[
                "startpos",
                "2k/3/K2[RBrb] w 2",
                "1k1/3/K2[RBrb] w 2",
                "2k/1r1/BK1[Rb] b 7",
            ],
        ),
        GameId::Hasami => (
            8,
            &[
                "startpos",
                "ppp1ppppp/9/3p5/9/9/4P4/9/9/PPPP1PPPP w 3",
                "p1pp1p1pp/1p7/4p4/6p2/2P6/9/3P1P3/1P7/P1P1P2PP b 6",
                "2p2pp1p/p8/3p5/1P5p1/4p4/2P3P2/5P3/P8/1P1P3PP w 12",
            ],
        ),
    }
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
    struct Bench<'a>(GameId, Option<u32>, &'a AtomicBool);
    impl GameVisitor for Bench<'_> {
        type Output = Vec<BenchLine>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let (d, positions) = suite(self.0);
            let rules = G::Rules::default();
            positions
                .iter()
                .take_while(|_| !self.2.load(Ordering::Relaxed))
                .map(|&p| {
                    let pos = if p == "startpos" {
                        G::start(&rules)
                    } else {
                        let t =
                            parse_position(p).unwrap_or_else(|e| panic!("bench position {p}: {e}"));
                        G::from_text(&t, &rules)
                            .unwrap_or_else(|e| panic!("bench position {p}: {e}"))
                    };
                    let history = crate::core::History::starting_at(&pos);
                    // A fresh table per position, one thread: the same
                    // nodes on every run.
                    let tt = Tt::new(16);
                    let ctx = Context {
                        tt: &tt,
                        stop: self.2,
                        limits: &Limits::depth(self.1.unwrap_or(d)),
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
    }
    game.visit(Bench(game, depth, stop))
}

/// The whole bench, printed line by line; returns the node total. A
/// `stop` ends it early: the total then counts what was searched and is
/// marked partial.
pub fn run(out: &Output, depth: Option<u32>, stop: &AtomicBool) -> u64 {
    let start = Instant::now();
    let mut total = 0;
    for &g in GameId::ALL {
        let (mut nodes, mut ms) = (0, 0);
        for line in run_game(g, depth, stop) {
            out.line(format_args!(
                "info string bench {} nodes {}",
                line.position, line.nodes
            ));
            nodes += line.nodes;
            ms += line.millis;
        }
        out.line(format_args!(
            "info string bench {g} nodes {nodes} time {ms} nps {}",
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
            let depth = Some(suite(g).0.saturating_sub(3).max(1));
            let nodes =
                |_| -> Vec<u64> { run_game(g, depth, &stop).iter().map(|l| l.nodes).collect() };
            let first = nodes(());
            assert!(first.iter().all(|&n| n > 0), "{g}: {first:?}");
            assert_eq!(nodes(()), first, "{g}");
        }
    }
}
