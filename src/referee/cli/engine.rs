//! One engine's keys (`--engine`, `--each`: `cmd=… name=… tc=…`) into an
//! `EngineConfig`, with the number and time values they take.

use super::Usage;
use super::config::EngineConfig;
use crate::client::clock::{EngineLimits, TimeControl};
use crate::client::process::Launch;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `KEY=VALUE` words into pairs, in order.
pub(super) fn split_pairs(words: &[String], flag: &str) -> Result<Vec<(String, String)>, Usage> {
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

pub(super) fn engine_config(
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
            "tc" => limits.tc = Some(time_control(v).map_err(|e| Usage(which(&e.to_string())))?),
            "st" => limits.movetime = Some(move_time(v).map_err(|e| Usage(which(&e.to_string())))?),
            // fastchess's plies= is depth.
            // 0 would be searched as 1 (a depth) or not at all (nodes).
            "depth" | "plies" => limits.depth = Some(at_least_one(v, k)?),
            "nodes" => limits.nodes = Some(at_least_one(v, "nodes")?),
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
    let given = name.is_some();
    let name = name.unwrap_or_else(|| {
        Path::new(&cmd)
            .file_name()
            .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
    });
    if name.trim().is_empty() {
        return Err(Usage(which("name= is empty")));
    }
    // A record's tag is one line, and the JSON, the summaries and the
    // records must name an engine alike: refused, not escaped.
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        let why = if given {
            format!("name= holds a control character ({c:?})")
        } else {
            format!("the program's file name {name:?} holds a control character ({c:?})")
        };
        return Err(Usage(which(&format!(
            "{why}, which the records cannot hold; give name= without one"
        ))));
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
pub(super) fn resolve_cmd(cmd: &str, dir: Option<&Path>) -> PathBuf {
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

pub(super) fn number_of<T: std::str::FromStr>(v: &str, what: &str) -> Result<T, Usage> {
    v.parse()
        .map_err(|_| Usage::new(format!("{what}={v}: expected a whole number")))
}

/// A whole number of 1 or more.
fn at_least_one<T: std::str::FromStr + Default + PartialEq>(
    v: &str,
    what: &str,
) -> Result<T, Usage> {
    v.parse()
        .ok()
        .filter(|n| *n != T::default())
        .ok_or_else(|| Usage::new(format!("{what}={v}: expected a whole number of 1 or more")))
}

/// Seconds, possibly fractional, non-negative and finite.
pub(super) fn secs(v: &str) -> Result<Duration, NotSeconds> {
    let x: f64 = v.parse().map_err(|_| NotSeconds(v.to_string()))?;
    if !(0.0..=1e9).contains(&x) {
        return Err(NotSeconds(v.to_string()));
    }
    Ok(Duration::from_secs_f64(x))
}

/// `st=`: seconds per move, at least the millisecond `go movetime` counts
/// in (a move time of 0 would lose every game on time, as `tc=0` would).
pub(super) fn move_time(v: &str) -> Result<Duration, TimeError> {
    let t = secs(v).map_err(|e| TimeError::MoveTime(v.to_string(), Some(e)))?;
    if t < Duration::from_millis(1) {
        return Err(TimeError::MoveTime(v.to_string(), None));
    }
    Ok(t)
}

/// The least base time of `tc=`: the millisecond `go wtime` counts in.
pub const MIN_BASE: Duration = Duration::from_millis(1);

/// `[moves/]base[+inc]` in seconds.
pub fn time_control(v: &str) -> Result<TimeControl, TimeError> {
    let bad = |why: TcFault| TimeError::TimeControl(v.to_string(), why);
    let (moves, rest) = match v.split_once('/') {
        Some((m, r)) => (
            Some(
                m.parse::<u32>()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| bad(TcFault::MoveCount(m.to_string())))?,
            ),
            r,
        ),
        None => (None, v),
    };
    // cutechess-cli's and fastchess's MINUTES:SECONDS for the base.
    let base_of = |b: &str| match b.split_once(':') {
        Some((m, sec)) => {
            let m: u32 = m.parse().map_err(|_| TcFault::Minutes(m.to_string()))?;
            Ok(Duration::from_secs(u64::from(m) * 60) + secs(sec).map_err(TcFault::Seconds)?)
        }
        None => secs(b).map_err(TcFault::Seconds),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (
            base_of(b).map_err(bad)?,
            secs(i).map_err(|e| bad(TcFault::Seconds(e)))?,
        ),
        None => (base_of(rest).map_err(bad)?, Duration::ZERO),
    };
    // The first move has the base alone (the increment comes after each
    // move), and `go` sends it in whole milliseconds: below one it is
    // `wtime 0`, and every game is lost on time before its first move.
    if base < MIN_BASE {
        return Err(bad(TcFault::BaseTooShort(base)));
    }
    Ok(TimeControl { moves, base, inc })
}

/// A value that is not seconds (non-negative, finite).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotSeconds(pub String);

impl fmt::Display for NotSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected seconds, got {}", self.0)
    }
}

/// An engine's time that cannot be played with, with the value given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeError {
    /// `st=`: not seconds, or (`None`) under the millisecond.
    MoveTime(String, Option<NotSeconds>),
    /// `tc=`, and what is wrong with it.
    TimeControl(String, TcFault),
}

/// What is wrong with a `tc=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcFault {
    MoveCount(String),
    Minutes(String),
    Seconds(NotSeconds),
    /// A base below `MIN_BASE`, which cannot hold the first move.
    BaseTooShort(Duration),
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::MoveTime(v, Some(e)) => write!(f, "st={v}: {e}"),
            TimeError::MoveTime(v, None) => write!(
                f,
                "st={v}: less than the 1 ms go movetime counts in (expected seconds, at least 0.001)"
            ),
            TimeError::TimeControl(v, why) => {
                write!(f, "tc={v}: {why} (expected [MOVES/]BASE[+INC] in seconds)")
            }
        }
    }
}

impl fmt::Display for TcFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcFault::MoveCount(m) => write!(f, "bad move count {m}"),
            TcFault::Minutes(m) => write!(f, "bad minutes {m}"),
            TcFault::Seconds(e) => e.fmt(f),
            TcFault::BaseTooShort(base) => write!(
                f,
                "a base time of {} s cannot hold the first move, which has the base alone \
                 (the increment is added after a move) and go counts it in whole milliseconds; \
                 give a base of at least 0.001",
                crate::client::clock::seconds(*base)
            ),
        }
    }
}

impl std::error::Error for TimeError {}
impl std::error::Error for NotSeconds {}
