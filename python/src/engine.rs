//! An engine for Python scripts, in the manner of python-chess's
//! `SimpleEngine`, on the referee's own client layer (`koma::client`):
//! the same start-up, the same turn (`position`, `go`, the heartbeat, the
//! deadline, the `bestmove` checked against the rules) and the same
//! process handling (killed and reaped on drop, with its process group).
//! What this adds: a call-wide timeout, MultiPV lines, and errors sorted
//! into the kinds a script catches.

use crate::position::AnyPosition;
use koma::client::clock::{Clock, EngineLimits, TimeControl};
use koma::client::handshake::{self, EngineStart, Timeouts};
use koma::client::process::{EngineProc, Launch};
use koma::client::reason::{Failure, Reason};
use koma::client::turn::{Turn, Watch, play_turn};
use koma::core::{OptionValue, with_defaults};
use koma::games::GameId;
use koma::protocol::{Command, InfoLine, InfoScore, OptionDecl};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The kinds of engine error a script tells apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// It could not be started, or refused an option.
    Start,
    /// No answer in time (a silent engine, a time overrun, the timeout).
    Timeout,
    /// It exited or closed its output; it is gone.
    Terminated,
    /// An illegal or malformed move, or a line that is not the protocol.
    Protocol,
    /// The call itself is wrong (no limit, a finished game).
    Usage,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub kind: ErrorKind,
    pub message: String,
}

impl EngineError {
    fn new(kind: ErrorKind, message: impl Into<String>) -> EngineError {
        EngineError {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    pub dir: Option<PathBuf>,
    pub game: GameId,
    /// Rule options (sent to the engine, as the referee sends them).
    pub rules: Vec<(String, String)>,
    /// Engine options; one the engine does not declare is refused.
    pub options: Vec<(String, String)>,
    pub timeouts: Timeouts,
}

/// What bounds one search.
#[derive(Clone, Debug, Default)]
pub struct Limit {
    pub time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Both sides' clocks (`go wtime btime winc binc movestogo`).
    pub clocks: Option<Clocks>,
    /// How long the whole call may take; by default the move time (or
    /// the mover's clock) plus ten seconds, or a minute without either.
    pub timeout: Option<Duration>,
}

/// The clocks of a game played on time, as the caller keeps them.
#[derive(Clone, Debug, Default)]
pub struct Clocks {
    /// Time left, first player then second.
    pub remaining: [Duration; 2],
    pub inc: [Duration; 2],
    /// Moves to the next time control, if the game has periods.
    pub movestogo: Option<u32>,
}

/// One `info` line as a script reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub multipv: u32,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<InfoScore>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<String>,
}

impl Info {
    fn from_line(i: &InfoLine) -> Info {
        Info {
            multipv: i.multipv.unwrap_or(1),
            depth: i.depth,
            seldepth: i.seldepth,
            score: i.score,
            nodes: i.nodes,
            nps: i.nps,
            time_ms: i.time,
            pv: i.pv.iter().map(|m| m.to_string()).collect(),
        }
    }
}

/// A search's answer: the move and the last line of each PV.
#[derive(Clone, Debug)]
pub struct Searched {
    pub mv: String,
    pub lines: Vec<Info>,
    pub elapsed: Duration,
}

/// A search's `info` lines as they come, for a script reading them while
/// the search runs (python-chess's `analysis()`), and its stop switch.
#[derive(Default)]
pub struct Feed {
    infos: Mutex<VecDeque<Info>>,
    arrived: Condvar,
    stop: AtomicBool,
}

impl Feed {
    /// Asks the search to stop (it answers with its `bestmove`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.arrived.notify_all();
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The lines arrived since the last call, waiting up to `wait` for one.
    pub fn take(&self, wait: Duration) -> Vec<Info> {
        let q = self.infos.lock().unwrap_or_else(|p| p.into_inner());
        let (mut q, _) = self
            .arrived
            .wait_timeout_while(q, wait, |q| q.is_empty() && !self.stopped())
            .unwrap_or_else(|p| p.into_inner());
        q.drain(..).collect()
    }

    fn push(&self, i: Info) {
        let mut q = self.infos.lock().unwrap_or_else(|p| p.into_inner());
        // A reader that stopped reading must not let the queue grow
        // without bound: beyond this, the oldest lines are dropped.
        if q.len() >= 10_000 {
            q.pop_front();
        }
        q.push_back(i);
        self.arrived.notify_all();
    }
}

/// Keeps the latest scored `info` of each PV and calls the search off at
/// the call's timeout (or when the feed is stopped).
struct Lines<'a> {
    lines: Vec<Info>,
    deadline: Instant,
    timed_out: bool,
    feed: Option<&'a Feed>,
}

impl Watch for Lines<'_> {
    fn info(&mut self, i: &InfoLine) {
        if i.score.is_none() && i.pv.is_empty() {
            return;
        }
        let info = Info::from_line(i);
        if let Some(f) = self.feed {
            f.push(info.clone());
        }
        match self.lines.iter_mut().find(|l| l.multipv == info.multipv) {
            Some(l) => *l = info,
            None => self.lines.push(info),
        }
    }
    fn cancelled(&mut self) -> bool {
        self.timed_out |= Instant::now() >= self.deadline;
        self.timed_out || self.feed.is_some_and(Feed::stopped)
    }
    fn poll(&self) -> Option<Duration> {
        Some(Duration::from_millis(20))
    }
}

pub struct Engine {
    proc: Option<EngineProc>,
    launch: Launch,
    name: String,
    game: GameId,
    timeouts: Timeouts,
    multipv: u32,
    /// What the engine calls itself (`id name`).
    pub id_name: Option<String>,
    /// Rule options the engine does not declare (it may play other rules).
    pub warnings: Vec<String>,
}

fn failure(f: Failure) -> EngineError {
    let kind = match f.reason {
        Reason::TimeForfeit | Reason::Stalled => ErrorKind::Timeout,
        Reason::Disconnected => ErrorKind::Terminated,
        Reason::FailedToStart => ErrorKind::Start,
        _ => ErrorKind::Protocol,
    };
    EngineError::new(
        kind,
        format!("the engine {}: {}", f.reason.message(), f.detail),
    )
}

impl Engine {
    /// Starts the engine and brings it to `readyok` with the variant, the
    /// rules and the options set.
    pub fn start(c: &EngineConfig) -> Result<Engine, EngineError> {
        let start_err = |m: String| EngineError::new(ErrorKind::Start, m);
        let (cmd, args) = c
            .command
            .split_first()
            .ok_or_else(|| start_err("no engine command given".into()))?;
        let launch = Launch {
            cmd: PathBuf::from(cmd),
            args: args.to_vec(),
            dir: c.dir.clone(),
        };
        launch.check().map_err(|e| start_err(e.to_string()))?;
        let given = c
            .game
            .read_rules(c.rules.iter().map(|(n, v)| (n.as_str(), v.as_str())))
            .map_err(|e| start_err(e.to_string()))?;
        let rules: Vec<(&'static str, OptionValue)> = with_defaults(c.game.rule_specs(), &given);
        let name = launch.cmd.file_name().map_or_else(
            || "engine".to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        let (mut proc, warnings) = handshake::start(
            &EngineStart {
                name: &name,
                launch: &launch,
                options: &c.options,
                variant: c.game.name(),
                rules: &rules,
                log: None,
            },
            &c.timeouts,
        )
        .map_err(|e| start_err(format!("{name} could not be started: {e}")))?;
        // An option of the caller's the engine does not have would be
        // silently ignored: refused here (dropping `proc` ends the engine).
        for (option, _) in &c.options {
            let undeclared = format!("{name} does not declare option {option}");
            if warnings.contains(&undeclared) {
                return Err(start_err(undeclared));
            }
        }
        handshake::new_game(&mut proc, &c.timeouts).map_err(failure)?;
        Ok(Engine {
            id_name: proc.id_name.clone(),
            proc: Some(proc),
            launch,
            name,
            game: c.game,
            timeouts: c.timeouts,
            multipv: 1,
            warnings,
        })
    }

    pub fn game(&self) -> GameId {
        self.game
    }

    pub fn pid(&self) -> Option<u32> {
        self.proc.as_ref().map(|p| p.pid())
    }

    /// Searches `pos` and returns the move with up to `multipv` lines.
    pub fn search(
        &mut self,
        pos: &dyn AnyPosition,
        limit: &Limit,
        multipv: u32,
        feed: Option<&Feed>,
    ) -> Result<Searched, EngineError> {
        if pos.entry().name != self.game.name() {
            return Err(EngineError::new(
                ErrorKind::Usage,
                format!(
                    "the engine plays {}, the position is {}",
                    self.game,
                    pos.entry().name
                ),
            ));
        }
        if let Some(end) = pos.outcome() {
            return Err(EngineError::new(
                ErrorKind::Usage,
                format!("the game is over ({end})"),
            ));
        }
        if limit.time.is_none()
            && limit.depth.is_none()
            && limit.nodes.is_none()
            && limit.clocks.is_none()
        {
            return Err(EngineError::new(
                ErrorKind::Usage,
                "a limit needs a time, a clock, a depth or nodes",
            ));
        }
        let Some(proc) = self.proc.as_mut() else {
            let m = format!("the engine {} is no longer running", self.name);
            return Err(EngineError::new(ErrorKind::Terminated, m));
        };
        let multipv = multipv.max(1);
        if multipv != self.multipv {
            let set = Command::SetOption {
                name: "MultiPV".into(),
                value: Some(multipv.to_string()),
            };
            proc.send(&set.to_string())
                .map_err(|e| EngineError::new(ErrorKind::Terminated, e.to_string()))?;
            self.multipv = multipv;
        }
        let limits = EngineLimits {
            tc: None,
            movetime: limit.time,
            depth: limit.depth,
            nodes: limit.nodes,
        };
        // Each side's clock as a time control starting at its time left.
        let side_clock = |s: usize| match &limit.clocks {
            None => Clock::new(&limits),
            Some(c) => Clock::new(&EngineLimits {
                tc: Some(TimeControl {
                    moves: c.movestogo,
                    base: c.remaining[s],
                    inc: c.inc[s],
                }),
                ..limits.clone()
            }),
        };
        let clocks = [side_clock(0), side_clock(1)];
        let allowance = clocks[pos.turn().index()].allowance();
        let timeout = limit.timeout.unwrap_or(match allowance {
            Some(t) => t + Duration::from_secs(10),
            None => Duration::from_secs(60),
        });
        let line = pos.position_line();
        let turn = Turn {
            position: &line,
            clocks: &clocks,
            side: pos.turn(),
            limits: &limits,
            // The call's timeout is the only deadline: a move time is
            // what the engine is asked for, not a clock it loses on.
            margin: timeout.saturating_sub(allowance.unwrap_or_default()),
            timeouts: &self.timeouts,
        };
        let mut watch = Lines {
            lines: Vec::new(),
            deadline: Instant::now() + timeout,
            timed_out: false,
            feed,
        };
        let started = Instant::now();
        let played = play_turn(proc, &turn, &mut watch, |m| pos.legal(m));
        let played = match played {
            Ok(p) => p,
            Err(f) => {
                if f.dead {
                    self.proc = None;
                }
                return Err(failure(f));
            }
        };
        if watch.timed_out {
            return Err(EngineError::new(
                ErrorKind::Timeout,
                format!(
                    "the engine did not finish its search within {} ms (stopped)",
                    timeout.as_millis()
                ),
            ));
        }
        let mut lines = watch.lines;
        lines.retain(|l| l.multipv <= multipv);
        lines.sort_by_key(|l| l.multipv);
        Ok(Searched {
            mv: played.mv,
            lines,
            elapsed: started.elapsed(),
        })
    }

    fn running(&mut self) -> Result<&mut EngineProc, EngineError> {
        let name = &self.name;
        self.proc.as_mut().ok_or_else(|| {
            let m = format!("the engine {name} is no longer running");
            EngineError::new(ErrorKind::Terminated, m)
        })
    }

    /// `isready`, answered within the stall timeout.
    pub fn ping(&mut self) -> Result<(), EngineError> {
        let t = self.timeouts;
        let r = handshake::sync(self.running()?, &t);
        r.map_err(|f| self.failed(f))
    }

    /// Sets engine options (`setoption`, each followed by `isready`); one
    /// the engine answers with `info string error …` is refused.
    pub fn configure(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        let t = self.timeouts;
        for (name, value) in options {
            let errors = handshake::set_option(self.running()?, name, value, &t);
            let errors = errors.map_err(|f| self.failed(f))?;
            if let Some(words) = errors.into_iter().next() {
                let m = format!("refused option {name}={value}: {words}");
                return Err(EngineError::new(ErrorKind::Usage, m));
            }
        }
        Ok(())
    }

    /// The options the program declares (read from a second start of it,
    /// which is ended at once).
    pub fn declared(&self) -> Result<Vec<OptionDecl>, EngineError> {
        handshake::declared_options(&self.launch, &self.timeouts)
            .map_err(|e| EngineError::new(ErrorKind::Start, e.to_string()))
    }

    fn failed(&mut self, f: Failure) -> EngineError {
        if f.dead {
            self.proc = None;
        }
        failure(f)
    }

    /// `ucinewgame` (and `isready`): forget the previous game.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        let Some(proc) = self.proc.as_mut() else {
            let m = format!("the engine {} is no longer running", self.name);
            return Err(EngineError::new(ErrorKind::Terminated, m));
        };
        handshake::new_game(proc, &self.timeouts).map_err(|f| {
            if f.dead {
                self.proc = None;
            }
            failure(f)
        })
    }

    /// Sends `quit`, waits a moment, then kills and reaps the engine and
    /// whatever it started. Calling it again does nothing.
    pub fn quit(&mut self) {
        if let Some(p) = self.proc.take() {
            p.quit(Duration::from_millis(500));
        }
    }

    pub fn is_running(&self) -> bool {
        self.proc.is_some()
    }
}
