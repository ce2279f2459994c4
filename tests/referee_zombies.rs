//! The referee run in this process: after a match in which engines crashed,
//! stalled and were restarted, this process has no child left, running or
//! zombie. (One test in its own binary, so no other test's children count.)

mod referee;
use referee::{KOMA, MOCK};

/// Children of this process: (pid, state letter from /proc/<pid>/stat).
fn children() -> Vec<(u32, char)> {
    let me = std::process::id();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": comm may hold blanks, so split after ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next().and_then(|s| s.chars().next()).unwrap_or('?');
        let ppid: u32 = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        if ppid == me {
            out.push((pid, state));
        }
    }
    out
}

/// Sends this process's standard output to /dev/null while it lives: the
/// referee prints its games and summary straight to the stdout file (not
/// through `print!`, which the test harness would capture), and that
/// output is not what this test checks.
struct Quiet(libc::c_int);

impl Quiet {
    fn stdout() -> Quiet {
        use std::os::fd::AsRawFd;
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .unwrap();
        // SAFETY: plain descriptor calls on descriptors this process owns;
        // the saved copy is restored by `drop`.
        unsafe {
            let saved = libc::dup(1);
            assert!(saved >= 0);
            assert!(libc::dup2(null.as_raw_fd(), 1) >= 0);
            Quiet(saved)
        }
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        // SAFETY: restores the descriptor saved by `Quiet::stdout`.
        unsafe {
            libc::dup2(self.0, 1);
            libc::close(self.0);
        }
    }
}

#[test]
fn no_engine_is_left_running_or_a_zombie() {
    for mode in ["crash-mid", "hang", "garbage"] {
        let argv = [
            "koma-referee".to_string(),
            "--engine".into(),
            format!("cmd={MOCK}"),
            format!("args={KOMA} {mode}"),
            "name=mock".into(),
            "--engine".into(),
            format!("cmd={KOMA}"),
            "name=koma".into(),
            "--each".into(),
            "depth=1".into(),
            "--games".into(),
            "2".into(),
            "--recover".into(),
            "--heartbeat".into(),
            "100".into(),
            "--stall-timeout".into(),
            "500".into(),
        ];
        let code = {
            let _quiet = Quiet::stdout();
            koma::referee::run(argv, &koma::referee::Variants::koma()).ok()
        };
        assert_eq!(code, Some(std::process::ExitCode::SUCCESS), "{mode}");
        let left = children();
        assert!(left.is_empty(), "{mode}: children left {left:?}");
    }
}
