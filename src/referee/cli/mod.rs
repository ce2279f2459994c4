//! The command line, in the shapes fastchess and cutechess-cli users type
//! (`--engine cmd=… name=… tc=10+0.1`, `--each …`, `--sprt elo0=…`), checked
//! into a `Mode`. Every mistake is a `Usage` error: the program prints it
//! and exits with code 2.
//!
//! `args` is what clap reads, `check` turns it into a `MatchConfig`
//! (`config`), with `engine` (one engine's keys) and `openings`;
//! `recorded` reads a record's command line back into its match.

mod args;
mod check;
pub mod config;
mod engine;
mod openings;
mod recorded;
#[cfg(test)]
mod tests;

pub use args::TimeoutArgs;
pub use config::{
    ComplianceConfig, EngineConfig, MatchConfig, Mode, Openings, Output, ReportConfig,
};
pub use engine::time_control;
pub use recorded::{RecordedMatch, differences, recorded_match};

use super::dialect::{self, Dialect};
use super::fastchess::{self, edit_distance};
use super::store::files::FileError;
use super::variants::{Variant, Variants};
use crate::client::process::Launch;
use args::Cli;
use clap::{CommandFactory, FromArgMatches};
use engine::resolve_cmd;

pub use super::usage::Usage;

/// Why a command line gives no `Mode`.
#[derive(Debug)]
pub enum CliError {
    /// clap's own errors, and `--help` and `--version` (which clap prints).
    Clap(clap::Error),
    /// The referee's checks of what clap accepted.
    Usage(Usage),
    /// A file it names that cannot be read (the openings).
    File(FileError),
}

impl From<Usage> for CliError {
    fn from(u: Usage) -> CliError {
        CliError::Usage(u)
    }
}

impl From<FileError> for CliError {
    fn from(e: FileError) -> CliError {
        CliError::File(e)
    }
}

/// Parses the command line, whose `--variant` names one of `variants`.
pub fn parse<I, T>(args: I, variants: &Variants) -> Result<Mode, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let words = match saved_command(&words)? {
        Some(saved) => saved,
        None => words,
    };
    let cmd = Cli::command();
    let mut warnings = Vec::new();
    let spoken = koma_spelling(&cmd, &words, &mut |w| {
        eprintln!("koma-referee: warning: {w}");
        warnings.push(w);
    })?;
    let matches = cmd
        .clone()
        .try_get_matches_from(spoken.words)
        .map_err(|e| CliError::Clap(without_far_fetched_suggestion(e, &cmd)))?;
    let variant_given =
        matches.value_source("variant") == Some(clap::parser::ValueSource::CommandLine);
    let cli = Cli::from_arg_matches(&matches).map_err(CliError::Clap)?;
    // Each --engine occurrence is one engine.
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    if cli.strict
        && let Some(w) = warnings.first()
    {
        return Err(Usage::new(format!("--strict: warning: {w}")).into());
    }
    let env = |k: &str| std::env::var(k).ok();
    if !cli.compliance.is_empty() {
        return compliance(&cli, variant_given, variants);
    }
    check::check(
        cli,
        engines,
        &super::store::records::shell_words(&words),
        (spoken.dialect, spoken.why),
        &env,
        variants,
    )
}

/// fastchess's `-config file=F` (without `discard=true`): the command line
/// the config file holds, which replaces this one.
fn saved_command(words: &[String]) -> Result<Option<Vec<String>>, Usage> {
    let Some(at) = words
        .iter()
        .skip(1)
        .position(|w| w == "-config" || w == "--config")
    else {
        return Ok(None);
    };
    let values: Vec<&String> = words[at + 2..]
        .iter()
        .take_while(|w| !w.starts_with('-'))
        .collect();
    if values.iter().any(|v| *v == "discard=true") {
        return Ok(None);
    }
    let Some(file) = values.iter().find_map(|v| v.strip_prefix("file=")) else {
        return Ok(None);
    };
    let saved = super::store::config_file::read_command(std::path::Path::new(file))?;
    eprintln!(
        "koma-referee: -config file={file}: running its match again: {}",
        super::store::records::shell_words(&saved)
    );
    Ok(Some(saved))
}

/// A command line in Koma's spelling, and whose counting it uses.
pub(super) struct Spoken {
    pub(super) words: Vec<String>,
    pub(super) dialect: Dialect,
    /// Why that dialect, for the schedule line.
    pub(super) why: String,
}

/// The words with fastchess's and cutechess-cli's options in Koma's
/// spelling (`fastchess::translate`); the words themselves are what the
/// records keep.
fn koma_spelling(
    cmd: &clap::Command,
    words: &[String],
    warn: &mut dyn FnMut(String),
) -> Result<Spoken, Usage> {
    let long: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .chain(["help", "version"].map(String::from))
        .collect();
    let (dialect, why) = dialect::detect(words)?;
    Ok(Spoken {
        words: fastchess::translate(words, &long, &['h', 'V'], dialect, warn)?,
        dialect,
        why,
    })
}

fn compliance(cli: &Cli, variant_given: bool, variants: &Variants) -> Result<Mode, CliError> {
    let variant = if variant_given {
        Some(variant_named(&cli.variant, variants)?.game)
    } else {
        None
    };
    let cmd = &cli.compliance[0];
    Ok(Mode::Compliance(ComplianceConfig {
        launch: Launch {
            cmd: resolve_cmd(cmd, None),
            args: cli.compliance[1..].to_vec(),
            dir: None,
        },
        variant,
        timeouts: cli.timeouts.timeouts()?,
    }))
}

fn variant_named<'v>(name: &str, variants: &'v Variants) -> Result<&'v Variant, Usage> {
    variants.named(name).ok_or_else(|| {
        let names = variants.names();
        let chess = if matches!(name, "standard" | "fischerandom" | "chess") {
            " (Koma's games are not chess)"
        } else {
            ""
        };
        Usage::new(format!(
            "unknown variant {name}{chess}: expected one of {}",
            names.join(", ")
        ))
    })
}

/// clap suggests the most similar option even when it is not similar at
/// all (`--bogus` got "a similar argument exists: '--rounds'"); the tip is
/// kept only for a likely typo: at most two edits away, or a prefix.
fn without_far_fetched_suggestion(e: clap::Error, cmd: &clap::Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let name = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.trim_start_matches('-').to_string()),
        _ => None,
    };
    let (Some(typed), Some(suggested)) = (
        name(ContextKind::InvalidArg),
        name(ContextKind::SuggestedArg),
    ) else {
        return e;
    };
    let typed = typed.split('=').next().unwrap_or_default().to_string();
    let likely = edit_distance(&typed, &suggested) <= 2
        || (typed.len() >= 3 && suggested.starts_with(&typed));
    if likely {
        return e;
    }
    let mut plain = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(cmd);
    for (k, v) in e.context() {
        if k != ContextKind::SuggestedArg {
            plain.insert(k, v.clone());
        }
    }
    plain
}
