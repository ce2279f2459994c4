//! The arguments as clap reads them (`Cli`), their help texts, and the
//! timeout flags the referee shares with the web board.

use super::Usage;
use crate::client::handshake::Timeouts;
use crate::core::OptionKind;
use crate::games::GameId;
use clap::{ArgAction, Parser};
use std::path::PathBuf;
use std::time::Duration;

pub(super) const ABOUT: &str = "Plays matches between engines that speak Koma's protocol, checks every move with \
Koma's rules library, and reports results (Elo, LOS, pentanomial pairs, SPRT).";

/// `--rule`'s help: every game's rule options with their values and what
/// each decides, as the registry has them.
fn rule_help() -> String {
    let mut s = "A rule option of the game: applied by the referee and sent to every engine. \
                 Repeat for several. By --variant (the default value first):"
        .to_string();
    for &g in GameId::ALL {
        let specs = g.rule_specs();
        if specs.is_empty() {
            s += &format!("\n  {g}: none");
            continue;
        }
        s += &format!("\n  {g}:");
        for o in specs {
            s += &format!("\n    {}={}", o.name, values(&o.kind));
            if !o.help.is_empty() {
                s += &format!("\n        {}", o.help);
            }
        }
    }
    s
}

/// The values an option takes, its default first.
fn values(kind: &OptionKind) -> String {
    match kind {
        OptionKind::Check { default } => format!("{default}|{}", !default),
        OptionKind::Spin { default, min, max } => format!("{default} ({min} to {max})"),
        OptionKind::Combo { default, values } => {
            let others = values.iter().filter(|v| *v != default);
            std::iter::once(default)
                .chain(others)
                .copied()
                .collect::<Vec<_>>()
                .join("|")
        }
        OptionKind::Text { default } => format!("TEXT (default {default})"),
        OptionKind::Button => "(no value)".into(),
    }
}

pub(super) const AFTER: &str = "\
Engine keys (for --engine and --each):
  cmd=PATH            the engine program (required)
  name=NAME           its name in results (default: the program's file name); no control
                      characters (newline, tab, ...)
  args=\"A B\"          arguments, split at blanks
  dir=DIR             working directory; a relative cmd with a / is taken from there
  option.NAME=VALUE   sent as setoption name NAME value VALUE; an engine that answers it with
                      info string error stops the match before the first game (exit 2)
  tc=[M/]BASE[+INC]   clock in seconds: BASE, plus INC per move, BASE again every M moves;
                      BASE at least 0.001 (the first move has BASE alone)
  st=SECONDS          fixed time per move (go movetime), at least 0.001
  depth=N, nodes=N    search limits sent with go, at least 1 (plies=N is depth=N)
  timemargin=MS       this engine's --timemargin
  restart=on|off      on: a fresh process for every game (default off)
  proto=uci           accepted: the protocol is Koma's, UCI's shape; any other is refused
  arg=A               one more argument (cutechess-cli), after args=
  Each engine needs at least one of tc, st, depth, nodes. tc=inf means no clock.

fastchess and cutechess-cli command lines are read as they are typed (docs/referee.md).
Their counts differ (cutechess-cli's -rounds 10 is 10 games, fastchess's 20): a line is
counted as --dialect says, else as the program's name (installed as cutechess-cli or
fastchess), else as the options only one tool has, else a single-dash line as fastchess's;
the schedule is printed before the first game. Their options, whose they are, and what
Koma makes of each:
{SPELLINGS}
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
not UTF-8, is reported and the others are still checked. A tablebase adjudication is checked
against the tables with --tb DIR (the same tables); without it the replay says how many were not. --replay and --report read only
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

/// `AFTER` with the table of fastchess's and cutechess-cli's options.
fn after_help() -> String {
    AFTER.replace(
        "{SPELLINGS}",
        &crate::referee::foreign_options::help_table(),
    )
}

/// The three ways to run the referee, shown with every usage error (clap's
/// own usage line would be built from whichever options it had seen).
pub(super) const USAGE: &str = "\
koma-referee --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]
       koma-referee -engine KEY=VALUE... -engine KEY=VALUE... [fastchess OPTIONS]
       koma-referee --report FILE... [--json]
       koma-referee --replay FILE
       koma-referee --compliance CMD [ARG...]";

#[derive(Parser, Debug)]
// The last of a repeated option wins, as in fastchess (`-games 2 -repeat 2`).
#[command(name = "koma-referee", version, about = ABOUT, after_help = after_help(), override_usage = USAGE,
          args_override_self = true)]
pub(super) struct Cli {
    /// An engine, as KEY=VALUE words (see below). Give two, or more for a round robin.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub(super) engine: Vec<String>,

    /// Settings for every engine, same keys as --engine; an engine's own settings win.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub(super) each: Vec<String>,

    /// The game, by its UCI_Variant name (an unknown name lists the known ones).
    #[arg(long, value_name = "NAME", default_value = GameId::DEFAULT.name())]
    pub(super) variant: String,

    #[arg(long = "rule", value_name = "NAME=VALUE", action = ArgAction::Append,
          help = rule_help())]
    pub(super) rules: Vec<String>,

    /// Games per encounter per round (default 2; fastchess's 2, cutechess-cli's 1); consecutive
    /// games form pairs on one opening with colours swapped.
    #[arg(long, value_name = "N")]
    pub(super) games: Option<u32>,

    /// Rounds: each round every encounter plays --games games (default 1; fastchess's 2,
    /// cutechess-cli's 1; at most 10 million games in all: the schedule is built in memory).
    #[arg(long, value_name = "N")]
    pub(super) rounds: Option<u32>,

    /// Whose counting of --rounds, --games and -repeat: koma, fastchess or cutechess
    /// (cutechess-cli). Without it: the program's name (installed as fastchess or
    /// cutechess-cli), else the options only one tool has, else fastchess's for a line of
    /// single-dash options and Koma's for --long ones. The schedule is printed before the
    /// first game.
    #[arg(long, value_name = "koma|fastchess|cutechess")]
    pub(super) dialect: Option<String>,

    /// cutechess-cli's -repeat N: each opening is played N times in a row by an encounter,
    /// colours alternating (cutechess dialect only).
    #[arg(long, value_name = "N")]
    pub(super) opening_repeat: Option<u32>,

    /// Opening book: file=FILE or suite=NAME, [order=sequential|random] [plies=N] [start=N]
    /// [format=epd|pgn]. One opening per line: a position string, a move list, or both
    /// ("<position> moves <moves>"); # starts a comment line. format=pgn reads a record file
    /// (--pgnout) instead: each record's start and moves. plies=N keeps N moves of each,
    /// start=N begins at the N-th. suite=default plays the balanced suite shipped for the
    /// variant and rule options.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) openings: Vec<String>,

    /// Random legal moves added after the opening (none of them ending the game); fewer than
    /// --max-plies, and at most 100000.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(super) random_plies: u32,

    /// Games played at the same time.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(super) concurrency: usize,

    /// Adjudicate a draw when the game reaches this many plies (opening included); 0: never.
    /// A game played without a draw by repetition (a rule option may turn it off) could
    /// otherwise cycle for ever.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(super) max_plies: u32,

    /// Milliseconds an engine may exceed its clock before it loses on time (its clock is sent
    /// unchanged). On a busy machine moves overrun however well an engine keeps time: the
    /// referee warns then, and after time losses says how large the overruns were.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub(super) timemargin: u64,

    /// Seed of the schedule: opening order and random plies.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(super) seed: u64,

    /// Sequential test: elo0=E elo1=E [alpha=0.05] [beta=0.05] [model=normalized|logistic].
    /// The match stops when the log-likelihood ratio crosses a bound. Two engines only. With
    /// --report: the test of the pooled games, its verdict in the exit status.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) sprt: Vec<String>,

    /// Append each game's record to FILE as it ends (also written file=FILE; fastchess's
    /// notation=uci|lan, append=true and the nodes=, nps=, ... switches are read, see
    /// docs/referee.md).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(super) pgnout: Vec<String>,

    /// Append each game's final position to FILE as it ends, one position string a line
    /// (also written file=FILE). Not a book (most games end over): for openings from played
    /// games give --openings file=RECORDS format=pgn plies=N.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(super) epdout: Vec<String>,

    /// Adjudicate a draw once both engines have reported |score| <= CP for N moves each in a
    /// row, from full move M on: movenumber=M movecount=N score=CP. With --report: what the
    /// rule would have done to the recorded games (calls, calls against the result, plies).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) draw: Vec<String>,

    /// Adjudicate a loss once an engine has reported a score of -CP or worse (or being mated)
    /// for N of its moves in a row: movecount=N score=CP [twosided=true: both engines must
    /// agree, N moves each]. With --report: checked on the recorded games, as --draw.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) resign: Vec<String>,

    /// Adjudicate a draw after N full moves of the engines (the opening not counted), as
    /// fastchess's -maxmoves; --max-plies applies too.
    #[arg(long, value_name = "N")]
    pub(super) max_moves: Option<u32>,

    /// Adjudicate by the endgame tables in DIR (`koma solve`'s folder; games with tables only):
    /// a position they hold ends the game with their result, as --tb-adjudicate allows. With
    /// --replay: check the records' tablebase adjudications against them.
    #[arg(long, value_name = "DIR")]
    pub(super) tb: Option<std::path::PathBuf>,

    /// With --tb: only positions of at most N pieces (default: every table present).
    #[arg(long, value_name = "N")]
    pub(super) tb_pieces: Option<u32>,

    /// With --tb: the results the tables call: WIN_LOSS, DRAW or BOTH.
    #[arg(long, value_name = "MODE", default_value = "BOTH")]
    pub(super) tb_adjudicate: String,

    /// roundrobin: every engine plays every other; gauntlet: the first --seeds engines play
    /// every other engine, the others do not meet.
    #[arg(long, value_name = "roundrobin|gauntlet", default_value = "roundrobin")]
    pub(super) tournament: String,

    /// With --tournament gauntlet: how many engines, from the first, are seeds.
    #[arg(long, value_name = "N")]
    pub(super) seeds: Option<usize>,

    /// Pin each concurrent game's engines to their own CPU: all the CPUs the referee may run
    /// on, or the list given (0,2,4-7), dealt out to the games by worker.
    #[arg(long, value_name = "CPUS", num_args = 0..=1, default_missing_value = "")]
    pub(super) use_affinity: Option<String>,

    /// format=fastchess (the default): fastchess's lines; format=cutechess: cutechess-cli's
    /// (Score of A vs B: W - L - D [p] N); format=json: fastchess's, and the end summary as
    /// one JSON object on the last line.
    #[arg(long, value_name = "format=FORMAT")]
    pub(super) output: Option<String>,

    /// With --output format=cutechess: a Score line every N games (fastchess's
    /// -scoreinterval).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(super) score_interval: u64,

    /// Milliseconds each worker waits between its games (fastchess's and
    /// cutechess-cli's -wait).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub(super) wait: u64,

    /// Microseconds a game's thread may poll its engine's pipes after each command before it
    /// sleeps (0: never). By default 200 where each game has a core to spare beside its
    /// engine's threads, else 0.
    #[arg(long, value_name = "US", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub(super) spin_wait: Option<u64>,

    /// The records' Site tag (default: the host the referee runs on).
    #[arg(long, value_name = "NAME")]
    pub(super) site: Option<String>,

    /// Any warning is an error: at the start exit status 2, during the match
    /// the match stops (exit status 1), as fastchess's -strict.
    #[arg(long)]
    pub(super) strict: bool,

    /// fastchess's -config: [file=FILE] [outname=FILE] [discard=true] [stats=false]. The match
    /// writes outname (config.json) as it ends: fastchess's layout with the command line;
    /// file=FILE runs the command a config file written so holds again, which resumes from
    /// its record file; discard=true does not read it.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) config: Vec<String>,

    /// With --report: print the summary as one JSON object.
    #[arg(long, requires = "report")]
    pub(super) json: bool,

    /// Check an engine against the protocol instead of playing: the program and its
    /// arguments; each variant it declares (or --variant's) is tried. Exit 0 when every
    /// check passes, 1 otherwise.
    #[arg(long, value_name = "CMD", num_args = 1..,
          conflicts_with_all = ["engine", "report", "replay"])]
    pub(super) compliance: Vec<String>,

    /// State file (records of the finished games) for resuming after an interruption;
    /// defaults to the --pgnout file.
    #[arg(long, value_name = "FILE")]
    pub(super) state: Option<PathBuf>,

    /// Log every line to and from every engine, timestamped, to FILE (also file=FILE;
    /// fastchess's level=, engine=, append=true and realtime= are read). A write that fails (a
    /// full disk) is warned about once and named in the summary.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(super) log: Vec<String>,

    /// Restart an engine that crashed or stalled, and go on with the match.
    #[arg(long)]
    pub(super) recover: bool,

    /// Play only shard I of N (pairs are dealt out in turn); merge with --report. auto: the
    /// shard of this task of a Slurm job array (SLURM_ARRAY_TASK_ID and _COUNT), or with
    /// auto/N of an indexed Kubernetes Job (JOB_COMPLETION_INDEX); the --pgnout and --state
    /// file names then get the shard's index (games.pgn -> games.shard-2-of-4.pgn).
    #[arg(long, value_name = "I/N|auto[/N]")]
    pub(super) shard: Option<String>,

    /// Print the pooled summary of record files (the shards of one match) instead of playing;
    /// records of different matches are refused, naming the difference. With --sprt, the
    /// SPRT state and its verdict in the exit status.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["engine", "replay"])]
    pub(super) report: Vec<PathBuf>,

    /// With --report: keep reading the files as they grow (every SECONDS, default 5), print the
    /// pooled summary as games come in, and exit once an SPRT bound is crossed or every game
    /// of the match is in.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, require_equals = true,
          default_missing_value = "5")]
    pub(super) follow: Option<String>,

    /// Re-validate a record file with the rules library instead of playing.
    #[arg(long, value_name = "FILE", conflicts_with = "engine")]
    pub(super) replay: Option<PathBuf>,

    /// Print a summary every N finished games (0: only at the end).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub(super) rating_interval: u64,

    #[command(flatten)]
    pub(super) timeouts: TimeoutArgs,

    /// The Event tag of the records.
    #[arg(long, value_name = "NAME", default_value = "koma-referee match")]
    pub(super) event: String,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `--rule`'s help is read from the registry: every game with every
    /// rule option it reads, each value it takes, and what it decides.
    #[test]
    fn the_rule_help_lists_every_games_rule_options() {
        let help = rule_help();
        for &g in GameId::ALL {
            // The game's block: its line, two spaces in, and the deeper
            // lines under it.
            let game: String = help
                .lines()
                .skip_while(|l| !l.starts_with(&format!("  {g}:")))
                .enumerate()
                .take_while(|(i, l)| *i == 0 || l.starts_with("    "))
                .map(|(_, l)| l.trim_start().to_string() + "\n")
                .collect();
            assert!(!game.is_empty(), "{g} missing: {help}");
            let game = game.trim_end();
            if g.rule_specs().is_empty() {
                assert_eq!(game, format!("{g}: none"));
            }
            for spec in g.rule_specs() {
                let line = game
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{}=", spec.name)))
                    .unwrap_or_else(|| panic!("{} missing: {game}", spec.name));
                if let OptionKind::Combo { values, .. } = spec.kind {
                    assert!(values.iter().all(|v| line.contains(v)), "{line}");
                }
                assert!(!spec.help.is_empty(), "{} has no description", spec.name);
                assert!(game.contains(spec.help), "{game}");
            }
        }
    }
}
