//! One engine as a child process: piped stdin/stdout/stderr, read by the
//! thread that plays (`pipe`: every stdout line stamped with the time it
//! arrived, stderr to the log), and a `Drop` that kills and reaps it, so
//! no engine is left running or a zombie. On Linux the child also asks the kernel to kill it when the
//! referee dies (`PR_SET_PDEATHSIG`), which covers `kill -9` of the referee.
//!
//! Each engine runs in its own process group, so killing it also kills
//! whatever it started (a shell script's children); if the referee dies
//! without killing it, the `watchdog` kills the group. `PR_SET_PDEATHSIG`
//! fires when the *thread* that spawned the child ends: engines are
//! spawned and dropped by the same worker thread.

use super::engine_log::{self, Dir, EngineLog};
use super::pipe::{Got, Pipes};
use super::watchdog;
use crate::protocol::lines::Line;
use crate::protocol::{ParseError, Reply, parse_info_lenient, parse_reply};
use std::io::Write;
use std::path::PathBuf;
#[cfg(not(unix))]
use std::process::ExitStatus;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// Why an engine cannot be run, or written to. The words are the
/// referee's messages (and tests pin them).
#[derive(Debug)]
pub enum ProcError {
    /// `Launch::dir` is not a directory.
    NotADirectory(PathBuf),
    /// The program cannot be run: the path and why.
    CannotRun(PathBuf, String),
    /// The pipes to the child could not be set up.
    Pipes(String),
    /// Its input was closed after an earlier write failed.
    InputClosed,
    /// A write to its input failed.
    Write(std::io::Error),
}

impl std::fmt::Display for ProcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcError::NotADirectory(d) => {
                write!(
                    f,
                    "the working directory {} is not a directory",
                    d.display()
                )
            }
            ProcError::CannotRun(cmd, why) => write!(f, "cannot run {}: {why}", cmd.display()),
            ProcError::Pipes(why) => f.write_str(why),
            ProcError::InputClosed => f.write_str("its input is closed"),
            ProcError::Write(e) => write!(f, "cannot write to it ({e})"),
        }
    }
}

impl std::error::Error for ProcError {}

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
    pub fn check(&self) -> Result<(), ProcError> {
        if let Some(d) = &self.dir
            && !d.is_dir()
        {
            return Err(ProcError::NotADirectory(d.clone()));
        }
        let cannot = |why: String| Err(ProcError::CannotRun(self.cmd.clone(), why));
        let has_slash = self.cmd.components().count() > 1 || self.cmd.is_absolute();
        if has_slash {
            return match std::fs::metadata(&self.cmd) {
                Err(e) => cannot(e.to_string()),
                Ok(m) if !m.is_file() => cannot("not a regular file".into()),
                Ok(_) if !executable(&self.cmd) => cannot("not executable".into()),
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
            cannot("no such program in PATH".into())
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

/// What the engine printed, stamped with when it was read.
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
    /// The lines being sent, with their newlines (kept to save an
    /// allocation a line).
    out: Vec<u8>,
    pipes: Pipes,
    log: Option<EngineLog>,
    /// When its output ended, once `recv` saw it.
    closed: Option<Instant>,
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
    ) -> Result<EngineProc, ProcError> {
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
            .map_err(|e| ProcError::CannotRun(launch.cmd.clone(), e.to_string()))?;
        let tag = format!("{name}({})", child.id());
        watchdog::watch(child.id());
        let pipes = match (child.stdout.take(), child.stderr.take()) {
            (Some(out), Some(err)) => Pipes::new(out, err).map_err(|e| {
                ProcError::Pipes(format!("the engine's pipes could not be set up ({e})"))
            }),
            _ => Err(ProcError::Pipes(
                "the engine's pipes could not be opened".into(),
            )),
        };
        let pipes = match pipes {
            Ok(p) => p,
            Err(e) => {
                kill_and_reap(&mut child);
                return Err(e);
            }
        };
        let started = format!("started {}", launch.cmd.display());
        engine_log::line(log.as_ref(), &tag, Dir::Note, &started);
        Ok(EngineProc {
            tag,
            stdin: child.stdin.take(),
            child,
            out: Vec::new(),
            pipes,
            log,
            closed: None,
            id_name: None,
            warned: Vec::new(),
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The polling left before waits for this engine sleep (see
    /// `pipe::poll_before_sleeping`).
    pub fn polls_left(&self) -> Duration {
        self.pipes.polls_left()
    }

    /// Writes one line and flushes it; an error means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), ProcError> {
        self.send_all(&[line])
    }

    /// Writes lines in one write (one system call for `position` and
    /// `go`) and flushes them; an error means the engine has gone.
    pub fn send_all(&mut self, lines: &[&str]) -> Result<(), ProcError> {
        self.out.clear();
        for line in lines {
            engine_log::line(self.log.as_ref(), &self.tag, Dir::ToEngine, line);
            self.out.extend_from_slice(line.as_bytes());
            self.out.push(b'\n');
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(ProcError::InputClosed);
        };
        let r = stdin.write_all(&self.out).and_then(|_| stdin.flush());
        self.pipes.sent();
        r.map_err(|e| {
            self.stdin = None;
            ProcError::Write(e)
        })
    }

    /// The next event, waiting until `deadline` at most. A line read after
    /// the deadline is a timeout (and is kept for the next call): an engine
    /// that floods its output must not carry a reader past its deadline for
    /// ever.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if let Some(t) = self.closed {
            return Recv::Event(Event::Closed(t));
        }
        let got = self.pipes.next(deadline, self.log.as_ref(), &self.tag);
        self.event(got)
    }

    fn event(&mut self, got: Got) -> Recv {
        Recv::Event(match got {
            Got::Timeout => return Recv::Timeout,
            Got::Line(at, Line::Text(s)) => Event::Line(at, s),
            Got::Line(at, other) => {
                Event::Unreadable(at, other.unreadable().unwrap_or("an unreadable line"))
            }
            Got::Closed(at) => {
                engine_log::line(self.log.as_ref(), &self.tag, Dir::Note, "end of output");
                self.closed = Some(at);
                Event::Closed(at)
            }
        })
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
    pub fn lost(&mut self, why: ProcError) -> String {
        let end = Instant::now() + Duration::from_millis(200);
        loop {
            if let Some(how) = self.exited() {
                return how;
            }
            if Instant::now() >= end {
                return why.to_string();
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
        kill_and_reap(&mut self.child);
        engine_log::line(self.log.as_ref(), &self.tag, Dir::Note, "ended");
    }
}

/// Kills the child's process group and the child, and reaps it.
fn kill_and_reap(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
    watchdog::unwatch(child.id());
    let _ = child.wait();
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

    /// A thread that polls before it sleeps still takes a line when it
    /// comes and still stops at its deadline, however long it may poll.
    #[test]
    fn a_thread_that_polls_before_sleeping_gets_lines_and_keeps_deadlines() {
        super::super::pipe::poll_before_sleeping(Duration::from_secs(600));
        let mut e = EngineProc::spawn(
            "t",
            &sh("read x; sleep 0.1; echo got $x; exec sleep 30"),
            None,
        )
        .unwrap();
        let start = Instant::now();
        assert_eq!(e.recv(start + Duration::from_millis(20)), Recv::Timeout);
        e.send("hello").unwrap();
        let end = Instant::now() + Duration::from_secs(300);
        assert!(matches!(e.recv(end), Recv::Event(Event::Line(_, l)) if l == "got hello"));
        assert_eq!(
            e.recv(Instant::now() + Duration::from_millis(20)),
            Recv::Timeout
        );
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "it polled on past a line or a deadline"
        );
    }

    /// The polling is a budget per command: spent by the waits after it,
    /// however many, and given again by the next command. (An engine that
    /// prints a line now and then through a long search would otherwise
    /// be polled for through the whole search.)
    #[test]
    fn the_polling_is_a_budget_per_command() {
        let budget = Duration::from_millis(200);
        super::super::pipe::poll_before_sleeping(budget);
        let mut e = EngineProc::spawn("t", &sh("read x; exec sleep 30"), None).unwrap();
        assert_eq!(e.polls_left(), Duration::ZERO, "nothing sent yet");
        e.send("go").unwrap();
        assert_eq!(e.polls_left(), budget);
        let soon = Instant::now() + Duration::from_millis(50);
        assert_eq!(e.recv(soon), Recv::Timeout);
        assert!(e.polls_left() < budget, "{:?}", e.polls_left());
        assert_eq!(
            e.recv(Instant::now() + Duration::from_secs(1)),
            Recv::Timeout
        );
        assert_eq!(e.polls_left(), Duration::ZERO, "spent by the second wait");
        e.send("stop").unwrap();
        assert_eq!(e.polls_left(), budget);
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
    fn half_a_line_times_out_and_the_line_comes_whole_with_its_stderr_logged_aside() {
        // Half a line, then silence: the reader is not held past its
        // deadline waiting for the newline.
        let script = "printf best; printf 'noise\\n' >&2; read x; echo move a1a2; exit 0";
        let mut e = EngineProc::spawn("t", &sh(script), None).unwrap();
        assert_eq!(
            e.recv(Instant::now() + Duration::from_millis(50)),
            Recv::Timeout
        );
        e.send("go").unwrap();
        let end = Instant::now() + Duration::from_secs(10);
        assert!(matches!(e.recv(end), Recv::Event(Event::Line(_, l)) if l == "bestmove a1a2"));
        assert!(matches!(e.recv(end), Recv::Event(Event::Closed(_))));
    }

    #[test]
    fn over_long_and_non_utf8_lines_are_unreadable_and_reading_goes_on() {
        let script = "head -c 1100000 /dev/zero | tr '\\0' x; echo; printf '\\377\\n'; echo ok";
        let mut e = EngineProc::spawn("t", &sh(script), None).unwrap();
        let end = Instant::now() + Duration::from_secs(30);
        assert!(
            matches!(e.recv(end), Recv::Event(Event::Unreadable(_, w)) if w.contains("longer"))
        );
        assert!(matches!(e.recv(end), Recv::Event(Event::Unreadable(_, w)) if w.contains("UTF-8")));
        assert!(matches!(e.recv(end), Recv::Event(Event::Line(_, l)) if l == "ok"));
    }

    #[test]
    fn programs_are_checked_before_they_are_run() {
        let launch = |cmd: &str, dir: Option<&str>| Launch {
            cmd: cmd.into(),
            args: vec![],
            dir: dir.map(Into::into),
        };
        assert!(launch("/bin/sh", None).check().is_ok());
        assert!(launch("sh", None).check().is_ok());
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
            let e = l.check().unwrap_err().to_string();
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
        let e = EngineProc::spawn("t", &l, None).err().unwrap().to_string();
        assert!(e.contains("/nonexistent/engine"), "{e}");
    }
}
