//! The match: the schedule less the games already in the state file, dealt
//! to `--concurrency` worker threads. Each worker owns its engine
//! processes (started on demand, restarted after a crash with `--recover`)
//! and plays one game at a time; results are recorded, printed and counted
//! as each game ends, and the match stops early when the SPRT decides or an
//! engine dies without `--recover`.

use super::affinity;
use super::game::{self, GameEnd, GameSetup, book_moves};
use super::opening::{Opening, add_random_plies, check};
use super::schedule::{self, GameSpec, Rng};
use crate::client::engine_log::{EngineLog, record_date};
use crate::client::handshake::{self, EngineStart};
use crate::client::process::EngineProc;
use crate::client::reason::{Ending, Failure, Reason};
use crate::core::{Color, Game, RuleValues, Rules, with_defaults};
use crate::protocol::record::Record;
use crate::record::{self, RecordHeader, tags};
use crate::referee::RunError;
use crate::referee::cli::{MatchConfig, Usage};
use crate::referee::statistics::json;
use crate::referee::statistics::report::{self, ResultRow};
use crate::referee::statistics::thinking::Thinking;
use crate::referee::store::files::{FileError, RECORD, STATE, same_file};
use crate::referee::store::lock::FileLock;
use crate::referee::store::records::{self, RecordSink};
use crate::referee::store::state;
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
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
    rules: G::Rules,
    rule_values: RuleValues,
    book: Vec<Opening>,
    book_order: Vec<usize>,
    log: Option<EngineLog>,
    fingerprint: String,
    context: String,
    /// The host, for the records' `Site` tag.
    site: String,
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
    warned: Vec<bool>,
    games_now: u64,
    engine_moves: u64,
    /// By engine, this run's games only.
    thinking: Vec<Thinking>,
    /// `--epdout`: the last position of every game.
    epd: Option<std::fs::File>,
}

/// Runs a match of game `G`; `Err` for a usage error found late (a bad
/// opening, an unwritable file).
pub fn run<G: Game>(cfg: &MatchConfig) -> Result<ExitCode, RunError> {
    let usage = |why: String| RunError::Usage(Usage(why));
    // A program that cannot run would lose every game it is in: say so
    // before the first one.
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
    let mut specs = schedule::build(cfg.engines.len(), cfg.games, cfg.rounds, cfg.seeds);
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
    // One referee per record file: the locks are held until this function
    // returns, after the last record is written.
    let _state_lock = cfg
        .state
        .as_deref()
        .map(|p| FileLock::acquire(p, STATE))
        .transpose()?;
    // The record file, unless it is the state file (under another name:
    // `g.pgn` and `./g.pgn`), whose lock and records already cover it.
    let pgnout = match (&cfg.pgnout, &cfg.state) {
        (Some(pgn), Some(st)) if same_file(pgn, st) => None,
        (pgn, _) => pgn.as_deref(),
    };
    let mut pgn_lock = (pgnout.map(|p| FileLock::acquire(p, RECORD))).transpose()?;
    // With the locks held, as while any engine of the match runs.
    refused_options::<G>(cfg, &rule_values)?;
    let done: BTreeMap<u64, Record> = match &cfg.state {
        Some(p) => state::load(p, &fingerprint)?,
        None => BTreeMap::new(),
    };
    if let (Some(pgn), Some(lock)) = (pgnout, pgn_lock.as_mut())
        && cfg.state.is_some()
    {
        state::reconcile(pgn, &fingerprint, &done, lock)?;
    }
    let mut paths = Vec::new();
    paths.extend(pgnout);
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
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let context = context(cfg);
    let shard_note = match cfg.shard {
        Some(s) => format!(", shard {s} of {total_all}"),
        None => String::new(),
    };
    out(&format!(
        "koma-referee: {} ({}), {} engines, {} game{}{shard_note}, seed {}, concurrency {}\n",
        cfg.variant,
        context,
        names.len(),
        specs.len(),
        if specs.len() == 1 { "" } else { "s" },
        cfg.seed,
        cfg.concurrency
    ));
    if !rows.is_empty()
        && let Some(p) = &cfg.state
    {
        out(&format!(
            "Resuming from {}: {} of {} games already played\n",
            p.display(),
            rows.len(),
            specs.len()
        ));
    }
    let ctx = Ctx::<G> {
        cfg,
        rules,
        rule_values,
        book,
        book_order,
        log,
        fingerprint,
        context,
        site: records::host_name(),
        ids: Mutex::new(vec![None; cfg.engines.len()]),
        queue: Mutex::new(todo),
        stop: AtomicBool::new(false),
        results: Mutex::new(Results {
            rows,
            sink,
            abort: None,
            sprt_decided: false,
            warned: vec![false; cfg.engines.len()],
            games_now: 0,
            engine_moves: 0,
            thinking: vec![Thinking::default(); cfg.engines.len()],
            epd,
        }),
    };
    {
        let mut res = ctx.results.lock().unwrap_or_else(|e| e.into_inner());
        ctx.check_sprt(&mut res);
    }
    let started = Instant::now();
    let cpu_before = cpu_time();
    let workers = cfg.concurrency.min(ctx.queue_len()).max(1);
    std::thread::scope(|s| {
        for k in 0..workers {
            let ctx = &ctx;
            let spawned = std::thread::Builder::new()
                .name(format!("worker {k}"))
                .spawn_scoped(s, move || ctx.worker(k, workers));
            if let Err(e) = spawned {
                eprintln!("koma-referee: cannot start worker {k}: {e}");
            }
        }
    });
    let wall = started.elapsed();
    let cpu = cpu_time().saturating_sub(cpu_before);
    let res = ctx.results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut json_summary = None;
    if cfg.json {
        let mut v = json::summary(&res.rows, &names, cfg.sprt.as_ref(), Some(&res.thinking));
        v["referee"] = serde_json::json!({
            "games": res.games_now,
            "engine_moves": res.engine_moves,
            "seconds": wall.as_secs_f64(),
            "us_per_move": cpu.as_secs_f64() * 1e6 / res.engine_moves.max(1) as f64,
        });
        json_summary = Some(v);
    } else {
        out(&report::summary(
            &res.rows,
            &names,
            &ctx.context,
            cfg.sprt.as_ref(),
        ));
        if let Some(seeds) = cfg.seeds {
            out(&report::gauntlet(&res.rows, &names, seeds));
        }
        for (e, t) in cfg.engines.iter().zip(&res.thinking) {
            if t.moves > 0 {
                out(&format!("Engine {}: {}\n", e.name, t.line()));
            }
        }
    }
    if res.games_now > 0 && !cfg.json {
        let per_move = cpu.as_secs_f64() * 1e6 / res.engine_moves.max(1) as f64;
        out(&format!(
            "Referee: {} games, {} engine moves in {:.1} s: {:.1} games/min, {:.0} us of referee CPU per move\n",
            res.games_now,
            res.engine_moves,
            wall.as_secs_f64(),
            res.games_now as f64 * 60.0 / wall.as_secs_f64().max(1e-9),
            per_move
        ));
    }
    if let (Some(log), Some(p)) = (&ctx.log, &cfg.log)
        && let Some(why) = log.failure()
    {
        out(&format!(
            "Log: {} is incomplete: a write to it failed ({why})\n",
            p.display()
        ));
    }
    let missing = specs.len() - res.rows.len();
    let (line, code, state) = match &res.abort {
        Some(why) => (format!("Match stopped: {why}\n"), 1, "stopped"),
        None if res.sprt_decided => ("Match finished: the SPRT decided\n".into(), 0, "sprt"),
        None if missing > 0 => (
            format!("Match stopped with {missing} games unplayed\n"),
            1,
            "stopped",
        ),
        None => ("Match finished\n".into(), 0, "finished"),
    };
    out(&line);
    // The JSON last, on one line: a pipeline reads the last line.
    if let Some(mut v) = json_summary {
        v["state"] = serde_json::json!(state);
        v["stopped_because"] = serde_json::json!(res.abort);
        out(&format!("{v}\n"));
    }
    Ok(ExitCode::from(code))
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
            Err(why @ handshake::StartError::Refused { .. }) => {
                return Err(RunError::Usage(Usage(format!("engine {} {why}", e.name))));
            }
            Err(handshake::StartError::Failed(_)) => {}
        }
    }
    Ok(())
}

/// What might get a match past an engine that cannot play on. A restart
/// (`--recover`) helps an engine that crashed or hung mid-match; one that
/// could not start at all would only fail again, so it gets a hint at the
/// cause instead: more time (its start timed out), or its stderr.
fn restart_hint(end: &GameEnd) -> &'static str {
    let detail = end.ending.detail.as_deref().unwrap_or("");
    match end.ending.reason {
        // The handshake's timeouts read "no uciok within N ms", "no readyok
        // within N ms".
        Reason::FailedToStart if detail.contains(" within ") => {
            "; --start-timeout gives it longer to start"
        }
        Reason::FailedToStart => "; --log FILE records what it wrote on stderr",
        _ => "; --recover restarts it and goes on",
    }
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
        if let Some(cpus) = &self.cfg.affinity {
            let mine = affinity::share(cpus, workers, k);
            if let Err(e) = affinity::pin_this_thread(&mine) {
                eprintln!(
                    "koma-referee: warning: --use-affinity: worker {k} on CPUs {mine:?}: {e}"
                );
            } else {
                log::info!("worker {k} pinned to CPUs {mine:?}");
            }
        }
        // Engines are started and dropped on this thread only: their death
        // signal is tied to the thread that spawned them.
        let mut slots: Vec<Option<EngineProc>> = self.cfg.engines.iter().map(|_| None).collect();
        while let Some(spec) = self.next_game() {
            let opening = self.opening(spec.slot);
            let end = self.play(&spec, &opening, &mut slots);
            let end = match end {
                Ok(e) => e,
                Err(why) => {
                    self.abort(format!("internal error in game {}: {why}", spec.number));
                    break;
                }
            };
            for c in Color::BOTH {
                if end.dead[c.index()] {
                    let idx = if c == Color::First {
                        spec.first
                    } else {
                        spec.second
                    };
                    slots[idx] = None;
                }
            }
            // restart=on: a fresh process for every game.
            for idx in [spec.first, spec.second] {
                if self.cfg.engines[idx].restart
                    && let Some(e) = slots[idx].take()
                {
                    e.quit(QUIT_GRACE);
                }
            }
            self.finish(&spec, &opening, &end);
        }
        for e in slots.into_iter().flatten() {
            e.quit(QUIT_GRACE);
        }
    }

    /// Starts the game's engines if needed, then plays it.
    fn play(
        &self,
        spec: &GameSpec,
        opening: &Opening,
        slots: &mut [Option<EngineProc>],
    ) -> Result<GameEnd, String> {
        for (c, idx) in [(Color::First, spec.first), (Color::Second, spec.second)] {
            if slots[idx].is_some() {
                continue;
            }
            let e = &self.cfg.engines[idx];
            let start = EngineStart {
                name: &e.name,
                launch: &e.launch,
                options: &e.options,
                variant: G::NAME,
                rules: &self.rule_values,
                log: self.log.clone(),
            };
            match handshake::start(&start, &self.cfg.timeouts) {
                Ok((proc_, warnings)) => {
                    self.warn_once(idx, &warnings);
                    if proc_.id_name.is_some() {
                        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
                        ids[idx].clone_from(&proc_.id_name);
                    }
                    slots[idx] = Some(proc_);
                }
                Err(detail) => {
                    let mut dead = [false; 2];
                    dead[c.index()] = true;
                    let f = Failure::dead(Reason::FailedToStart, detail.to_string());
                    return Ok(GameEnd {
                        ending: Ending::failure(c, f),
                        moves: book_moves(opening),
                        dead,
                        engine_moves: 0,
                        thinking: Default::default(),
                        last: String::new(),
                    });
                }
            }
        }
        let [Some(a), Some(b)] = slots
            .get_disjoint_mut([spec.first, spec.second])
            .map_err(|e| format!("engine slots: {e:?}"))?
        else {
            return Err("an engine is missing after its start".into());
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
            names: engines.map(|e| e.name.as_str()),
            timeouts: self.cfg.timeouts,
        };
        game::play(&setup, [a, b])
    }

    fn warn_once(&self, idx: usize, warnings: &[String]) {
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        if !res.warned[idx] {
            res.warned[idx] = true;
            for w in warnings {
                eprintln!("koma-referee: warning: {w}");
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
        // The rules the game was adjudicated under, for --replay to check.
        let adjudication = [
            (
                tags::DRAW_ADJUDICATION,
                cfg.adjudication.draw.map(|d| d.to_string()),
            ),
            (
                tags::RESIGN_ADJUDICATION,
                cfg.adjudication.resign.map(|d| d.to_string()),
            ),
        ];
        for (name, value) in adjudication {
            if let Some(v) = value {
                record.tags.push((name.to_string(), v));
            }
        }
        {
            let ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
            let provenance = records::Provenance {
                shard: cfg.shard,
                site: &self.site,
                ids: [ids[spec.first].as_deref(), ids[spec.second].as_deref()],
                command: &cfg.command,
            };
            records::add_provenance(&mut record, &provenance);
        }
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sink) = res.sink.as_mut()
            && let Err(e) = sink.append(&record)
        {
            res.abort.get_or_insert(e);
            self.stop.store(true, Ordering::Release);
            return;
        }
        let detail = e
            .detail
            .as_ref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        out(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}{detail}\n",
            spec.number,
            names[0],
            names[1],
            e.outcome.score_text(),
            e.sentence(names)
        ));
        res.rows.push(ResultRow {
            game: spec.number,
            pair: spec.pair,
            first: names[0].to_string(),
            second: names[1].to_string(),
            outcome: e.outcome,
            reason: Some(e.reason),
        });
        res.games_now += 1;
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
        let finished = res.rows.len() as u64;
        let more = self.queue_len() > 0 && !self.stop.load(Ordering::Acquire);
        if cfg.rating_interval > 0 && finished.is_multiple_of(cfg.rating_interval) && more {
            let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
            out(&report::summary(
                &res.rows,
                &names,
                &self.context,
                cfg.sprt.as_ref(),
            ));
        }
        self.check_sprt(&mut res);
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
