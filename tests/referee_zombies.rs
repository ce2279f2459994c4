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
        let code = koma::referee::run(argv);
        assert_eq!(code, std::process::ExitCode::SUCCESS, "{mode}");
        let left = children();
        assert!(left.is_empty(), "{mode}: children left {left:?}");
    }
}
