//! The referee: matches between engines, statistics and records. `run` is
//! the whole `koma-referee` program; the binary is a thin front end over
//! it. The engines themselves (processes, handshake, clocks, turns, end
//! reasons) are `client`'s.
//!
//! # A map
//!
//! - **Arguments**: `cli` reads the command line into a `cli::Mode`
//!   (`cli::args` the flags, `cli::check` the checks, each mistake a
//!   `usage::Usage`, exit 2). fastchess and cutechess-cli spellings
//!   (`-engine cmd=…`, `-each`, `-pgnout`) are rewritten into Koma's by
//!   `fastchess` before clap sees them, by the list in `foreign_options`;
//!   what Koma cannot honour is refused there by name; `dialect` decides whose counting of `-rounds`,
//!   `-games` and `-repeat` a line gets (Koma's, fastchess's or
//!   cutechess-cli's).
//! - **Scheduling a match**: `matches::schedule` fixes every game (number,
//!   round, pairing, colours, opening slot) from the command line and
//!   `--seed`; `matches::runner::run` drops the games already in the state
//!   file and deals the rest to worker threads (`Ctx::worker`, pinned by
//!   `matches::affinity`); `matches::busy` warns of a machine too loaded to
//!   keep time.
//! - **The game loop**: `matches::game::play`, one game between two running
//!   engines, turn by turn: the end by the rules, adjudication, then one
//!   engine move.
//! - **The clock (where time is checked, the time forfeit)**: in
//!   `src/client/`, shared with the board, not here. The game loop calls
//!   `client::turn::play_turn` for each engine move (in
//!   `matches::game::play`): it sends `go` and reads until `bestmove` or the
//!   deadline (allowance plus `--timemargin`, in `client::turn::think`), then
//!   charges the mover's clock with `client::clock::Clock::charge`, whose
//!   `Err` is the overrun that loses on time (`Reason::TimeForfeit`).
//!   `matches::time_losses` sums the overruns up at the end.
//! - **Adjudication**: `--max-plies` in `matches::game`; `--draw` and
//!   `--resign` on the engines' scores in `record::adjudicate` (`Tracker`),
//!   which a record's replay check applies again.
//! - **Results and records**: `matches::runner`'s `Ctx::finish` takes each
//!   finished game: it builds the record (`record::build`, provenance by
//!   `store::records::add_provenance`), appends it to the record files
//!   (`store::records::RecordSink`; resuming reads the state file among
//!   them back, `store::state`) and prints the running score.
//!   `store::lock` keeps one referee per record file, `store::shard` names
//!   a shard's files; `matches::interrupt` catches Ctrl-C and SIGTERM
//!   (the results so far and the command that resumes). `replay` (`--replay`) re-checks a record file with
//!   `record::replay`.
//! - **Statistics**: `statistics` (`stats` and `sprt` the formulas, checked
//!   after each game by `Ctx::check_sprt`; `report` and `json` the
//!   summaries, `cutechess` cutechess-cli's lines; `pool` and `merge` for `--report` over shards).
//! - **Engine checks**: `compliance` (`--compliance`), a checklist of the
//!   protocol for one engine.
//! - **The games**: `variants`, the referee's catalogue: for each game what
//!   needs its type (the match, a record's check, the compliance checks),
//!   made once from its registry entry. `run` takes it, so a test plays a
//!   game of its own through the whole command line.

pub mod cli;
pub mod compliance;
pub mod dialect;
pub mod fastchess;
pub mod foreign_options;
pub mod matches;
pub mod replay;
pub mod statistics;
pub mod store;
pub mod usage;
pub mod variants;

pub use variants::{Variant, Variants};

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

/// Runs `koma-referee` with these arguments (the program name first) over
/// these games (the binary's are `Variants::koma()`): the exit code of a
/// run that did its work, else why it could not.
pub fn run<I, T>(args: I, variants: &Variants) -> Result<ExitCode, RunError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mode = cli::parse(args, variants).map_err(|e| match e {
        cli::CliError::Clap(c) => RunError::Clap(c),
        cli::CliError::Usage(u) => RunError::Usage(u),
        cli::CliError::File(f) => RunError::File(f),
    })?;
    match mode {
        cli::Mode::Replay(p, tb) => replay::run_replay(&p, tb.as_deref(), variants),
        cli::Mode::Report(r) => statistics::merge::run_report(&r),
        cli::Mode::Compliance(c) => {
            compliance::run(&c, &|name| variants.named(name).map(|v| v.compliance))
        }
        cli::Mode::Match(cfg) => (variants.of(cfg.variant).play)(&cfg),
    }
}
