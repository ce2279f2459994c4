//! The protocol loop: reads lines and answers them. A search, `go perft` or
//! `bench` runs on the thread that read it, which hands the loop to the
//! engine's other thread (at once, or for a search once it has run a
//! moment: `worker::Parked`), so that `isready`, `stop`, `quit` and the end
//! of input are answered while one runs. A rejected line changes nothing
//! and gets `info string error: …`.

use super::options::{
    CLEAR_HASH, EVAL_FILE, HASH, MOVE_OVERHEAD, MULTIPV, OptionStore, SKILL, TABLE_PATH, THREADS,
    VARIANT,
};
use super::refused::{HashRefused, OptionRefused};
use super::registry::{EngineGame, Registry};
use super::session::{PerftJob, SearchJob, Session};
use super::worker::{Parked, Task, Worker};
use super::{Output, bench, evalfile, memory};
use crate::core::{Color, OptionValue, Outcome, RuleError, SharedTable};
use crate::protocol::lines::{Line, LineReader, MAX_LINE};
use crate::protocol::options::option_line;
use crate::protocol::{Command, GoParams, QueryKind, parse_command};
use crate::search::{Limits, Settings, Skill, Tt};
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const ENGINE_NAME: &str = concat!("Koma ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Koma developers";

/// An accepted `setoption`, ready to take effect: whatever could fail
/// (allocating, loading, building the game) has been done.
enum OptionChange {
    Hash(Tt, OptionValue),
    ClearHash,
    /// A game's table option: the table loaded, `None` for an empty value.
    Table {
        game: &'static str,
        name: &'static str,
        value: OptionValue,
        table: Option<SharedTable>,
    },
    Variant(OptionValue, &'static EngineGame, Box<dyn Session>),
    /// `EvalFile`: the weights read and checked, to put in force.
    Eval(OptionValue, evalfile::Install),
    /// Any other option; `session` is the current game started again
    /// under its new rules when `name` is one of them.
    Set {
        name: &'static str,
        value: OptionValue,
        session: Option<Box<dyn Session>>,
    },
}

/// A search, perft or bench running (or about to).
struct Running {
    stop: Arc<AtomicBool>,
    /// What `ponderhit` needs; `None` for perft and bench.
    search: Option<SearchControl>,
}

struct SearchControl {
    hold: Arc<AtomicBool>,
    limits: Limits,
    /// A `go ponder` not yet turned into a normal search by `ponderhit`.
    pondering: bool,
    /// The time budget `ponderhit` arms, if the `go` had clocks.
    on_ponderhit: Option<(Duration, Duration)>,
}

pub struct Engine {
    out: Output,
    /// The games it can play.
    registry: &'static Registry,
    options: OptionStore,
    /// The selected game, and the game being played of it.
    game: &'static EngineGame,
    session: Box<dyn Session>,
    search: Option<Running>,
    /// The engine's second thread, started at the first search.
    worker: Option<Worker>,
    /// The search `search` is about, to be run once the line that started
    /// it is answered; with the hold it may keep on the protocol loop (a
    /// search's, not a perft's or bench's).
    task: Option<(Task, Option<Arc<Parked>>)>,
    /// Kept between searches of one game; cleared by a new game.
    tt: Arc<Tt>,
    /// The tables loaded through each game's table option, kept across
    /// sessions.
    tables: Vec<(&'static str, SharedTable)>,
    /// The session's endgame tables (and a game's default table file) are
    /// to be mapped again: done at `isready`, `setoption name TablePath` or
    /// the next `go`, never by the search, which must not wait on a file.
    tables_stale: bool,
    debug: bool,
    /// More input is already read after the line being handled (the
    /// loop says so): `readyok` can then wait to go out with the next
    /// line written.
    more_input: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Engine {
    /// An engine playing the games of `registry`, its default selected.
    pub fn new(out: Output, registry: &'static Registry) -> Engine {
        let options = OptionStore::new(registry);
        let game = registry.default_game();
        let session = (game.new_session)(&options.rule_values(game))
            .unwrap_or_else(|e| panic!("default rules are valid: {e}"));
        let tt = Arc::new(Tt::new(options.int(HASH) as usize));
        Engine {
            out,
            registry,
            options,
            game,
            session,
            search: None,
            worker: None,
            task: None,
            tt,
            tables: Vec::new(),
            tables_stale: true,
            debug: false,
            more_input: false,
        }
    }

    /// Makes `session` of `game` current, with the game's table if one is
    /// loaded.
    fn install(&mut self, game: &'static EngineGame, mut session: Box<dyn Session>) {
        session.set_table(
            (self.tables.iter())
                .find(|(g, _)| *g == game.name)
                .map(|(_, t)| t.clone()),
        );
        self.tables_stale = true;
        self.game = game;
        self.session = session;
    }

    /// Maps the current game's endgame tables if stale, saying which files
    /// are refused, and loads the game's table from its default file when
    /// its option is empty and the file is there.
    fn refresh_tables(&mut self) {
        if !std::mem::take(&mut self.tables_stale) {
            return;
        }
        let root = tables_root(&self.options);
        for e in self.session.set_tables_root(root.as_deref()) {
            (self.out).error(format!(
                "{e}; the search goes on without it at {TABLE_PATH}"
            ));
        }
        let game = self.game;
        let Some(file) = game.table else { return };
        let loaded = self.tables.iter().any(|(g, _)| *g == game.name);
        if loaded || !self.options.text(file.option).is_empty() {
            return;
        }
        let Some(path) =
            crate::solve::tables::probe::default_root().map(|r| r.join(file.default_file))
        else {
            return;
        };
        if std::fs::symlink_metadata(&path).is_err() {
            return;
        }
        match (file.load)(&path) {
            Ok(t) => {
                self.tables.push((game.name, t.clone()));
                self.session.set_table(Some(t));
            }
            Err(why) => self.out.error(format!(
                "cannot use {} as {}: {why}; the game goes on without a table at {}",
                path.display(),
                file.option,
                path.display()
            )),
        }
    }

    /// Answers `line`; a search it starts runs on the engine's other
    /// thread.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let flow = self.answer(line);
        if let Some((task, worker, _)) = self.take_task() {
            let theirs = worker.clone();
            worker.give(Box::new(move || theirs.run(task)));
        }
        flow
    }

    /// Answers `line`, leaving a search it starts to `take_task`.
    fn answer(&mut self, line: &str) -> Flow {
        match parse_command(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.handle(cmd),
            Err(e) => {
                self.out.error(e);
                Flow::Continue
            }
        }
    }

    fn searching(&self) -> bool {
        self.search.is_some() && self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Stops a running search (perft, bench) and waits for its last line.
    fn stop_search(&mut self) {
        debug_assert!(
            self.task.is_none(),
            "a search is started before the next line"
        );
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Release);
            if let Some(w) = &self.worker {
                w.join();
            }
        }
    }

    /// Makes `task` the running search, once the last has ended; it is
    /// started by whoever takes it (`take_task`). The second thread is
    /// started now if it is not yet.
    fn run_task(&mut self, task: Task, parked: Option<Arc<Parked>>) -> std::io::Result<()> {
        let worker = match self.worker.take() {
            Some(w) => w,
            None => Worker::new("engine")?,
        };
        worker.begin();
        self.task = Some((task, parked));
        self.worker = Some(worker);
        Ok(())
    }

    /// The search the last line started, to be run with `Worker::run`,
    /// and its hold on the loop.
    fn take_task(&mut self) -> Option<(Task, Worker, Option<Arc<Parked>>)> {
        let (task, parked) = self.task.take()?;
        Some((task, self.worker.clone()?, parked))
    }

    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci | Command::Ugi => {
                self.out.line(format_args!("id name {ENGINE_NAME}"));
                self.out.line(format_args!("id author {ENGINE_AUTHOR}"));
                for spec in self.options.specs() {
                    self.out.line(option_line(spec));
                }
                self.out.line(if cmd == Command::Uci {
                    "uciok"
                } else {
                    "ugiok"
                });
            }
            Command::Debug(on) => self.debug = on,
            // With more input read (a runner's `isready`, `position` and
            // `go` in one write), `readyok` goes out with the next line:
            // the search's, or the loop's before it waits for input.
            Command::IsReady => {
                self.refresh_tables();
                if self.more_input && !self.searching() {
                    self.out.owe("readyok");
                } else {
                    self.out.line("readyok");
                }
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame | Command::UgiNewGame => {
                self.stop_search();
                self.reset_session();
                self.tt.clear();
            }
            // The search runs on its own copy of the position, so the new
            // one can be checked and installed first: a rejected line
            // leaves the search running.
            Command::Position(p) => match self.session.set_position(&p) {
                Ok(()) => self.stop_search(),
                Err(e) => self.out.error(e),
            },
            Command::Go(g) => {
                self.stop_search();
                self.refresh_tables();
                self.go(&g);
            }
            Command::Perft(depth) => {
                self.stop_search();
                let job = self.session.perft_job(depth);
                let (out, debug) = (self.out.clone(), self.debug);
                self.spawn_job("perft", move |stop| print_perft(&out, job, stop, debug));
            }
            Command::Stop => {
                if self.searching() || self.search.is_some() {
                    self.stop_search();
                }
            }
            // Only a `go ponder` still pondering takes a `ponderhit` (not a
            // `go infinite`, which waits for `stop`).
            Command::PonderHit => {
                let running = self.searching();
                let search = self.search.as_mut().and_then(|r| r.search.as_mut());
                match search.filter(|s| s.pondering && running) {
                    Some(s) => {
                        if let Some((soft, hard)) = s.on_ponderhit {
                            s.limits.arm(soft, hard);
                        }
                        s.pondering = false;
                        s.hold.store(false, Ordering::Release);
                    }
                    _ => self
                        .out
                        .error("ponderhit without a ponder search at ponderhit"),
                }
            }
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Display => {
                for l in self.session.display().lines() {
                    self.out.line(l);
                }
            }
            Command::Query(q) => self.query(q),
            Command::Bench => {
                self.stop_search();
                let out = self.out.clone();
                let games = self.registry.games();
                self.spawn_job("bench", move |stop| {
                    bench::run(games, &out, None, stop);
                });
            }
        }
        Flow::Continue
    }

    /// `setoption`: everything that can fail is done first (the value
    /// checked, a table allocated or loaded, the game under its new rules
    /// built), so that a rejected line changes nothing and leaves a running
    /// search alone; an accepted one stops the search, then takes effect.
    fn set_option(&mut self, name: &str, raw: Option<&str>) {
        match self.prepare_option(name, raw) {
            Ok(change) => {
                log::debug!("option {name} = {}", raw.unwrap_or("(button)"));
                self.stop_search();
                self.apply_option(change);
            }
            Err(e) => self.out.error(e),
        }
    }

    fn prepare_option(&self, name: &str, raw: Option<&str>) -> Result<OptionChange, OptionRefused> {
        let (name, value) = self
            .options
            .check(name, raw)
            .map_err(|e| OptionRefused::Value(e.to_string()))?;
        match name {
            HASH => {
                return match new_table(value.as_int().unwrap_or(16) as usize) {
                    Ok(tt) => Ok(OptionChange::Hash(tt, value)),
                    Err(why) => Err(OptionRefused::Hash {
                        why,
                        kept_mb: self.options.int(HASH),
                        value,
                    }),
                };
            }
            CLEAR_HASH => return Ok(OptionChange::ClearHash),
            EVAL_FILE => {
                let path = value.as_str().unwrap_or("");
                let install =
                    (self.game.prepare_eval(path)).map_err(|why| OptionRefused::EvalFile {
                        path: path.to_string(),
                        game: self.game.name,
                        why,
                    })?;
                return Ok(OptionChange::Eval(value, install));
            }
            _ => {}
        }
        let mut games = self.registry.games().iter();
        if let Some(owner) = games.find(|g| g.table_option() == Some(name)) {
            return self.prepare_table(owner, name, value);
        }
        if name == VARIANT {
            let game = (value.as_str())
                .and_then(|n| self.registry.game(n))
                .ok_or_else(|| OptionRefused::UnknownVariant(value.clone()))?;
            let session = (game.new_session)(&self.options.rule_values(game)).map_err(|e| {
                OptionRefused::Rules {
                    why: e.to_string(),
                    option: None,
                }
            })?;
            return Ok(OptionChange::Variant(value, game, session));
        }
        // New rules for the current game mean a new game from its start.
        let game = self.game;
        let session = if game.rule_specs.iter().any(|s| s.name == name) {
            let mut rules = self.options.rule_values(game);
            for r in rules.iter_mut().filter(|r| r.0 == name) {
                r.1 = value.clone();
            }
            let refused = |e: RuleError| OptionRefused::Rules {
                why: e.to_string(),
                option: Some(name),
            };
            Some((game.new_session)(&rules).map_err(refused)?)
        } else {
            None
        };
        Ok(OptionChange::Set {
            name,
            value,
            session,
        })
    }

    /// A game's table option: the table loaded (none for an empty value).
    fn prepare_table(
        &self,
        owner: &EngineGame,
        name: &'static str,
        value: OptionValue,
    ) -> Result<OptionChange, OptionRefused> {
        let game = owner.name;
        let path = value.as_str().unwrap_or("");
        let table = if path.is_empty() || is_none(path) {
            None
        } else {
            let t = (owner.load_table(std::path::Path::new(path))).map_err(|why| {
                OptionRefused::Table {
                    name,
                    path: path.to_string(),
                    why,
                    kept: self.tables.iter().any(|(g, _)| *g == game),
                }
            })?;
            Some(t)
        };
        Ok(OptionChange::Table {
            game,
            name,
            value,
            table,
        })
    }

    fn apply_option(&mut self, change: OptionChange) {
        match change {
            OptionChange::Hash(tt, value) => {
                self.tt = Arc::new(tt);
                self.options.set(HASH, value);
            }
            OptionChange::ClearHash => self.tt.clear(),
            OptionChange::Eval(value, install) => match install() {
                Ok(()) => self.options.set(EVAL_FILE, value),
                Err(e) => self.out.error(format!(
                    "cannot use {value} as EvalFile: {e}; the evaluation stays as it was"
                )),
            },
            OptionChange::Table {
                game,
                name,
                value,
                table,
            } => {
                self.options.set(name, value);
                self.tables.retain(|(g, _)| *g != game);
                if let Some(t) = &table {
                    self.tables.push((game, t.clone()));
                }
                if self.game.name == game {
                    // An empty value means the default file: looked for
                    // at the next `isready` or `go`.
                    self.tables_stale |= table.is_none();
                    self.session.set_table(table);
                }
            }
            OptionChange::Variant(value, game, session) => {
                self.install(game, session);
                self.tt.clear();
                self.options.set(VARIANT, value);
            }
            OptionChange::Set {
                name,
                value,
                session,
            } => {
                self.options.set(name, value);
                if let Some(s) = session {
                    self.install(self.game, s);
                }
                if name == TABLE_PATH {
                    self.tables_stale = true;
                    self.refresh_tables();
                }
            }
        }
    }

    fn try_reset_session(&mut self) -> Result<(), RuleError> {
        let game = self.game;
        let s = (game.new_session)(&self.options.rule_values(game))?;
        self.install(game, s);
        Ok(())
    }

    fn reset_session(&mut self) {
        if let Err(e) = self.try_reset_session() {
            self.out.error(e);
        }
    }

    fn go(&mut self, g: &GoParams) {
        let mut limits = Limits::infinite();
        limits.depth = g.depth;
        limits.nodes = g.nodes;
        let overhead = self.options.int(MOVE_OVERHEAD).max(0) as u64;
        let side = self.session.line().side_to_move().index();
        let budget = if let Some(mt) = g.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
            Some((t, t))
        } else {
            g.time[side].map(|time| {
                Limits::from_clock(time, g.inc[side].unwrap_or(0), g.movestogo, overhead)
            })
        };
        let hold = g.infinite || g.ponder;
        if let Some((soft, hard)) = budget {
            log::debug!(
                "time for this move: soft {} ms, hard {} ms{}",
                soft.as_millis(),
                hard.as_millis(),
                if g.ponder { " (from ponderhit)" } else { "" }
            );
        }
        if let (Some((soft, hard)), false) = (budget, g.ponder) {
            limits.arm(soft, hard);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let hold_flag = Arc::new(AtomicBool::new(hold));
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let settings = Settings {
            threads: self.options.int(THREADS).max(1) as usize,
            multipv: self.options.int(MULTIPV).max(1) as usize,
            skill: Skill::from_name(self.options.text(SKILL)).unwrap_or_default(),
            seed,
        };
        let parked = Arc::new(Parked::new());
        let job = SearchJob {
            out: self.out.clone(),
            stop: stop.clone(),
            limits: limits.clone(),
            hold: hold_flag.clone(),
            tt: self.tt.clone(),
            settings,
            parked: Some(parked.clone()),
        };
        let task = self.session.search_task(job);
        match self.run_task(task, Some(parked)) {
            Ok(()) => {
                self.search = Some(Running {
                    stop,
                    search: Some(SearchControl {
                        hold: hold_flag,
                        limits,
                        pondering: g.ponder,
                        on_ponderhit: if g.ponder { budget } else { None },
                    }),
                })
            }
            Err(e) => self
                .out
                .error(format!("cannot start the search ({e}) at go")),
        }
    }

    /// Runs `job` (perft, bench) like a search, stopped like one.
    fn spawn_job(&mut self, what: &str, job: impl FnOnce(&AtomicBool) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        match self.run_task(Box::new(move || job(&flag)), None) {
            Ok(()) => self.search = Some(Running { stop, search: None }),
            Err(e) => self
                .out
                .error(format!("cannot start {what} ({e}) at {what}")),
        }
    }

    fn query(&self, q: QueryKind) {
        let line = self.session.line();
        let status = line.status();
        let answer = match q {
            QueryKind::GameOver => status.is_some().to_string(),
            QueryKind::P1Turn => (line.side_to_move() == Color::First).to_string(),
            QueryKind::Result => match status.map(|e| e.outcome) {
                None => "none".into(),
                Some(Outcome::Draw) => "draw".into(),
                Some(Outcome::Win(Color::First)) => "p1win".into(),
                Some(Outcome::Win(Color::Second)) => "p2win".into(),
            },
        };
        self.out.line(format_args!("response {answer}"));
    }

    /// Ends the session: stops the search so its `bestmove` is printed,
    /// and writes what is owed.
    pub fn shutdown(&mut self) {
        self.stop_search();
        self.out.settle();
    }

    /// Whether more input is already read after the line to be handled.
    pub fn set_more_input(&mut self, more: bool) {
        self.more_input = more;
    }

    /// Before the loop waits for input: what is owed is written, unless a
    /// search started since (not held by `infinite` or `ponder`) will
    /// write it with its first line, at the end of its first iteration.
    /// (`readyok` is owed only when no search was running, so such a
    /// search started after it.)
    pub fn before_input(&self) {
        let search = self.search.as_ref().and_then(|r| r.search.as_ref());
        let writes_soon = search.is_some_and(|s| !s.hold.load(Ordering::Acquire));
        if !(writes_soon && self.searching()) {
            self.out.settle();
        }
    }

    pub fn option(&self, name: &str) -> Option<&OptionValue> {
        self.options.get(name)
    }

    /// Every option with its current value, in the order `uci` lists them.
    pub fn option_values(&self) -> impl Iterator<Item = (&'static str, &OptionValue)> {
        self.options.values()
    }

    /// What `d` prints (the board, the position string, the state of the
    /// game), without printing it: with `option_values`, the engine's
    /// state, which a rejected line must leave as it was.
    pub fn display(&self) -> String {
        self.session.display()
    }
}

/// The folder of the endgame tables: `TablePath`, or when empty the
/// default per-user folder (`None` when there is no home to find it in,
/// or for `none`: no tables).
fn tables_root(options: &OptionStore) -> Option<std::path::PathBuf> {
    match options.text(TABLE_PATH) {
        "" => crate::solve::tables::probe::default_root(),
        path if is_none(path) => None,
        path => Some(path.into()),
    }
}

/// The value that turns a table option off (`<empty>` means the default).
fn is_none(value: &str) -> bool {
    value.eq_ignore_ascii_case("none")
}

/// A transposition table of `mb` MB for the `Hash` option: refused when
/// it is more than the memory available now, or when the allocation fails.
fn new_table(mb: usize) -> Result<Tt, HashRefused> {
    let bytes = Tt::bytes_for(mb) as u64;
    if let Some(free) = memory::available_bytes()
        && bytes > free
    {
        let free_mb = free >> 20;
        return Err(HashRefused::TooBig { mb, free_mb });
    }
    Tt::try_new(mb).map_err(|_| HashRefused::NoMemory { mb })
}

/// Counts a perft and prints it: one line per root move, a blank line and
/// the total. A stop cuts it short: the move being counted and the total
/// are then marked `(partial)`, and moves not begun are left out.
fn print_perft(out: &Output, job: PerftJob, stop: &AtomicBool, debug: bool) {
    let start = std::time::Instant::now();
    let count = job(stop);
    for (m, n) in &count.rows {
        if count.partial.as_ref() == Some(m) {
            out.line(format_args!("{m}: {n} (partial)"));
        } else {
            out.line(format_args!("{m}: {n}"));
        }
    }
    out.line("");
    if count.complete {
        out.line(format_args!("Nodes searched: {}", count.total));
    } else {
        out.line(format_args!("Nodes searched: {} (partial)", count.total));
    }
    if debug {
        let ms = start.elapsed().as_millis().max(1) as u64;
        out.line(format_args!(
            "info string perft {} ms, {} nodes/s",
            ms,
            count.total * 1000 / ms
        ));
    }
}

impl Drop for Engine {
    /// Ends the second thread once it is idle; a search still running
    /// (the loop was lost to a panic) is stopped first.
    fn drop(&mut self) {
        if let Some(s) = &self.search {
            s.stop.store(true, Ordering::Release);
        }
        if let Some(w) = &self.worker {
            w.end();
        }
    }
}

/// The protocol loop's state, passed between the engine's two threads.
struct Loop<R: Read> {
    engine: Engine,
    lines: LineReader<R>,
    output: Output,
}

/// Runs the protocol on `input` and `output` until `quit` or end of input,
/// playing the games of `registry` (Koma's: `Registry::koma()`). Returns
/// once the engine has ended, on whichever thread.
pub fn run<R: Read + Send + 'static>(registry: &'static Registry, input: R, output: Output) {
    let lp = Loop {
        engine: Engine::new(output.clone(), registry),
        lines: LineReader::new(input, MAX_LINE),
        output,
    };
    if let Some(worker) = lead(lp) {
        worker.serve();
        worker.join_thread();
    }
}

/// Reads and answers lines, and runs the searches they start on this
/// thread, until the end: then ends the engine, and the other thread with
/// it. A perft or bench, or a search with more input already read, gets
/// the loop handed to the other thread at once; any other search keeps it
/// parked until it has run `HAND_OVER_AFTER`, and this thread goes on with
/// it when the search ends first. Returns the engine's second thread, if
/// the loop went there: for this thread to serve.
fn lead<R: Read + Send + 'static>(mut lp: Loop<R>) -> Option<Worker> {
    loop {
        let Some((task, worker, parked)) = answer_until_a_task(&mut lp) else {
            lp.engine.shutdown();
            let worker = lp.engine.worker.clone();
            // Dropping the engine ends the other thread.
            drop(lp);
            return worker;
        };
        let Some(parked) = parked.filter(|_| !lp.lines.has_line()) else {
            let theirs = worker.clone();
            worker.give(Box::new(move || {
                lead(lp);
            }));
            theirs.run(task);
            return Some(theirs);
        };
        let slot = Arc::new(Mutex::new(Some(lp)));
        let (ours, theirs) = (slot.clone(), worker.clone());
        parked.set(Box::new(move || {
            if let Some(lp) = lock(&ours).take() {
                theirs.give(Box::new(move || {
                    lead(lp);
                }));
            }
        }));
        worker.run(task);
        parked.clear();
        match lock(&slot).take() {
            Some(back) => lp = back,
            None => return Some(worker),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads and answers lines until one starts a search (perft, bench): that
/// search, for `lead` to run; `None` at `quit` or the end of input.
fn answer_until_a_task<R: Read>(lp: &mut Loop<R>) -> Option<(Task, Worker, Option<Arc<Parked>>)> {
    let Loop {
        engine,
        lines,
        output,
    } = lp;
    loop {
        if !lines.has_line() {
            engine.before_input();
        }
        let line = lines.next_line()?;
        engine.set_more_input(lines.has_line());
        let flow = match line {
            Line::Text(s) => {
                let r =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.answer(&s)));
                r.unwrap_or_else(|_| {
                    output.error(format!(
                        "internal error at {}",
                        s.split_whitespace().next().unwrap_or("")
                    ));
                    Flow::Continue
                })
            }
            Line::TooLong => {
                output.error(format!("line longer than {MAX_LINE} bytes at line"));
                Flow::Continue
            }
            Line::NotUtf8(_) => {
                output.error("line is not UTF-8 text at line");
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return None;
        }
        if let Some(task) = engine.take_task() {
            return Some(task);
        }
    }
}
