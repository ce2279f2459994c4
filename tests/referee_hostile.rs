//! Numbers and words the referee must not trust: extreme values an engine
//! reports (scores, nodes), engines that print without end, and command
//! line values that cannot make a match (clocks too short for a move,
//! depth 0, names the records cannot hold).

mod referee;
use referee::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(300);

/// `--engine` words for the mock in `mode`, named `name`, at depth 1.
fn mock(mode: &str, name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={MOCK}"),
        format!("args={KOMA} {mode}"),
        format!("name={name}"),
        "depth=1".into(),
    ]
}

/// Two mocks play `--games 2 --max-plies 12` with `extra`; the record file.
fn play(dir: &Path, token: &str, name: &str, modes: [&str; 2], extra: &str) -> (Run, PathBuf) {
    let pgn = dir.join(format!("{name}.pgn"));
    let mut a = mock(modes[0], "a");
    a.extend(mock(modes[1], "b"));
    a.extend(args(&format!(
        "--games 2 --max-plies 12 --pgnout {} {extra}",
        pgn.display()
    )));
    let r = run(&a, token, LIMIT);
    (r, pgn)
}

#[test]
fn the_least_score_an_engine_can_send_is_no_draw_and_records_carrying_it_replay() {
    let (dir, token) = scratch("min-score");
    let draw = "-draw movenumber=0 movecount=1 score=0";
    // a reports cp -2147483648 (and the most nodes a u64 holds) with every
    // move; b reports cp 0. Within 0 cp is b alone: no draw, the ply limit.
    let (r, pgn) = play(&dir, &token, "min", ["min-score", "normal"], draw);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 2);
    for rec in &recs {
        assert_eq!(rec.tag("Termination"), Some("ply limit"), "{}", r.stdout);
        assert_eq!(rec.moves.len(), 12);
    }
    assert_replays(&pgn);
    // The rule checked on these games calls none of them.
    let r = run(
        &args(&format!("--report {} {draw}", pgn.display())),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains(&format!("--draw {}: calls 0 games", &draw[6..])),
        "{}",
        r.stdout
    );
    // A record whose draw was called on such scores (both engines at
    // cp 0, the comments changed to the least score) is refused.
    let (r, drawn) = play(&dir, &token, "drawn", ["normal", "normal"], draw);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&drawn).unwrap();
    assert!(text.contains("{+0.00/1 "), "{text}");
    let wrapped = dir.join("wrapped.pgn");
    std::fs::write(&wrapped, text.replace("{+0.00/1 ", "{-21474836.48/1 ")).unwrap();
    let r = run(
        &args(&format!("--replay {}", wrapped.display())),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("do not call for it"), "{}", r.stdout);
    let r = run(
        &args(&format!("--report {} --json", wrapped.display())),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the referee with `referee_args` under a 1 GiB address space (its
/// engines inherit it; `yes` needs little): whatever an engine prints
/// must be counted or bounded, not kept (an unbounded list reached
/// gigabytes within seconds). Exit status, stdout, stderr.
fn run_in_1_gib(referee_args: &str, token: &str) -> (std::process::ExitStatus, String, String) {
    let cmd = format!("ulimit -v 1048576 && exec {REFEREE} {referee_args}");
    let mut child = std::process::Command::new("sh")
        .args(["-c", &cmd])
        .env(TOKEN_VAR, token)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let status = child.wait().unwrap();
    (status, stdout, t_err.join().unwrap())
}

#[test]
fn compliance_against_an_engine_printing_garbage_for_ever_ends_with_bounded_memory() {
    let (dir, token) = scratch("compliance-garbage");
    let (status, stdout, stderr) = run_in_1_gib(
        &format!(
            "--variant kaninariebi --start-timeout 2000 --compliance {MOCK} {KOMA} garbage-loop"
        ),
        &token,
    );
    // The checklist ran to its end and failed (exit 1), not the referee.
    assert_eq!(status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("FAIL isready: no answer within 2000 ms"),
        "{stdout}"
    );
    // Every line counted, the first quoted, and no more kept than that.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("FAIL no lines outside the protocol: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let counted: u64 = line["FAIL no lines outside the protocol: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.trim_end_matches(',').parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(counted > 1000, "{line}");
    assert!(line.ends_with(", first: \"garbage\""), "{line}");
    assert!(stdout.ends_with("checks passed\n"), "{stdout}");
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clock_that_cannot_hold_one_move_is_a_usage_error() {
    let (_dir, token) = scratch("clock-floor");
    for (tc, want) in [
        ("tc=0.0005", "tc=0.0005: a base time of 0.0005 s"),
        ("tc=0+1", "tc=0+1: a base time of 0 s"),
        ("tc=40/0.0005+1", "tc=40/0.0005+1: a base time of 0.0005 s"),
        (
            "tc=0:0.0009+0.5",
            "tc=0:0.0009+0.5: a base time of 0.0009 s",
        ),
    ] {
        let a = args(&format!(
            "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each {tc} --games 2"
        ));
        let r = run(&a, &token, LIMIT);
        assert_eq!(r.status.code(), Some(2), "{tc}: {}\n{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{tc}: {}", r.stderr);
        assert!(r.stderr.contains("at least 0.001"), "{tc}: {}", r.stderr);
    }
    // The least clock allowed is accepted (it reaches the games).
    let a = args(&format!(
        "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each tc=0.001+0.001 \
         nodes=1 --games 2 --max-plies 2 --timemargin 60000"
    ));
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert_no_leftovers(&token);
}

#[test]
fn a_match_whose_every_game_was_lost_on_time_before_a_move_exits_1_saying_so() {
    let (dir, token) = scratch("no-move-in-time");
    // Both mocks think 1.5 s over their first move, on a 1 s clock.
    let mut a = Vec::new();
    for name in ["a", "b"] {
        a.extend([
            "--engine".to_string(),
            format!("cmd={MOCK}"),
            format!("args={KOMA} time-loss 1"),
            format!("name={name}"),
            "tc=1+0".into(),
        ]);
    }
    a.extend(args("--games 2 --output format=json"));
    let r = run(&a, &token, LIMIT);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    let lost = (r.stdout.lines())
        .filter(|l| l.starts_with("Finished game") && l.contains("loses on time"))
        .count();
    assert_eq!(lost, 2, "{}", r.stdout);
    // How large the overruns were, and what to do about them.
    assert!(
        r.stdout.contains("Time losses: 2 of 2 games, overruns of "),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("give --timemargin "), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("Match failed: every game was lost on time before the loser's first move"),
        "{}",
        r.stdout
    );
    let last = r.stdout.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["state"], "failed", "{v}");
    assert!(
        v["stopped_because"]
            .as_str()
            .is_some_and(|s| s.starts_with("every game was lost on time")),
        "{v}"
    );
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn depth_0_and_nodes_0_are_usage_errors() {
    let (_dir, token) = scratch("depth-0");
    for (keys, want) in [
        (
            "-each depth=0",
            "depth=0: expected a whole number of 1 or more",
        ),
        (
            "-each plies=0",
            "plies=0: expected a whole number of 1 or more",
        ),
        (
            "-each nodes=0",
            "nodes=0: expected a whole number of 1 or more",
        ),
    ] {
        let a = args(&format!(
            "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b {keys} -games 2"
        ));
        let r = run(&a, &token, LIMIT);
        assert_eq!(
            r.status.code(),
            Some(2),
            "{keys}: {}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(r.stderr.contains(want), "{keys}: {}", r.stderr);
    }
}

#[test]
fn an_engine_name_with_a_control_character_is_a_usage_error() {
    let (dir, token) = scratch("name-newline");
    for name in ["two\nlines", "tab\there", "cr\r", "del\u{7f}"] {
        let a: Vec<String> = [
            "--engine",
            &format!("cmd={KOMA}"),
            &format!("name={name}"),
            "--engine",
            &format!("cmd={KOMA}"),
            "name=b",
            "--each",
            "depth=1",
            "--games",
            "2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = run(&a, &token, LIMIT);
        assert_eq!(
            r.status.code(),
            Some(2),
            "{name:?}: {}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(
            r.stderr
                .contains("engine 1: name= holds a control character"),
            "{name:?}: {}",
            r.stderr
        );
    }
    // A program whose file name holds one gives no default name either.
    let odd = dir.join("ko\nma");
    std::os::unix::fs::symlink(KOMA, &odd).unwrap();
    let a: Vec<String> = vec![
        "--engine".into(),
        format!("cmd={}", odd.display()),
        "--engine".into(),
        format!("cmd={KOMA}"),
        "--each".into(),
        "depth=1".into(),
    ];
    let r = run(&a, &token, LIMIT);
    assert_eq!(r.status.code(), Some(2), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("give name="), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_concurrent_timed_games_than_cores_are_warned_about() {
    let (_dir, token) = scratch("oversubscribed");
    // One CPU for the referee (what the cores count is read from), two
    // games at once: more than it can serve. `sched_setaffinity` before
    // exec, as taskset does.
    let cmd = |concurrency: u32, limit: &str| {
        let mut c = std::process::Command::new(REFEREE);
        c.args(args(&format!(
            "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each {limit} --games 2 \
             --max-plies 2 --concurrency {concurrency} --timemargin 60000"
        )))
        .env(TOKEN_VAR, &token);
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut c, || {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(0, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let warning = "koma-referee: warning: 2 games at once on 1 core";
    let err = cmd(2, "st=0.05");
    assert!(err.contains(warning), "{err}");
    assert!(err.contains("--concurrency 1"), "{err}");
    // One game per core, or no clock to overrun: no warning.
    assert!(!cmd(1, "st=0.05").contains("games at once"));
    assert!(!cmd(2, "depth=1").contains("games at once"));
    assert_no_leftovers(&token);
}

#[test]
fn an_engine_declaring_options_for_ever_fails_to_start_with_bounded_memory() {
    let (dir, token) = scratch("option-loop");
    let (status, stdout, stderr) = run_in_1_gib(
        &format!(
            "--engine cmd={MOCK} 'args={KOMA} option-loop' name=a depth=1 --engine cmd={KOMA} \
             name=b depth=1 --games 2 --start-timeout 2000"
        ),
        &token,
    );
    assert_eq!(status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("a fails to start") && stdout.contains("no uciok within 2000 ms"),
        "{stdout}"
    );
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_schedule_too_large_to_hold_is_a_usage_error_not_an_exhausted_memory() {
    let (_dir, token) = scratch("huge-schedule");
    let (status, stdout, stderr) = run_in_1_gib(
        &format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --rounds 4000000000 --games 2"
        ),
        &token,
    );
    assert_eq!(status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("schedule 8000000000 games, more than the 10000000 a match holds"),
        "{stderr}"
    );
    assert_no_leftovers(&token);
}

#[test]
fn random_plies_beyond_the_ply_limit_are_a_usage_error() {
    let (_dir, token) = scratch("random-plies");
    for (extra, want) in [
        (
            "--random-plies 4000000000",
            "--random-plies 4000000000 reaches --max-plies 1000",
        ),
        (
            "--random-plies 4000000000 --max-plies 0",
            "--random-plies 4000000000: at most 100000",
        ),
    ] {
        let (status, stdout, stderr) = run_in_1_gib(
            &format!(
                "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
                 --games 2 {extra}"
            ),
            &token,
        );
        assert_eq!(status.code(), Some(2), "{extra}: {stdout}\n{stderr}");
        assert!(stderr.contains(want), "{extra}: {stderr}");
    }
    assert_no_leftovers(&token);
}

#[test]
fn epdout_holds_the_last_positions_and_openings_refuse_those_where_the_game_is_over() {
    let (dir, token) = scratch("epdout-over");
    let pgn = dir.join("games.pgn");
    let epd = dir.join("last.epd");
    // One game at a time, so the records and the positions come in the
    // same order. Nana's games at depth 1 end by its rules (or the limit).
    let r = run(
        &args(&format!(
            "--variant nana --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each depth=1 \
             --games 2 --rounds 2 --random-plies 2 --pgnout {} --epdout {}",
            pgn.display(),
            epd.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    let text = std::fs::read_to_string(&epd).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), recs.len(), "{text}");
    let ended = |r: &koma::protocol::record::Record| r.tag("Termination") != Some("ply limit");
    assert!(
        recs.iter().any(ended),
        "no game ended by the rules: {}",
        r.stdout
    );
    for (k, (rec, line)) in recs.iter().zip(&lines).enumerate() {
        let book = dir.join(format!("book{k}.epd"));
        std::fs::write(&book, format!("{line}\n")).unwrap();
        let r = run(
            &args(&format!(
                "--variant nana --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b \
                 --each depth=1 --games 2 --max-plies 2 --openings file={} format=epd",
                book.display()
            )),
            &token,
            LIMIT,
        );
        if ended(rec) {
            assert_eq!(r.status.code(), Some(2), "{line}: {}", r.stdout);
            assert!(
                r.stderr.contains("the game is already over"),
                "{}",
                r.stderr
            );
        } else {
            assert!(r.status.success(), "{line}: {}\n{}", r.stdout, r.stderr);
        }
    }
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}
