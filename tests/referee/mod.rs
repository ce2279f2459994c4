//! Helpers for the referee's integration tests: run `koma-referee` with a
//! time limit, find processes it left behind, read its record files.
#![allow(dead_code)]

use koma::protocol::record::{Record, parse_records};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub const REFEREE: &str = env!("CARGO_BIN_EXE_koma-referee");
pub const KOMA: &str = env!("CARGO_BIN_EXE_koma");
pub const MOCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock/engine.sh");

/// The environment variable every process of one test run inherits, so
/// leftovers (grandchildren too) can be found by it.
pub const TOKEN_VAR: &str = "KOMA_REFEREE_TEST_TOKEN";

/// A fresh directory and a token unique to this test.
pub fn scratch(name: &str) -> (PathBuf, String) {
    let token = format!("{name}-{}", std::process::id());
    // Under Cargo's scratch directory and without the process id, so that
    // a test that fails (or does not clean up) leaves one directory there,
    // not one more per run in the system's temporary directory.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("referee-test-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    (dir, token)
}

/// The variables `--shard auto` reads: cleared for every run, so that
/// the tests behave the same inside a scheduler's job.
pub const SCHEDULER_VARS: [&str; 7] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_JOB_ID",
    "JOB_COMPLETION_INDEX",
];

pub fn spawn(args: &[String], token: &str) -> Child {
    spawn_with(args, token, &[])
}

/// `spawn` with these environment variables set.
pub fn spawn_with(args: &[String], token: &str, env: &[(&str, &str)]) -> Child {
    spawn_program(Path::new(REFEREE), args, token, env)
}

/// `spawn_with`, of the referee under another name (a link to it named
/// `cutechess-cli`).
pub fn spawn_program(program: &Path, args: &[String], token: &str, env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(program);
    for v in SCHEDULER_VARS {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().copied())
        .args(args)
        .env(TOKEN_VAR, token)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma-referee starts")
}

pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the referee to its end; panics (after killing it) past `limit`.
pub fn run(args: &[String], token: &str, limit: Duration) -> Run {
    run_with(args, token, limit, &[])
}

/// `run` with these environment variables set.
pub fn run_with(args: &[String], token: &str, limit: Duration, env: &[(&str, &str)]) -> Run {
    run_program(Path::new(REFEREE), args, token, limit, env)
}

/// `run_with`, of the referee under another name.
pub fn run_program(
    program: &Path,
    args: &[String],
    token: &str,
    limit: Duration,
    env: &[(&str, &str)],
) -> Run {
    let mut child = spawn_program(program, args, token, env);
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let end = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("koma-referee {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

/// Splits a command line written with blanks into arguments.
pub fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// Processes (other than this one) that carry `token` in their
/// environment: whatever a run left alive, at any depth.
pub fn carrying(token: &str) -> Vec<u32> {
    let needle = format!("{TOKEN_VAR}={token}");
    let me = std::process::id();
    let mut pids = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        if let Ok(env) = std::fs::read(format!("/proc/{pid}/environ"))
            && env.split(|&b| b == 0).any(|kv| kv == needle.as_bytes())
        {
            pids.push(pid);
        }
    }
    pids
}

/// Asserts that nothing started by the run with `token` is still running,
/// allowing a moment for killed processes to disappear.
pub fn assert_no_leftovers(token: &str) {
    let end = Instant::now() + Duration::from_secs(3);
    loop {
        let left = carrying(token);
        if left.is_empty() {
            return;
        }
        if Instant::now() > end {
            let cmds: Vec<String> = left
                .iter()
                .map(|p| {
                    std::fs::read(format!("/proc/{p}/cmdline"))
                        .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
                        .unwrap_or_default()
                })
                .collect();
            panic!("processes left behind: {left:?} {cmds:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The records of a record file, all of which must parse.
pub fn records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    parse_records(&text)
        .into_iter()
        .map(|i| {
            i.record
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect()
}

/// `--replay` of the file must find every record valid.
pub fn assert_replays(path: &Path) {
    let r = run(
        &["--replay".to_string(), path.display().to_string()],
        "replay",
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("all valid"), "{}", r.stdout);
}

/// Writes an executable shell script `name` into `dir`.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// Waits until the run with `token` has at least `n` processes running.
pub fn wait_for_processes(token: &str, n: usize, limit: Duration) -> Vec<u32> {
    let end = Instant::now() + limit;
    loop {
        let p = carrying(token);
        if p.len() >= n {
            return p;
        }
        assert!(
            Instant::now() < end,
            "only {} processes after {limit:?}",
            p.len()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
