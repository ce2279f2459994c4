//! What a checked command line asks for: a `Mode` and its configuration
//! (the match, the report, the compliance run).

use crate::client::clock::EngineLimits;
use crate::client::handshake::Timeouts;
use crate::client::process::Launch;
use crate::core::RuleValues;
use crate::games::GameId;
use crate::protocol::record::OpeningLine;
use crate::record::adjudicate::Adjudication;
use crate::record::shard::Shard;
use crate::referee::dialect::Dialect;
use crate::referee::matches::figures::Figures;
use crate::referee::matches::schedule::NewOpening;
use crate::referee::statistics::sprt::Sprt;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub launch: Launch,
    pub options: Vec<(String, String)>,
    pub limits: EngineLimits,
    /// `restart=on`: a fresh process for every game.
    pub restart: bool,
    /// `timemargin=MS`: this engine's margin, instead of `--timemargin`.
    pub margin: Option<Duration>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// Where they come from: the file's path, or `suite <variant>/<name>`.
    pub source: String,
    /// The shipped suite they are (`variant/name`), if they are one.
    pub suite: Option<String>,
    pub random: bool,
    /// (line number, opening), in file order.
    pub lines: Vec<(usize, OpeningLine)>,
}

/// The lines a match prints on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// fastchess's (`-output format=fastchess`, the default).
    Fastchess,
    /// cutechess-cli's (`Score of A vs B: W - L - D [p] N`).
    Cutechess,
    /// fastchess's lines, and the summary as one JSON object last.
    Json,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub variant: GameId,
    pub rules: RuleValues,
    pub games: u32,
    pub rounds: u32,
    /// Whose counting `games` and `rounds` are, and why (for the schedule line).
    pub dialect: Dialect,
    pub dialect_why: String,
    /// cutechess-cli's openings (`-repeat N`, `-openings policy=`):
    /// `Some` in its dialect only.
    pub cutechess_openings: Option<NewOpening>,
    pub openings: Option<Openings>,
    pub random_plies: u32,
    pub concurrency: usize,
    pub max_plies: Option<u32>,
    /// `--max-moves`: full moves of the engines, the opening not counted.
    pub max_moves: Option<u32>,
    pub adjudication: Adjudication,
    /// `--tb DIR`: adjudication by the endgame tables there.
    pub tb: Option<TbConfig>,
    /// `--tournament gauntlet --seeds N`: the first N engines play the others.
    pub seeds: Option<usize>,
    /// `--use-affinity`: the CPUs to pin the games' engines to.
    pub affinity: Option<Vec<usize>>,
    /// `--output format=…`: fastchess's lines, cutechess-cli's, or JSON.
    pub output: Output,
    /// `--score-interval N`: cutechess-cli's Score line every N games.
    pub score_interval: u64,
    /// `--wait MS` between a worker's games.
    pub wait: Duration,
    /// `--spin-wait US`: how long a game's thread polls before it sleeps;
    /// `None`: `matches::spin`'s choice.
    pub spin_wait: Option<Duration>,
    /// `--site NAME`: the records' Site tag instead of the host's name.
    pub site: Option<String>,
    /// `--strict`: a warning during the match stops it.
    pub strict: bool,
    pub epdout: Option<PathBuf>,
    /// `append=false`: the record (or EPD) file is emptied before the
    /// match, which then starts over instead of resuming.
    pub overwrite_pgnout: bool,
    /// `--config`: the config file written as the match ends (fastchess's
    /// `outname`).
    pub config_out: Option<PathBuf>,
    /// `--pgnout nodes=true …`: the engines' figures in the move comments.
    pub figures: Figures,
    pub overwrite_epdout: bool,
    pub margin: Duration,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    pub pgnout: Option<PathBuf>,
    pub state: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub recover: bool,
    pub shard: Option<Shard>,
    pub rating_interval: u64,
    pub timeouts: Timeouts,
    pub event: String,
    /// The referee's command line, shell-quoted, for the records.
    pub command: String,
}

/// `--report FILE... [--follow[=SECONDS]] [--sprt ...] [--json]`.
#[derive(Debug)]
pub struct ReportConfig {
    pub files: Vec<PathBuf>,
    pub json: bool,
    /// How often to read the files again; `None`: read them once.
    pub follow: Option<Duration>,
    pub sprt: Option<Sprt>,
    /// `--draw`/`--resign` given with `--report`: what they would have
    /// done to the games (see `statistics::what_if`).
    pub adjudication: Adjudication,
}

#[derive(Debug)]
pub enum Mode {
    Match(Box<MatchConfig>),
    Report(ReportConfig),
    /// The record file, and `--tb DIR` to check tablebase adjudications.
    Replay(PathBuf, Option<PathBuf>),
    Compliance(ComplianceConfig),
}

/// `--compliance CMD [ARG...] [--variant NAME]`.
#[derive(Debug)]
pub struct ComplianceConfig {
    pub launch: Launch,
    /// `--variant` when given: only that one is tried.
    pub variant: Option<GameId>,
    pub timeouts: Timeouts,
}

/// `--tb DIR` and the rule it adjudicates by.
#[derive(Clone, Debug)]
pub struct TbConfig {
    pub dir: std::path::PathBuf,
    pub rule: crate::record::tables::TbRule,
}
