//! The command line, in the shapes fastchess and cutechess-cli users type
//! (`--engine cmd=… name=… tc=10+0.1`, `--each …`, `--sprt elo0=…`), checked
//! into a `Mode`. Every mistake is a `Usage` error: the program prints it
//! and exits with code 2.

use super::fastchess::{self, edit_distance};
use super::matches::adjudicate::{self, Adjudication};
use super::statistics::sprt::{Model, Sprt};
use super::store::files::{FileError, open_regular};
use super::store::shard::{self, Shard};
use crate::client::clock::{EngineLimits, TimeControl};
use crate::client::handshake::Timeouts;
use crate::client::process::Launch;
use crate::core::{RuleValues, with_defaults};
use crate::games::GameId;
use crate::protocol::record::{OpeningLine, parse_openings};
use crate::record::suite;
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use std::path::{Path, PathBuf};
use std::time::Duration;

const ABOUT: &str = "Plays matches between engines that speak Koma's protocol, checks every move with \
Koma's rules library, and reports results (Elo, LOS, pentanomial pairs, SPRT).";

const AFTER: &str = "\
Engine keys (for --engine and --each):
  cmd=PATH            the engine program (required)
  name=NAME           its name in results (default: the program's file name)
  args=\"A B\"          arguments, split at blanks
  dir=DIR             working directory; a relative cmd with a / is taken from there
  option.NAME=VALUE   sent as setoption name NAME value VALUE; an engine that answers it with
                      info string error stops the match before the first game (exit 2)
  tc=[M/]BASE[+INC]   clock in seconds: BASE, plus INC per move, BASE again every M moves
  st=SECONDS          fixed time per move (go movetime), at least 0.001
  depth=N, nodes=N    search limits sent with go (plies=N is depth=N)
  timemargin=MS       this engine's --timemargin
  restart=on|off      on: a fresh process for every game (default off)
  proto=uci           accepted: the protocol is Koma's, UCI's shape; any other is refused
  arg=A               one more argument (cutechess-cli), after args=
  Each engine needs at least one of tc, st, depth, nodes. tc=inf means no clock.

fastchess and cutechess-cli spellings are read as they are typed: -engine, -each, -games,
-rounds, -repeat [N], -concurrency, -pgnout file=F (or F), -epdout F, -openings file=F
format=epd|pgn order=random plies=N start=N, -srand N (--seed), -ratinginterval N, -recover,
-sprt elo0= elo1= alpha= beta= model=, -maxmoves N (--max-moves), -draw, -resign, -log,
-tournament, -seeds, -use-affinity, -output format=json, -startup-ms, -ping-ms, --compliance.
What Koma cannot honour (-tb, -noswap, proto=xboard, -site, ...) is refused with the
reason; docs/referee.md maps every option.

Games end by the rules, by --max-plies or --max-moves (adjudicated draw), by --draw or --resign
(adjudicated on the scores the engines report), or by an engine failing: it fails
to start, disconnects (crash), stops answering (no readyok to the isready heartbeat), loses on
time (the overrun is reported in ms), plays an illegal move, or sends garbage (info lines are
advice: a bad value in one is dropped with a warning; a bestmove no go asked for is dropped with
a warning). An engine that
cannot play on (it failed to start, crashed or stalled) stops the match after the games in
progress, unless --recover restarts it. Running the same command again resumes an interrupted
match when it writes a state file (--state, or else --pgnout). One referee at a time per record
file: a second one on the same --state or --pgnout file refuses to start (exit 2); the lock
goes with the referee, however it ends. Whatever an engine starts ends with the referee, even
after kill -9, unless it leaves the engine's process group.

Example:
  koma-referee --engine cmd=target/release/koma name=d2 depth=2 \\
               --engine cmd=target/release/koma name=d4 depth=4 \\
               --games 2 --rounds 10 --random-plies 4 --concurrency 2
The same in fastchess's spelling, with adjudication by the engines' scores:
  koma-referee -engine cmd=target/release/koma name=d2 depth=2 \\
               -engine cmd=target/release/koma name=d4 depth=4 \\
               -repeat -rounds 10 -concurrency 2 -draw movenumber=20 movecount=8 score=10 \\
               -resign movecount=3 score=1000

Summaries print Elo with its 95% error bar as fastchess does; where the results only bound it
(every game lost or won, or too few games for one end of the interval) they say the bound.

--replay checks every record on its own (tags, each at most once and the numbers in range, the
game number within its match,
the start position, every move, the recorded end): a bad record, even one with bytes that are
not UTF-8, is reported and the others are still checked. --replay and --report read only
regular files, one record at a time.

On a cluster: every task of a job array runs the same command with --shard auto and
--pgnout DIR/NAME.pgn, and writes DIR/NAME.shard-I-of-N.pgn; --report over those files pools
them (records of different matches are refused, naming the difference), and with --follow and
--sprt ends as soon as the pooled games cross a bound.

--compliance CMD [ARG...] runs a checklist of the protocol against an engine (every variant it
declares, or --variant's) and prints one line per check: exit 0 when all pass, 1 otherwise.

Exit status: 0 when the match (or report, or replay) completed; 1 when it stopped early or a
replayed record is invalid; 2 on a usage error, an engine program that cannot be run, a
record file in use by another referee, a file named on the command line that cannot be
read or created (missing, not a regular file, not text, a line that does not parse), or
--report over records of more than one match. --report with --sprt: 0
when H1 is accepted, 3 when H0 is accepted, 4 when no bound is crossed.";

/// The three ways to run the referee, shown with every usage error (clap's
/// own usage line would be built from whichever options it had seen).
const USAGE: &str = "\
koma-referee --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]
       koma-referee -engine KEY=VALUE... -engine KEY=VALUE... [fastchess OPTIONS]
       koma-referee --report FILE... [--json]
       koma-referee --replay FILE
       koma-referee --compliance CMD [ARG...]";

#[derive(Parser, Debug)]
// The last of a repeated option wins, as in fastchess (`-games 2 -repeat 2`).
#[command(name = "koma-referee", version, about = ABOUT, after_help = AFTER, override_usage = USAGE,
          args_override_self = true)]
struct Cli {
    /// An engine, as KEY=VALUE words (see below). Give two, or more for a round robin.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    engine: Vec<String>,

    /// Settings for every engine, same keys as --engine; an engine's own settings win.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    each: Vec<String>,

    /// The game, by its UCI_Variant name (an unknown name lists the known ones).
    #[arg(long, value_name = "NAME", default_value = GameId::DEFAULT.name())]
    variant: String,

    /// A rule option of the game (e.g. HasamiWin=lead3): applied by the referee and sent to
    /// every engine. Repeat for several.
    #[arg(long = "rule", value_name = "NAME=VALUE", action = ArgAction::Append)]
    rules: Vec<String>,

    /// Games per encounter per round; consecutive games form pairs on one opening with
    /// colours swapped.
    #[arg(long, value_name = "N", default_value_t = 2)]
    games: u32,

    /// Rounds: each round every encounter plays --games games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    rounds: u32,

    /// Opening book: file=FILE or suite=NAME, [order=sequential|random] [plies=N] [start=N]
    /// [format=epd|pgn]. One opening per line: a position string, a move list, or both
    /// ("<position> moves <moves>"); # starts a comment line. format=pgn reads a record file
    /// (--pgnout) instead: each record's start and moves. plies=N keeps N moves of each,
    /// start=N begins at the N-th. suite=default plays the balanced suite shipped for the
    /// variant and rule options.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    openings: Vec<String>,

    /// Random legal moves added after the opening (none of them ending the game).
    #[arg(long, value_name = "N", default_value_t = 0)]
    random_plies: u32,

    /// Games played at the same time.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,

    /// Adjudicate a draw when the game reaches this many plies (opening included); 0: never.
    /// Kani Nari Ebi with --rule KaniRepetition=false has no draw by repetition, so two engines
    /// could otherwise cycle for ever.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_plies: u32,

    /// Milliseconds an engine may exceed its clock before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    timemargin: u64,

    /// Seed of the schedule: opening order and random plies.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Sequential test: elo0=E elo1=E [alpha=0.05] [beta=0.05] [model=normalized|logistic].
    /// The match stops when the log-likelihood ratio crosses a bound. Two engines only. With
    /// --report: the test of the pooled games, its verdict in the exit status.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Vec<String>,

    /// Append each game's record to FILE as it ends (also written file=FILE; fastchess's
    /// notation=uci|lan, append=true and the nodes=, nps=, ... switches are read, see
    /// docs/referee.md).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pgnout: Vec<String>,

    /// Append each game's final position to FILE as it ends, one position string a line
    /// (also written file=FILE).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    epdout: Vec<String>,

    /// Adjudicate a draw once both engines have reported |score| <= CP for N moves each in a
    /// row, from full move M on: movenumber=M movecount=N score=CP.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Vec<String>,

    /// Adjudicate a loss once an engine has reported a score of -CP or worse (or being mated)
    /// for N of its moves in a row: movecount=N score=CP [twosided=true: both engines must
    /// agree, N moves each].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Vec<String>,

    /// Adjudicate a draw after N full moves of the engines (the opening not counted), as
    /// fastchess's -maxmoves; --max-plies applies too.
    #[arg(long, value_name = "N")]
    max_moves: Option<u32>,

    /// roundrobin: every engine plays every other; gauntlet: the first --seeds engines play
    /// every other engine, the others do not meet.
    #[arg(long, value_name = "roundrobin|gauntlet", default_value = "roundrobin")]
    tournament: String,

    /// With --tournament gauntlet: how many engines, from the first, are seeds.
    #[arg(long, value_name = "N")]
    seeds: Option<usize>,

    /// Pin each concurrent game's engines to their own CPU: all the CPUs the referee may run
    /// on, or the list given (0,2,4-7), dealt out to the games by worker.
    #[arg(long, value_name = "CPUS", num_args = 0..=1, default_missing_value = "")]
    use_affinity: Option<String>,

    /// The match's end summary as one JSON object: format=json (fastchess's -output);
    /// format=fastchess is the text summary, the default.
    #[arg(long, value_name = "format=FORMAT")]
    output: Option<String>,

    /// With --report: print the summary as one JSON object.
    #[arg(long, requires = "report")]
    json: bool,

    /// Check an engine against the protocol instead of playing: the program and its
    /// arguments; each variant it declares (or --variant's) is tried. Exit 0 when every
    /// check passes, 1 otherwise.
    #[arg(long, value_name = "CMD", num_args = 1..,
          conflicts_with_all = ["engine", "report", "replay"])]
    compliance: Vec<String>,

    /// State file (records of the finished games) for resuming after an interruption;
    /// defaults to the --pgnout file.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,

    /// Log every line to and from every engine, timestamped, to FILE (also file=FILE;
    /// fastchess's level=, engine=, append=true and realtime= are read). A write that fails (a
    /// full disk) is warned about once and named in the summary.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    log: Vec<String>,

    /// Restart an engine that crashed or stalled, and go on with the match.
    #[arg(long)]
    recover: bool,

    /// Play only shard I of N (pairs are dealt out in turn); merge with --report. auto: the
    /// shard of this task of a Slurm job array (SLURM_ARRAY_TASK_ID and _COUNT), or with
    /// auto/N of an indexed Kubernetes Job (JOB_COMPLETION_INDEX); the --pgnout and --state
    /// file names then get the shard's index (games.pgn -> games.shard-2-of-4.pgn).
    #[arg(long, value_name = "I/N|auto[/N]")]
    shard: Option<String>,

    /// Print the pooled summary of record files (the shards of one match) instead of playing;
    /// records of different matches are refused, naming the difference. With --sprt, the
    /// SPRT state and its verdict in the exit status.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["engine", "replay"])]
    report: Vec<PathBuf>,

    /// With --report: keep reading the files as they grow (every SECONDS, default 5), print the
    /// pooled summary as games come in, and exit once an SPRT bound is crossed or every game
    /// of the match is in.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, require_equals = true,
          default_missing_value = "5")]
    follow: Option<String>,

    /// Re-validate a record file with the rules library instead of playing.
    #[arg(long, value_name = "FILE", conflicts_with = "engine")]
    replay: Option<PathBuf>,

    /// Print a summary every N finished games (0: only at the end).
    #[arg(long, value_name = "N", default_value_t = 10)]
    rating_interval: u64,

    #[command(flatten)]
    timeouts: TimeoutArgs,

    /// The Event tag of the records.
    #[arg(long, value_name = "NAME", default_value = "koma-referee match")]
    event: String,
}

/// How long an engine may take to answer: the flags shared by the referee
/// and the web board.
#[derive(clap::Args, Clone, Debug)]
pub struct TimeoutArgs {
    /// Milliseconds allowed for uci -> uciok and for each isready -> readyok outside a search.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    start_timeout: u64,

    /// Milliseconds of silence during a search after which isready is sent.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    heartbeat: u64,

    /// Milliseconds an isready (or stop) may go unanswered before the engine is stalled.
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    stall_timeout: u64,
}

impl TimeoutArgs {
    /// The timeouts, each at least a millisecond.
    pub fn timeouts(&self) -> Result<Timeouts, Usage> {
        for (v, flag) in [
            (self.start_timeout, "--start-timeout"),
            (self.heartbeat, "--heartbeat"),
            (self.stall_timeout, "--stall-timeout"),
        ] {
            if v == 0 {
                return Err(Usage::new(format!("{flag} must be at least 1")));
            }
        }
        Ok(Timeouts {
            start: Duration::from_millis(self.start_timeout),
            heartbeat: Duration::from_millis(self.heartbeat),
            stall: Duration::from_millis(self.stall_timeout),
        })
    }
}

/// A bad argument: each binary (`koma`, `koma-referee`, `koma-board`)
/// prints it and exits with 2, the referee with a hint.
#[derive(Debug, PartialEq, Eq)]
pub struct Usage(pub String);

impl Usage {
    pub fn new(msg: impl Into<String>) -> Usage {
        Usage(msg.into())
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

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

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub variant: GameId,
    pub rules: RuleValues,
    pub games: u32,
    pub rounds: u32,
    pub openings: Option<Openings>,
    pub random_plies: u32,
    pub concurrency: usize,
    pub max_plies: Option<u32>,
    /// `--max-moves`: full moves of the engines, the opening not counted.
    pub max_moves: Option<u32>,
    pub adjudication: Adjudication,
    /// `--tournament gauntlet --seeds N`: the first N engines play the others.
    pub seeds: Option<usize>,
    /// `--use-affinity`: the CPUs to pin the games' engines to.
    pub affinity: Option<Vec<usize>>,
    /// `--output format=json`: the end summary as JSON.
    pub json: bool,
    pub epdout: Option<PathBuf>,
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
}

#[derive(Debug)]
pub enum Mode {
    Match(Box<MatchConfig>),
    Report(ReportConfig),
    Replay(PathBuf),
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

/// Parses the command line.
pub fn parse<I, T>(args: I) -> Result<Mode, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cmd = Cli::command();
    let spoken = koma_spelling(&cmd, &words, &mut |w| {
        eprintln!("koma-referee: warning: {w}")
    })?;
    let matches = cmd
        .clone()
        .try_get_matches_from(spoken)
        .map_err(|e| CliError::Clap(without_far_fetched_suggestion(e, &cmd)))?;
    let variant_given =
        matches.value_source("variant") == Some(clap::parser::ValueSource::CommandLine);
    let cli = Cli::from_arg_matches(&matches).map_err(CliError::Clap)?;
    // Each --engine occurrence is one engine.
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    let env = |k: &str| std::env::var(k).ok();
    if !cli.compliance.is_empty() {
        return compliance(&cli, variant_given);
    }
    check(
        cli,
        engines,
        &super::store::records::shell_words(&words),
        &env,
    )
}

/// The words with fastchess's and cutechess-cli's options in Koma's
/// spelling (`fastchess::translate`); the words themselves are what the
/// records keep.
fn koma_spelling(
    cmd: &clap::Command,
    words: &[String],
    warn: &mut dyn FnMut(String),
) -> Result<Vec<String>, Usage> {
    let long: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .chain(["help", "version"].map(String::from))
        .collect();
    fastchess::translate(words, &long, &['h', 'V'], warn)
}

fn compliance(cli: &Cli, variant_given: bool) -> Result<Mode, CliError> {
    let variant = if variant_given {
        Some(variant_named(&cli.variant)?)
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

fn variant_named(name: &str) -> Result<GameId, Usage> {
    GameId::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
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

fn check(
    cli: Cli,
    engine_words: Vec<Vec<String>>,
    command: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Mode, CliError> {
    if let Some(p) = cli.replay {
        return Ok(Mode::Replay(p));
    }
    if !cli.report.is_empty() {
        let follow =
            match cli.follow.as_deref() {
                None => None,
                Some(v) => Some(secs(v).ok().filter(|d| !d.is_zero()).ok_or_else(|| {
                    Usage::new(format!("--follow={v}: expected seconds above 0"))
                })?),
            };
        let sprt = if cli.sprt.is_empty() {
            None
        } else {
            Some(sprt(&split_pairs(&cli.sprt, "--sprt")?)?)
        };
        return Ok(Mode::Report(ReportConfig {
            files: cli.report,
            json: cli.json,
            follow,
            sprt,
        }));
    }
    if cli.follow.is_some() {
        return Err(Usage::new("--follow goes with --report FILE...").into());
    }
    let variant = variant_named(&cli.variant)?;
    if engine_words.len() < 2 {
        return Err(Usage::new(format!(
            "a match needs at least two --engine, got {}",
            engine_words.len()
        ))
        .into());
    }
    let each = split_pairs(&cli.each, "--each")?;
    let mut engines = Vec::new();
    for (k, words) in engine_words.iter().enumerate() {
        let own = split_pairs(words, "--engine")?;
        engines.push(engine_config(k + 1, &each, &own)?);
    }
    for (i, a) in engines.iter().enumerate() {
        if engines[..i].iter().any(|b| b.name == a.name) {
            return Err(Usage::new(format!(
                "two engines are named {}: give each its own name=",
                a.name
            ))
            .into());
        }
    }
    let rules = rule_options(variant, &cli.rules)?;
    let positive = |v: u64, what: &str| {
        if v == 0 {
            Err(Usage::new(format!("{what} must be at least 1")))
        } else {
            Ok(())
        }
    };
    positive(u64::from(cli.games), "--games")?;
    positive(u64::from(cli.rounds), "--rounds")?;
    positive(cli.concurrency as u64, "--concurrency")?;
    let timeouts = cli.timeouts.timeouts()?;
    let sprt = if cli.sprt.is_empty() {
        None
    } else {
        if engines.len() != 2 {
            return Err(Usage::new("--sprt needs exactly two engines").into());
        }
        Some(sprt(&split_pairs(&cli.sprt, "--sprt")?)?)
    };
    let openings = if cli.openings.is_empty() {
        None
    } else {
        Some(openings(
            &split_pairs(&cli.openings, "--openings")?,
            variant,
            &rules,
        )?)
    };
    let (shard, derived) = match cli.shard.as_deref() {
        Some(s) => {
            let (shard, derived) = shard::resolve(s, env).map_err(Usage)?;
            (Some(shard), derived)
        }
        None => (None, false),
    };
    let mut pgnout = output_file(&cli.pgnout, "--pgnout", PGNOUT_KEYS)?;
    let epdout = output_file(&cli.epdout, "--epdout", &[])?;
    let log = output_file(&cli.log, "--log", LOG_KEYS)?;
    let adjudication = Adjudication {
        draw: (!cli.draw.is_empty())
            .then(|| adjudicate::draw_rule(&split_pairs(&cli.draw, "--draw")?).map_err(Usage))
            .transpose()?,
        resign: (!cli.resign.is_empty())
            .then(|| adjudicate::resign_rule(&split_pairs(&cli.resign, "--resign")?).map_err(Usage))
            .transpose()?,
    };
    if cli.max_moves == Some(0) {
        return Err(Usage::new("--max-moves must be at least 1").into());
    }
    let seeds = tournament(&cli.tournament, cli.seeds, engines.len())?;
    let affinity = match cli.use_affinity.as_deref() {
        None => None,
        Some(list) => Some(super::matches::affinity::cpus(list).map_err(Usage)?),
    };
    let json = match cli
        .output
        .as_deref()
        .map(|o| o.strip_prefix("format=").unwrap_or(o))
    {
        None | Some("fastchess") => false,
        Some("json") => true,
        Some("cutechess") => {
            return Err(Usage::new(
                "--output format=cutechess is not supported: Koma prints fastchess's summary \
                 (format=fastchess) or JSON (format=json)",
            )
            .into());
        }
        Some(other) => {
            return Err(Usage::new(format!(
                "--output format={other}: expected fastchess or json"
            ))
            .into());
        }
    };
    let mut state = cli.state.or_else(|| pgnout.clone());
    if let Some(s) = shard.filter(|_| derived) {
        if state.is_none() {
            return Err(Usage::new(format!(
                "--shard {}: give --pgnout FILE (or --state FILE): every task of the array runs \
                 this command, and each writes its own file, named from its shard",
                cli.shard.as_deref().unwrap_or_default()
            ))
            .into());
        }
        pgnout = pgnout.map(|p| shard::derived_path(&p, s));
        state = state.map(|p| shard::derived_path(&p, s));
    }
    Ok(Mode::Match(Box::new(MatchConfig {
        engines,
        variant,
        rules,
        games: cli.games,
        rounds: cli.rounds,
        openings,
        random_plies: cli.random_plies,
        concurrency: cli.concurrency,
        max_plies: (cli.max_plies > 0).then_some(cli.max_plies),
        max_moves: cli.max_moves,
        adjudication,
        seeds,
        affinity,
        json,
        epdout,
        margin: Duration::from_millis(cli.timemargin),
        seed: cli.seed,
        sprt,
        state,
        pgnout,
        log,
        recover: cli.recover,
        shard,
        rating_interval: cli.rating_interval,
        timeouts,
        event: cli.event,
        command: command.to_string(),
    })))
}

/// A key of fastchess's `-pgnout` or `-log`: the values Koma honours, and
/// those it accepts with a warning that they change nothing.
type FileKey = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// Koma's records use the protocol's coordinate moves (uci, lan) and carry
/// score, depth and time per move whatever the switches say.
const PGNOUT_KEYS: &[FileKey] = &[
    ("notation", &["uci", "lan"], &[]),
    ("append", &["true"], &[]),
    ("nodes", &["false"], &["true"]),
    ("seldepth", &["false"], &["true"]),
    ("nps", &["false"], &["true"]),
    ("hashfull", &["false"], &["true"]),
    ("tbhits", &["false"], &["true"]),
    ("pv", &["false"], &["true"]),
    ("timeleft", &["false"], &["true"]),
    ("latency", &["false"], &["true"]),
    ("min", &["false"], &["true"]),
];

/// Koma's log is the engines' traffic (fastchess's engine=true), appended
/// to and written line by line; the referee's own messages go to stderr.
const LOG_KEYS: &[FileKey] = &[
    ("engine", &["true"], &[]),
    ("append", &["true"], &[]),
    ("realtime", &["true"], &[]),
    ("compress", &["false"], &[]),
    ("level", &[], &["trace", "info", "warn", "err", "fatal"]),
];

/// `FILE` or `file=FILE`, then `KEY=VALUE` words among `keys` (and
/// cutechess-cli's bare `min` and `fi` for `--pgnout`): the file.
fn output_file(words: &[String], flag: &str, keys: &[FileKey]) -> Result<Option<PathBuf>, Usage> {
    let mut file = None;
    let warn = |w: &str| {
        eprintln!("koma-referee: warning: {flag} {w} changes nothing: see docs/referee.md")
    };
    for w in words {
        match w.split_once('=') {
            Some(("file", f)) => file = Some(PathBuf::from(f)),
            Some((k, v)) => match keys.iter().find(|(n, _, _)| *n == k) {
                Some((_, ok, _)) if ok.contains(&v) => {}
                Some((_, _, ignored)) if ignored.contains(&v) => warn(w),
                Some((_, ok, _)) => {
                    return Err(Usage::new(format!(
                        "{flag} {k}={v} is not supported: Koma honours {k}={} (docs/referee.md)",
                        ok.join("|")
                    )));
                }
                None => {
                    return Err(Usage::new(format!("{flag}: unknown key {k}")));
                }
            },
            None if flag == "--pgnout" && file.is_some() && (w == "min" || w == "fi") => warn(w),
            None if file.is_none() => file = Some(PathBuf::from(w)),
            None => {
                return Err(Usage::new(format!(
                    "{flag}: one FILE (or file=FILE), got {w} too"
                )));
            }
        }
    }
    if !words.is_empty() && file.is_none() {
        return Err(Usage::new(format!("{flag} needs FILE (or file=FILE)")));
    }
    Ok(file)
}

/// `--tournament` and `--seeds`: the number of seeds of a gauntlet.
fn tournament(kind: &str, seeds: Option<usize>, engines: usize) -> Result<Option<usize>, Usage> {
    match kind {
        "roundrobin" if seeds.is_some() => Err(Usage::new(
            "--seeds goes with --tournament gauntlet (a round robin has no seeds)",
        )),
        "roundrobin" => Ok(None),
        "gauntlet" => {
            let n = seeds.unwrap_or(1);
            if n == 0 || n >= engines {
                return Err(Usage::new(format!(
                    "--seeds {n}: a gauntlet of {engines} engines needs 1 to {} seeds",
                    engines.saturating_sub(1)
                )));
            }
            Ok(Some(n))
        }
        "knockout" | "pyramid" => Err(Usage::new(format!(
            "--tournament {kind} is not supported: roundrobin or gauntlet"
        ))),
        _ => Err(Usage::new(format!(
            "--tournament {kind}: expected roundrobin or gauntlet"
        ))),
    }
}

/// `KEY=VALUE` words into pairs, in order.
fn split_pairs(words: &[String], flag: &str) -> Result<Vec<(String, String)>, Usage> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .filter(|(k, _)| !k.is_empty())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| Usage::new(format!("expected KEY=VALUE after {flag}, got {w}")))
        })
        .collect()
}

fn engine_config(
    number: usize,
    each: &[(String, String)],
    own: &[(String, String)],
) -> Result<EngineConfig, Usage> {
    let mut cmd = None;
    let mut name = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut limits = EngineLimits::default();
    let mut restart = false;
    let mut margin = None;
    let which = |k: &str| format!("engine {number}: {k}");
    // --each first, so the engine's own keys override.
    for (k, v) in each.iter().chain(own) {
        match k.as_str() {
            "cmd" => cmd = Some(v.clone()),
            "name" => name = Some(v.clone()),
            "args" => args = v.split_whitespace().map(str::to_string).collect(),
            // cutechess-cli: one argument per arg=.
            "arg" => args.push(v.clone()),
            "dir" => dir = Some(PathBuf::from(v)),
            "tc" if v == "inf" => limits.tc = None,
            "tc" => limits.tc = Some(time_control(v).map_err(|e| Usage(which(&e)))?),
            "st" => limits.movetime = Some(move_time(v).map_err(|e| Usage(which(&e)))?),
            // fastchess's plies= is depth.
            "depth" | "plies" => limits.depth = Some(number_of(v, k)?),
            "nodes" => limits.nodes = Some(number_of(v, "nodes")?),
            "timemargin" => margin = Some(Duration::from_millis(number_of(v, "timemargin")?)),
            "restart" => {
                restart = match v.as_str() {
                    "on" => true,
                    // cutechess-cli's auto restarts an engine that needs it,
                    // as Koma does after a crash with --recover.
                    "off" | "auto" => false,
                    _ => return Err(Usage(which(&format!("restart={v}: expected on or off")))),
                }
            }
            "proto" if v == "uci" => {}
            "proto" => {
                return Err(Usage(which(&format!(
                    "proto={v} is not supported: Koma's referee speaks only Koma's protocol, \
                     UCI's shape (protocol.md); give proto=uci or leave it out"
                ))));
            }
            "ponder" | "whitepov" | "initstr" | "book" | "bookdepth" | "stderr" | "conf"
            | "trust" => {
                let why = match k.as_str() {
                    "ponder" => "engines do not ponder in Koma's matches",
                    "whitepov" => "scores are read from the mover's point of view, as UCI has them",
                    "initstr" => "xboard init strings do not apply; use option.NAME=VALUE",
                    "book" | "bookdepth" => "engines' own books are not played; use --openings",
                    "stderr" => "--log FILE records every engine's traffic",
                    "conf" => "there is no engines.json: give cmd= and the other keys",
                    _ => "every engine's result is taken from the rules, never from the engine",
                };
                return Err(Usage(which(&format!("{k} is not supported: {why}"))));
            }
            _ => match k.strip_prefix("option.") {
                Some(o) if !o.is_empty() => {
                    options.retain(|(n, _)| n != o);
                    options.push((o.to_string(), v.clone()));
                }
                _ => {
                    return Err(Usage(which(&format!(
                        "unknown key {k} (expected cmd, name, args, arg, dir, option.NAME, tc, st, \
                         depth or plies, nodes, timemargin, restart, proto)"
                    ))));
                }
            },
        }
    }
    let cmd = cmd.ok_or_else(|| Usage(which("cmd=PATH is missing")))?;
    if cmd.is_empty() {
        return Err(Usage(which("cmd= is empty")));
    }
    if limits == EngineLimits::default() {
        return Err(Usage(which(
            "no limit: give tc=, st=, depth= or nodes= (or the same with --each)",
        )));
    }
    let name = name.unwrap_or_else(|| {
        Path::new(&cmd)
            .file_name()
            .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
    });
    if name.trim().is_empty() {
        return Err(Usage(which("name= is empty")));
    }
    Ok(EngineConfig {
        name,
        launch: Launch {
            cmd: resolve_cmd(&cmd, dir.as_deref()),
            args,
            dir,
        },
        options,
        limits,
        restart,
        margin,
    })
}

/// A relative `cmd` with a `/` is made absolute (against `dir` when given,
/// else the current directory), so it means the same whatever directory
/// the engine runs in. A bare name is looked up in `dir`, then in `PATH`.
fn resolve_cmd(cmd: &str, dir: Option<&Path>) -> PathBuf {
    let p = PathBuf::from(cmd);
    let cwd = std::env::current_dir().unwrap_or_default();
    let base = match dir {
        Some(d) => cwd.join(d),
        None => cwd,
    };
    let relative_path = !p.is_absolute() && cmd.contains('/');
    let found_in_dir = dir.is_some() && !cmd.contains('/') && base.join(&p).is_file();
    if relative_path || found_in_dir {
        base.join(p)
    } else {
        p
    }
}

fn number_of<T: std::str::FromStr>(v: &str, what: &str) -> Result<T, Usage> {
    v.parse()
        .map_err(|_| Usage::new(format!("{what}={v}: expected a whole number")))
}

/// Seconds, possibly fractional, non-negative and finite.
fn secs(v: &str) -> Result<Duration, String> {
    let x: f64 = v
        .parse()
        .map_err(|_| format!("expected seconds, got {v}"))?;
    if !(0.0..=1e9).contains(&x) {
        return Err(format!("expected seconds, got {v}"));
    }
    Ok(Duration::from_secs_f64(x))
}

/// `st=`: seconds per move, at least the millisecond `go movetime` counts
/// in (a move time of 0 would lose every game on time, as `tc=0` would).
fn move_time(v: &str) -> Result<Duration, String> {
    let t = secs(v).map_err(|e| format!("st={v}: {e}"))?;
    if t < Duration::from_millis(1) {
        return Err(format!(
            "st={v}: less than the 1 ms go movetime counts in (expected seconds, at least 0.001)"
        ));
    }
    Ok(t)
}

/// `[moves/]base[+inc]` in seconds.
pub fn time_control(v: &str) -> Result<TimeControl, String> {
    let bad = |why: String| format!("tc={v}: {why} (expected [MOVES/]BASE[+INC] in seconds)");
    let (moves, rest) = match v.split_once('/') {
        Some((m, r)) => (
            Some(
                m.parse::<u32>()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| bad(format!("bad move count {m}")))?,
            ),
            r,
        ),
        None => (None, v),
    };
    // cutechess-cli's and fastchess's MINUTES:SECONDS for the base.
    let base_of = |b: &str| match b.split_once(':') {
        Some((m, sec)) => {
            let m: u32 = m.parse().map_err(|_| format!("bad minutes {m}"))?;
            Ok(Duration::from_secs(u64::from(m) * 60) + secs(sec)?)
        }
        None => secs(b),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (base_of(b).map_err(bad)?, secs(i).map_err(bad)?),
        None => (base_of(rest).map_err(bad)?, Duration::ZERO),
    };
    if base.is_zero() && inc.is_zero() {
        return Err(bad("no time at all".into()));
    }
    Ok(TimeControl { moves, base, inc })
}

fn rule_options(game: GameId, rules: &[String]) -> Result<RuleValues, Usage> {
    let pairs = rules
        .iter()
        .map(|r| {
            r.split_once('=')
                .ok_or_else(|| Usage::new(format!("expected NAME=VALUE after --rule, got {r}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    game.read_rules(pairs).map_err(Usage)
}

fn sprt(keys: &[(String, String)]) -> Result<Sprt, Usage> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = Model::Normalized;
    let num = |k: &str, v: &str| {
        v.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| Usage::new(format!("--sprt {k}={v}: expected a number")))
    };
    for (k, v) in keys {
        match k.as_str() {
            "elo0" => elo0 = Some(num(k, v)?),
            "elo1" => elo1 = Some(num(k, v)?),
            "alpha" => alpha = num(k, v)?,
            "beta" => beta = num(k, v)?,
            "model" => {
                model = match v.as_str() {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    _ => {
                        return Err(Usage::new(format!(
                            "--sprt model={v}: expected normalized or logistic"
                        )));
                    }
                }
            }
            _ => {
                return Err(Usage::new(format!(
                    "--sprt: unknown key {k} (expected elo0, elo1, alpha, beta, model)"
                )));
            }
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else {
        return Err(Usage::new("--sprt needs elo0= and elo1="));
    };
    Sprt::new(e0, e1, alpha, beta, model).map_err(|e| Usage::new(format!("--sprt: {e}")))
}

fn openings(
    keys: &[(String, String)],
    variant: GameId,
    rules: &[(&'static str, crate::core::OptionValue)],
) -> Result<Openings, CliError> {
    let mut path = None;
    let mut suite_name = None;
    let mut random = false;
    let mut plies = None;
    let mut start = 1;
    let mut pgn = false;
    for (k, v) in keys {
        match k.as_str() {
            "file" => path = Some(PathBuf::from(v)),
            "suite" => suite_name = Some(v.clone()),
            // One opening a line is fastchess's epd (a position a line),
            // with moves allowed after it.
            "format" if v == "epd" => pgn = false,
            // Koma's own record files (--pgnout): each record's start and
            // moves, cut to plies=N.
            "format" if v == "pgn" => pgn = true,
            "format" => {
                return Err(Usage::new(format!(
                    "--openings format={v}: expected epd (one opening a line: a position, \
                     moves, or both) or pgn (Koma's record files)"
                ))
                .into());
            }
            "plies" => plies = Some(number_of::<usize>(v, "--openings plies")?),
            "start" => {
                start = number_of::<usize>(v, "--openings start")?;
                if start == 0 {
                    return Err(Usage::new("--openings start=0: the first opening is 1").into());
                }
            }
            "order" => {
                random = match v.as_str() {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(Usage::new(format!(
                            "--openings order={v}: expected random or sequential"
                        ))
                        .into());
                    }
                }
            }
            _ => {
                return Err(Usage::new(format!(
                    "--openings: unknown key {k} (expected file, suite, order, format, plies, start)"
                ))
                .into());
            }
        }
    }
    let mut o: Openings = match (path, suite_name) {
        (Some(_), Some(_)) => Err(CliError::from(Usage::new(
            "--openings: give file= or suite=, not both",
        ))),
        (None, None) => Err(CliError::from(Usage::new(
            "--openings needs file=FILE or suite=NAME",
        ))),
        (None, Some(name)) => {
            // The suite is for the match's rules: every option, defaults
            // included.
            let all = with_defaults(variant.rule_specs(), rules);
            let s = suite::shipped(variant, &name, &all)
                .map_err(|e| Usage::new(format!("--openings suite={name}: {e}")))?;
            let title = s.header.title();
            Ok(Openings {
                source: format!("suite {title}"),
                suite: Some(title),
                random,
                lines: s.lines,
            })
        }
        (Some(path), None) => {
            let text = open_regular(&path, std::fs::OpenOptions::new().read(true))
                .and_then(|mut f| {
                    let mut text = String::new();
                    std::io::Read::read_to_string(&mut f, &mut text).map(|_| text)
                })
                .map_err(FileError::io("read", "openings file", &path))?;
            let lines = if pgn {
                record_openings(&text).map_err(|(line, source)| FileError::BadLine {
                    path: path.clone(),
                    line,
                    source,
                })?
            } else {
                parse_openings(&text).map_err(|(line, source)| FileError::BadLine {
                    path: path.clone(),
                    line,
                    source,
                })?
            };
            if lines.is_empty() {
                return Err(Usage::new(format!("{} holds no opening", path.display())).into());
            }
            Ok(Openings {
                source: path.display().to_string(),
                suite: None,
                random,
                lines,
            })
        }
    }?;
    // fastchess's start=N: the book is read from its N-th opening on (and
    // round again); plies=N: at most N of each opening's moves.
    if start > o.lines.len() {
        return Err(Usage::new(format!(
            "--openings start={start}: the book holds {} openings",
            o.lines.len()
        ))
        .into());
    }
    o.lines.rotate_left(start - 1);
    if let Some(p) = plies {
        for (_, line) in &mut o.lines {
            line.moves.truncate(p);
        }
    }
    Ok(o)
}

/// The openings of a record file: each record's start position (its `FEN`
/// tag) and its moves, with the line its record starts on.
fn record_openings(
    text: &str,
) -> Result<Vec<(usize, OpeningLine)>, (usize, crate::protocol::ParseError)> {
    let mut out = Vec::new();
    for item in crate::protocol::record::parse_records(text) {
        let r = item.record.map_err(|e| (item.line, e))?;
        let start = r
            .tag("FEN")
            .map(crate::protocol::parse_position)
            .transpose()
            .map_err(|e| (item.line, e))?;
        let moves = r.moves.iter().map(|m| m.mv).collect();
        out.push((item.line, OpeningLine { start, moves }));
    }
    Ok(out)
}

/// What a recorded command line (a record's `RefereeCommand` tag) says
/// about its match, read without checking files or programs: the report
/// uses it to name what differs between two matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMatch {
    /// The engines' names, in command-line order.
    pub engines: Vec<String>,
    /// The settings that decide the games, as `(name, value)`.
    pub settings: Vec<(String, String)>,
    /// Games in the whole match, every shard's.
    pub total_games: u64,
}

/// `None` when the words are not a match's command line.
pub fn recorded_match(words: &[String]) -> Option<RecordedMatch> {
    let cmd = Cli::command();
    let words = koma_spelling(&cmd, words, &mut |_| {}).ok()?;
    let matches = cmd.try_get_matches_from(words).ok()?;
    let cli = Cli::from_arg_matches(&matches).ok()?;
    let engine_words: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    let each = split_pairs(&cli.each, "--each").ok()?;
    let mut settings = vec![("--variant".to_string(), cli.variant.clone())];
    for r in &cli.rules {
        let (n, v) = r.split_once('=')?;
        settings.push((format!("--rule {n}"), v.to_string()));
    }
    for (k, v) in [
        ("--games", cli.games.to_string()),
        ("--rounds", cli.rounds.to_string()),
        ("--openings", cli.openings.join(" ")),
        ("--random-plies", cli.random_plies.to_string()),
        ("--seed", cli.seed.to_string()),
        ("--max-plies", cli.max_plies.to_string()),
        ("--timemargin", cli.timemargin.to_string()),
        (
            "--max-moves",
            cli.max_moves.map(|m| m.to_string()).unwrap_or_default(),
        ),
        ("--draw", cli.draw.join(" ")),
        ("--resign", cli.resign.join(" ")),
        ("--tournament", cli.tournament.clone()),
        (
            "--seeds",
            cli.seeds.map(|m| m.to_string()).unwrap_or_default(),
        ),
    ] {
        settings.push((k.to_string(), v));
    }
    let mut engines = Vec::new();
    let mut engine_settings = Vec::new();
    for words in &engine_words {
        let own = split_pairs(words, "--engine").ok()?;
        let mut keys: Vec<(String, String)> = Vec::new();
        for (k, v) in each.iter().chain(&own) {
            keys.retain(|(n, _)| n != k);
            keys.push((k.clone(), v.clone()));
        }
        let get = |k: &str| keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let name = get("name").or_else(|| {
            get("cmd").map(|c| {
                Path::new(&c)
                    .file_name()
                    .map_or(c.clone(), |f| f.to_string_lossy().into_owned())
            })
        })?;
        keys.sort();
        for (k, v) in keys.into_iter().filter(|(k, _)| k != "name") {
            engine_settings.push((format!("engine {name} {k}"), v));
        }
        engines.push(name);
    }
    settings.push(("engines".to_string(), engines.join(", ")));
    settings.extend(engine_settings);
    let n = engines.len() as u64;
    let encounters = match (cli.tournament.as_str(), cli.seeds) {
        ("gauntlet", seeds) => {
            let k = seeds.unwrap_or(1) as u64;
            k * n.saturating_sub(k) + k * k.saturating_sub(1) / 2
        }
        _ => n * n.saturating_sub(1) / 2,
    };
    let total_games = u64::from(cli.rounds) * encounters * u64::from(cli.games);
    Some(RecordedMatch {
        engines,
        settings,
        total_games,
    })
}

/// Where two matches' settings differ: `name: a vs b` (`unset` where one
/// lacks it), in the order of `a`'s settings.
pub fn differences(a: &RecordedMatch, b: &RecordedMatch) -> Vec<String> {
    let mut keys: Vec<&String> = a.settings.iter().map(|(k, _)| k).collect();
    for (k, _) in &b.settings {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let value = |m: &RecordedMatch, k: &str| {
        m.settings
            .iter()
            .find(|(n, _)| n == k)
            .map_or("unset".to_string(), |(_, v)| {
                if v.is_empty() {
                    "none".into()
                } else {
                    v.clone()
                }
            })
    };
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (value(a, k), value(b, k));
            (x != y).then(|| format!("{k}: {x} vs {y}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::OptionValue;

    fn parse_ok(args: &str) -> MatchConfig {
        let argv = std::iter::once("koma-referee").chain(args.split_whitespace());
        match parse(argv) {
            Ok(Mode::Match(m)) => *m,
            other => panic!("{args}: {other:?}"),
        }
    }

    fn usage(args: &str) -> String {
        let argv = std::iter::once("koma-referee").chain(args.split_whitespace());
        match parse(argv) {
            Err(CliError::Usage(Usage(m))) => m,
            Err(CliError::Clap(e)) => e.to_string(),
            Err(CliError::File(e)) => format!("{:#}", anyhow::Error::new(e)),
            Ok(m) => panic!("{args} was accepted: {m:?}"),
        }
    }

    #[test]
    fn engines_take_each_and_their_own_keys() {
        let m = parse_ok(
            "--engine cmd=/bin/a name=A depth=2 option.Hash=16 --engine cmd=/bin/b tc=10+0.1 \
             --each option.Hash=8 nodes=100 --rule HasamiWin=lead3 --variant hasami",
        );
        assert_eq!(m.engines.len(), 2);
        let a = &m.engines[0];
        assert_eq!(a.name, "A");
        assert_eq!(a.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!((a.limits.depth, a.limits.nodes), (Some(2), Some(100)));
        let b = &m.engines[1];
        assert_eq!(b.name, "b");
        assert_eq!(b.limits.to_string(), "10+0.1 nodes=100");
        assert_eq!(
            m.rules,
            vec![("HasamiWin", OptionValue::Combo("lead3".into()))]
        );
        assert_eq!((m.games, m.rounds, m.seed), (2, 1, 1));
    }

    #[test]
    fn time_controls_parse_in_seconds() {
        let t = time_control("40/60+0.5").unwrap();
        assert_eq!(t.moves, Some(40));
        assert_eq!(t.base, Duration::from_secs(60));
        assert_eq!(t.inc, Duration::from_millis(500));
        assert_eq!(time_control("0.2").unwrap().inc, Duration::ZERO);
        for bad in ["", "x", "1+", "+1", "0/1", "-1", "0+0", "inf", "1e99"] {
            assert!(time_control(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        let cases = [
            ("--engine cmd=a depth=1", "at least two --engine"),
            (
                "--engine cmd=a depth=1 --engine name=b depth=1",
                "cmd=PATH is missing",
            ),
            ("--engine cmd=a --engine cmd=b depth=1", "no limit"),
            (
                "--engine cmd=a depth=1 --engine cmd=a depth=1",
                "two engines are named a",
            ),
            ("--engine cmd=a depth=x --engine cmd=b depth=1", "depth=x"),
            (
                "--engine cmd=a foo=1 depth=1 --engine cmd=b depth=1",
                "unknown key foo",
            ),
            (
                "--engine cmd=a nonsense --engine cmd=b depth=1",
                "expected KEY=VALUE",
            ),
            ("--engine cmd=a tc=1+x --engine cmd=b depth=1", "tc=1+x"),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --variant chess",
                "unknown variant chess",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --rule Nope=1",
                "no rule option Nope",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --variant hasami --rule HasamiWin=six",
                "expected one of",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --sprt elo0=5 elo1=0",
                "elo0",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --sprt elo1=5",
                "needs elo0",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --engine cmd=c --sprt elo0=0 elo1=5",
                "exactly two",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --shard 3/2",
                "--shard 3/2",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --games 0",
                "--games must be",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings order=random",
                "needs file",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings file=/nonexistent/x",
                "cannot read",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings file=x suite=default",
                "not both",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=nope",
                "no shipped opening suite nope for kaninariebi with KaniBondAnyType=false",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=nope",
                "shipped: default (rules KaniBondAnyType=false",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default \
                 --rule KaniBondAnyType=true",
                "no shipped opening suite default for kaninariebi with KaniBondAnyType=true",
            ),
            (
                "--each depth=1 --engine cmd=a --engine cmd=b --concurrency x",
                "invalid value",
            ),
            ("--bogus", "unexpected argument"),
        ];
        for (args, want) in cases {
            let got = usage(args);
            assert!(got.contains(want), "{args}: {got}");
        }
    }

    fn clap_error(args: &[&str]) -> String {
        match parse(std::iter::once("koma-referee").chain(args.iter().copied())) {
            Err(CliError::Clap(e)) => e.render().to_string(),
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn an_unknown_option_gets_the_real_usage_and_only_a_likely_suggestion() {
        for args in [
            &["--bogus"][..],
            &["--engine", "cmd=x", "depth=1", "--bogus"],
        ] {
            let e = clap_error(args);
            assert!(e.contains("unexpected argument '--bogus'"), "{e}");
            assert!(!e.contains("--rounds"), "{e}");
            assert!(
                e.contains(
                    "Usage: koma-referee --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]"
                ),
                "{e}"
            );
            assert!(e.contains("koma-referee --replay FILE"), "{e}");
        }
        let e = clap_error(&["--round", "3"]);
        assert!(e.contains("a similar argument exists: '--rounds'"), "{e}");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("round", "rounds"), 1);
    }

    #[test]
    fn report_and_replay_modes_need_no_engine() {
        let argv = ["koma-referee", "--report", "a.pgn", "b.pgn"];
        assert!(matches!(parse(argv), Ok(Mode::Report(r)) if r.files.len() == 2));
        let argv = ["koma-referee", "--replay", "a.pgn"];
        assert!(matches!(parse(argv), Ok(Mode::Replay(_))));
    }

    #[test]
    fn a_shipped_suite_is_found_by_name_for_the_match_rules() {
        let m = parse_ok(
            "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default order=random",
        );
        let o = m.openings.unwrap();
        assert_eq!(o.suite.as_deref(), Some("kaninariebi/default"));
        assert_eq!(o.source, "suite kaninariebi/default");
        assert!(o.random);
        assert!(o.lines.len() >= 1000, "{}", o.lines.len());
        let m = parse_ok(
            "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default \
             --rule KaniBondAnyType=false",
        );
        assert!(m.openings.is_some(), "the defaults, spelled out");
    }

    #[test]
    fn a_report_may_follow_its_files_and_test_them() {
        let report = |line: &str| {
            let argv = std::iter::once("koma-referee").chain(line.split_whitespace());
            match parse(argv) {
                Ok(Mode::Report(r)) => r,
                other => panic!("{line}: {other:?}"),
            }
        };
        let r = report("--report a.pgn b.pgn");
        assert_eq!((r.follow, r.sprt.is_some()), (None, false));
        let r = report("--report a.pgn --follow --sprt elo0=0 elo1=5");
        assert_eq!(r.follow, Some(Duration::from_secs(5)));
        assert_eq!(r.sprt.map(|s| s.elo1), Some(5.0));
        let r = report("--follow=0.5 --report a.pgn b.pgn");
        assert_eq!(
            (r.follow, r.files.len()),
            (Some(Duration::from_millis(500)), 2)
        );
        for (bad, words) in [
            ("--report a.pgn --follow=0", "--follow=0"),
            ("--report a.pgn --follow=x", "--follow=x"),
            ("--report a.pgn --sprt elo0=5 elo1=0", "elo0"),
            (
                "--follow --each depth=1 --engine cmd=a --engine cmd=b",
                "--report",
            ),
        ] {
            let got = usage(bad);
            assert!(got.contains(words), "{bad}: {got}");
        }
    }

    fn recorded(line: &str) -> RecordedMatch {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        recorded_match(&words).unwrap()
    }

    #[test]
    fn a_recorded_command_line_gives_the_engines_the_total_and_what_differs() {
        let a = recorded(
            "koma-referee --each depth=2 --engine cmd=/x/koma name=a --engine cmd=/y/koma \
             --engine cmd=/z/c depth=3 --rounds 2 --shard auto --pgnout m.pgn",
        );
        assert_eq!(a.engines, ["a", "koma", "c"]);
        assert_eq!(a.total_games, 2 * 3 * 2);
        let b = recorded(
            "koma-referee --each depth=2 --engine cmd=/x/koma name=a --engine cmd=/y/koma \
             --engine cmd=/z/c depth=4 --rounds 2 --shard 1/9 --pgnout other.pgn --concurrency 4",
        );
        assert_eq!(differences(&a, &b), ["engine c depth: 3 vs 4"]);
        let c = recorded(
            "koma-referee --engine cmd=/x/koma name=a tc=1+0.1 --engine cmd=/w/d tc=1+0.1 --seed 5",
        );
        let d = differences(&a, &c);
        assert_eq!(d[0], "--rounds: 2 vs 1", "{d:?}");
        assert!(
            d.contains(&"engines: a, koma, c vs a, d".to_string()),
            "{d:?}"
        );
        assert!(
            d.contains(&"engine a tc: unset vs 1+0.1".to_string()),
            "{d:?}"
        );
        assert!(recorded_match(&["koma-referee".into(), "--bogus".into()]).is_none());
    }

    #[test]
    fn the_state_file_defaults_to_the_record_file() {
        let m = parse_ok("--each depth=1 --engine cmd=a --engine cmd=b --pgnout file=x.pgn");
        assert_eq!(m.pgnout, Some(PathBuf::from("x.pgn")));
        assert_eq!(m.state, Some(PathBuf::from("x.pgn")));
        let m = parse_ok("--each depth=1 --engine cmd=a --engine cmd=b");
        assert_eq!(m.state, None);
    }
}
