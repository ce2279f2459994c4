//! `koma openings`: the generator's command line (and `--check`). Bad
//! arguments print a message and give exit status 2.

use super::Limit;
use super::check::{Distribution, check_suite};
use super::error::{OpeningsError, ValueError};
use super::generate::{self, Config, Playout};
use crate::engine::bench_positions;
use crate::games::GameId;
use crate::record::suite;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
#[command(after_help = AFTER)]
pub struct Args {
    /// The game, by its UCI_Variant name.
    #[arg(long, value_name = "NAME", default_value = GameId::DEFAULT.name())]
    variant: String,

    /// A rule option of the game (the engine option of that name). Repeat for several.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,

    /// The suite's name (the referee's --openings suite=NAME).
    #[arg(long, value_name = "NAME", default_value = "default")]
    name: String,

    /// Openings to keep.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    positions: usize,

    /// Playout lengths in plies: A-B (each length equally likely) or N.
    #[arg(long, value_name = "A-B", default_value = "8-12", value_parser = plies)]
    plies: (u32, u32),

    /// Score each position with a search to this depth [default: the game's `koma bench` depth].
    #[arg(long, value_name = "N", conflicts_with = "nodes")]
    depth: Option<u32>,

    /// Score each position with a search of this many nodes instead of a depth.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,

    /// Keep positions scoring LO to HI centipawns for the side to move (e.g. -40,40 for balanced,
    /// 60,120 for a slight edge).
    #[arg(long, value_name = "LO,HI", default_value = "-50,50", allow_hyphen_values = true, value_parser = window)]
    window: (i32, i32),

    /// Seed: candidate i's playout comes from the seed and i alone.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// How playouts choose moves: random (uniform) or weighted (by a shallow search); all: no
    /// playouts, every position of the ply range once (for small games).
    #[arg(long, value_name = "KIND", default_value = "weighted", value_parser = ["random", "weighted", "all"])]
    playout: String,

    /// Weighted playouts: a move's chance halves every this many centipawns below the best.
    #[arg(long, value_name = "CP", default_value_t = 50)]
    temperature: u32,

    /// Candidates to try at most [default: 50 per position].
    #[arg(long, value_name = "N")]
    max_candidates: Option<u64>,

    /// Threads [default: every core]; the suite does not depend on them.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// The git commit of the source this program was built from, written in the header's build
    /// line so that a user knows which build makes the suite again (tools/openings/make.sh
    /// builds a clean tree and passes its commit).
    #[arg(long, value_name = "HASH", value_parser = commit)]
    commit: Option<String>,

    /// Write the suite here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Instead of making a suite, check this one (every opening legal, unfinished, distinct),
    /// and with --depth or --nodes print the distribution of its scores.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "rules", "name", "positions", "plies", "window", "seed", "playout", "temperature", "max_candidates", "commit", "out"])]
    check: Option<PathBuf>,
}

const AFTER: &str = "\
Each candidate is a playout from the start position, scored by a search of Koma's strongest
level; it is kept when the score lies in the window, the search found no forced result, and no
earlier candidate reached the same position or its mirror image. The output is the referee's
openings-file format with a header saying how it was made (this command in full, the koma
version, the `koma bench` signature of the build and, with --commit, its git commit: the search
decides what is kept, so another search makes another suite). Progress and an ETA go to
standard error.

Example:
  koma openings --variant GAME --positions 2000 --plies 8-12 --depth 6 --window=-40,40 \\
                --out GAME.txt
  koma openings --check GAME.txt --depth 8";

fn plies(s: &str) -> Result<(u32, u32), ValueError> {
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| ValueError::Plies(s.to_string()))
    };
    match s.split_once('-') {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(s).map(|n| (n, n)),
    }
}

fn window(s: &str) -> Result<(i32, i32), ValueError> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| ValueError::Window(s.to_string()))?;
    let num = |t: &str| {
        t.trim()
            .parse::<i32>()
            .ok()
            .filter(|x| x.abs() <= 10_000)
            .ok_or_else(|| ValueError::Window(s.to_string()))
    };
    Ok((num(a)?, num(b)?))
}

fn commit(s: &str) -> Result<String, ValueError> {
    if (4..=40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(s.to_ascii_lowercase())
    } else {
        Err(ValueError::Commit(s.to_string()))
    }
}

/// `koma <version>, bench <nodes>[, commit <hash>]`: what made a suite.
pub fn build_signature(commit: Option<&str>) -> String {
    let stop = AtomicBool::new(false);
    let nodes: u64 = GameId::ALL
        .iter()
        .flat_map(|&g| bench_positions::run_game(g, None, &stop))
        .map(|l| l.nodes)
        .sum();
    let mut s = format!("koma {}, bench {nodes}", env!("CARGO_PKG_VERSION"));
    if let Some(c) = commit {
        s.push_str(&format!(", commit {c}"));
    }
    s
}

fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("koma openings: {msg}");
    ExitCode::from(2)
}

fn limit_of(a: &Args, variant: GameId) -> Result<Limit, OpeningsError> {
    match (a.depth, a.nodes) {
        (Some(0), _) => Err(OpeningsError::Zero("--depth")),
        (_, Some(0)) => Err(OpeningsError::Zero("--nodes")),
        (Some(d), _) => Ok(Limit::Depth(d)),
        (None, Some(n)) => Ok(Limit::Nodes(n)),
        (None, None) => Ok(Limit::Depth(bench_positions::suite(variant).depth)),
    }
}

fn threads_of(a: &Args) -> Result<usize, OpeningsError> {
    match a.threads {
        Some(0) => Err(OpeningsError::Zero("--threads")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

pub fn run(a: Args) -> ExitCode {
    let threads = match threads_of(&a) {
        Ok(t) => t,
        Err(e) => return usage(e),
    };
    if let Some(path) = &a.check {
        return check(path, &a, threads);
    }
    let Some(variant) = GameId::from_name(&a.variant) else {
        let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
        return usage(format!(
            "unknown variant {}: expected one of {}",
            a.variant,
            names.join(", ")
        ));
    };
    let pairs: Option<Vec<(&str, &str)>> = a.rules.iter().map(|r| r.split_once('=')).collect();
    let Some(pairs) = pairs else {
        return usage("expected NAME=VALUE after --rule");
    };
    let rules = match variant.read_rules(pairs) {
        Ok(r) => r,
        Err(e) => return usage(e),
    };
    let limit = match limit_of(&a, variant) {
        Ok(l) => l,
        Err(e) => return usage(e),
    };
    let cfg = Config {
        variant,
        rules,
        name: a.name.clone(),
        positions: a.positions,
        min_plies: a.plies.0,
        max_plies: a.plies.1,
        limit,
        window: a.window,
        seed: a.seed,
        playout: match a.playout.as_str() {
            "random" => Playout::Random,
            "all" => Playout::All,
            _ => Playout::Weighted {
                temperature: a.temperature,
            },
        },
        max_candidates: a
            .max_candidates
            .unwrap_or((a.positions as u64).saturating_mul(50)),
        threads,
    };
    if let Err(e) = cfg.validate() {
        return usage(e);
    }
    let started = Instant::now();
    eprintln!("koma openings: {} ({threads} threads)", cfg.command());
    let build = build_signature(a.commit.as_deref());
    eprintln!("koma openings: this build is {build}");
    let made = match generate::generate(&cfg, Duration::from_secs(10), &mut |p| eprintln!("{p}")) {
        Ok(m) => m,
        Err(e) => return usage(e),
    };
    if !made.complete {
        eprintln!(
            "koma openings: warning: {} of {} positions found in {} candidates",
            made.openings.len(),
            cfg.positions,
            made.tally.candidates
        );
    }
    let out_text = a.out.as_ref().map(|p| p.display().to_string());
    let header = generate::header(&cfg, &made, &build, out_text.as_deref());
    let lines: Vec<_> = made.openings.iter().map(|k| k.moves.clone()).collect();
    let text = suite::write(&header, &lines);
    let written = match &a.out {
        Some(p) => {
            let tmp = p.with_extension("tmp");
            std::fs::write(&tmp, &text)
                .and_then(|_| std::fs::rename(&tmp, p))
                .map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        None => {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            o.write_all(text.as_bytes())
                .and_then(|_| o.flush())
                .map_err(|e| format!("cannot write the suite: {e}"))
        }
    };
    if let Err(e) = written {
        eprintln!("koma openings: {e}");
        return ExitCode::from(1);
    }
    eprintln!(
        "koma openings: {} in {:.0} s",
        made.tally,
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn check(path: &PathBuf, a: &Args, threads: usize) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return usage(format!("cannot read {}: {e}", path.display())),
    };
    let s = match suite::parse(&text) {
        Ok(s) => s,
        Err(e) => return usage(format!("{}: {e}", path.display())),
    };
    let limit = match (a.depth, a.nodes) {
        (None, None) => None,
        _ => match limit_of(a, s.header.variant) {
            Ok(l) => Some(l),
            Err(e) => return usage(e),
        },
    };
    let checked = match check_suite(&s, limit, threads) {
        Ok(c) => c,
        Err(e) => return usage(format!("{}: {e}", path.display())),
    };
    for p in &checked.problems {
        println!("{}: {p}", path.display());
    }
    println!(
        "{}: suite {} ({} rules: {}), {} openings{}",
        path.display(),
        s.header.name,
        s.header.variant,
        s.header.rules_text(),
        s.lines.len(),
        if checked.problems.is_empty() {
            ", all legal, unfinished and distinct (mirror images included)"
        } else {
            ""
        }
    );
    if let (Some(l), Some(d)) = (limit, Distribution::of(&checked.scores)) {
        println!("scores at {l}: {d}");
    }
    if checked.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
