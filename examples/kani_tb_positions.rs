//! Kani Nari Ebi positions for measuring the endgame tables in matches
//! (docs/tables-strength.md), one position string a line after `fen ` (the
//! referee's `-openings format=epd` reads a bare position that starts like
//! a move, `s4/…`, as moves), the same lines for a seed.
//!
//! `endgames`: suite openings played out by the engine's search at a fixed
//! node count until 7 or 8 pieces are left (the tables of 6 pieces are then
//! a capture or two away); the first such position of each game, once.
//!
//! `won`: positions the tables call won for the side to move, sampled
//! uniformly from the entries of the tables in the folder (at least
//! `--min-distance` plies from the next capture or promotion).
//!
//!     cargo run --release --example kani_tb_positions -- endgames --count 200
//!     cargo run --release --example kani_tb_positions -- won \
//!         --tables ~/.local/share/koma/tables --count 100

use clap::{Parser, Subcommand};
use koma::core::endgame::Layered;
use koma::core::{Game, History, status_with_history};
use koma::games::kaninariebi::KaniNariEbi;
use koma::protocol::parse_move;
use koma::search::{self, Context, Limits, Settings, Tt};
use koma::solve::tables::{Dtz, Tables};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

#[derive(Parser)]
#[command(about = "Kani Nari Ebi positions for endgame-table matches")]
struct Args {
    #[command(subcommand)]
    what: What,
    /// Positions to write.
    #[arg(long, default_value_t = 200, global = true)]
    count: usize,
    #[arg(long, default_value_t = 1, global = true)]
    seed: u64,
}

#[derive(Subcommand)]
enum What {
    /// Play-outs of the suite's openings down to 7 or 8 pieces.
    Endgames {
        /// The opening suite (one opening a line: the moves from the start).
        #[arg(long, default_value = "suites/kaninariebi.txt")]
        suite: std::path::PathBuf,
        /// Nodes per move of the play-outs.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Pieces left, at most and at least.
        #[arg(long, default_value_t = 8)]
        max_pieces: u32,
        #[arg(long, default_value_t = 7)]
        min_pieces: u32,
    },
    /// Entries the tables call won.
    Won {
        /// The tables' root folder.
        #[arg(long)]
        tables: std::path::PathBuf,
        #[arg(long, default_value_t = 9)]
        min_distance: u32,
    },
}

/// splitmix64: a seeded sequence, the same on every run.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn pieces(pos: &KaniNariEbi) -> Option<u32> {
    pos.locate()
        .map(|(s, _)| <KaniNariEbi as Layered>::pieces(s))
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let rules = Default::default();
    let mut seen = HashSet::new();
    match args.what {
        What::Endgames {
            suite,
            nodes,
            max_pieces,
            min_pieces,
        } => {
            let text = std::fs::read_to_string(&suite)
                .map_err(|e| format!("cannot read {}: {e}", suite.display()))?;
            let mut openings: Vec<&str> = (text.lines())
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .collect();
            // A seeded shuffle, so that a count below the suite's size
            // still spreads over it.
            let mut r = args.seed;
            for i in (1..openings.len()).rev() {
                r = mix(r);
                openings.swap(i, (r % (i as u64 + 1)) as usize);
            }
            let tt = Tt::new(16);
            let stop = AtomicBool::new(false);
            for opening in openings {
                if seen.len() >= args.count {
                    break;
                }
                let mut pos = KaniNariEbi::start(&rules);
                let mut history = History::starting_at(&pos);
                for word in opening.split_whitespace() {
                    let text = parse_move(word).map_err(|e| format!("bad move {word}: {e}"))?;
                    let m = (pos.find_move(&text))
                        .ok_or_else(|| format!("illegal move {word} in {opening:?}"))?;
                    pos = pos.play(m);
                    history.push(pos.repetition_key());
                }
                tt.clear();
                for _ply in 0..300 {
                    if status_with_history(&pos, &history).is_some() {
                        break;
                    }
                    let n = pieces(&pos).unwrap_or(u32::MAX);
                    if n < min_pieces {
                        break;
                    }
                    if n <= max_pieces {
                        let t = pos.to_text().to_string();
                        if seen.insert(t.clone()) {
                            println!("fen {t}");
                        }
                        break;
                    }
                    let mut limits = Limits::infinite();
                    limits.nodes = Some(nodes);
                    let ctx = Context {
                        tt: &tt,
                        stop: &stop,
                        limits: &limits,
                        settings: Settings::default(),
                        poll: None,
                    };
                    let Some(m) = search::search(&pos, &history, &ctx, |_| {}).best else {
                        break;
                    };
                    pos = pos.play(m);
                    history.push(pos.repetition_key());
                }
            }
        }
        What::Won {
            tables,
            min_distance,
        } => {
            let t = Tables::<KaniNariEbi>::open(&tables, &rules);
            let sigs: Vec<_> = (KaniNariEbi::signatures(u32::MAX).into_iter())
                .filter(|&s| t.values(s).is_ok())
                .collect();
            let total: u64 = sigs.iter().map(|&s| KaniNariEbi::entries(s)).sum();
            if total == 0 {
                return Err(format!("no tables in {}", tables.display()));
            }
            let mut r = args.seed;
            let mut tries = 0u64;
            while seen.len() < args.count && tries < 100_000_000 {
                tries += 1;
                r = mix(r);
                let mut i = r % total;
                let sig = *sigs
                    .iter()
                    .find(|&&s| {
                        let n = KaniNariEbi::entries(s);
                        let here = i < n;
                        if !here {
                            i -= n;
                        }
                        here
                    })
                    .expect("an entry below the total is in a signature");
                let pos = KaniNariEbi::unrank(sig, i, &rules);
                if pos.terminal().is_some() {
                    continue;
                }
                if let Some(Dtz::Win(d)) = t.probe(&pos)
                    && d >= min_distance
                {
                    let text = pos.to_text().to_string();
                    if seen.insert(text.clone()) {
                        println!("fen {text}");
                    }
                }
            }
        }
    }
    eprintln!("{} positions", seen.len());
    Ok(())
}
