//! The match's command line checked into a `MatchConfig`: every flag's
//! value and the combinations that cannot work, each refused as a `Usage`
//! error; the `-pgnout`/`-log` keys, the tournament shape, rules and SPRT.

use super::args::Cli;
use super::config::{EngineConfig, MatchConfig, Mode, Output, ReportConfig, TbConfig};
use super::engine::{engine_config, secs, split_pairs};
use super::openings::openings;
use super::{CliError, Usage, variant_named};
use crate::core::RuleValues;
use crate::games::GameId;
use crate::record::adjudicate::{self, Adjudication};
use crate::record::shard::Shard;
use crate::record::tables::{TbMode, TbRule};
use crate::referee::dialect::Dialect;
use crate::referee::matches::figures::Figures;
use crate::referee::matches::schedule::{self, NewOpening};
use crate::referee::statistics::sprt::{Model, Sprt};
use crate::referee::store::shard;
use crate::referee::variants::{Variant, Variants};
use std::path::PathBuf;
use std::time::Duration;

/// The most `--random-plies` (with `--max-plies 0`, no ply limit): far
/// beyond an opening, and a bound on the memory one takes.
const MAX_RANDOM_PLIES: u32 = 100_000;

pub(super) fn check(
    cli: Cli,
    engine_words: Vec<Vec<String>>,
    command: &str,
    (dialect, dialect_why): (Dialect, String),
    env: &dyn Fn(&str) -> Option<String>,
    variants: &Variants,
) -> Result<Mode, CliError> {
    if let Some(p) = cli.replay {
        return Ok(Mode::Replay(p, cli.tb));
    }
    if !cli.report.is_empty() {
        return report(cli);
    }
    if cli.follow.is_some() {
        return Err(Usage::new("--follow goes with --report FILE...").into());
    }
    let known = variant_named(&cli.variant, variants)?;
    let variant = known.game;
    let engines = engines(&cli.each, &engine_words)?;
    let rules = rule_options(variant, &cli.rules)?;
    let positive = |v: u64, what: &str| {
        if v == 0 {
            Err(Usage::new(format!("{what} must be at least 1")))
        } else {
            Ok(())
        }
    };
    let (default_games, default_rounds) = dialect.defaults();
    let games = cli.games.unwrap_or(default_games);
    let rounds = cli.rounds.unwrap_or(default_rounds);
    positive(u64::from(games), "--games")?;
    positive(u64::from(rounds), "--rounds")?;
    let cutechess_openings = cutechess_openings(dialect, cli.opening_repeat, &cli.openings)?;
    let timeouts = cli.timeouts.timeouts()?;
    let sprt = sprt_of(&cli.sprt, engines.len())?;
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
            let (shard, derived) = shard::resolve(s, env).map_err(|e| Usage(e.to_string()))?;
            (Some(shard), derived)
        }
        None => (None, false),
    };
    let strict = cli.strict;
    let pgnout = output_file(&cli.pgnout, "--pgnout", PGNOUT_KEYS, strict)?;
    let epdout = output_file(&cli.epdout, "--epdout", EPDOUT_KEYS, strict)?;
    note_san(&cli.pgnout);
    let overwrite = |words: &[String]| words.iter().any(|w| w == "append=false");
    let log = output_file(&cli.log, "--log", LOG_KEYS, strict)?;
    let adjudication = adjudication(&cli.draw, &cli.resign)?;
    let tb = tablebase(&cli, known, variants)?;
    ply_limits(&cli)?;
    let seeds = tournament(&cli.tournament, cli.seeds, engines.len())?;
    schedule_size(engines.len(), games, rounds, seeds)?;
    let affinity = match cli.use_affinity.as_deref() {
        None => None,
        Some(list) => {
            Some(crate::referee::matches::affinity::cpus(list).map_err(|e| Usage(e.to_string()))?)
        }
    };
    // cutechess-cli's users get its lines unless they ask for others.
    let output = match (cli.output.as_deref(), dialect) {
        (None, Dialect::Cutechess) => Output::Cutechess,
        (o, _) => output_format(o)?,
    };
    let (pgnout, state) = record_paths(pgnout, cli.state, shard, derived, cli.shard.as_deref())?;
    Ok(Mode::Match(Box::new(MatchConfig {
        engines,
        variant,
        rules,
        games,
        rounds,
        dialect,
        dialect_why,
        cutechess_openings,
        openings,
        random_plies: cli.random_plies,
        concurrency: cli.concurrency,
        max_plies: (cli.max_plies > 0).then_some(cli.max_plies),
        max_moves: cli.max_moves,
        adjudication,
        tb,
        seeds,
        affinity,
        output,
        score_interval: cli.score_interval,
        wait: Duration::from_millis(cli.wait),
        spin_wait: cli.spin_wait.map(Duration::from_micros),
        site: cli.site,
        strict: cli.strict,
        epdout,
        config_out: config_out(&cli.config)?,
        overwrite_pgnout: overwrite(&cli.pgnout),
        figures: Figures::from_keys(&cli.pgnout),
        overwrite_epdout: overwrite(&cli.epdout),
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

/// `--sprt` when given: for exactly two engines.
fn sprt_of(words: &[String], engines: usize) -> Result<Option<Sprt>, CliError> {
    if words.is_empty() {
        return Ok(None);
    }
    if engines != 2 {
        return Err(Usage::new("--sprt needs exactly two engines").into());
    }
    Ok(Some(sprt(&split_pairs(words, "--sprt")?)?))
}

/// `--pgnout notation=san` is accepted, with a note of what it gets.
fn note_san(pgnout: &[String]) {
    if pgnout.iter().any(|w| w == "notation=san") {
        eprintln!(
            "koma-referee: note: --pgnout notation=san: these games have no SAN; the records \
             use Koma's notation (protocol.md), as for uci and lan"
        );
    }
}

/// cutechess-cli's opening policy (`-repeat`, `policy=`); refused in the
/// other dialects' counting.
fn cutechess_openings(
    dialect: Dialect,
    opening_repeat: Option<u32>,
    openings: &[String],
) -> Result<Option<NewOpening>, Usage> {
    let policy = openings
        .iter()
        .find_map(|w| w.strip_prefix("policy="))
        .unwrap_or("default");
    let new_opening = match (dialect, opening_repeat, policy) {
        (Dialect::Cutechess, _, "encounter") => Some(NewOpening::Encounter),
        (Dialect::Cutechess, _, "round") => Some(NewOpening::Round),
        (Dialect::Cutechess, Some(0), _) => {
            return Err(Usage::new("-repeat must be at least 1"));
        }
        (Dialect::Cutechess, n, _) => Some(NewOpening::Every(n.unwrap_or(1))),
        (d, Some(_), _) => {
            return Err(Usage::new(format!(
                "--opening-repeat is cutechess-cli's -repeat; in {}'s counting -repeat N is \
                 --games N (--dialect cutechess for cutechess-cli's)",
                d.name()
            )));
        }
        (d, None, "encounter" | "round") => {
            return Err(Usage::new(format!(
                "--openings policy={policy} is cutechess-cli's: {}'s counting gives each pair \
                 of games its opening (--dialect cutechess for cutechess-cli's)",
                d.name()
            )));
        }
        (_, None, _) => None,
    };
    Ok(new_opening)
}

/// `--max-moves` and `--random-plies` against `--max-plies`.
fn ply_limits(cli: &Cli) -> Result<(), Usage> {
    if cli.max_moves == Some(0) {
        return Err(Usage::new("--max-moves must be at least 1"));
    }
    // Random plies are played (and kept) before each game: a count from a
    // typo would grow one opening without end, the ply limit reached long
    // before.
    if cli.max_plies > 0 && cli.random_plies >= cli.max_plies {
        return Err(Usage::new(format!(
            "--random-plies {} reaches --max-plies {}: every game would end at the ply limit \
             before an engine moves",
            cli.random_plies, cli.max_plies
        )));
    }
    if cli.random_plies > MAX_RANDOM_PLIES {
        return Err(Usage::new(format!(
            "--random-plies {}: at most {MAX_RANDOM_PLIES}",
            cli.random_plies
        )));
    }
    Ok(())
}

/// A schedule small enough to build in memory.
fn schedule_size(
    engines: usize,
    games: u32,
    rounds: u32,
    seeds: Option<usize>,
) -> Result<(), Usage> {
    let total = schedule::count(engines, games, rounds, seeds);
    if total > schedule::MAX_GAMES {
        return Err(Usage::new(format!(
            "--rounds {} with --games {} schedule {total} games, more than the {} a match \
             holds (its schedule is built in memory)",
            rounds,
            games,
            schedule::MAX_GAMES
        )));
    }
    Ok(())
}

/// The record and state files, named from the shard when it was derived
/// from the environment (`given` is `--shard`'s value).
fn record_paths(
    mut pgnout: Option<PathBuf>,
    state: Option<PathBuf>,
    shard: Option<Shard>,
    derived: bool,
    given: Option<&str>,
) -> Result<(Option<PathBuf>, Option<PathBuf>), Usage> {
    let mut state = state.or_else(|| pgnout.clone());
    if let Some(s) = shard.filter(|_| derived) {
        if state.is_none() {
            return Err(Usage::new(format!(
                "--shard {}: give --pgnout FILE (or --state FILE): every task of the array runs \
                 this command, and each writes its own file, named from its shard",
                given.unwrap_or_default()
            )));
        }
        pgnout = pgnout.map(|p| shard::derived_path(&p, s));
        state = state.map(|p| shard::derived_path(&p, s));
    }
    Ok((pgnout, state))
}

/// `--report FILE...`: the files, `--json`, `--follow`'s period and the
/// SPRT to judge them by.
fn report(cli: Cli) -> Result<Mode, CliError> {
    let follow = match cli.follow.as_deref() {
        None => None,
        Some(v) => Some(
            secs(v)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| Usage::new(format!("--follow={v}: expected seconds above 0")))?,
        ),
    };
    let sprt = if cli.sprt.is_empty() {
        None
    } else {
        Some(sprt(&split_pairs(&cli.sprt, "--sprt")?)?)
    };
    Ok(Mode::Report(ReportConfig {
        adjudication: adjudication(&cli.draw, &cli.resign)?,
        files: cli.report,
        json: cli.json,
        follow,
        sprt,
    }))
}

/// `--tb DIR` with `--tb-pieces` and `--tb-adjudicate`: only for a game
/// with endgame tables, and a folder that exists.
fn tablebase(cli: &Cli, variant: &Variant, all: &Variants) -> Result<Option<TbConfig>, Usage> {
    let mode = TbMode::parse(&cli.tb_adjudicate).ok_or_else(|| {
        Usage::new(format!(
            "--tb-adjudicate {}: expected WIN_LOSS, DRAW or BOTH",
            cli.tb_adjudicate
        ))
    })?;
    let Some(dir) = &cli.tb else {
        if cli.tb_pieces.is_some() {
            return Err(Usage::new("--tb-pieces goes with --tb DIR"));
        }
        return Ok(None);
    };
    if !variant.layered {
        let with: Vec<&str> = (all.iter())
            .filter(|v| v.layered)
            .map(|v| v.game.name())
            .collect();
        return Err(Usage::new(format!(
            "--tb: {} has no endgame tables (only {} has: koma solve {})",
            variant.game.name(),
            with.join(", "),
            with.first().copied().unwrap_or("GAME"),
        )));
    }
    if !dir.is_dir() {
        return Err(Usage::new(format!(
            "--tb {}: no such folder",
            dir.display()
        )));
    }
    Ok(Some(TbConfig {
        dir: dir.clone(),
        rule: TbRule {
            pieces: cli.tb_pieces,
            mode,
        },
    }))
}

/// The `--engine` occurrences with the `--each` keys: at least two, each
/// with its own name.
fn engines(each: &[String], engine_words: &[Vec<String>]) -> Result<Vec<EngineConfig>, Usage> {
    if engine_words.len() < 2 {
        return Err(Usage::new(format!(
            "a match needs at least two --engine, got {}",
            engine_words.len()
        )));
    }
    let each = split_pairs(each, "--each")?;
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
            )));
        }
    }
    Ok(engines)
}

/// `--draw` and `--resign`, each when given.
fn adjudication(draw: &[String], resign: &[String]) -> Result<Adjudication, Usage> {
    let usage = |e: adjudicate::AdjudicationError| Usage(e.to_string());
    Ok(Adjudication {
        draw: (!draw.is_empty())
            .then(|| adjudicate::draw_rule(&split_pairs(draw, "--draw")?).map_err(usage))
            .transpose()?,
        resign: (!resign.is_empty())
            .then(|| adjudicate::resign_rule(&split_pairs(resign, "--resign")?).map_err(usage))
            .transpose()?,
    })
}

/// `--config`'s keys: the file the match writes (fastchess's outname,
/// `config.json` by default), when `--config` is given.
fn config_out(keys: &[String]) -> Result<Option<PathBuf>, Usage> {
    if keys.is_empty() {
        return Ok(None);
    }
    let mut out = PathBuf::from("config.json");
    for (k, v) in split_pairs(keys, "--config")? {
        match k.as_str() {
            "outname" => out = PathBuf::from(v),
            "file" | "discard" | "stats" => {}
            _ => {
                return Err(Usage::new(format!(
                    "--config: unknown key {k} (expected file, outname, discard, stats)"
                )));
            }
        }
    }
    Ok(Some(out))
}

/// `--output format=…`: which lines the match prints.
fn output_format(output: Option<&str>) -> Result<Output, Usage> {
    match output.map(|o| o.strip_prefix("format=").unwrap_or(o)) {
        None | Some("fastchess") => Ok(Output::Fastchess),
        Some("cutechess") => Ok(Output::Cutechess),
        Some("json") => Ok(Output::Json),
        Some(other) => Err(Usage::new(format!(
            "--output format={other}: expected fastchess, cutechess or json"
        ))),
    }
}

/// A key of fastchess's `-pgnout` or `-log`: the values Koma honours, and
/// those it accepts with a warning that they change nothing.
pub(super) type FileKey = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// Koma's records use the protocol's coordinate moves (uci, lan) and carry
/// score, depth and time per move whatever the switches say.
pub(super) const PGNOUT_KEYS: &[FileKey] = &[
    // These games have no SAN: san is written as Koma's notation (a note).
    ("notation", &["uci", "lan", "san"], &[]),
    ("append", &["true", "false"], &[]),
    ("nodes", &["false", "true"], &[]),
    ("seldepth", &["false", "true"], &[]),
    ("nps", &["false", "true"], &[]),
    ("hashfull", &["false"], &["true"]),
    ("tbhits", &["false"], &["true"]),
    ("pv", &["false", "true"], &[]),
    ("timeleft", &["false", "true"], &[]),
    ("latency", &["false"], &["true"]),
    ("min", &["false"], &["true"]),
];

/// fastchess's `-epdout file=F append=false`.
pub(super) const EPDOUT_KEYS: &[FileKey] = &[("append", &["true", "false"], &[])];

/// Koma's log is the engines' traffic (fastchess's engine=true), appended
/// to and written line by line; the referee's own messages go to stderr.
pub(super) const LOG_KEYS: &[FileKey] = &[
    ("engine", &["true"], &[]),
    ("append", &["true"], &[]),
    ("realtime", &["true"], &[]),
    ("compress", &["false"], &[]),
    ("level", &[], &["trace", "info", "warn", "err", "fatal"]),
];

/// `FILE` or `file=FILE`, then `KEY=VALUE` words among `keys` (and
/// cutechess-cli's bare `min` and `fi` for `--pgnout`): the file. A word
/// that changes nothing is warned about, or refused under `--strict`.
pub(super) fn output_file(
    words: &[String],
    flag: &str,
    keys: &[FileKey],
    strict: bool,
) -> Result<Option<PathBuf>, Usage> {
    let mut file = None;
    let warn = |w: &str| {
        let w = format!("{flag} {w} changes nothing: see docs/referee.md");
        if strict {
            return Err(Usage::new(format!("--strict: warning: {w}")));
        }
        eprintln!("koma-referee: warning: {w}");
        Ok(())
    };
    for w in words {
        match w.split_once('=') {
            Some(("file", f)) => file = Some(PathBuf::from(f)),
            // OpenBench's: lines of the engines' output kept in the
            // records, which Koma's records do not keep.
            Some(("match_line", _)) if flag == "--pgnout" => warn(w)?,
            Some((k, v)) => match keys.iter().find(|(n, _, _)| *n == k) {
                Some((_, ok, _)) if ok.contains(&v) => {}
                Some((_, _, ignored)) if ignored.contains(&v) => warn(w)?,
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
            None if flag == "--pgnout" && file.is_some() && (w == "min" || w == "fi") => warn(w)?,
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
pub(super) fn tournament(
    kind: &str,
    seeds: Option<usize>,
    engines: usize,
) -> Result<Option<usize>, Usage> {
    match kind {
        // cutechess-cli's spelling.
        "round-robin" => tournament("roundrobin", seeds, engines),
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

pub(super) fn rule_options(game: GameId, rules: &[String]) -> Result<RuleValues, Usage> {
    let pairs = rules
        .iter()
        .map(|r| {
            r.split_once('=')
                .ok_or_else(|| Usage::new(format!("expected NAME=VALUE after --rule, got {r}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    game.read_rules(pairs).map_err(Usage::new)
}

pub(super) fn sprt(keys: &[(String, String)]) -> Result<Sprt, Usage> {
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
                    "bayesian" => {
                        return Err(Usage::new(
                            "--sprt model=bayesian is not supported: Koma's SPRT reads the \
                             colour-swapped pairs, for which fastchess's BayesElo model falls \
                             back to logistic anyway; give model=normalized (the default) or \
                             model=logistic",
                        ));
                    }
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
