//! `koma`: with no arguments, the engine protocol on stdin/stdout; with a
//! subcommand, a job (`bench`, `perft`). Logs go to stderr only: stdout is
//! the protocol channel.

use clap::{Parser, Subcommand};
use koma::engine::{self, Output};
use koma::games::GameId;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "koma",
    version,
    about = "Koma: an engine for Kani Nari Ebi, Hasami, Nana and Negaeri Shogi.\n\nWithout a subcommand it speaks the UCI-style protocol of protocol.md on stdin/stdout."
)]
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
        /// Game name (kaninariebi, hasami, nana, negaeri).
        #[arg(long, default_value = GameId::DEFAULT.name())]
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// Position string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let out = Output::new(std::io::stdout());
    match cli.job {
        None => {
            engine::run(std::io::stdin().lock(), out);
            ExitCode::SUCCESS
        }
        Some(Job::Bench { depth }) => {
            engine::bench::run(&out, depth);
            ExitCode::SUCCESS
        }
        Some(Job::Perft {
            variant,
            depth,
            fen,
            moves,
        }) => match engine::jobs::perft(&variant, fen.as_deref(), &moves, depth) {
            Ok(run) => {
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
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("koma perft: {e}");
                ExitCode::from(2)
            }
        },
    }
}
