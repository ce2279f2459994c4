//! The board: a local web server with a page to play every game against
//! any engine that speaks Koma's protocol, or against a friend at the same
//! screen, to watch two engines play, to step through game records, and
//! to analyse: live engine lines (`analysis`), a review of a whole game
//! (`review`), positions set up on the page.
//! `koma-board` is a thin front end over `start`.
//!
//! Layout: `http` (a minimal HTTP/1.1 server on `std::net`) → `api` (who
//! may ask: host, origin, the page's secret; the routes: the page, its
//! assets, the JSON API) → `table` (one game with its players, clocks and
//! engine worker, on `client`'s engine handling) over `play` (one game's
//! moves and positions, with what the rules say a move did beyond its
//! text, `Game::hint`, as JSON for the page) and `records` (saving and
//! reading records). The page itself (`assets/`) is compiled into the
//! binary; nothing here knows a particular game: the games offered are
//! `Config::games` (`games`, Koma's by default), each made for its type.
//!
//! The browser never decides legality: it gets the legal moves from the
//! server (as move strings, with the squares and choices that make each
//! one with the mouse) and sends back the move string it chose.

pub mod accuracy;
pub mod analysis;
mod api;
pub mod endgame;
pub mod eval;
pub mod games;
pub mod http;
pub mod play;
pub mod records;
pub mod review;
pub mod review_run;
pub mod table;
pub mod variations;

use crate::client::process::Launch;
use crate::client::{self, handshake::Timeouts};
use crate::record::replay::MatchSize;
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use table::Table;

/// Games open at once; more are refused until some close.
pub const MAX_TABLES: usize = 32;

/// Engines thinking for the page's analyses at once (live analyses and
/// game reviews together); more are refused until some end.
pub const MAX_ANALYSES: usize = 4;

#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// The engine the page offers by default.
    pub engine: Launch,
    pub timeouts: Timeouts,
    /// Milliseconds a player may exceed the clock before losing on time.
    pub margin: Duration,
    /// A game nobody has looked at for this long is closed.
    pub idle: Duration,
    /// Host names the server answers to besides its IP addresses (and
    /// `localhost` on loopback): for a network where it has a name.
    pub allow_hosts: Vec<String>,
    /// A live analysis its page has not polled for this long is closed
    /// (the page polls several times a second while it is open).
    pub analysis_idle: Duration,
    /// How the replay check reads the size of a record's match from its
    /// `RefereeCommand` (the referee's command line: `koma-board` passes
    /// the referee's reader); none: that clause is not checked.
    pub match_size: Option<MatchSize>,
    /// The endgame tables' folder (`koma solve`'s layout); none: no tables.
    pub tables: Option<std::path::PathBuf>,
    /// The games the page offers (Koma's, `BoardGames::koma()`).
    pub games: games::BoardGames,
}

impl Config {
    /// The defaults: 127.0.0.1 on `port`, the referee's timeouts.
    pub fn new(port: u16, engine: Launch) -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            engine,
            timeouts: Timeouts {
                start: Duration::from_secs(10),
                heartbeat: Duration::from_secs(1),
                stall: Duration::from_secs(5),
            },
            margin: Duration::from_millis(1000),
            idle: Duration::from_secs(600),
            allow_hosts: Vec::new(),
            analysis_idle: Duration::from_secs(10),
            match_size: None,
            tables: None,
            games: games::BoardGames::koma(),
        }
    }
}

/// The engine next to the running program (`koma` beside `koma-board`),
/// or else the running program itself in engine mode (`koma-board` plays
/// Koma's engine with `--engine-protocol`), so the page always has an
/// engine to offer.
pub fn bundled_engine() -> Launch {
    let me = std::env::current_exe().ok();
    let name = if cfg!(windows) { "koma.exe" } else { "koma" };
    if let Some(dir) = me.as_ref().and_then(|p| p.parent()) {
        let koma = dir.join(name);
        if koma.is_file() {
            return Launch {
                cmd: koma,
                args: Vec::new(),
                dir: None,
            };
        }
    }
    Launch {
        cmd: me.unwrap_or_else(|| "koma".into()),
        args: vec![ENGINE_FLAG.to_string()],
        dir: None,
    }
}

/// The flag that makes `koma-board` speak the engine protocol.
pub const ENGINE_FLAG: &str = "--engine-protocol";

/// The command line of a launch as the page shows it.
pub fn launch_text(l: &Launch) -> String {
    let mut s = l.cmd.display().to_string();
    for a in &l.args {
        s.push(' ');
        s.push_str(a);
    }
    s
}

/// An open table and its worker thread.
type Entry = (Arc<Table>, Option<JoinHandle<()>>);

/// The engine option whose values are an engine's levels (Koma's `Skill`).
pub const LEVEL_OPTION: &str = "Skill";

/// An open live analysis and its worker thread.
type LiveEntry = (Arc<analysis::Live>, Option<JoinHandle<()>>);

/// The open games and what they need to run.
pub struct Registry {
    pub config: Config,
    tables: Mutex<HashMap<u64, Entry>>,
    lives: Mutex<HashMap<u64, LiveEntry>>,
    /// Analysis engines running (live or review), at most `MAX_ANALYSES`.
    slots: Arc<Mutex<usize>>,
    next: AtomicU64,
    stopping: AtomicBool,
    /// The levels each engine command offers, as its `option` lines say.
    levels: Mutex<HashMap<String, Vec<String>>>,
    pub endgames: endgame::Endgames,
}

impl Registry {
    fn new(config: Config) -> Registry {
        Registry {
            endgames: endgame::Endgames::new(config.tables.clone()),
            config,
            tables: Mutex::new(HashMap::new()),
            lives: Mutex::new(HashMap::new()),
            slots: Arc::new(Mutex::new(0)),
            next: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
            levels: Mutex::new(HashMap::new()),
        }
    }

    /// The levels an engine offers: the values of its `LEVEL_OPTION` combo
    /// (none without one), read from its answer to `uci` once per command.
    pub fn levels(&self, launch: &Launch) -> Result<Vec<String>, client::handshake::StartError> {
        let key = launch_text(launch);
        let cache = || self.levels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = cache().get(&key) {
            return Ok(l.clone());
        }
        let declared = client::handshake::declared_options(launch, &self.config.timeouts)?;
        let levels = declared
            .into_iter()
            .find(|d| d.name.eq_ignore_ascii_case(LEVEL_OPTION))
            .map(|d| d.vars)
            .unwrap_or_default();
        log::debug!("{key} offers levels {levels:?}");
        cache().insert(key, levels.clone());
        Ok(levels)
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::SeqCst)
    }

    /// Opens a table and starts its worker.
    pub fn open(&self, table: Table) -> Result<Arc<Table>, String> {
        if self.stopping.load(Ordering::SeqCst) {
            return Err("the server is stopping".into());
        }
        let mut map = self.map();
        if map.len() >= MAX_TABLES {
            return Err(format!(
                "{MAX_TABLES} games are open already: close one (or wait for idle ones to close)"
            ));
        }
        let table = Arc::new(table);
        let worker = {
            let t = table.clone();
            std::thread::Builder::new()
                .name(format!("table {}", table.id))
                .spawn(move || table::run_worker(&t))
                .map_err(|e| format!("cannot start the game's thread ({e})"))?
        };
        map.insert(table.id, (table.clone(), Some(worker)));
        Ok(table)
    }

    pub fn get(&self, id: u64) -> Option<Arc<Table>> {
        self.map().get(&id).map(|(t, _)| t.clone())
    }

    pub fn list(&self) -> Vec<Arc<Table>> {
        let mut v: Vec<Arc<Table>> = self.map().values().map(|(t, _)| t.clone()).collect();
        v.sort_by_key(|t| t.id);
        v
    }

    /// Closes a table: its worker ends and its engines are stopped.
    pub fn close(&self, id: u64) -> bool {
        let entry = self.map().remove(&id);
        match entry {
            Some((t, worker)) => {
                t.close();
                // The worker joins in the background: an engine may take
                // up to the stall timeout to answer `stop`.
                if let Some(w) = worker {
                    let _ = std::thread::Builder::new()
                        .name("table close".into())
                        .spawn(move || {
                            let _ = w.join();
                        });
                }
                true
            }
            None => false,
        }
    }

    /// Takes one of the `MAX_ANALYSES` engine slots; it is given back
    /// when the `Slot` is dropped (its worker ended).
    pub fn take_slot(&self) -> Result<Slot, String> {
        if self.stopping.load(Ordering::SeqCst) {
            return Err("the server is stopping".into());
        }
        let mut n = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if *n >= MAX_ANALYSES {
            return Err(format!(
                "{MAX_ANALYSES} analyses run already on this server: stop one (a closed \
                 page's analysis stops within {} s)",
                self.config.analysis_idle.as_secs() + 1
            ));
        }
        *n += 1;
        Ok(Slot(self.slots.clone()))
    }

    /// Starts a live analysis's worker on a slot.
    pub fn open_live(
        &self,
        live: analysis::Live,
        setup: analysis::EngineSetup,
    ) -> Result<Arc<analysis::Live>, String> {
        let slot = self.take_slot()?;
        live.lock().slot = Some(slot);
        let live = Arc::new(live);
        let worker = {
            let l = live.clone();
            std::thread::Builder::new()
                .name(format!("analysis {}", live.id))
                .spawn(move || {
                    analysis::run(&l, &setup);
                    l.lock().slot = None;
                })
                .map_err(|e| format!("cannot start the analysis thread ({e})"))?
        };
        self.live_map()
            .insert(live.id, (live.clone(), Some(worker)));
        Ok(live)
    }

    fn live_map(&self) -> std::sync::MutexGuard<'_, HashMap<u64, LiveEntry>> {
        self.lives.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn live(&self, id: u64) -> Option<Arc<analysis::Live>> {
        self.live_map().get(&id).map(|(l, _)| l.clone())
    }

    /// Closes a live analysis: its engine is stopped and quit.
    pub fn close_live(&self, id: u64) -> bool {
        let entry = self.live_map().remove(&id);
        match entry {
            Some((l, worker)) => {
                l.close();
                if let Some(w) = worker {
                    let _ = std::thread::Builder::new()
                        .name("analysis close".into())
                        .spawn(move || {
                            let _ = w.join();
                        });
                }
                true
            }
            None => false,
        }
    }

    /// Closes the tables nobody looked at for `idle`, and the analyses
    /// nobody polled for `analysis_idle`.
    fn sweep(&self) {
        let gone: Vec<u64> = (self.live_map().values())
            .filter(|(l, _)| l.lock().last_seen.elapsed() > self.config.analysis_idle)
            .map(|(l, _)| l.id)
            .collect();
        for id in gone {
            log::debug!("analysis {id}: its page went away");
            self.close_live(id);
        }
        let idle: Vec<u64> = self
            .map()
            .values()
            .filter(|(t, _)| t.lock().last_seen.elapsed() > self.config.idle)
            .map(|(t, _)| t.id)
            .collect();
        for id in idle {
            self.close(id);
        }
    }

    /// Closes every table and waits for their workers (and engines).
    fn close_all(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let lives: Vec<LiveEntry> = self.live_map().drain().map(|(_, v)| v).collect();
        for (l, _) in &lives {
            l.close();
        }
        for (_, w) in lives {
            if let Some(w) = w {
                let _ = w.join();
            }
        }
        let all: Vec<Entry> = self.map().drain().map(|(_, v)| v).collect();
        for (t, _) in &all {
            t.close();
        }
        for (_, w) in all {
            if let Some(w) = w {
                let _ = w.join();
            }
        }
    }
}

/// One of the server's analysis engine slots, held by a worker.
pub struct Slot(Arc<Mutex<usize>>);

impl Drop for Slot {
    fn drop(&mut self) {
        let mut n = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *n = n.saturating_sub(1);
    }
}

/// A running board server.
pub struct Server {
    pub addr: SocketAddr,
    listener: http::Listener,
    registry: Arc<Registry>,
    sweeper: Option<JoinHandle<()>>,
    stop_sweeper: Arc<AtomicBool>,
}

impl Server {
    /// The address to open in a browser.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops serving, closes every game and waits for its engines to end.
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(s) = self.sweeper.take() {
            let _ = s.join();
        }
    }

    fn shutdown(&mut self) {
        self.listener.stop();
        self.stop_sweeper.store(true, Ordering::SeqCst);
        if let Some(s) = self.sweeper.take() {
            let _ = s.join();
        }
        self.registry.close_all();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The board without a socket: requests answered in-process by the same
/// routes as the server's (for fuzzing and tests). The tables it opens
/// are closed, and their workers joined, when it is dropped.
pub struct LocalBoard {
    registry: Registry,
    access: api::Access,
}

impl LocalBoard {
    /// A board that believes it listens on `config.addr` and takes
    /// `secret` as its page's secret.
    pub fn new(config: Config, secret: String) -> LocalBoard {
        LocalBoard {
            access: api::Access::new(config.addr, &config.allow_hosts, secret),
            registry: Registry::new(config),
        }
    }

    pub fn handle(&self, req: &http::Request) -> http::Response {
        api::handle(&self.registry, &self.access, req)
    }
}

impl Drop for LocalBoard {
    fn drop(&mut self) {
        self.registry.close_all();
    }
}

/// Binds the address and starts serving in background threads.
pub fn start(config: Config) -> std::io::Result<Server> {
    let listener = TcpListener::bind(config.addr)?;
    let addr = listener.local_addr()?;
    let access = api::Access::new(addr, &config.allow_hosts, api::new_secret()?);
    let registry = Arc::new(Registry::new(config));
    let reg = registry.clone();
    let listener = http::start(listener, move |req| api::handle(&reg, &access, req))?;
    let stop_sweeper = Arc::new(AtomicBool::new(false));
    let sweeper = {
        let reg = registry.clone();
        let stop = stop_sweeper.clone();
        std::thread::Builder::new()
            .name("board sweeper".into())
            .spawn(move || {
                let mut last = Instant::now();
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(100));
                    if last.elapsed() > Duration::from_secs(1) {
                        reg.sweep();
                        last = Instant::now();
                    }
                }
            })?
    };
    Ok(Server {
        addr,
        listener,
        registry,
        sweeper: Some(sweeper),
        stop_sweeper,
    })
}
