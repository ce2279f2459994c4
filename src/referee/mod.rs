//! The referee: matches between engines, statistics and records. `run` is
//! the whole `koma-referee` program; the binary is a thin front end over
//! it. The engines themselves (processes, handshake, clocks, turns, end
//! reasons) are `client`'s.
//!
//! Layout: `cli` (arguments) → `runner` (the match: workers, results) →
//! `game` (one game), with `opening`, `suite` (the shipped opening suites)
//! and `schedule`; `records`, `state` (resume), `lock` (one referee per
//! record file), `files` (only regular files are read), `report`
//! (summaries), `shard` (`--shard`, from a scheduler's environment), `pool`
//! and `merge` (`--report`: the shards of a match pooled, followed as they
//! grow), `replay` (`--replay`), `stats` and `sprt` (the numbers).

pub mod cli;
pub mod files;
pub mod game;
pub mod lock;
pub mod merge;
pub mod opening;
pub mod pool;
pub mod records;
pub mod replay;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod sprt;
pub mod state;
pub mod stats;
pub mod suite;

use crate::core::Game;
use crate::games::GameVisitor;
use std::process::ExitCode;

/// Runs `koma-referee` with these arguments (the program name first).
/// Usage errors print a message and give exit code 2.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mode = match cli::parse(args) {
        Ok(m) => m,
        Err(cli::CliError::Clap(clap_err)) => {
            let _ = clap_err.print();
            return ExitCode::from(if clap_err.use_stderr() { 2 } else { 0 });
        }
        Err(cli::CliError::Usage(usage)) => return usage_error(&usage),
    };
    match mode {
        cli::Mode::Replay(p) => replay::run_replay(&p),
        cli::Mode::Report(r) => merge::run_report(&r),
        cli::Mode::Match(cfg) => {
            struct Play<'a>(&'a cli::MatchConfig);
            impl GameVisitor for Play<'_> {
                type Output = Result<ExitCode, cli::Usage>;
                fn visit<G: Game>(self) -> Self::Output {
                    runner::run::<G>(self.0)
                }
            }
            match cfg.variant.visit(Play(&cfg)) {
                Ok(code) => code,
                Err(usage) => usage_error(&usage),
            }
        }
    }
}

fn usage_error(u: &cli::Usage) -> ExitCode {
    eprintln!(
        "koma-referee: error: {}\n\nFor more information, try '--help'.",
        u.0
    );
    ExitCode::from(2)
}
