//! Getting an engine ready: start it (`uci`, the options, `isready`), and
//! before each game `ucinewgame` and `isready`. A failure here is a lost
//! game like any other, with its reason and detail.

use super::engine_log::EngineLog;
use super::process::{EngineProc, Event, Launch, Recv};
use super::reason::{Failure, Reason};
use crate::core::OptionValue;
use crate::protocol::{Command, OptionDecl, Reply, parse_option_decl};
use std::time::{Duration, Instant};

/// How long the referee waits for an engine, outside its clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uci` to `uciok`, and each `isready` of the start and of a new game.
    pub start: Duration,
    /// Silence during a search after which `isready` is sent.
    pub heartbeat: Duration,
    /// How long an `isready` (or a `stop`) may go unanswered.
    pub stall: Duration,
}

/// Everything needed to start one engine.
pub struct EngineStart<'a> {
    pub name: &'a str,
    pub launch: &'a Launch,
    /// `option.X=Y` of the command line, sent as given.
    pub options: &'a [(String, String)],
    pub variant: &'a str,
    /// Every rule option of the game with the match's value (`--rule` or
    /// the default), sent to every engine so all play the same rules.
    pub rules: &'a [(&'static str, OptionValue)],
    pub log: Option<EngineLog>,
}

/// Longest part of an engine's line quoted in a detail.
const QUOTE: usize = 80;

pub fn quote(line: &str) -> String {
    let mut s: String = line.chars().take(QUOTE).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// Bytes of `option` lines kept from one engine's answer to `uci`: far
/// more than any engine declares, and a bound on one that declares
/// options for ever (the rest are dropped with a warning).
pub const OPTIONS_BUDGET: usize = 4 << 20;

/// Starts an engine and reads its answer to `uci`: the options it
/// declares.
fn open(
    name: &str,
    launch: &Launch,
    log: Option<EngineLog>,
    t: &Timeouts,
) -> Result<(EngineProc, Vec<OptionDecl>), StartError> {
    let mut e =
        EngineProc::spawn(name, launch, log).map_err(|e| StartError::Spawn(e.to_string()))?;
    let no_uciok = StartError::NoUciOk { waited: t.start };
    if e.send(&Command::Uci.to_string()).is_err() {
        return Err(StartError::Exited(
            e.exit_description(Duration::from_millis(500)),
        ));
    }
    let deadline = Instant::now() + t.start;
    let mut declared = Vec::new();
    let mut kept = 0;
    loop {
        match e.recv(deadline) {
            Recv::Event(Event::Line(_, l)) => match e.reply(&l) {
                Ok(Reply::UciOk) => break,
                Ok(Reply::Option(text)) if kept + text.len() > OPTIONS_BUDGET => {
                    e.warn_once(
                        "options beyond the budget",
                        &format!(
                            "more than {} MiB of option lines before uciok: the rest are dropped",
                            OPTIONS_BUDGET >> 20
                        ),
                    );
                }
                Ok(Reply::Option(text)) => {
                    kept += text.len();
                    declared.extend(parse_option_decl(&text));
                }
                Ok(Reply::Id { field, value }) if field == "name" => e.id_name = Some(value),
                // Banners and other text before uciok are allowed by UCI.
                _ if Instant::now() < deadline => {}
                _ => return Err(no_uciok),
            },
            Recv::Event(Event::Unreadable(..)) if Instant::now() < deadline => {}
            Recv::Event(Event::Unreadable(..)) | Recv::Timeout => return Err(no_uciok),
            Recv::Event(Event::Closed(_)) => {
                return Err(StartError::Exited(
                    e.exit_description(Duration::from_millis(500)),
                ));
            }
        }
    }
    Ok((e, declared))
}

/// The options an engine declares: it is started, asked `uci`, and let go.
pub fn declared_options(launch: &Launch, t: &Timeouts) -> Result<Vec<OptionDecl>, StartError> {
    let (e, declared) = open(&launch.short_name(), launch, None, t)?;
    e.quit(Duration::from_millis(300));
    Ok(declared)
}

/// Why an engine could not be started. Each says what the referee can
/// suggest: more time for a timeout, the engine's stderr otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The program could not be run (or its pipes opened).
    Spawn(String),
    /// It exited or closed its output before `uciok`: how it exited.
    Exited(String),
    /// No `uciok` within the start timeout.
    NoUciOk { waited: Duration },
    /// A line could not be written to it.
    Lost(String),
    /// It failed while the options were sent (no `readyok` in time, an
    /// exit, a line that is not the protocol).
    StartUp(Failure),
    /// It answered a `setoption` with `info string error …`: `option` is
    /// `name=value`, `words` the engine's line.
    Refused { option: String, words: String },
}

impl StartError {
    /// Whether the engine ran out of the start timeout (rather than
    /// crashing or refusing): more time might get it started.
    pub fn timed_out(&self) -> bool {
        match self {
            StartError::NoUciOk { .. } => true,
            StartError::StartUp(f) => f.reason == Reason::Stalled,
            _ => false,
        }
    }

    /// The failure of the side whose engine did not start: it loses.
    pub fn failure(&self) -> Failure {
        Failure::dead(Reason::FailedToStart, self.to_string())
    }
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Spawn(why) | StartError::Lost(why) => f.write_str(why),
            StartError::Exited(how) => write!(f, "{how} before uciok"),
            StartError::NoUciOk { waited } => {
                write!(f, "no uciok within {} ms", waited.as_millis())
            }
            StartError::StartUp(e) => {
                write!(f, "{} ({}) during start-up", e.detail, e.reason.message())
            }
            StartError::Refused { option, words } => {
                write!(f, "refused option {option}: {words}")
            }
        }
    }
}

impl std::error::Error for StartError {}

/// Starts an engine and brings it to `readyok`. Also returns warnings about
/// options the engine did not declare (it may then play other rules).
/// Each `setoption` is followed by `isready`, so an error the engine
/// answers with (`info string error …`, as Koma answers a value it cannot
/// use) is known to be about that option: the start then fails with
/// `StartError::Refused` rather than play with the engine's defaults.
pub fn start(s: &EngineStart<'_>, t: &Timeouts) -> Result<(EngineProc, Vec<String>), StartError> {
    let (mut e, declared) = open(s.name, s.launch, s.log.clone(), t)?;
    let mut warnings = Vec::new();
    let find = |name: &str| declared.iter().find(|d| d.name.eq_ignore_ascii_case(name));
    match find("UCI_Variant") {
        Some(d) if d.vars.iter().any(|v| v == s.variant) => {}
        _ => warnings.push(format!(
            "{} does not list variant {} in UCI_Variant",
            s.name, s.variant
        )),
    }
    let mut sets = vec![("UCI_Variant".to_string(), s.variant.to_string())];
    for (name, value) in s.rules {
        sets.push((name.to_string(), value.to_string()));
    }
    for (name, value) in s.options {
        sets.push((name.clone(), value.clone()));
    }
    for (name, _) in sets.iter().skip(1) {
        if find(name).is_none() {
            warnings.push(format!("{} does not declare option {name}", s.name));
        }
    }
    for (name, value) in sets {
        let option = format!("{name}={value}");
        let cmd = Command::SetOption {
            name,
            value: Some(value),
        };
        (e.send(&cmd.to_string()))
            .and_then(|_| e.send(&Command::IsReady.to_string()))
            .map_err(|e| StartError::Lost(e.to_string()))?;
        let deadline = Instant::now() + t.start;
        let error = wait_readyok(&mut e, deadline).map_err(StartError::StartUp)?;
        if let Some(words) = error {
            return Err(StartError::Refused { option, words });
        }
    }
    Ok((e, warnings))
}

/// `ucinewgame` then `isready`, answered within the start timeout.
pub fn new_game(e: &mut EngineProc, t: &Timeouts) -> Result<(), Failure> {
    let sent = e.send_all(&[
        &Command::UciNewGame.to_string(),
        &Command::IsReady.to_string(),
    ]);
    if let Err(why) = sent {
        return Err(Failure::dead(Reason::Disconnected, e.lost(why)));
    }
    wait_readyok(e, Instant::now() + t.start).map(drop)
}

/// `setoption` then `isready` answered within the start timeout (a
/// script's `configure`): the `info string error …` line the engine
/// answered the option with (only the first, as `wait_readyok` keeps),
/// none when it took it.
pub fn set_option(
    e: &mut EngineProc,
    name: &str,
    value: &str,
    t: &Timeouts,
) -> Result<Vec<String>, Failure> {
    let cmd = Command::SetOption {
        name: name.to_string(),
        value: Some(value.to_string()),
    };
    let sent = e
        .send(&cmd.to_string())
        .and_then(|_| e.send(&Command::IsReady.to_string()));
    if let Err(why) = sent {
        return Err(Failure::dead(Reason::Disconnected, e.lost(why)));
    }
    wait_readyok(e, Instant::now() + t.start).map(|error| error.into_iter().collect())
}

/// `isready` answered within the stall timeout (a script's `ping`).
pub fn sync(e: &mut EngineProc, t: &Timeouts) -> Result<(), Failure> {
    if let Err(why) = e.send(&Command::IsReady.to_string()) {
        return Err(Failure::dead(Reason::Disconnected, e.lost(why)));
    }
    wait_readyok(e, Instant::now() + t.stall).map(drop)
}

/// Reads until `readyok`; returns the first `info string error …` line
/// read on the way (only the first: an engine may print them for ever).
/// Other protocol lines are skipped (a `bestmove`, which no `go` asked
/// for here, with a warning); a line that is not the protocol loses.
fn wait_readyok(e: &mut EngineProc, deadline: Instant) -> Result<Option<String>, Failure> {
    let start = Instant::now();
    let mut error = None;
    let stalled = || {
        let ms = deadline.saturating_duration_since(start).as_millis();
        Failure::dead(Reason::Stalled, format!("no readyok within {ms} ms"))
    };
    loop {
        match e.recv(deadline) {
            Recv::Event(Event::Line(_, l)) => match e.reply(&l) {
                Ok(Reply::ReadyOk) => return Ok(error),
                Ok(Reply::BestMove { .. }) => stray_bestmove(e, &l),
                Ok(Reply::Info(i)) => {
                    if let Some(s) = &i.string
                        && s.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("error"))
                    {
                        error.get_or_insert_with(|| format!("info string {s}"));
                    }
                }
                Ok(_) => {}
                Err(_) => {
                    return Err(Failure::alive(
                        Reason::Garbage,
                        format!("unreadable line {}", quote(&l)),
                    ));
                }
            },
            Recv::Event(Event::Unreadable(_, what)) => {
                return Err(Failure::alive(Reason::Garbage, what));
            }
            Recv::Event(Event::Closed(_)) => {
                let how = e.exit_description(Duration::from_millis(500));
                return Err(Failure::dead(Reason::Disconnected, how));
            }
            Recv::Timeout => {
                if let Some(how) = e.exited() {
                    return Err(Failure::dead(Reason::Disconnected, how));
                }
                return Err(stalled());
            }
        }
        if Instant::now() >= deadline {
            return Err(stalled());
        }
    }
}

/// Drops a `bestmove` no `go` asked for, with a warning (once per engine).
pub fn stray_bestmove(e: &mut EngineProc, line: &str) {
    e.warn_once(
        "stray bestmove",
        &format!(
            "a bestmove while no go was outstanding, dropped: {}",
            quote(line)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("hello"), "\"hello\"");
        assert_eq!(quote("a\u{1b}b"), "\"a\\u{1b}b\"");
        let long = "x".repeat(200);
        assert_eq!(quote(&long).chars().count(), 80 + 3);
    }

    #[test]
    fn start_errors_read_as_before_and_say_whether_time_ran_out() {
        let waited = Duration::from_millis(250);
        let cases = [
            (
                StartError::NoUciOk { waited },
                "no uciok within 250 ms",
                true,
            ),
            (
                StartError::Exited("exited with code 1".into()),
                "exited with code 1 before uciok",
                false,
            ),
            (
                StartError::StartUp(Failure::dead(Reason::Stalled, "no readyok within 9 ms")),
                "no readyok within 9 ms (stops answering) during start-up",
                true,
            ),
            (
                StartError::Refused {
                    option: "Threads=0".into(),
                    words: "info string error: no".into(),
                },
                "refused option Threads=0: info string error: no",
                false,
            ),
        ];
        for (e, words, timed_out) in cases {
            assert_eq!(e.to_string(), words);
            assert_eq!(e.timed_out(), timed_out, "{words}");
            assert_eq!(e.failure().reason, Reason::FailedToStart);
            assert_eq!(e.failure().detail, words);
        }
    }
}
