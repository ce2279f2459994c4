//! Matches spread over a cluster: `--shard auto` taking its shard from a
//! Slurm array's (or an indexed Kubernetes Job's) environment, with its own
//! files and resuming when run again; `--report` pooling the shards, refusing
//! records of another match with the difference named, following files that
//! still grow (an unfinished last record waits) and stopping on an SPRT
//! bound with its verdict in the exit status.

mod referee;
use koma::protocol::record::Record;
use referee::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// The mock engine that plays an illegal move at its first `go`: it loses
/// every game, at once.
fn loser() -> String {
    format!("cmd={MOCK} 'args={KOMA} illegal 1'")
}

/// Splits like `args`, but keeps a '...' word whole (for `args=`).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '\'' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn tag_of<'a>(r: &'a Record, name: &str) -> &'a str {
    r.tag(name)
        .unwrap_or_else(|| panic!("no {name} tag in {:?}", r.tags))
}

fn slurm(id: &str, count: &str) -> [(&'static str, String); 4] {
    let max = count.parse::<u32>().unwrap().saturating_sub(1).to_string();
    [
        ("SLURM_ARRAY_TASK_ID", id.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
        ("SLURM_ARRAY_TASK_MIN", "0".to_string()),
        ("SLURM_ARRAY_TASK_MAX", max),
    ]
}

fn env_of<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    v.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[test]
fn shard_auto_takes_the_array_task_and_names_the_files_after_it() {
    let (dir, token) = scratch("shard-auto");
    let pgn = dir.join("m.pgn");
    let command = format!(
        "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=2 --rounds 3 \
         --random-plies 2 --shard auto --pgnout {}",
        pgn.display()
    );
    for task in 0..2 {
        let env = slurm(&task.to_string(), "2");
        let r = run_with(&args(&command), &token, LIMIT, &env_of(&env));
        assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
        let want = format!("shard {}/2 of 6", task + 1);
        assert!(r.stdout.contains(&want), "{want}: {}", r.stdout);
    }
    let files = [
        dir.join("m.shard-1-of-2.pgn"),
        dir.join("m.shard-2-of-2.pgn"),
    ];
    assert!(!pgn.exists(), "the undivided name is not written");
    for (k, f) in files.iter().enumerate() {
        let recs = records(f);
        assert_eq!(recs.len(), [4, 2][k], "{}", f.display());
        for r in &recs {
            assert_eq!(tag_of(r, "Shard"), format!("{}/2", k + 1));
            assert!(tag_of(r, "FirstEngine").starts_with("Koma"));
            assert!(tag_of(r, "SecondEngine").starts_with("Koma"));
            let cmd = tag_of(r, "RefereeCommand");
            assert!(cmd.contains("--shard auto --pgnout"), "{cmd}");
            assert!(!tag_of(r, "Site").is_empty());
        }
        assert_replays(f);
    }
    // A requeued task runs the same command again: it resumes its shard.
    let env = slurm("0", "2");
    let r = run_with(&args(&command), &token, LIMIT, &env_of(&env));
    assert!(r.status.success(), "{}", r.stdout);
    assert!(
        r.stdout.contains("4 of 4 games already played"),
        "{}",
        r.stdout
    );
    assert_eq!(records(&files[0]).len(), 4);
    // An indexed Kubernetes Job counts from 0 too: index 1 is shard 2 of 2.
    let k8s = command.replace("--shard auto", "--shard auto/2");
    let r = run_with(&args(&k8s), &token, LIMIT, &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(r.status.success(), "{}", r.stdout);
    assert!(r.stdout.contains("shard 2/2 of 6"), "{}", r.stdout);
    assert!(
        r.stdout.contains("2 of 2 games already played"),
        "{}",
        r.stdout
    );
    let mut a = vec!["--report".to_string()];
    a.extend(files.iter().map(|f| f.display().to_string()));
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}", r.stderr);
    for want in [
        "6 games from 2 file(s), shards 1-2 of 2; the match has 6",
        "Games: 6,",
        "Engines: a = Koma",
        "Command: ",
    ] {
        assert!(r.stdout.contains(want), "{want}: {}", r.stdout);
    }
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shard_auto_without_a_scheduler_or_with_contradictions_is_a_usage_error() {
    let (dir, token) = scratch("shard-auto-bad");
    let pgn = dir.join("m.pgn").display().to_string();
    let base = format!("--each depth=1 --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b");
    type Env<'a> = &'a [(&'a str, &'a str)];
    let cases: [(&str, Env, &str); 6] = [
        ("--shard auto", &[], "SLURM_ARRAY_TASK_ID"),
        ("--shard auto", &[("SLURM_JOB_ID", "7")], "not a job array"),
        (
            "--shard auto",
            &[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "not a range of 4",
        ),
        (
            "--shard auto/8",
            &[
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "has 4 tasks",
        ),
        (
            "--shard auto",
            &[("JOB_COMPLETION_INDEX", "0")],
            "--shard auto/N",
        ),
        (
            "--shard auto/2",
            &[("JOB_COMPLETION_INDEX", "2")],
            "is not below 2",
        ),
    ];
    for (shard, env, want) in cases {
        let a = args(&format!("{base} {shard} --pgnout {pgn}"));
        let r = run_with(&a, &token, LIMIT, env);
        assert_eq!(r.status.code(), Some(2), "{shard} {env:?}: {}", r.stdout);
        assert!(r.stderr.contains(want), "{shard} {env:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    // Every task runs one command: without a file of its own to write, a
    // shard would be lost.
    let r = run_with(
        &args(&format!("{base} --shard auto")),
        &token,
        LIMIT,
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(r.stderr.contains("give --pgnout"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lines of a child's stdout as they come.
fn lines_of(child: &mut Child) -> Receiver<String> {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits for the child to exit, reading its stdout into `seen`.
fn wait_exit(
    child: &mut Child,
    rx: &Receiver<String>,
    seen: &mut Vec<String>,
    limit: Duration,
) -> i32 {
    let end = Instant::now() + limit;
    loop {
        while let Ok(l) = rx.try_recv() {
            seen.push(l);
        }
        if let Some(s) = child.try_wait().unwrap() {
            while let Ok(l) = rx.recv_timeout(Duration::from_millis(200)) {
                seen.push(l);
            }
            return s.code().unwrap_or(-1);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no exit within {limit:?}:\n{}", seen.join("\n"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_follower_stops_on_an_sprt_bound_while_the_shards_still_play() {
    let (dir, token) = scratch("follow-sprt");
    // The first engine wins every game: the second plays an illegal move
    // at once. 800 games at 0.1 s a move take the shards minutes; the
    // pooled SPRT decides within a few dozen games.
    let files: Vec<PathBuf> = (1..=2).map(|i| dir.join(format!("m{i}.pgn"))).collect();
    let mut shards: Vec<Child> = files
        .iter()
        .enumerate()
        .map(|(k, f)| {
            spawn(
                &words(&format!(
                    "--engine cmd={KOMA} name=strong st=0.1 --engine {} name=weak st=0.1 \
                     --rounds 400 --shard {}/2 --pgnout {} --rating-interval 0",
                    loser(),
                    k + 1,
                    f.display()
                )),
                &token,
            )
        })
        .collect();
    let mut a = vec!["--report".to_string()];
    a.extend(files.iter().map(|f| f.display().to_string()));
    a.extend(args("--follow=0.2 --sprt elo0=0 elo1=200"));
    let started = Instant::now();
    let mut follower = spawn(&a, &token);
    let rx = lines_of(&mut follower);
    let mut seen = Vec::new();
    let code = wait_exit(&mut follower, &rx, &mut seen, Duration::from_secs(90));
    let took = started.elapsed();
    let text = seen.join("\n");
    assert_eq!(code, 0, "H1 is exit status 0:\n{text}");
    let verdict = seen
        .iter()
        .find(|l| l.starts_with("SPRT: H1 accepted"))
        .unwrap_or_else(|| panic!("no verdict:\n{text}"));
    let games: u64 = verdict
        .rsplit("after ")
        .next()
        .and_then(|s| s.trim_end_matches(" games").parse().ok())
        .unwrap_or_else(|| panic!("{verdict}"));
    assert!((1..800).contains(&games), "{verdict}");
    assert!(text.contains("the match has 800"), "{text}");
    // The shards were still playing: the verdict came from growing files.
    for s in &mut shards {
        assert!(
            s.try_wait().unwrap().is_none(),
            "a shard ended before the verdict ({took:?})"
        );
    }
    // What scancel would do.
    for s in &mut shards {
        let _ = s.kill();
        let _ = s.wait();
    }
    assert_no_leftovers(&token);
    // The files of the cancelled shards (a record may be cut short at the
    // end of either) still give the verdict.
    let mut once = vec!["--report".to_string()];
    once.extend(files.iter().map(|f| f.display().to_string()));
    once.extend(args("--sprt elo0=0 elo1=200"));
    let r = run(&once, &token, LIMIT);
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_verdict_is_the_exit_status_of_the_report() {
    let (dir, token) = scratch("sprt-status");
    // The losing mock first: H0. Then a match too short for any verdict.
    let h0 = dir.join("h0.pgn");
    let r = run(
        &words(&format!(
            "--engine {} name=weak depth=1 --engine cmd={KOMA} name=strong depth=1 --rounds 20 \
             --pgnout {}",
            loser(),
            h0.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stdout);
    let open = dir.join("open.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=2 --pgnout {}",
            open.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stdout);
    for (file, status, words) in [
        (&h0, 3, "SPRT: H0 accepted"),
        (&open, 4, "the test is still open"),
    ] {
        let mut a = vec!["--report".to_string(), file.display().to_string()];
        a.extend(args("--sprt elo0=0 elo1=200"));
        let r = run(&a, &token, LIMIT);
        assert_eq!(r.status.code(), Some(status), "{}", r.stdout);
        assert!(r.stdout.contains(words), "{}", r.stdout);
        // Followed, a finished match ends the same way.
        a.push("--follow=0.1".into());
        let r = run(&a, &token, LIMIT);
        assert_eq!(r.status.code(), Some(status), "{}", r.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays a quick match (the mock, `b`, loses at once) into `file`.
fn quick_match(file: &Path, extra: &str, token: &str) {
    let (b_limit, extra) = match extra.strip_prefix("b:") {
        Some(rest) => rest.split_once(' ').unwrap_or((rest, "")),
        None => ("depth=1", extra),
    };
    let r = run(
        &words(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine {} name=b {b_limit} --rounds 2 \
             --pgnout {} {extra}",
            loser(),
            file.display()
        )),
        token,
        LIMIT,
    );
    assert!(r.status.success(), "{extra}: {}\n{}", r.stdout, r.stderr);
}

#[test]
fn records_of_another_match_are_refused_naming_the_difference() {
    let (dir, token) = scratch("mismatch");
    let base = dir.join("base.pgn");
    quick_match(&base, "", &token);
    let cases = [
        ("depth", "b:depth=2", "engine b depth: 1 vs 2"),
        (
            "variant",
            "--variant hasami",
            "variant: kaninariebi vs hasami",
        ),
        ("seed", "--seed 2", "--seed: 1 vs 2"),
        (
            "option",
            "--each option.Hash=8",
            "engine a option.Hash: unset vs 8",
        ),
    ];
    let report = |files: &[&Path]| {
        let mut a = vec!["--report".to_string()];
        a.extend(files.iter().map(|f| f.display().to_string()));
        run(&a, &token, LIMIT)
    };
    for (name, extra, want) in cases {
        let other = dir.join(format!("{name}.pgn"));
        quick_match(&other, extra, &token);
        let r = report(&[&base, &other]);
        assert_eq!(r.status.code(), Some(2), "{name}: {}", r.stdout);
        assert!(r.stderr.contains(want), "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains("a record of another match than"),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains(&format!("{name}.pgn line 1")),
            "{}",
            r.stderr
        );
    }
    // Records without the command line (an older referee) are told apart
    // by their tags.
    let depth = std::fs::read_to_string(dir.join("depth.pgn")).unwrap();
    let bare: String = depth
        .lines()
        .filter(|l| !l.starts_with("[RefereeCommand"))
        .map(|l| format!("{l}\n"))
        .collect();
    let old = dir.join("old.pgn");
    std::fs::write(&old, bare).unwrap();
    let r = report(&[&base, &old]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        r.stderr.contains("limits of b: depth=1 vs depth=2"),
        "{}",
        r.stderr
    );
    // One match, but a player's program named itself differently on
    // another host: another build.
    let text = std::fs::read_to_string(&base).unwrap();
    let other_build = dir.join("build.pgn");
    std::fs::write(
        &other_build,
        text.replace("[FirstEngine \"Koma", "[FirstEngine \"Koma 9"),
    )
    .unwrap();
    let r = report(&[&base, &other_build]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        r.stderr.contains("two programs under one name"),
        "{}",
        r.stderr
    );
    // The same match twice is no mismatch: each game counts once.
    let r = report(&[&base, &base]);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("4 games from 2 file(s)"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unfinished_last_record_waits_for_the_rest_while_following() {
    let (dir, token) = scratch("follow-partial");
    let files: Vec<PathBuf> = (1..=2).map(|i| dir.join(format!("s{i}.pgn"))).collect();
    for (k, f) in files.iter().enumerate() {
        quick_match(f, &format!("--shard {}/2", k + 1), &token);
    }
    // The second shard's last record is half written.
    let whole = std::fs::read_to_string(&files[1]).unwrap();
    let last = whole[..whole.len() - 2].rfind("\n\n[").map_or(0, |i| i + 2);
    let cut = last + (whole.len() - last) / 2;
    std::fs::write(&files[1], &whole[..cut]).unwrap();
    let mut a = vec!["--report".to_string()];
    a.extend(files.iter().map(|f| f.display().to_string()));
    // Read once, it is a damaged record: skipped and said so.
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success());
    assert!(r.stdout.contains("3 games from 2 file(s)"), "{}", r.stdout);
    assert!(r.stderr.contains("skipped"), "{}", r.stderr);
    // Followed, it waits for the rest, then the match is complete.
    a.push("--follow=0.1".into());
    let mut follower = spawn(&a, &token);
    let rx = lines_of(&mut follower);
    let mut seen = Vec::new();
    let end = Instant::now() + Duration::from_secs(60);
    while !seen
        .iter()
        .any(|l: &String| l.contains("3 games from 2 file(s)"))
    {
        assert!(Instant::now() < end, "{seen:?}");
        if let Ok(l) = rx.recv_timeout(Duration::from_millis(100)) {
            seen.push(l);
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(follower.try_wait().unwrap().is_none(), "it waits: {seen:?}");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&files[1])
        .unwrap();
    std::io::Write::write_all(&mut f, &whole.as_bytes()[cut..]).unwrap();
    drop(f);
    let code = wait_exit(&mut follower, &rx, &mut seen, Duration::from_secs(60));
    let text = seen.join("\n");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("4 games from 2 file(s), shards 1-2 of 2; the match has 4"),
        "{text}"
    );
    assert!(text.contains("All 4 games of the match are in"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// tools/cluster/parallel-test.sh: docs/cluster.md's GNU parallel line on this
/// machine alone (`--sshlogin 2/:`), its shards pooled and every game
/// there once. It needs GNU parallel, so `cargo test` lists it as ignored
/// with that reason; the test command (tools/test.sh) installs parallel
/// where it can and runs it, or says it was skipped.
#[test]
#[ignore = "needs GNU parallel: tools/test.sh runs it where parallel is installed"]
fn gnu_parallel_plays_the_shards_and_the_report_pools_them() {
    let bin_dir = Path::new(KOMA).parent().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/cluster/parallel-test.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .env("KOMA_BIN_DIR", bin_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("passed: 16 games in 4 shards, each once"),
        "{stdout}"
    );
}

/// A fake `scontrol` on the PATH that answers `JobState=` with the next of
/// `states` on each call (the last one from then on): a job whose state
/// moves on while it is being read.
fn scontrol_answering(states: &[&str]) -> (PathBuf, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!(
        "koma-scontrol-{}-{}",
        std::process::id(),
        states.join("-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let list = states.join(" ");
    let script = format!(
        "#!/bin/sh\nn=$(cat '{d}/calls' 2>/dev/null || echo 0); echo $((n+1)) > '{d}/calls'\n\
         set -- {list}; last=$1; i=0\nfor s in \"$@\"; do [ $i -le $n ] && last=$s; i=$((i+1)); done\n\
         echo \"JobId=1 ArrayTaskId=0 JobState=$last Reason=None\"\n",
        d = dir.display()
    );
    let bin = dir.join("scontrol");
    std::fs::write(&bin, script).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (dir, path)
}

/// Runs the check slurm-test.sh makes on a task before requeueing it,
/// taken from the script itself, against the fake `scontrol`.
fn requeue_check(states: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("tools/cluster/slurm-test.sh")).unwrap();
    let check: Vec<&str> = script
        .lines()
        .skip_while(|l| !l.starts_with("while [ \"$(games_in \"$shard1\")\" -lt 3 ]"))
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("sleep"))
        .collect();
    assert!(!check.is_empty(), "slurm-test.sh has its requeue check");
    let (dir, path) = scontrol_answering(states);
    let body = format!(
        "fail() {{ echo \"FAILED: $*\"; exit 1; }}\n. tools/cluster/job-state.sh\njob=1\n{}\necho fine\n",
        check.join("\n")
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(body)
        .current_dir(root)
        .env("PATH", path)
        .output()
        .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    out
}

/// slurm-test.sh judges a task's state on one reading: a task that goes
/// from PENDING to RUNNING while it is looked at is on its way (read twice,
/// it was PENDING for the test for RUNNING and RUNNING for the test for
/// PENDING, and the test failed "task 0 is RUNNING before it was requeued").
#[test]
fn the_slurm_test_reads_a_task_state_once_per_check() {
    for states in [
        &["PENDING", "RUNNING"][..],
        &["CONFIGURING", "RUNNING"],
        &["RUNNING"],
    ] {
        let out = requeue_check(states);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("fine"),
            "{states:?}: {stdout}"
        );
    }
    for states in [&["FAILED"][..], &["COMPLETED"]] {
        let out = requeue_check(states);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !out.status.success()
                && stdout.contains(&format!("task 0 is {} before it was requeued", states[0])),
            "{states:?}: {stdout}"
        );
    }
}
