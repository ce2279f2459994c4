//! One engine as a child process: piped stdin/stdout/stderr, a reader
//! thread that stamps every stdout line with the time it arrived, and a
//! `Drop` that kills and reaps it, so no engine is left running or a
//! zombie. On Linux the child also asks the kernel to kill it when the
//! referee dies (`PR_SET_PDEATHSIG`), which covers `kill -9` of the referee.
//!
//! Each engine runs in its own process group, so killing it also kills
//! whatever it started (a shell script's children); if the referee dies
//! without killing it, the `watchdog` kills the group. `PR_SET_PDEATHSIG`
//! fires when the *thread* that spawned the child ends: engines are
//! spawned and dropped by the same worker thread.

use super::engine_log::{self, Dir, EngineLog};
use super::inbox::{Receiver, Sender, inbox};
use super::watchdog;
use crate::protocol::lines::{Line, LineReader, MAX_LINE};
use crate::protocol::{ParseError, Reply, parse_info_lenient, parse_reply};
use std::io::{Read, Write};
use std::path::PathBuf;
#[cfg(not(unix))]
use std::process::ExitStatus;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// How to run an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

impl Launch {
    /// The program's file name, to name an engine nobody named.
    pub fn short_name(&self) -> String {
        self.cmd.file_name().map_or_else(
            || "engine".to_string(),
            |f| f.to_string_lossy().into_owned(),
        )
    }

    /// Checks, before any game, that the program can be run: its working
    /// directory exists, and the program is an executable file (a bare
    /// name is looked up in `PATH`, as `spawn` does). The error names the
    /// path.
    pub fn check(&self) -> Result<(), String> {
        if let Some(d) = &self.dir
            && !d.is_dir()
        {
            return Err(format!(
                "the working directory {} is not a directory",
                d.display()
            ));
        }
        let has_slash = self.cmd.components().count() > 1 || self.cmd.is_absolute();
        if has_slash {
            return match std::fs::metadata(&self.cmd) {
                Err(e) => Err(format!("cannot run {}: {e}", self.cmd.display())),
                Ok(m) if !m.is_file() => Err(format!(
                    "cannot run {}: not a regular file",
                    self.cmd.display()
                )),
                Ok(_) if !executable(&self.cmd) => {
                    Err(format!("cannot run {}: not executable", self.cmd.display()))
                }
                Ok(_) => Ok(()),
            };
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let found = std::env::split_paths(&path)
            .map(|d| d.join(&self.cmd))
            .any(|p| p.is_file() && executable(&p));
        if found {
            Ok(())
        } else {
            Err(format!(
                "cannot run {}: no such program in PATH",
                self.cmd.display()
            ))
        }
    }
}

/// Whether this process may execute the file at `p`.
#[cfg(unix)]
fn executable(p: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: access() reads a valid NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), libc::X_OK) == 0 }
}

#[cfg(not(unix))]
fn executable(p: &std::path::Path) -> bool {
    p.is_file()
}

/// What the reader thread saw, stamped with when it saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Line(Instant, String),
    /// A line that is not text: too long or not UTF-8.
    Unreadable(Instant, &'static str),
    /// stdout reached its end: the engine closed it or exited.
    Closed(Instant),
}

/// The answer of `EngineProc::recv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    Event(Event),
    Timeout,
}

pub struct EngineProc {
    /// `name(pid)`, for logs and messages.
    pub tag: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver,
    log: Option<EngineLog>,
    closed: Option<Instant>,
    /// A line read after a deadline, kept for the next `recv`.
    pending: Option<Event>,
    /// What it called itself (`id name`) during the handshake.
    pub id_name: Option<String>,
    /// The kinds of warning already given about this engine (each is
    /// given once per process).
    warned: Vec<&'static str>,
}

impl EngineProc {
    /// Starts the process; the error says what could not be run.
    pub fn spawn(
        name: &str,
        launch: &Launch,
        log: Option<EngineLog>,
    ) -> Result<EngineProc, String> {
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &launch.dir {
            cmd.current_dir(d);
        }
        guard_child(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", launch.cmd.display()))?;
        let tag = format!("{name}({})", child.id());
        let (tx, rx) = inbox();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let stdin = child.stdin.take();
        watchdog::watch(child.id());
        // From here on `Drop` kills and reaps the engine, whatever fails.
        let e = EngineProc {
            tag: tag.clone(),
            stdin,
            child,
            events: rx,
            log: log.clone(),
            closed: None,
            pending: None,
            id_name: None,
            warned: Vec::new(),
        };
        let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
            return Err("the engine's pipes could not be opened".into());
        };
        spawn_reader(stdout, tx, log.clone(), tag.clone())?;
        spawn_stderr_drain(stderr, log.clone(), tag.clone())?;
        let started = format!("started {}", launch.cmd.display());
        engine_log::line(log.as_ref(), &tag, Dir::Note, &started);
        Ok(e)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line and flushes it; an error means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        engine_log::line(self.log.as_ref(), &self.tag, Dir::ToEngine, line);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err("its input is closed".into());
        };
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        let r = stdin.write_all(&buf).and_then(|_| stdin.flush());
        r.map_err(|e| {
            self.stdin = None;
            format!("cannot write to it ({e})")
        })
    }

    /// The next event, waiting until `deadline` at most. A line read after
    /// the deadline is a timeout (and is kept for the next call): an engine
    /// that floods its output keeps the inbox full, and its lines must not
    /// carry a reader past its deadline for ever.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if let Some(t) = self.closed {
            return Recv::Event(Event::Closed(t));
        }
        let ev = match self.pending.take() {
            Some(ev) => ev,
            None => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match self.events.recv_timeout(wait) {
                    Ok(ev) => ev,
                    Err(RecvTimeoutError::Timeout) => return Recv::Timeout,
                    Err(RecvTimeoutError::Disconnected) => Event::Closed(Instant::now()),
                }
            }
        };
        if let Event::Line(t, _) | Event::Unreadable(t, _) = ev
            && t > deadline
        {
            self.pending = Some(ev);
            return Recv::Timeout;
        }
        if let Event::Closed(t) = ev {
            self.closed = Some(t);
        }
        Recv::Event(ev)
    }

    /// Reads one of its lines. An `info` line is advice, never a failure:
    /// what parses is kept, and the first line with a bad value gets a
    /// warning (once per engine).
    pub fn reply(&mut self, line: &str) -> Result<Reply, ParseError> {
        let r = parse_reply(line);
        if r.is_ok() || line.split_whitespace().next() != Some("info") {
            return r;
        }
        let (info, err) = parse_info_lenient(line);
        if let Some(err) = err {
            let what = format!("an info line with a bad value ({err}), kept without it");
            self.warn_once("info", &what);
        }
        Ok(Reply::Info(info))
    }

    /// Warns about this engine, the first time only for each `kind`: on
    /// stderr and in the engine log.
    pub fn warn_once(&mut self, kind: &'static str, what: &str) {
        if self.warned.contains(&kind) {
            return;
        }
        self.warned.push(kind);
        log::warn!("{}: {what} (warned once)", self.tag);
        engine_log::line(
            self.log.as_ref(),
            &self.tag,
            Dir::Note,
            &format!("warning: {what}"),
        );
    }

    /// Waits up to `wait` for the process to exit and says how it ended.
    /// The process is not reaped here (see `Drop`).
    pub fn exit_description(&mut self, wait: Duration) -> String {
        let end = Instant::now() + wait;
        loop {
            match peek_exit(&mut self.child) {
                Some(how) => return how,
                None if Instant::now() < end => std::thread::sleep(Duration::from_millis(2)),
                None => return "it closed its output but is still running".into(),
            }
        }
    }

    /// How it ended, if it has exited (it may have, with its output still
    /// open: a child it started holds the pipe).
    pub fn exited(&mut self) -> Option<String> {
        peek_exit(&mut self.child)
    }

    /// The detail of an engine that cannot be written to: how it ended
    /// when it has exited (within a moment), else `why`.
    pub fn lost(&mut self, why: String) -> String {
        let end = Instant::now() + Duration::from_millis(200);
        loop {
            if let Some(how) = self.exited() {
                return how;
            }
            if Instant::now() >= end {
                return why;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Asks the engine to quit and gives it `grace` to do so; `Drop` does
    /// the rest.
    pub fn quit(mut self, grace: Duration) {
        if self.send("quit").is_ok() {
            self.stdin = None;
            let end = Instant::now() + grace;
            while Instant::now() < end && peek_exit(&mut self.child).is_none() {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

impl Drop for EngineProc {
    /// Kills the engine's whole process group, then waits for the engine
    /// so it is not left a zombie. The engine is never reaped before this
    /// point, so its process group id cannot have been reused.
    fn drop(&mut self) {
        self.stdin = None;
        kill_group(self.child.id());
        let _ = self.child.kill();
        watchdog::unwatch(self.child.id());
        let _ = self.child.wait();
        engine_log::line(self.log.as_ref(), &self.tag, Dir::Note, "ended");
    }
}

/// How the child ended, if it has, without reaping it (`WNOWAIT`).
#[cfg(unix)]
fn peek_exit(child: &mut Child) -> Option<String> {
    let pid = libc::id_t::try_from(child.id()).ok()?;
    // SAFETY: `info` is plain data that waitid fills; WNOWAIT leaves the
    // child waitable, so `Child::wait` still reaps it later.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if r != 0 || info.si_pid() == 0 {
            return None;
        }
        let status = info.si_status();
        Some(match info.si_code {
            libc::CLD_EXITED => format!("it exited with code {status}"),
            _ => format!("it was killed by signal {status}"),
        })
    }
}

#[cfg(not(unix))]
fn peek_exit(child: &mut Child) -> Option<String> {
    child.try_wait().ok().flatten().map(describe)
}

#[cfg(not(unix))]
fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("it exited with code {c}"),
        None => "it exited".into(),
    }
}

/// Own process group, and on Linux death with the referee.
#[cfg(unix)]
fn guard_child(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the forked child before exec and only
        // makes async-signal-safe system calls, without allocating.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The referee may have died between fork and prctl.
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
fn guard_child(_cmd: &mut Command) {}

#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: plain system call. The group is the engine's own, made by
        // `process_group(0)`, and the engine is not reaped yet, so the id
        // still names that group.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

fn spawn_reader(
    stdout: impl Read + Send + 'static,
    tx: Sender,
    log: Option<EngineLog>,
    tag: String,
) -> Result<(), String> {
    std::thread::Builder::new()
        .name(format!("read {tag}"))
        .spawn(move || {
            let mut r = LineReader::new(stdout, MAX_LINE);
            while let Some(line) = r.next_line() {
                let now = Instant::now();
                let ev = match line {
                    Line::Text(s) => {
                        engine_log::line(log.as_ref(), &tag, Dir::FromEngine, &s);
                        Event::Line(now, s)
                    }
                    other => {
                        let what = other.unreadable().unwrap_or("an unreadable line");
                        engine_log::line(log.as_ref(), &tag, Dir::FromEngine, &format!("<{what}>"));
                        Event::Unreadable(now, what)
                    }
                };
                if tx.send(ev).is_err() {
                    return;
                }
            }
            engine_log::line(log.as_ref(), &tag, Dir::Note, "end of output");
            let _ = tx.send(Event::Closed(Instant::now()));
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start a reader thread ({e})"))
}

/// Reads the engine's stderr so it never blocks on a full pipe; the lines
/// go to the log. Lines are capped as stdout's are.
fn spawn_stderr_drain(
    stderr: impl Read + Send + 'static,
    log: Option<EngineLog>,
    tag: String,
) -> Result<(), String> {
    std::thread::Builder::new()
        .name(format!("stderr {tag}"))
        .spawn(move || {
            let mut r = LineReader::new(stderr, MAX_LINE);
            while let Some(line) = r.next_line() {
                let text = match line {
                    Line::Text(s) => s,
                    Line::NotUtf8(b) => String::from_utf8_lossy(&b).into_owned(),
                    Line::TooLong => format!("<{}>", Line::TooLong.unreadable().unwrap_or("")),
                };
                engine_log::line(log.as_ref(), &tag, Dir::Stderr, &text);
            }
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start a reader thread ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch {
            cmd: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
        }
    }

    #[test]
    fn lines_arrive_then_the_end_of_output() {
        let mut e = EngineProc::spawn("t", &sh("read x; echo got $x; exit 3"), None).unwrap();
        e.send("hello").unwrap();
        let end = Instant::now() + Duration::from_secs(10);
        assert!(matches!(e.recv(end), Recv::Event(Event::Line(_, l)) if l == "got hello"));
        assert!(matches!(e.recv(end), Recv::Event(Event::Closed(_))));
        assert_eq!(
            e.exit_description(Duration::from_secs(5)),
            "it exited with code 3"
        );
    }

    #[test]
    fn a_silent_engine_times_out_and_is_killed_on_drop() {
        let mut e = EngineProc::spawn("t", &sh("exec sleep 30"), None).unwrap();
        let pid = e.pid();
        assert_eq!(
            e.recv(Instant::now() + Duration::from_millis(50)),
            Recv::Timeout
        );
        drop(e);
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    }

    #[test]
    fn programs_are_checked_before_they_are_run() {
        let launch = |cmd: &str, dir: Option<&str>| Launch {
            cmd: cmd.into(),
            args: vec![],
            dir: dir.map(Into::into),
        };
        assert_eq!(launch("/bin/sh", None).check(), Ok(()));
        assert_eq!(launch("sh", None).check(), Ok(()));
        let text = std::env::temp_dir().join(format!("koma-not-a-program-{}", std::process::id()));
        std::fs::write(&text, "uci\n").unwrap();
        let text_file = text.display().to_string();
        for (l, words) in [
            (
                launch("/nonexistent/engine", None),
                "cannot run /nonexistent/engine",
            ),
            (launch("/", None), "not a regular file"),
            (launch(&text_file, None), "not executable"),
            (
                launch("no-such-koma-engine", None),
                "no such program in PATH",
            ),
            (
                launch("/bin/sh", Some("/nonexistent")),
                "working directory /nonexistent",
            ),
        ] {
            let e = l.check().unwrap_err();
            assert!(e.contains(words), "{e}");
        }
        let _ = std::fs::remove_file(&text);
    }

    #[test]
    fn a_missing_program_is_an_error_naming_it() {
        let l = Launch {
            cmd: "/nonexistent/engine".into(),
            args: vec![],
            dir: None,
        };
        let e = EngineProc::spawn("t", &l, None).err().unwrap();
        assert!(e.contains("/nonexistent/engine"), "{e}");
    }
}
