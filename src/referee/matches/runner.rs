//! The match: the schedule less the games already in the state file, dealt
//! to `--concurrency` worker threads. Each worker owns its engine
//! processes (started on demand, restarted after a crash with `--recover`)
//! and plays one game at a time; results are recorded, printed and counted
//! as each game ends, and the match stops early when the SPRT decides or an
//! engine dies without `--recover`.

use super::game::{self, GameEnd, GameSetup};
use super::interrupt;
use super::opening::add_random_plies;
use super::schedule::{self, GameSpec, NewOpening, Rng};
use super::tablebase::Judge;
use super::time_losses::TimeLosses;
use super::{affinity, busy, spin};
use crate::client::engine_log::{EngineLog, record_date};
use crate::client::handshake::{self, EngineStart, StartError};
use crate::client::pipe;
use crate::client::seat::Seat;
use crate::core::{Color, Game, LineError, RuleValues, Rules, with_defaults};
use crate::games::Registered;
use crate::protocol::record::Record;
use crate::record::opening::{Opening, check};
use crate::record::{self, RecordHeader, tags};
use crate::referee::RunError;
use crate::referee::cli::{MatchConfig, Output, Usage};
use crate::referee::statistics::cutechess;
use crate::referee::statistics::json;
use crate::referee::statistics::report::{self, ResultRow};
use crate::referee::statistics::sprt::Decision;
use crate::referee::statistics::thinking::Thinking;
use crate::referee::store::files::{FileError, RECORD, STATE, same_file};
use crate::referee::store::lock::FileLock;
use crate::referee::store::records::{self, RecordSink};
use crate::referee::store::state;
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Prints a line to stdout; a closed stdout must not stop the match.
fn out(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}

/// How long a finished match waits for each engine to quit by itself.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Everything the workers share.
struct Ctx<'a, G: Game> {
    cfg: &'a MatchConfig,
    /// `--tb`: the endgame tables, shared by the workers.
    tablebase: Option<Judge<G>>,
    rules: G::Rules,
    rule_values: RuleValues,
    book: Vec<Opening>,
    book_order: Vec<usize>,
    log: Option<EngineLog>,
    fingerprint: String,
    context: String,
    /// The host, for the records' `Site` tag.
    site: String,
    /// The games of this run (of its shard).
    games: usize,
    /// The games of the whole match, for `Started game N of M`.
    total_games: usize,
    /// Each engine's `id name`, as its last start sent it.
    ids: Mutex<Vec<Option<String>>>,
    queue: Mutex<VecDeque<GameSpec>>,
    stop: AtomicBool,
    results: Mutex<Results>,
}

struct Results {
    rows: Vec<ResultRow>,
    sink: Option<RecordSink>,
    /// Why the match stopped early, if it did.
    abort: Option<String>,
    sprt_decided: bool,
    /// The SPRT's verdict, once it has one.
    sprt_decision: Option<Decision>,
    warned: Vec<bool>,
    games_now: u64,
    engine_moves: u64,
    /// By engine, this run's games only.
    thinking: Vec<Thinking>,
    /// `--epdout`: the last position of every game.
    epd: Option<std::fs::File>,
    /// This run's games lost on time.
    time_losses: TimeLosses,
}

/// Runs a match of game `G`; `Err` for a usage error found late (a bad
/// opening, an unwritable file).
pub fn run<G: Registered>(cfg: &MatchConfig) -> Result<ExitCode, RunError> {
    let (ctx, locks) = prepare::<G>(cfg)?;
    let (wall, cpu) = ctx.play_all();
    let code = conclude(ctx, wall, cpu);
    // The record files stay locked until the last record is written.
    drop(locks);
    Ok(code)
}

/// Why a game could not be played: the referee's own fault, which its
/// checks at start rule out (the match stops with it).
#[derive(Debug)]
enum Internal {
    /// The game's two seats are not two of the match's.
    Seats(std::slice::GetDisjointMutError),
    NoEngine,
    /// The opening does not replay under the rules.
    Opening(LineError),
}

impl std::fmt::Display for Internal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Internal::Seats(e) => write!(f, "engine seats: {e:?}"),
            Internal::NoEngine => f.write_str("an engine is missing after its start"),
            Internal::Opening(e) => e.fmt(f),
        }
    }
}

/// The rules, and the opening book checked under them.
struct Book<R> {
    rules: R,
    rule_values: RuleValues,
    book: Vec<Opening>,
    book_order: Vec<usize>,
}

/// Everything before the first game: the engines' programs, the rules and
/// the openings checked, the files locked and opened, finished games read
/// back from the state file, the match announced.
fn prepare<G: Registered>(cfg: &MatchConfig) -> Result<(Ctx<'_, G>, Locks), RunError> {
    let book = check_inputs::<G>(cfg)?;
    let mut specs = schedule::build(
        cfg.engines.len(),
        cfg.games,
        cfg.rounds,
        cfg.seeds,
        cfg.cutechess_openings,
    );
    let total_all = specs.len();
    if let Some(s) = cfg.shard {
        specs = schedule::shard(specs, s.index, s.count);
        if cfg.sprt.is_some() {
            eprintln!(
                "koma-referee: warning: --sprt with --shard stops this shard on its own games' \
                 verdict; for one verdict on the pooled games run the shards without --sprt and \
                 koma-referee --report FILE... --follow --sprt ... over their files"
            );
        }
    }
    let fingerprint = state::fingerprint(cfg);
    let log = match &cfg.log {
        Some(p) => Some(EngineLog::open(p).map_err(FileError::io("open", "log", p))?),
        None => None,
    };
    let mut locks = lock_files(cfg)?;
    // With the locks held, as while any engine of the match runs.
    refused_options::<G>(cfg, &book.rule_values)?;
    let files = open_files(cfg, &fingerprint, &mut locks)?;
    let done = files.done;
    let in_shard: std::collections::BTreeSet<u64> = specs.iter().map(|s| s.number).collect();
    let rows: Vec<ResultRow> = done
        .values()
        .filter_map(report::row_of)
        .filter(|r| in_shard.contains(&r.game))
        .collect();
    let todo: VecDeque<GameSpec> = specs
        .iter()
        .filter(|s| !done.contains_key(&s.number))
        .cloned()
        .collect();
    let context = context(cfg);
    announce(cfg, &context, specs.len(), total_all, rows.len());
    busy::warn(cfg, todo.len());
    let tablebase = cfg
        .tb
        .as_ref()
        .and_then(|tb| Judge::open(&tb.dir, &book.rules, tb.rule));
    let ctx = Ctx::<G> {
        cfg,
        tablebase,
        rules: book.rules,
        rule_values: book.rule_values,
        book: book.book,
        book_order: book.book_order,
        log,
        fingerprint,
        context,
        site: cfg.site.clone().unwrap_or_else(records::host_name),
        games: specs.len(),
        total_games: total_all,
        ids: Mutex::new(vec![None; cfg.engines.len()]),
        queue: Mutex::new(todo),
        stop: AtomicBool::new(false),
        results: Mutex::new(Results {
            rows,
            sink: files.sink,
            abort: None,
            sprt_decided: false,
            sprt_decision: None,
            warned: vec![false; cfg.engines.len()],
            games_now: 0,
            engine_moves: 0,
            thinking: vec![Thinking::default(); cfg.engines.len()],
            epd: files.epd,
            time_losses: TimeLosses::default(),
        }),
    };
    {
        let mut res = ctx.results.lock().unwrap_or_else(|e| e.into_inner());
        ctx.check_sprt(&mut res);
    }
    Ok((ctx, locks))
}

/// What can be checked before anything is opened: every engine's program
/// runs, the rules are valid, every opening replays under them. A program
/// that cannot run would lose every game it is in: it is named first.
fn check_inputs<G: Game>(cfg: &MatchConfig) -> Result<Book<G::Rules>, RunError> {
    let usage = |why: String| RunError::Usage(Usage(why));
    for e in &cfg.engines {
        e.launch
            .check()
            .map_err(|why| usage(format!("engine {}: {why}", e.name)))?;
    }
    let rules = G::Rules::from_values(&cfg.rules).map_err(|e| usage(format!("--rule: {e}")))?;
    let rule_values = with_defaults(G::Rules::specs(), &cfg.rules);
    let mut book = Vec::new();
    if let Some(o) = &cfg.openings {
        for (line, text) in &o.lines {
            let checked = check::<G>(text, &rules)
                .map_err(|e| usage(format!("{} line {line}: {e}", o.source)))?;
            book.push(checked);
        }
    }
    let book_order = schedule::book_order(
        book.len(),
        cfg.openings.as_ref().is_some_and(|o| o.random),
        cfg.seed,
    );
    Ok(Book {
        rules,
        rule_values,
        book,
        book_order,
    })
}

/// The locks of the state and record files: one referee per file.
struct Locks {
    _state: Option<FileLock>,
    /// The record file, with its path.
    pgn: Option<(PathBuf, FileLock)>,
}

/// The match's files, opened: the games already played (from the state
/// file), the record sink and the `--epdout` file.
struct Files {
    done: BTreeMap<u64, Record>,
    sink: Option<RecordSink>,
    epd: Option<std::fs::File>,
}

/// Locks the state file and the record file (unless it is the state file
/// under another name: `g.pgn` and `./g.pgn`, whose lock and records
/// already cover it).
fn lock_files(cfg: &MatchConfig) -> Result<Locks, RunError> {
    let state = (cfg.state.as_deref())
        .map(|p| FileLock::acquire(p, STATE))
        .transpose()?;
    let pgnout = match (&cfg.pgnout, &cfg.state) {
        (Some(pgn), Some(st)) if same_file(pgn, st) => None,
        (pgn, _) => pgn.as_deref(),
    };
    let pgn = match pgnout {
        Some(p) => Some((p.to_path_buf(), FileLock::acquire(p, RECORD)?)),
        None => None,
    };
    Ok(Locks { _state: state, pgn })
}

fn open_files(cfg: &MatchConfig, fingerprint: &str, locks: &mut Locks) -> Result<Files, RunError> {
    // append=false: start over, as fastchess does, with the file locked.
    for (file, overwrite, what) in [
        (&cfg.pgnout, cfg.overwrite_pgnout, "record"),
        (&cfg.epdout, cfg.overwrite_epdout, "EPD output"),
    ] {
        if let Some(p) = file.as_deref().filter(|_| overwrite)
            && p.is_file()
        {
            std::fs::File::create(p).map_err(FileError::io("empty", what, p))?;
        }
    }
    let done: BTreeMap<u64, Record> = match &cfg.state {
        Some(p) => state::load(p, fingerprint)?,
        None => BTreeMap::new(),
    };
    if let Some((pgn, lock)) = locks.pgn.as_mut()
        && cfg.state.is_some()
    {
        state::reconcile(pgn, fingerprint, &done, lock)?;
    }
    let mut paths = Vec::new();
    paths.extend(locks.pgn.as_ref().map(|(p, _)| p.as_path()));
    paths.extend(cfg.state.as_deref());
    let epd = match &cfg.epdout {
        Some(p) => Some(
            crate::referee::store::files::open_regular(
                p,
                std::fs::OpenOptions::new().create(true).append(true),
            )
            .map_err(FileError::io("open", "EPD output", p))?,
        ),
        None => None,
    };
    let sink = if paths.is_empty() {
        None
    } else {
        Some(RecordSink::open(&paths)?)
    };
    Ok(Files { done, sink, epd })
}

/// The match's first line, and the resumption's when games were played.
fn announce(cfg: &MatchConfig, context: &str, games: usize, total_all: usize, resumed: usize) {
    let shard_note = match cfg.shard {
        Some(s) => format!(", shard {s} of {total_all}"),
        None => String::new(),
    };
    out(&format!(
        "koma-referee: {} ({}), {} engines, {} game{}{shard_note}, seed {}, concurrency {}\n",
        cfg.variant,
        context,
        cfg.engines.len(),
        games,
        if games == 1 { "" } else { "s" },
        cfg.seed,
        cfg.concurrency
    ));
    out(&schedule_line(cfg, total_all));
    if resumed > 0
        && let Some(p) = &cfg.state
    {
        out(&format!(
            "Resuming from {}: {resumed} of {games} games already played\n",
            p.display(),
        ));
    }
}

/// The schedule in the words of the tool whose counting the line uses, so
/// that a user of the other tool sees the difference before any game.
fn schedule_line(cfg: &MatchConfig, total: usize) -> String {
    let n = cfg.engines.len();
    let encounters = match cfg.seeds {
        Some(k) => k * (n - k) + k * k.saturating_sub(1) / 2,
        None => n * (n - 1) / 2,
    };
    let plural = |k: usize, w: &str| format!("{k} {w}{}", if k == 1 { "" } else { "s" });
    let (rounds, games) = (cfg.rounds as usize, cfg.games as usize);
    let colours = match cfg.cutechess_openings {
        None => format!(
            "each opening played by a pair of games with colours swapped{}",
            if games % 2 == 1 {
                "; colours alternate by game number"
            } else {
                ""
            }
        ),
        Some(NewOpening::Every(1)) => {
            "colours alternate within each encounter, a new opening every game".into()
        }
        Some(NewOpening::Every(r)) => format!(
            "colours alternate within each encounter, each opening played {r} times in a row"
        ),
        Some(NewOpening::Encounter) => {
            "colours alternate within each encounter, one opening for each encounter met".into()
        }
        Some(NewOpening::Round) => {
            "colours alternate within each encounter, one opening for each round".into()
        }
    };
    format!(
        "Schedule ({} counting, {}): {} x {} per encounter x {} = {}; {colours}\n",
        cfg.dialect.name(),
        cfg.dialect_why,
        plural(rounds, "round"),
        plural(games, "game"),
        plural(encounters, "encounter"),
        plural(total, "game"),
    )
}

/// The end of the match: the summary (or the JSON), the referee's own
/// cost, and how the match ended, which gives the exit code.
fn conclude<G: Game>(ctx: Ctx<'_, G>, wall: Duration, cpu: Duration) -> ExitCode {
    let cfg = ctx.cfg;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let res = ctx.results.into_inner().unwrap_or_else(|e| e.into_inner());
    let us_per_move = cpu.as_secs_f64() * 1e6 / res.engine_moves.max(1) as f64;
    let mut json_summary = None;
    // cutechess-cli's Score line came with the last game.
    if cfg.output == Output::Cutechess {
        out(&cutechess::interval(&res.rows, &names, cfg.sprt.as_ref()));
    }
    if cfg.output == Output::Json {
        let mut v = json::summary(&res.rows, &names, cfg.sprt.as_ref(), Some(&res.thinking));
        v["referee"] = serde_json::json!({
            "games": res.games_now,
            "engine_moves": res.engine_moves,
            "seconds": wall.as_secs_f64(),
            "us_per_move": us_per_move,
        });
        json_summary = Some(v);
    } else if cfg.output == Output::Fastchess {
        out(&report::summary(
            &res.rows,
            &names,
            &ctx.context,
            cfg.sprt.as_ref(),
        ));
    }
    if cfg.output != Output::Json {
        if let Some(seeds) = cfg.seeds {
            out(&report::gauntlet(&res.rows, &names, seeds));
        }
        for (e, t) in cfg.engines.iter().zip(&res.thinking) {
            if t.moves > 0 {
                out(&format!("Engine {}: {}\n", e.name, t.line()));
            }
        }
        if res.games_now > 0 {
            out(&format!(
                "Referee: {} games, {} engine moves in {:.1} s: {:.1} games/min, {us_per_move:.0} us of referee CPU per move\n",
                res.games_now,
                res.engine_moves,
                wall.as_secs_f64(),
                res.games_now as f64 * 60.0 / wall.as_secs_f64().max(1e-9),
            ));
        }
    }
    if let (Some(log), Some(p)) = (&ctx.log, &cfg.log)
        && let Some(why) = log.failure()
    {
        out(&format!(
            "Log: {} is incomplete: a write to it failed ({why})\n",
            p.display()
        ));
    }
    let load = busy::load_average().map(|l| (l, busy::cores()));
    if let Some(s) = res.time_losses.summary(load) {
        out(&s);
    }
    let missing = ctx.games - res.rows.len();
    let no_move = res.time_losses.no_move_in_time();
    let (line, code, state) = match (&res.abort, &no_move) {
        (Some(why), _) => (format!("Match stopped: {why}\n"), 1, "stopped"),
        (None, Some(why)) => (format!("Match failed: {why}\n"), 1, "failed"),
        (None, None) if res.sprt_decided => {
            ("Match finished: the SPRT decided\n".into(), 0, "sprt")
        }
        (None, None) if missing > 0 => (
            format!("Match stopped with {missing} games unplayed\n"),
            1,
            "stopped",
        ),
        (None, None) => ("Match finished\n".into(), 0, "finished"),
    };
    if let Some(p) = &cfg.config_out
        && let Err(e) = crate::referee::store::config_file::write(p, cfg, &res.rows)
    {
        eprintln!(
            "koma-referee: cannot write the config file {}: {e}",
            p.display()
        );
    }
    out(&line);
    // fastchess's closing lines, which scripts wait for.
    if let (Some(sp), Some(d)) = (&cfg.sprt, res.sprt_decision) {
        out(&report::sprt_completed(sp, d));
    }
    out("Finished match\n");
    // The JSON last, on one line: a pipeline reads the last line.
    if let Some(mut v) = json_summary {
        v["state"] = serde_json::json!(state);
        v["stopped_because"] = serde_json::json!(res.abort.or(no_move));
        out(&format!("{v}\n"));
    }
    ExitCode::from(code)
}

/// Starts each engine once before any game, with every option it will be
/// sent: one that refuses an option (`info string error …`, as Koma
/// answers `Threads=0` or an `EvalFile` it cannot read) would play the
/// whole match with its defaults, so the match stops here with a usage
/// error naming it. Any other start failure is left to the first game,
/// which records it.
fn refused_options<G: Game>(cfg: &MatchConfig, rules: &RuleValues) -> Result<(), RunError> {
    for e in &cfg.engines {
        let start = EngineStart {
            name: &e.name,
            launch: &e.launch,
            options: &e.options,
            variant: G::NAME,
            rules,
            log: None,
        };
        match handshake::start(&start, &cfg.timeouts) {
            Ok((p, _)) => p.quit(QUIT_GRACE),
            Err(why @ StartError::Refused { .. }) => {
                return Err(RunError::Usage(Usage(format!("engine {} {why}", e.name))));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// What might get a match past an engine that cannot play on. A restart
/// (`--recover`) helps an engine that crashed or hung mid-match; one that
/// could not start at all would only fail again, so it gets a hint at the
/// cause instead: more time (its start timed out), or its stderr.
fn restart_hint(end: &GameEnd) -> &'static str {
    match &end.start_error {
        Some(e) if e.timed_out() => "; --start-timeout gives it longer to start",
        Some(_) => "; --log FILE records what it wrote on stderr",
        None => "; --recover restarts it and goes on",
    }
}

/// A game's engines by colour, as indices into the match's engines.
fn by_colour(spec: &GameSpec) -> [(Color, usize); 2] {
    [(Color::First, spec.first), (Color::Second, spec.second)]
}

/// A game's ply limit: `--max-plies`, and `--max-moves` full moves of the
/// engines after its opening, whichever comes first. The record's
/// `MaxPlies` tag holds it, so `--replay` checks it.
fn max_plies(cfg: &MatchConfig, opening: &Opening) -> Option<u32> {
    let moves = cfg
        .max_moves
        .map(|m| (opening.moves.len() as u32).saturating_add(m.saturating_mul(2)));
    match (cfg.max_plies, moves) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `variant, limits, rules` for summaries.
fn context(cfg: &MatchConfig) -> String {
    let limits: Vec<(String, String)> = cfg
        .engines
        .iter()
        .map(|e| (e.name.clone(), e.limits.to_string()))
        .collect();
    let mut s = report::context_line(cfg.variant.name(), &limits);
    for (n, v) in &cfg.rules {
        s.push_str(&format!(", {n}={v}"));
    }
    if let Some(o) = &cfg.openings
        && let Some(title) = &o.suite
    {
        s.push_str(&report::suite_words(title, o.lines.len()));
    }
    s
}

/// The referee's own CPU time (user + system, all its threads).
#[cfg(unix)]
fn cpu_time() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) != 0 {
            return Duration::ZERO;
        }
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        tv(u.ru_utime) + tv(u.ru_stime)
    }
}

#[cfg(not(unix))]
fn cpu_time() -> Duration {
    Duration::ZERO
}

impl<G: Game> Ctx<'_, G> {
    /// Plays the games on `--concurrency` workers; returns the wall time
    /// and the referee's CPU time they took.
    fn play_all(&self) -> (Duration, Duration) {
        let started = Instant::now();
        let cpu_before = cpu_time();
        let workers = self.cfg.concurrency.min(self.queue_len()).max(1);
        let watch = interrupt::Watch::install();
        let running = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for k in 0..workers {
                let (running, watch) = (&running, &watch);
                running.fetch_add(1, Ordering::AcqRel);
                let spawned = std::thread::Builder::new()
                    .name(format!("worker {k}"))
                    .spawn_scoped(s, move || {
                        self.worker(k, workers);
                        if running.fetch_sub(1, Ordering::AcqRel) == 1
                            && let Some(w) = watch
                        {
                            w.done();
                        }
                    });
                if let Err(e) = spawned {
                    running.fetch_sub(1, Ordering::AcqRel);
                    eprintln!("koma-referee: cannot start worker {k}: {e}");
                }
            }
            // This thread sleeps until Ctrl-C or the last worker's end.
            if let Some(w) = &watch
                && running.load(Ordering::Acquire) > 0
                && w.wait() == interrupt::Woken::Signalled
            {
                self.interrupted();
            }
        });
        (started.elapsed(), cpu_time().saturating_sub(cpu_before))
    }

    /// After Ctrl-C (or SIGTERM): the results so far and the command that
    /// resumes, then the end. The results' lock is held to the end, so no
    /// record is left half written; the games in progress are not recorded
    /// and are played again on resuming.
    fn interrupted(&self) -> ! {
        let res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        let cfg = self.cfg;
        let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
        out(&format!(
            "Interrupted: {} of {} games played (a second Ctrl-C ends at once)\n",
            res.rows.len(),
            self.games
        ));
        match cfg.output {
            Output::Cutechess => out(&cutechess::interval(&res.rows, &names, cfg.sprt.as_ref())),
            _ => out(&report::summary(
                &res.rows,
                &names,
                &self.context,
                cfg.sprt.as_ref(),
            )),
        }
        match &cfg.state {
            Some(p) => out(&format!(
                "To resume (the finished games are in {}), run the same command: {}\n",
                p.display(),
                cfg.command
            )),
            None => out(&format!(
                "Nothing was recorded (no --pgnout or --state FILE): the same command plays \
                 every game again: {}\n",
                cfg.command
            )),
        }
        if let Some(p) = &cfg.config_out
            && let Err(e) = crate::referee::store::config_file::write(p, cfg, &res.rows)
        {
            eprintln!(
                "koma-referee: cannot write the config file {}: {e}",
                p.display()
            );
        }
        if cfg.output == Output::Json {
            let mut v = json::summary(&res.rows, &names, cfg.sprt.as_ref(), Some(&res.thinking));
            v["state"] = serde_json::json!("interrupted");
            v["stopped_because"] = serde_json::json!("interrupted by a signal");
            out(&format!("{v}\n"));
        }
        std::process::exit(interrupt::STATUS)
    }

    fn queue_len(&self) -> usize {
        self.queue.lock().map(|q| q.len()).unwrap_or(0)
    }

    fn next_game(&self) -> Option<GameSpec> {
        if self.stop.load(Ordering::Acquire) {
            return None;
        }
        self.queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front()
    }

    /// The opening of a slot: the book line it draws, then random plies
    /// from the slot's own generator.
    fn opening(&self, slot: u64) -> Opening {
        let base = if self.book.is_empty() {
            Opening::default()
        } else {
            let k = self.book_order[(slot % self.book.len() as u64) as usize];
            self.book[k].clone()
        };
        if self.cfg.random_plies == 0 {
            return base;
        }
        let mut rng = Rng::for_slot(self.cfg.seed, slot);
        add_random_plies::<G>(&base, self.cfg.random_plies, &mut rng, &self.rules)
    }

    fn worker(&self, k: usize, workers: usize) {
        // Engines started from here inherit the thread's CPUs.
        let mut cores = busy::cores() / workers;
        if let Some(cpus) = &self.cfg.affinity {
            let mine = affinity::share(cpus, workers, k);
            if let Err(e) = affinity::pin_this_thread(&mine) {
                eprintln!(
                    "koma-referee: warning: --use-affinity: worker {k} on CPUs {mine:?}: {e}"
                );
            } else {
                log::info!("worker {k} pinned to CPUs {mine:?}");
                cores = mine.len();
            }
        }
        let threads = spin::engine_threads(self.cfg.engines.iter().flat_map(|e| &e.options));
        let polls = spin::budget(self.cfg.spin_wait, cores, threads);
        log::info!("worker {k}: {cores} cores, polls {polls:?} before it sleeps");
        pipe::poll_before_sleeping(polls);
        // Engines are started and dropped on this thread only: their death
        // signal is tied to the thread that spawned them.
        let mut seats: Vec<Seat> = self.cfg.engines.iter().map(|_| Seat::default()).collect();
        while let Some(spec) = self.next_game() {
            let opening = self.opening(spec.slot);
            out(&format!(
                "Started game {} of {} ({} vs {})\n",
                spec.number,
                self.total_games,
                self.cfg.engines[spec.first].name,
                self.cfg.engines[spec.second].name
            ));
            let end = match self.play(&spec, &opening, &mut seats) {
                Ok(e) => e,
                Err(why) => {
                    self.abort(format!("internal error in game {}: {why}", spec.number));
                    break;
                }
            };
            for (c, idx) in by_colour(&spec) {
                seats[idx].drop_if_dead(end.dead[c.index()]);
                // restart=on: a fresh process for every game.
                if self.cfg.engines[idx].restart {
                    seats[idx].quit(QUIT_GRACE);
                }
            }
            self.finish(&spec, &opening, &end);
            if !self.cfg.wait.is_zero() && self.queue_len() > 0 {
                std::thread::sleep(self.cfg.wait);
            }
        }
        for mut s in seats {
            s.quit(QUIT_GRACE);
        }
    }

    /// Starts the game's engines if needed, then plays it.
    fn play(
        &self,
        spec: &GameSpec,
        opening: &Opening,
        seats: &mut [Seat],
    ) -> Result<GameEnd, Internal> {
        for (c, idx) in by_colour(spec) {
            let e = &self.cfg.engines[idx];
            let start = EngineStart {
                name: &e.name,
                launch: &e.launch,
                options: &e.options,
                variant: G::NAME,
                rules: &self.rule_values,
                log: self.log.clone(),
            };
            match seats[idx].start(&start, &self.cfg.timeouts) {
                Ok(None) => {}
                Ok(Some(warnings)) => {
                    self.warn_once(idx, &warnings);
                    if let Some(id) = seats[idx].id_name() {
                        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
                        ids[idx] = Some(id.to_string());
                    }
                }
                Err(why) => return Ok(GameEnd::failed_start(c, why, opening)),
            }
        }
        let [a, b] = seats
            .get_disjoint_mut([spec.first, spec.second])
            .map_err(Internal::Seats)?;
        let (Some(a), Some(b)) = (a.engine(), b.engine()) else {
            return Err(Internal::NoEngine);
        };
        let engines = [
            &self.cfg.engines[spec.first],
            &self.cfg.engines[spec.second],
        ];
        let setup = GameSetup::<G> {
            rules: &self.rules,
            opening,
            limits: engines.map(|e| &e.limits),
            margins: engines.map(|e| e.margin.unwrap_or(self.cfg.margin)),
            max_plies: max_plies(self.cfg, opening),
            adjudication: self.cfg.adjudication,
            tablebase: self.tablebase.as_ref(),
            names: engines.map(|e| e.name.as_str()),
            timeouts: self.cfg.timeouts,
            figures: self.cfg.figures,
        };
        game::play(&setup, [a, b]).map_err(Internal::Opening)
    }

    fn warn_once(&self, idx: usize, warnings: &[String]) {
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        if !res.warned[idx] {
            res.warned[idx] = true;
            for w in warnings {
                eprintln!("koma-referee: warning: {w}");
            }
            if self.cfg.strict
                && let Some(w) = warnings.first()
            {
                res.abort.get_or_insert(format!("--strict: warning: {w}"));
                self.stop.store(true, Ordering::Release);
            }
        }
    }

    fn abort(&self, why: String) {
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        res.abort.get_or_insert(why);
        self.stop.store(true, Ordering::Release);
    }

    /// Records, prints and counts a finished game.
    fn finish(&self, spec: &GameSpec, opening: &Opening, end: &GameEnd) {
        let cfg = self.cfg;
        let names = [
            cfg.engines[spec.first].name.as_str(),
            cfg.engines[spec.second].name.as_str(),
        ];
        let record = self.record_of(spec, opening, end, names);
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sink) = res.sink.as_mut()
            && let Err(e) = sink.append(&record)
        {
            res.abort.get_or_insert(e.to_string());
            self.stop.store(true, Ordering::Release);
            return;
        }
        let e = &end.ending;
        // Exactly fastchess's line: scripts split it at blanks and colons.
        // Koma's detail (by how much a clock overran) follows on its own.
        out(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}\n",
            spec.number,
            names[0],
            names[1],
            e.outcome.score_text(),
            e.sentence(names)
        ));
        if let Some(d) = &e.detail {
            out(&format!("Game {} detail: {d}\n", spec.number));
        }
        self.count(&mut res, spec, end, names);
        self.print_progress(&mut res, spec);
        self.check_sprt(&mut res);
    }

    /// The record of a finished game: its header, the adjudication rules it
    /// was played under (for --replay to check) and its provenance.
    fn record_of(
        &self,
        spec: &GameSpec,
        opening: &Opening,
        end: &GameEnd,
        names: [&str; 2],
    ) -> Record {
        let cfg = self.cfg;
        let date = record_date();
        let header = RecordHeader {
            fingerprint: Some(&self.fingerprint),
            event: &cfg.event,
            date: &date,
            round: spec.round,
            game: spec.number,
            pair: spec.pair,
            names,
            variant: G::NAME,
            rules: &self.rule_values,
            start: opening.start.as_ref(),
            limits: [
                &cfg.engines[spec.first].limits,
                &cfg.engines[spec.second].limits,
            ],
            max_plies: max_plies(cfg, opening),
            suite: cfg
                .openings
                .as_ref()
                .and_then(|o| o.suite.as_deref().map(|t| (t, o.lines.len()))),
        };
        let e = &end.ending;
        let mut record = record::build(&header, Some(e), &end.moves, opening.moves.len());
        let adjudication = [
            (
                tags::DRAW_ADJUDICATION,
                cfg.adjudication.draw.map(|d| d.to_string()),
            ),
            (
                tags::RESIGN_ADJUDICATION,
                cfg.adjudication.resign.map(|d| d.to_string()),
            ),
            (
                tags::TABLEBASE_ADJUDICATION,
                cfg.tb.as_ref().map(|tb| tb.rule.to_string()),
            ),
        ];
        for (name, value) in adjudication {
            if let Some(v) = value {
                record.tags.push((name.to_string(), v));
            }
        }
        let ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        let provenance = records::Provenance {
            shard: cfg.shard,
            site: &self.site,
            ids: [ids[spec.first].as_deref(), ids[spec.second].as_deref()],
            command: &cfg.command,
        };
        records::add_provenance(&mut record, &provenance);
        record
    }

    /// Counts a finished game into the results (its row, time losses,
    /// thinking figures), writes its last position to the EPD output, and
    /// stops the match on an engine that died (unless `--recover`).
    fn count(&self, res: &mut Results, spec: &GameSpec, end: &GameEnd, names: [&str; 2]) {
        let (cfg, e) = (self.cfg, &end.ending);
        res.rows.push(ResultRow {
            game: spec.number,
            pair: spec.pair,
            first: names[0].to_string(),
            second: names[1].to_string(),
            outcome: e.outcome,
            reason: Some(e.reason),
        });
        res.games_now += 1;
        res.time_losses.add(end.time_loss);
        res.engine_moves += u64::from(end.engine_moves);
        res.thinking[spec.first].merge(&end.thinking[0]);
        res.thinking[spec.second].merge(&end.thinking[1]);
        if let Some(f) = res.epd.as_mut()
            && !end.last.is_empty()
            && let Err(e) = f.write_all(format!("{}\n", end.last).as_bytes())
        {
            res.abort
                .get_or_insert(format!("cannot write the EPD output: {e}"));
            self.stop.store(true, Ordering::Release);
        }
        for c in Color::BOTH {
            if end.dead[c.index()] && !cfg.recover {
                let loser = names[c.index()];
                res.abort.get_or_insert(format!(
                    "{loser} {} in game {}{}",
                    e.reason.message(),
                    spec.number,
                    restart_hint(end)
                ));
                self.stop.store(true, Ordering::Release);
            }
        }
    }

    /// The running score after a game: cutechess-cli's `Score of` line
    /// every `--scoreinterval` games, the ratings every
    /// `--rating-interval`.
    fn print_progress(&self, res: &mut Results, spec: &GameSpec) {
        let cfg = self.cfg;
        let finished = res.rows.len() as u64;
        let more = self.queue_len() > 0 && !self.stop.load(Ordering::Acquire);
        let players: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
        if cfg.output == Output::Cutechess
            && (finished.is_multiple_of(cfg.score_interval.max(1)) || !more)
        {
            out(&cutechess::score_line(
                &res.rows,
                &players[spec.first.min(spec.second)],
                &players[spec.first.max(spec.second)],
            ));
        }
        if cfg.rating_interval > 0 && finished.is_multiple_of(cfg.rating_interval) && more {
            out(&self.interval(&res.rows, &players));
        }
    }

    /// The rating lines printed every `--rating-interval` games, in the
    /// output's format.
    fn interval(&self, rows: &[ResultRow], players: &[String]) -> String {
        let sprt = self.cfg.sprt.as_ref();
        match self.cfg.output {
            Output::Cutechess => cutechess::interval(rows, players, sprt),
            _ => report::summary(rows, players, &self.context, sprt),
        }
    }

    /// Stops handing out games once the SPRT has decided.
    fn check_sprt(&self, res: &mut Results) {
        let Some(sprt) = &self.cfg.sprt else { return };
        if res.sprt_decided {
            return;
        }
        let a = &self.cfg.engines[0].name;
        let b = &self.cfg.engines[1].name;
        let t = report::tally(&res.rows, a, b);
        let llr = sprt.llr(&t);
        if let Some(d) = sprt.decision(llr) {
            res.sprt_decided = true;
            res.sprt_decision = Some(d);
            self.stop.store(true, Ordering::Release);
            out(&format!(
                "SPRT: {:?} accepted (LLR {llr:.2}, bounds {:.2} and {:.2}) after {} games\n",
                d,
                sprt.lower,
                sprt.upper,
                res.rows.len()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::reason::{Failure, Reason};

    fn hint(why: StartError) -> &'static str {
        restart_hint(&GameEnd::failed_start(
            Color::First,
            why,
            &Opening::default(),
        ))
    }

    #[test]
    fn the_restart_hint_follows_the_kind_of_start_failure_not_its_words() {
        let waited = Duration::from_millis(5);
        let more_time = "; --start-timeout gives it longer to start";
        assert_eq!(hint(StartError::NoUciOk { waited }), more_time);
        let stalled = Failure::dead(Reason::Stalled, "no readyok within 5 ms");
        assert_eq!(hint(StartError::StartUp(stalled)), more_time);
        // Garbage that happens to say " within " is no timeout.
        let garbage = Failure::alive(Reason::Garbage, "unreadable line \"done within 5 ms\"");
        assert_eq!(
            hint(StartError::StartUp(garbage)),
            "; --log FILE records what it wrote on stderr"
        );
        assert_eq!(
            hint(StartError::Exited("exited with code 3".into())),
            "; --log FILE records what it wrote on stderr"
        );
    }
}
