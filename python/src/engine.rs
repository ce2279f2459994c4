//! An engine for Python scripts, in the manner of python-chess's
//! `SimpleEngine`, on the referee's own client layer (`koma::client`):
//! the same start-up, the same turn (`position`, `go`, the heartbeat, the
//! deadline, the `bestmove` checked against the rules) and the same
//! process handling (killed and reaped on drop, with its process group).
//! What this adds: a call-wide timeout, MultiPV lines, and errors sorted
//! into the kinds a script catches.

use crate::position::AnyPosition;
use koma::client::clock::{Clock, EngineLimits};
use koma::client::handshake::{self, EngineStart, Timeouts};
use koma::client::process::{EngineProc, Launch};
use koma::client::reason::{Failure, Reason};
use koma::client::turn::{Turn, Watch, play_turn};
use koma::core::{OptionValue, with_defaults};
use koma::games::GameId;
use koma::protocol::{Command, InfoLine, InfoScore};
use std::path::PathBuf;
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
    /// How long the whole call may take; by default the move time plus
    /// ten seconds, or a minute without a move time.
    pub timeout: Option<Duration>,
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

/// Keeps the latest scored `info` of each PV and calls the search off at
/// the call's timeout.
struct Lines {
    lines: Vec<Info>,
    deadline: Instant,
    timed_out: bool,
}

impl Watch for Lines {
    fn info(&mut self, i: &InfoLine) {
        if i.score.is_none() && i.pv.is_empty() {
            return;
        }
        let info = Info::from_line(i);
        match self.lines.iter_mut().find(|l| l.multipv == info.multipv) {
            Some(l) => *l = info,
            None => self.lines.push(info),
        }
    }
    fn cancelled(&mut self) -> bool {
        self.timed_out |= Instant::now() >= self.deadline;
        self.timed_out
    }
    fn poll(&self) -> Option<Duration> {
        Some(Duration::from_millis(20))
    }
}

pub struct Engine {
    proc: Option<EngineProc>,
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
        launch.check().map_err(start_err)?;
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
    ) -> Result<Searched, EngineError> {
        if pos.game() != self.game {
            return Err(EngineError::new(
                ErrorKind::Usage,
                format!(
                    "the engine plays {}, the position is {}",
                    self.game,
                    pos.game()
                ),
            ));
        }
        if let Some(end) = pos.outcome() {
            return Err(EngineError::new(
                ErrorKind::Usage,
                format!("the game is over ({end})"),
            ));
        }
        if limit.time.is_none() && limit.depth.is_none() && limit.nodes.is_none() {
            return Err(EngineError::new(
                ErrorKind::Usage,
                "a limit needs a time, a depth or nodes",
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
                .map_err(|e| EngineError::new(ErrorKind::Terminated, e))?;
            self.multipv = multipv;
        }
        let timeout = limit.timeout.unwrap_or(match limit.time {
            Some(t) => t + Duration::from_secs(10),
            None => Duration::from_secs(60),
        });
        let limits = EngineLimits {
            tc: None,
            movetime: limit.time,
            depth: limit.depth,
            nodes: limit.nodes,
        };
        let clocks = [Clock::new(&limits), Clock::new(&limits)];
        let line = pos.position_line();
        let turn = Turn {
            position: &line,
            clocks: &clocks,
            side: pos.turn(),
            limits: &limits,
            // The call's timeout is the only deadline: a move time is
            // what the engine is asked for, not a clock it loses on.
            margin: timeout.saturating_sub(limit.time.unwrap_or_default()),
            timeouts: &self.timeouts,
        };
        let mut watch = Lines {
            lines: Vec::new(),
            deadline: Instant::now() + timeout,
            timed_out: false,
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
