//! The referee: matches between engines, statistics and records. `run` is
//! the whole `koma-referee` program; the binary is a thin front end over
//! it. The engines themselves (processes, handshake, clocks, turns, end
//! reasons) are `client`'s.
//!
//! Layout: `cli` (arguments) → `matches` (`runner`, the match: workers,
//! results → `game`, one game; openings, schedule, adjudication), `store`
//! (records written, resume, locks, shards), `statistics` (stats, SPRT,
//! summaries, `--report`'s pooled shards); `replay` (`--replay`),
//! `compliance`, `fastchess` (spellings) and `dialect` (whose counting). The records themselves (tags,
//! build, the suite format) are `record`'s.

pub mod cli;
pub mod compliance;
pub mod dialect;
pub mod fastchess;
pub mod matches;
pub mod replay;
pub mod statistics;
pub mod store;

use crate::core::Searchable;
use crate::games::GameVisitor;
use std::process::ExitCode;

/// Why the referee stopped before its work: the binary reports it and
/// exits with 2 (clap's `--help` and `--version` with 0).
#[derive(Debug)]
pub enum RunError {
    /// clap's own errors, and `--help` and `--version` (which clap prints).
    Clap(clap::Error),
    /// A mistake in the arguments.
    Usage(cli::Usage),
    /// A file named on the command line that cannot be used (read,
    /// created, locked, parsed).
    File(store::files::FileError),
    /// Record files that cannot be reported on (unreadable, or of two
    /// matches).
    Report(String),
}

impl From<store::files::FileError> for RunError {
    fn from(e: store::files::FileError) -> RunError {
        RunError::File(e)
    }
}

/// Runs `koma-referee` with these arguments (the program name first): the
/// exit code of a run that did its work, else why it could not.
pub fn run<I, T>(args: I) -> Result<ExitCode, RunError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mode = cli::parse(args).map_err(|e| match e {
        cli::CliError::Clap(c) => RunError::Clap(c),
        cli::CliError::Usage(u) => RunError::Usage(u),
        cli::CliError::File(f) => RunError::File(f),
    })?;
    match mode {
        cli::Mode::Replay(p, tb) => replay::run_replay(&p, tb.as_deref()),
        cli::Mode::Report(r) => statistics::merge::run_report(&r),
        cli::Mode::Compliance(c) => compliance::run(&c),
        cli::Mode::Match(cfg) => {
            struct Play<'a>(&'a cli::MatchConfig);
            impl GameVisitor for Play<'_> {
                type Output = Result<ExitCode, RunError>;
                fn visit<G: Searchable>(self) -> Self::Output {
                    matches::runner::run::<G>(self.0)
                }
            }
            cfg.variant.visit(Play(&cfg))
        }
    }
}
