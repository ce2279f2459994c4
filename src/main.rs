//! `koma`: with no arguments, the engine protocol on stdin/stdout; with a
//! subcommand, a job (`bench`, `perft`, `solve`, `openings`). Logs go to stderr only: stdout is
//! the protocol channel.

use anyhow::Context;
use clap::{Parser, Subcommand};
use koma::core::endgame::Layered;
use koma::core::{Searchable, SolvedTable, Solver};
use koma::engine::{self, Output};
use koma::games::{GameId, LayeredVisitor, SolverVisitor};
use koma::referee::cli::Usage;
use koma::solve;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "koma", version, about = about())]
struct Cli {
    #[command(subcommand)]
    job: Option<Job>,
}

#[derive(Subcommand)]
enum Job {
    /// Fixed-depth search of fixed positions of every game; prints nodes and nodes/s.
    Bench {
        /// Search depth instead of each game's own.
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Counts move sequences (perft) with a per-move breakdown.
    Perft {
        /// The game, by its UCI_Variant name.
        #[arg(long, default_value = GameId::DEFAULT.name(), value_parser = game_names())]
        variant: String,
        /// Depth in plies, 0 to 64.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=koma::core::MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Position string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first, in one argument separated
        /// by spaces: --moves 'e1e5 e9e6' (or one --moves per move).
        #[arg(long, value_name = "MOVES", value_delimiter = ' ')]
        moves: Vec<String>,
    },
    /// Solves a game strongly (a game with a solver): labels every reachable
    /// position won, lost or drawn with its distance to the end, writes the table.
    /// With --pieces (a game solved by material): the endgame tables of every material
    /// signature up to that many pieces, bottom-up, resumable (docs/tables.md).
    Solve {
        #[arg(help = solvable_help())]
        game: String,
        /// Where to write the table (default: the file in the tables' folder
        /// where the engine finds it without its table option);
        /// with --pieces the tables' root folder (default
        /// $XDG_DATA_HOME/koma/tables or ~/.local/share/koma/tables).
        #[arg(long, conflicts_with = "verify")]
        out: Option<PathBuf>,
        /// Instead of solving, check this table: consistency of every
        /// entry, and the search's agreement on sampled short wins/losses;
        /// with --pieces, this root folder of tables, every entry by its moves.
        #[arg(long)]
        verify: Option<PathBuf>,
        /// Endgame tables: every signature of up to this many pieces.
        #[arg(long, value_parser = clap::value_parser!(u32).range(6..=10))]
        pieces: Option<u32>,
        /// With --pieces: only the unit of this signature (e.g. CCSvCCS),
        /// whose lower tables must be there; see --list-units.
        #[arg(long, requires = "pieces")]
        unit: Option<String>,
        /// With --pieces: list the units in solving order with their layers
        /// (units of one layer are independent) and sizes, then stop.
        #[arg(long, requires = "pieces")]
        list_units: bool,
        /// With --pieces: print the figures of the tables there (each file
        /// read and checked whole), then stop.
        #[arg(long, requires = "pieces")]
        stats: bool,
        /// With --pieces: write a checkpoint at least this often (seconds).
        #[arg(long, default_value_t = 600)]
        checkpoint_secs: u64,
        /// With --pieces: also after this many entries visited.
        #[arg(long, default_value_t = u64::MAX)]
        checkpoint_entries: u64,
        /// With --pieces: threads sharing each sweep (the tables are the
        /// same for any number).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// With --pieces: visit every undecided entry in every sweep, not
        /// only the predecessors of the last sweep's (the same tables,
        /// slower: the baseline the marking is measured against).
        #[arg(long, requires = "pieces")]
        full_sweeps: bool,
        /// With --pieces: the checkpoints' folder (default: checkpoints/ in
        /// the root folder).
        #[arg(long)]
        checkpoints: Option<PathBuf>,
        /// With --verify: the longest distance (plies) sampled for the search
        /// (with --pieces the exact search's depth: give 5 or so).
        #[arg(long, default_value_t = 9)]
        max_plies: u32,
        /// With --verify: positions sampled per distance (with --pieces per
        /// distance and signature, and as many draws).
        #[arg(long, default_value_t = 30)]
        per_distance: usize,
    },
    /// Self-play data for fitting the evaluation: games at a fixed node
    /// count from random-plies openings, one line per quiet position with
    /// the search's score and the game's result (format: src/learn/record.rs).
    /// Rerun with the same settings to resume; the file is the same for a
    /// seed whatever --threads.
    Datagen {
        /// The game, by its UCI_Variant name.
        #[arg(long, value_parser = game_names())]
        variant: String,
        /// Games in the file when done.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Random legal moves that open each game (not recorded).
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Seed of the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game that reaches this many plies is scored a draw.
        #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..))]
        max_plies: u32,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// The data file (appended to when it holds games of these settings).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits a game's evaluation weights to self-play data (Texel's method:
    /// logistic regression of the results), printing the loss on held-out
    /// games; writes the fitted weights as a weights file (EvalFile).
    Tune {
        /// The game, by its UCI_Variant name.
        #[arg(long, value_parser = game_names())]
        variant: String,
        /// Data files written by `koma datagen` for this game.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Where to write the fitted weights.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Full passes over the data.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
        epochs: u32,
        /// Share of the game's result in the target, the rest the search's score.
        #[arg(long, default_value_t = 1.0, value_parser = unit_interval)]
        lambda: f64,
        /// Adam's step: in centipawns for the terms (default 1), in weight
        /// units for --net (default 0.001).
        #[arg(long)]
        rate: Option<f64>,
        /// One game in this many (by index) is kept out of the fit to measure it.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
        holdout: u64,
        /// Trains the game's small network on top of the terms in force
        /// instead (minibatches of 256; --epochs counts passes), and writes
        /// the terms with the network.
        #[arg(long)]
        net: bool,
        /// With --net: seed of the starting weights and the batches' order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Makes an opening suite: playouts scored by a fixed search, kept inside a score window,
    /// without duplicates or mirror images (or checks a suite with --check).
    Openings(Box<koma::openings::cli::Args>),
}

/// The games, by name, from the registry.
fn about() -> String {
    let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
    format!(
        "Koma: an engine for small shogi-family games ({}).\n\nWithout a subcommand it speaks the UCI-style protocol of protocol.md on stdin/stdout. There `go perft N` and `bench` run like a search: `stop`, `quit` or the end of input ends them early (the count marked partial), so from a shell use the `perft` and `bench` subcommands.",
        names.join(", ")
    )
}

/// The names of the games with a solver, as "a, b or c".
fn solvable_names() -> String {
    names_of(|g| g.solvable() || g.layered())
}

/// The names of the games `which` picks, as "a, b or c".
fn names_of(which: impl Fn(GameId) -> bool) -> String {
    let names: Vec<&str> = GameId::ALL
        .iter()
        .filter(|&&g| which(g))
        .map(|g| g.name())
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "no game".into(),
    }
}

fn solvable_help() -> String {
    format!("The game to solve: {}.", solvable_names())
}

fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{s} is not a number from 0 to 1")),
    }
}

/// The games `--variant` accepts; clap lists them in `--help` and in the
/// error for any other name.
fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(GameId::ALL.iter().map(|g| g.name()))
}

fn main() -> ExitCode {
    koma::init_logging();
    let cli = Cli::parse();
    let out = Output::new(std::io::stdout());
    let job = match cli.job {
        None => {
            engine::run(engine::Registry::koma(), std::io::stdin(), out);
            return ExitCode::SUCCESS;
        }
        // The generator reports its own errors and exit status.
        Some(Job::Openings(args)) => return koma::openings::cli::run(*args),
        Some(job) => job,
    };
    let name = match &job {
        Job::Bench { .. } => "bench",
        Job::Perft { .. } => "perft",
        Job::Solve { .. } => "solve",
        Job::Datagen { .. } => "datagen",
        Job::Tune { .. } => "tune",
        Job::Openings(_) => "openings",
    };
    match run(job, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("koma {name}: {e:#}");
            ExitCode::from(if e.is::<Usage>() { 2 } else { 1 })
        }
    }
}

fn run(job: Job, out: &Output) -> anyhow::Result<()> {
    match job {
        Job::Bench { depth } => {
            engine::bench::run(
                engine::Registry::koma().games(),
                out,
                depth,
                &AtomicBool::new(false),
            );
        }
        Job::Perft {
            variant,
            depth,
            fen,
            moves,
        } => perft(out, &variant, depth, fen.as_deref(), &moves)?,
        Job::Solve {
            game,
            out: path,
            verify,
            max_plies,
            per_distance,
            pieces: Some(pieces),
            unit,
            list_units,
            stats,
            checkpoint_secs,
            checkpoint_entries,
            checkpoints,
            threads,
            full_sweeps,
            ..
        } => {
            let root = tables_root(verify.clone(), path)?;
            let job = TablesJob {
                max_plies,
                per_distance,
                list_units,
                stats,
                verify: verify.is_some(),
                settings: solve::tables::job::JobSettings {
                    checkpoints: solve::tables::unit::Checkpoints {
                        folder: checkpoints.unwrap_or_else(|| root.join("checkpoints")),
                        secs: checkpoint_secs,
                        entries: checkpoint_entries,
                        threads: threads as usize,
                        full_sweeps,
                    },
                    root,
                    max_pieces: pieces,
                    unit,
                },
            };
            out.line(solve_tables(&game, job)?.trim_end());
        }
        Job::Solve {
            game,
            out: path,
            verify,
            max_plies,
            per_distance,
            ..
        } => solve_game(out, &game, path, verify, max_plies, per_distance)?,
        Job::Datagen {
            variant,
            games,
            nodes,
            random_plies,
            seed,
            max_plies,
            threads,
            out: path,
        } => {
            let s = koma::learn::datagen::DatagenSettings {
                games,
                nodes,
                random_plies,
                seed,
                max_plies,
                threads: threads as usize,
                out: path,
            };
            datagen(out, &variant, &s)?;
        }
        Job::Tune {
            variant,
            data,
            out: path,
            epochs,
            lambda,
            rate,
            holdout,
            net,
            seed,
        } => {
            let game = GameId::from_name(&variant)
                .ok_or_else(|| Usage(format!("unknown game {variant}")))?;
            let rate = rate.unwrap_or(if net { 0.001 } else { 1.0 });
            if !(rate.is_finite() && rate > 0.0) {
                return Err(Usage(format!("--rate {rate} is not a positive number")).into());
            }
            let s = koma::learn::tune::TuneSettings {
                data,
                epochs,
                lambda,
                rate,
                holdout,
            };
            tune(out, game, &s, net.then_some(seed), path)?;
        }
        // main() runs the generator itself: it keeps its own exit status.
        Job::Openings(_) => {}
    }
    Ok(())
}

/// `koma perft`: each root move's count, the total and the speed.
fn perft(
    out: &Output,
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
) -> anyhow::Result<()> {
    let run = engine::jobs::perft(variant, fen, moves, depth).map_err(|e| Usage(e.to_string()))?;
    for (m, n) in &run.rows {
        out.line(format_args!("{m}: {n}"));
    }
    out.line("");
    out.line(format_args!("Nodes searched: {}", run.total));
    let ms = run.millis.max(1) as u64;
    out.line(format_args!(
        "Time: {ms} ms, {} nodes/s",
        run.total * 1000 / ms
    ));
    Ok(())
}

/// The tables' folder: the one verified, else `--out`, else the default.
fn tables_root(verify: Option<PathBuf>, path: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(match verify.or(path) {
        Some(r) => r,
        None => solve::tables::probe::default_root()
            .ok_or_else(|| Usage("no HOME to find the tables' folder: give --out".into()))?,
    })
}

/// `koma solve --pieces`: the tables of a game solved by material, and
/// their report.
fn solve_tables(game: &str, job: TablesJob) -> anyhow::Result<String> {
    GameId::from_name(game)
        .and_then(|g| g.visit_layered(job))
        .ok_or_else(|| {
            Usage(format!(
                "--pieces: only {} has endgame tables, not {game}",
                names_of(GameId::layered)
            ))
        })?
}

/// `koma solve` for a game solved whole: its table written or verified.
fn solve_game(
    out: &Output,
    game: &str,
    path: Option<PathBuf>,
    verify: Option<PathBuf>,
    max_plies: u32,
    per_distance: usize,
) -> anyhow::Result<()> {
    if GameId::from_name(game).is_some_and(|g| g.layered() && !g.solvable()) {
        return Err(Usage(format!(
            "{game} is solved by material: give --pieces N (6 to 10)"
        ))
        .into());
    }
    // The engine finds the table there without its option.
    let default_out = || {
        let file = GameId::from_name(game)?.table()?.default_file;
        Some(solve::tables::probe::default_root()?.join(file))
    };
    let job = SolveJob {
        out: path.or_else(|| verify.is_none().then(default_out).flatten()),
        verify,
        max_plies,
        per_distance,
    };
    let report = GameId::from_name(game)
        .and_then(|g| g.visit_solver(job))
        .ok_or_else(|| {
            Usage(format!(
                "only {} can be solved, not {game}",
                solvable_names()
            ))
        })??;
    out.line(report.trim_end());
    Ok(())
}

/// `koma datagen`: self-play positions written for training.
fn datagen(
    out: &Output,
    variant: &str,
    s: &koma::learn::datagen::DatagenSettings,
) -> anyhow::Result<()> {
    let game =
        GameId::from_name(variant).ok_or_else(|| Usage(format!("unknown game {variant}")))?;
    let (games, positions) = koma::learn::datagen(game, s, |l| eprintln!("{l}"))?;
    out.line(format_args!(
        "{game}: {games} games, {positions} positions in {}",
        s.out.display()
    ));
    Ok(())
}

/// `koma tune`: the evaluation's weights (or, with a seed, the network)
/// fitted to the data, written to `path` when given.
fn tune(
    out: &Output,
    game: GameId,
    s: &koma::learn::tune::TuneSettings,
    net_seed: Option<u64>,
    path: Option<PathBuf>,
) -> anyhow::Result<()> {
    let file = match net_seed {
        Some(seed) => {
            koma::learn::tune_net(game, s, seed, |l| out.line(l))
                .map_err(anyhow::Error::msg)?
                .file
        }
        None => {
            koma::learn::tune(game, s, |l| out.line(l))
                .map_err(anyhow::Error::msg)?
                .file
        }
    };
    if let Some(p) = path {
        std::fs::write(&p, &file).with_context(|| format!("cannot write {}", p.display()))?;
    }
    Ok(())
}

/// `koma solve --pieces` for a game solved by material: the report.
struct TablesJob {
    max_plies: u32,
    per_distance: usize,
    list_units: bool,
    stats: bool,
    verify: bool,
    settings: solve::tables::job::JobSettings,
}

impl LayeredVisitor for TablesJob {
    type Output = anyhow::Result<String>;

    fn visit<G: Searchable + Layered>(self) -> Self::Output {
        let s = &self.settings;
        if let Some(u) = &s.unit {
            match G::parse_sig(u) {
                None => {
                    return Err(Usage(format!(
                        "--unit {u}: no such signature ({})",
                        G::sig_syntax()
                    ))
                    .into());
                }
                Some(sig) if G::pieces(sig) > s.max_pieces => {
                    return Err(Usage(format!(
                        "--unit {u} has {} pieces, more than --pieces {}",
                        G::pieces(sig),
                        s.max_pieces
                    ))
                    .into());
                }
                Some(_) => {}
            }
        }
        if self.list_units {
            return Ok(solve::tables::job::list_units::<G>(s.max_pieces));
        }
        let mut log = |l: String| eprintln!("{l}");
        let rules = G::Rules::default();
        let sigs: Vec<G::Sig> = G::signatures(s.max_pieces)
            .into_iter()
            .filter(|&g| {
                s.unit
                    .as_deref()
                    .is_none_or(|u| G::parse_sig(u).is_some_and(|u| u == g || G::swapped(u) == g))
            })
            .collect();
        let tables = solve::tables::Tables::<G>::open(&s.root, &rules);
        if self.stats {
            let mut r = String::new();
            for &g in &sigs {
                let (_, c) = solve::tables::file::read(&tables.path(g), &tables.identity(g))
                    .map_err(|e| anyhow::anyhow!("{}: {e}", tables.path(g).display()))?;
                r += &solve::tables::job::figures::<G>(g, &c, &rules);
                r += "\n";
            }
            return Ok(r);
        }
        if self.verify {
            let t0 = Instant::now();
            let n = solve::tables::check::check(&tables, &sigs, &mut log)
                .map_err(anyhow::Error::msg)?;
            let mut r = format!(
                "consistency: {n} entries of {} signatures, every value agrees with its moves ({:.1} s)\n",
                sigs.len(),
                t0.elapsed().as_secs_f64()
            );
            let t0 = Instant::now();
            let depth = self.max_plies;
            let a = solve::tables::check::search_sample(
                &tables,
                &sigs,
                self.per_distance,
                depth,
                0x5eed,
            )
            .map_err(anyhow::Error::msg)?;
            r += &format!(
                "exact full-width search to {depth} plies: {} sampled entries, {} with a forced end ({} of them as far as the table's distance), {} disagreements ({:.1} s)\n",
                a.searched,
                a.decided,
                a.same_distance,
                a.faults.len(),
                t0.elapsed().as_secs_f64()
            );
            for f in &a.faults {
                r += &format!("  {f}\n");
            }
            if !a.faults.is_empty() {
                anyhow::bail!("{r}");
            }
            return Ok(r);
        }
        solve::tables::job::run_job::<G>(&rules, s, &mut log).map_err(anyhow::Error::msg)
    }
}

/// `koma solve` for the game whose solver visits it: the report.
struct SolveJob {
    out: Option<PathBuf>,
    verify: Option<PathBuf>,
    max_plies: u32,
    per_distance: usize,
}

impl SolverVisitor for SolveJob {
    type Output = anyhow::Result<String>;

    fn visit<G: Searchable, S: Solver<G>>(self, solver: &S) -> Self::Output {
        let mut log = |l: String| eprintln!("{l}");
        if let Some(v) = &self.verify {
            let t0 = Instant::now();
            let table = solver
                .load(v)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("cannot use {} as the table", v.display()))?;
            let secs = t0.elapsed().as_secs_f64();
            log(format!("loaded {} in {secs:.1} s", v.display()));
            return solve::run_verify(&table, self.max_plies, self.per_distance, &mut log)
                .map_err(anyhow::Error::msg);
        }
        let (table, report) = solve::run_solve(solver, &mut log).map_err(anyhow::Error::msg)?;
        if let Some(p) = &self.out {
            if let Some(folder) = p.parent().filter(|f| !f.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("cannot make {}", folder.display()))?;
            }
            table
                .save(p)
                .with_context(|| format!("cannot write {}", p.display()))?;
            log(format!("wrote {}", p.display()));
        }
        Ok(report)
    }
}
