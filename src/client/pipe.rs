//! An engine's stdout and stderr, read by the thread that plays, with no
//! reader thread: both pipes are non-blocking and one `poll` waits on the
//! two until a deadline. stdout's lines are stamped with when they were
//! read (the thread is waiting in `poll` when a move arrives, so that is
//! when it arrived); stderr's go to the engine log whenever the engine is
//! waited for. Memory stays bounded whatever the engine prints: a line is
//! capped as it is read, and what is not read waits in the kernel's pipe.
//! A thread that has a core to spare may poll in a loop for a while after
//! each command before it sleeps (`poll_before_sleeping`): an answer that
//! comes within it wakes no sleeping core.

use super::engine_log::{self, Dir, EngineLog};
use crate::protocol::lines::{Line, LineSplitter, MAX_LINE};
use std::cell::Cell;
use std::io::ErrorKind;
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStderr, ChildStdout};
use std::time::{Duration, Instant};

/// Bytes read at a time.
const CHUNK: usize = 8 << 10;

/// Reads of stderr at one wake: an engine flooding it cannot keep the
/// thread from stdout and the deadline.
const STDERR_READS: usize = 16;

thread_local! {
    /// How long this thread may poll without sleeping after a command.
    static POLLS: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// From now on, after each command this thread sends an engine
/// (`Pipes::sent`), its waits for the engine poll its pipes in a loop for
/// up to `budget` in all before they sleep (`ZERO`: they sleep at once,
/// the default). A match's game thread sets it (`referee::matches::spin`).
/// The budget is per command, not per wait: an engine that prints a line
/// now and then through a long search costs one budget a move.
pub fn poll_before_sleeping(budget: Duration) {
    POLLS.with(|p| p.set(budget));
}

/// What `Pipes::next` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Got {
    Line(Instant, Line),
    /// stdout reached its end, at that time.
    Closed(Instant),
    Timeout,
}

pub struct Pipes {
    out: ChildStdout,
    lines: LineSplitter,
    /// When stdout was last read: the arrival of every whole line in
    /// `lines` (`next` returns them all before it reads again).
    read_at: Instant,
    /// A line read after the deadline of the call that read it.
    pending: Option<(Instant, Line)>,
    /// `None` once the engine closed it.
    err: Option<ChildStderr>,
    err_lines: LineSplitter,
    /// What is left of the polling allowed since the last command.
    polls_left: Duration,
}

impl Pipes {
    pub fn new(out: ChildStdout, err: ChildStderr) -> std::io::Result<Pipes> {
        set_nonblocking(out.as_raw_fd())?;
        set_nonblocking(err.as_raw_fd())?;
        Ok(Pipes {
            out,
            lines: LineSplitter::new(MAX_LINE),
            read_at: Instant::now(),
            pending: None,
            err: Some(err),
            err_lines: LineSplitter::new(MAX_LINE),
            polls_left: Duration::ZERO,
        })
    }

    /// A command was sent: its answer may be polled for again, up to the
    /// thread's budget.
    pub fn sent(&mut self) {
        self.polls_left = POLLS.with(Cell::get);
    }

    /// The polling left until the next command.
    pub fn polls_left(&self) -> Duration {
        self.polls_left
    }

    /// The next line of stdout, waiting until `deadline` at most. A line
    /// read after the deadline is a timeout, and is kept for the next
    /// call: an engine that floods its output must not carry a reader
    /// past its deadline for ever. What stdout holds already is read even
    /// when the deadline has passed.
    pub fn next(&mut self, deadline: Instant, log: Option<&EngineLog>, tag: &str) -> Got {
        let mut polled = false;
        loop {
            let line =
                (self.pending.take()).or_else(|| Some((self.read_at, self.lines.next_line()?)));
            if let Some((at, line)) = line {
                if at > deadline {
                    self.pending = Some((at, line));
                    return Got::Timeout;
                }
                match &line {
                    Line::Text(s) => engine_log::line(log, tag, Dir::FromEngine, s),
                    other => {
                        let what = other.unreadable().unwrap_or("an unreadable line");
                        engine_log::line(log, tag, Dir::FromEngine, &format!("<{what}>"));
                    }
                }
                return Got::Line(at, line);
            }
            if self.lines.done() {
                return Got::Closed(self.read_at);
            }
            let now = Instant::now();
            if polled && now >= deadline {
                return Got::Timeout;
            }
            self.wait(deadline.saturating_duration_since(now), log, tag);
            polled = true;
        }
    }

    /// One `poll` of both pipes, `wait` at most; reads what is ready.
    fn wait(&mut self, wait: Duration, log: Option<&EngineLog>, tag: &str) {
        let err_fd = self.err.as_ref().map_or(-1, |e| e.as_raw_fd());
        let mut fds = [
            libc::pollfd {
                fd: self.out.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            // A negative descriptor is left out by poll.
            libc::pollfd {
                fd: err_fd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let (mut ready, polled) = poll_loop(&mut fds, self.polls_left.min(wait));
        self.polls_left = self.polls_left.saturating_sub(polled);
        if ready == 0 {
            // Rounded up: waking before the deadline would only poll again.
            let ms = wait.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32;
            // SAFETY: `fds` is an array of two initialised pollfd, as the count says.
            ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        }
        if ready <= 0 {
            // A timeout, or an interrupted call: the caller looks at the
            // time and polls again if there is any left.
            return;
        }
        if fds[1].revents != 0 {
            self.drain_stderr(log, tag);
        }
        if fds[0].revents != 0 {
            match self.lines.fill(&mut self.out, CHUNK) {
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => {}
                Err(_) => self.lines.end(),
            }
            self.read_at = Instant::now();
        }
    }

    /// Logs what stderr holds, so the engine never blocks on it while it
    /// is waited for; closes it at its end.
    fn drain_stderr(&mut self, log: Option<&EngineLog>, tag: &str) {
        let Some(err) = self.err.as_mut() else { return };
        for _ in 0..STDERR_READS {
            let more = match self.err_lines.fill(err, CHUNK) {
                Ok(0) => false,
                Ok(_) => true,
                Err(e) if e.kind() == ErrorKind::Interrupted => true,
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.err_lines.end();
                    false
                }
            };
            while let Some(line) = self.err_lines.next_line() {
                let text = match line {
                    Line::Text(s) => s,
                    Line::NotUtf8(b) => String::from_utf8_lossy(&b).into_owned(),
                    Line::TooLong => format!("<{}>", Line::TooLong.unreadable().unwrap_or("")),
                };
                engine_log::line(log, tag, Dir::Stderr, &text);
            }
            if !more {
                self.err = None;
                return;
            }
        }
    }
}

/// Polls `fds` without sleeping until one is ready, an error, or `budget`
/// has passed (at once when it is zero): `poll`'s answer, and the time it
/// took.
fn poll_loop(fds: &mut [libc::pollfd; 2], budget: Duration) -> (i32, Duration) {
    if budget.is_zero() {
        return (0, Duration::ZERO);
    }
    let start = Instant::now();
    loop {
        // SAFETY: `fds` is an array of two initialised pollfd, as the count says.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, 0) };
        let polled = start.elapsed();
        if ready != 0 || polled >= budget {
            return (ready, polled);
        }
        std::hint::spin_loop();
    }
}

fn set_nonblocking(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: plain system calls on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
