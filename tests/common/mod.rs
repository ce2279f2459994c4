//! Helpers shared by the integration tests: an in-process engine over byte
//! buffers, and the real `koma` binary behind pipes.
#![allow(dead_code)]

use koma::engine::{Output, Registry, run};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Feeds the engine one line at a time; after a `go` with its own limit it
/// waits for that search's `bestmove` (after `go perft` and `bench`, for
/// their `Nodes searched`) before giving the next line, as a GUI would (end
/// of input means quit, which would stop them).
struct Script {
    lines: std::collections::VecDeque<Vec<u8>>,
    current: std::io::Cursor<Vec<u8>>,
    sink: Sink,
    wait_for: Option<usize>,
}

impl Script {
    /// Lines that end a `go`, `go perft` or `bench`: its `bestmove` or
    /// `Nodes searched`, or the error refusing it.
    fn answers(&self) -> usize {
        let out = self.sink.0.lock().unwrap();
        String::from_utf8_lossy(&out)
            .lines()
            .filter(|l| {
                l.starts_with("bestmove")
                    || l.starts_with("Nodes searched")
                    || l.starts_with("info string error")
            })
            .count()
    }
}

impl std::io::Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.current.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            if let Some(count) = self.wait_for.take() {
                let end = Instant::now() + Duration::from_secs(60);
                while self.answers() <= count && Instant::now() < end {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let Some(line) = self.lines.pop_front() else {
                return Ok(0);
            };
            let text = String::from_utf8_lossy(&line);
            let t = text.trim();
            let limited = ["depth", "nodes", "movetime", "wtime", "btime"]
                .iter()
                .any(|w| t.contains(w));
            let counts = t.starts_with("go perft") || t == "bench";
            if counts
                || (t.starts_with("go")
                    && limited
                    && !t.contains("infinite")
                    && !t.contains("ponder"))
            {
                self.wait_for = Some(self.answers());
            }
            self.current = std::io::Cursor::new(line);
        }
    }
}

/// Runs the engine in-process on `input` until it ends; returns its lines.
pub fn converse(input: &str) -> Vec<String> {
    converse_bytes(input.as_bytes())
}

pub fn converse_bytes(input: &[u8]) -> Vec<String> {
    let sink = Sink::default();
    let lines = input
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let script = Script {
        lines,
        current: std::io::Cursor::new(vec![]),
        sink: sink.clone(),
        wait_for: None,
    };
    run(Registry::koma(), script, Output::new(sink.clone()));
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The real binary, with a reader thread collecting its lines.
pub struct Koma {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Koma {
    pub fn spawn() -> Koma {
        Koma::spawn_command(Command::new(env!("CARGO_BIN_EXE_koma")))
    }

    /// The binary with its per-user data folder (`XDG_DATA_HOME`, where
    /// the endgame tables are found by default) at `dir`.
    pub fn spawn_with_data_home(dir: &std::path::Path) -> Koma {
        let mut c = Command::new(env!("CARGO_BIN_EXE_koma"));
        c.env("XDG_DATA_HOME", dir);
        Koma::spawn_command(c)
    }

    /// The binary with its address space limited to `kib` KiB (`ulimit
    /// -v`), so that large allocations fail.
    pub fn spawn_with_address_space(kib: u64) -> Koma {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_koma"));
        Koma::spawn_command(c)
    }

    fn spawn_command(mut command: Command) -> Koma {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Koma {
            child,
            stdin,
            lines: rx,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Lines until one satisfies `done` (included), or panics after `limit`.
    pub fn read_until(&mut self, limit: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut out = vec![];
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                Err(_) => panic!("no matching line within {limit:?}; got {out:?}"),
            }
        }
    }

    /// The lines still to come, until the process closes its output or
    /// `limit` passes.
    pub fn rest(&mut self, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut out = vec![];
        while let Ok(l) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            out.push(l);
        }
        out
    }

    /// Waits for the process to exit on its own.
    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Koma {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Held by the tests of one test binary that time the engine or keep it
/// searching, so that they do not compete for the CPU with each other (a
/// 2-core machine running four searching engines makes every timing
/// test a coin toss).
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// CPU time (user + system, all threads, finished ones included) the
/// process `pid` has used so far, from `/proc/<pid>/stat`; `None` where
/// there is no `/proc` (the callers then fall back to the wall clock). The
/// kernel counts in clock ticks (10 ms on Linux), so two readings differ by
/// at most one tick more than the CPU time used between them.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid …": comm may hold blanks, so split after ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the line (utime, stime) are 11 and 12 after comm.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (per_second > 0).then(|| Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

/// One clock tick of `cpu_time`'s resolution.
pub fn cpu_tick() -> Duration {
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1);
    Duration::from_secs_f64(1.0 / per_second as f64)
}
