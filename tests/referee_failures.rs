//! Every way an engine can fail, played by a mock engine against `koma`:
//! the failing engine loses with the right reason, the record says so and
//! replays, and no process is left behind.

mod referee;
use referee::*;
use std::time::Duration;

/// Plays `games` games of the mock in `mode` (first player in game 1)
/// against koma at depth 1; returns the run and the records.
fn mock_match(
    name: &str,
    mode: &str,
    mock_limits: &str,
    games: u32,
    extra: &str,
) -> (Run, Vec<koma::protocol::record::Record>, String) {
    let (dir, token) = scratch(name);
    let pgn = dir.join("games.pgn");
    let mut a = vec![
        "--engine".to_string(),
        format!("cmd={MOCK}"),
        format!("args={KOMA} {mode}"),
        "name=mock".into(),
    ];
    a.extend(args(mock_limits));
    a.extend(args(&format!(
        "--engine cmd={KOMA} name=koma depth=1 --games {games} --heartbeat 200 \
         --stall-timeout 1000 --pgnout {} {extra}",
        pgn.display()
    )));
    let r = run(&a, &token, Duration::from_secs(90));
    assert_no_leftovers(&token);
    let recs = records(&pgn);
    assert_replays(&pgn);
    let _ = std::fs::remove_dir_all(&dir);
    (r, recs, token)
}

fn termination(r: &koma::protocol::record::Record) -> (&str, &str, &str) {
    (
        r.tag("Result").unwrap_or(""),
        r.tag("Termination").unwrap_or(""),
        r.tag("TerminationDetails").unwrap_or(""),
    )
}

#[test]
fn a_missing_or_unrunnable_engine_program_is_a_usage_error_before_any_game() {
    let (dir, token) = scratch("missing-program");
    let pgn = dir.join("games.pgn");
    let text = dir.join("engine.txt");
    std::fs::write(&text, "not a program").unwrap();
    for (cmd, words) in [
        (
            "/nonexistent/engine".to_string(),
            "engine x: cannot run /nonexistent/engine",
        ),
        (text.display().to_string(), "not executable"),
        ("no-such-koma-engine".to_string(), "no such program in PATH"),
    ] {
        let r = run(
            &args(&format!(
                "--engine cmd={cmd} name=x depth=1 --engine cmd={KOMA} name=koma depth=1 \
                 --pgnout {}",
                pgn.display()
            )),
            &token,
            Duration::from_secs(60),
        );
        assert_eq!(r.status.code(), Some(2), "{cmd}: {}", r.stdout);
        assert!(r.stderr.contains(words), "{cmd}: {}", r.stderr);
        assert!(
            r.stdout.is_empty(),
            "{cmd}: no game was played: {}",
            r.stdout
        );
        assert!(!pgn.exists(), "{cmd}: no record file");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_crashes_at_start_fails_to_start_and_stops_the_match() {
    let (r, recs, _) = mock_match("crash-start", "crash-start", "depth=1", 2, "");
    assert_eq!(r.status.code(), Some(1), "{}", r.stdout);
    assert_eq!(recs.len(), 1, "the match stops after the failure");
    assert_eq!(
        termination(&recs[0]),
        (
            "0-1",
            "fails to start",
            "it exited with code 3 before uciok"
        )
    );
    assert!(
        r.stdout
            .contains("Finished game 1 (mock vs koma): 0-1 {mock fails to start}"),
        "{}",
        r.stdout
    );
    // A restart would fail the same way: no --recover hint, but stderr.
    assert!(
        r.stdout.contains(
            "Match stopped: mock fails to start in game 1; --log FILE records what it wrote on stderr"
        ),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("--recover"), "{}", r.stdout);
}

#[test]
fn an_engine_that_crashes_mid_game_disconnects_and_recover_goes_on() {
    let (r, recs, _) = mock_match("crash-mid", "crash-mid", "depth=1", 2, "--recover");
    assert!(r.status.success(), "{}", r.stdout);
    assert_eq!(recs.len(), 2);
    for (k, rec) in recs.iter().enumerate() {
        let (res, term, detail) = termination(rec);
        assert_eq!(res, if k == 0 { "0-1" } else { "1-0" });
        assert_eq!((term, detail), ("disconnects", "it exited with code 1"));
        assert!(rec.moves.len() >= 2, "the crash came mid-game");
    }
}

#[test]
fn a_hung_engine_stops_answering_the_heartbeat() {
    let (r, recs, _) = mock_match("hang", "hang", "depth=1", 1, "");
    let (res, term, detail) = termination(&recs[0]);
    assert_eq!((res, term), ("0-1", "stops answering"), "{}", r.stdout);
    assert!(detail.starts_with("no readyok within 1000 ms"), "{detail}");
    assert!(
        r.stdout
            .contains("Match stopped: mock stops answering in game 1; --recover restarts it"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_engine_that_never_flushes_stops_answering() {
    let (r, recs, _) = mock_match("no-flush", "no-flush", "depth=1", 1, "");
    let (res, term, _) = termination(&recs[0]);
    assert_eq!((res, term), ("0-1", "stops answering"), "{}", r.stdout);
}

#[test]
fn a_garbage_line_loses_and_is_quoted() {
    let (r, recs, _) = mock_match("garbage", "garbage", "depth=1", 1, "");
    assert!(r.status.success(), "the engine is alive: {}", r.stdout);
    assert_eq!(
        termination(&recs[0]),
        (
            "0-1",
            "sends garbage",
            "unreadable line \"this is not the protocol\""
        )
    );
}

#[test]
fn an_illegal_move_loses() {
    let (_, recs, _) = mock_match("illegal", "illegal", "depth=1", 1, "");
    assert_eq!(
        termination(&recs[0]),
        ("0-1", "plays an illegal move", "illegal move a1a1")
    );
}

#[test]
fn a_time_loss_reports_the_overrun_in_ms() {
    let (r, recs, _) = mock_match("time-loss", "time-loss", "tc=1+0", 1, "--timemargin 100");
    let (res, term, detail) = termination(&recs[0]);
    assert_eq!((res, term), ("0-1", "loses on time"), "{}", r.stdout);
    let ms: u64 = detail
        .strip_prefix("overran its clock by ")
        .and_then(|d| d.strip_suffix(" ms"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{detail}"));
    assert!((100..3000).contains(&ms), "{detail}");
    // fastchess's line exactly, Koma's detail on the next.
    assert!(
        r.stdout
            .contains("{mock loses on time}\nGame 1 detail: overran its clock by "),
        "{}",
        r.stdout
    );
}

#[test]
fn a_slow_starter_within_the_start_timeout_plays_normally() {
    let (r, recs, _) = mock_match("slow-start", "slow-start", "depth=1", 1, "--max-plies 12");
    assert!(r.status.success(), "{}", r.stdout);
    let (_, term, _) = termination(&recs[0]);
    assert!(
        !koma::client::reason::Reason::from_message(term)
            .unwrap()
            .is_failure(),
        "{term}"
    );
}

#[test]
fn an_engine_silent_at_start_fails_after_the_start_timeout() {
    let (r, recs, _) = mock_match("mute", "mute-start", "depth=1", 1, "--start-timeout 300");
    assert_eq!(
        termination(&recs[0]),
        ("0-1", "fails to start", "no uciok within 300 ms")
    );
    assert!(
        r.stdout
            .contains("in game 1; --start-timeout gives it longer to start"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_engine_flooding_lines_still_loses_on_time() {
    let (r, recs, _) = mock_match("flood", "flood", "tc=1+0", 1, "");
    let (res, term, detail) = termination(&recs[0]);
    assert_eq!((res, term), ("0-1", "loses on time"), "{}", r.stdout);
    assert!(detail.ends_with("and did not answer stop"), "{detail}");
}

/// The referee's peak memory (VmHWM, kB), read until it exits.
fn peak_kb_until_exit(child: &mut std::process::Child) -> u64 {
    let mut peak = 0;
    let end = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            for line in status.lines() {
                if let Some(v) = line.strip_prefix("VmHWM:") {
                    let kb = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                    peak = peak.max(kb);
                }
            }
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        assert!(std::time::Instant::now() < end, "the match did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_engine_flooding_stderr_without_a_newline_keeps_the_referee_small() {
    let (dir, token) = scratch("stderr-flood");
    // 256 MiB on stderr without a newline before the engine starts.
    let wrapper = script(
        &dir,
        "flood.sh",
        "head -c 268435456 /dev/zero | tr '\\0' x >&2\nexec \"$@\"",
    );
    let a = args(&format!(
        "--engine cmd={} args={KOMA} name=flood depth=1 --engine cmd={KOMA} name=koma depth=1 \
         --games 1 --max-plies 20 --start-timeout 60000",
        wrapper.display()
    ));
    let mut child = spawn(&a, &token);
    let peak = peak_kb_until_exit(&mut child);
    assert!(child.wait().unwrap().success());
    assert!(peak > 0, "no VmHWM read");
    assert!(peak < 64 * 1024, "the referee grew to {peak} kB");
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many times `needle` occurs in `hay`.
fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn odd_info_values_are_advice_and_the_legal_move_counts() {
    // score cp 12.5, score cp 2147483648, time -1, nodes -5 before every
    // move from the first on.
    let (r, recs, _) = mock_match("odd-info", "odd-info 1", "depth=1", 1, "--max-plies 12");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let (res, term, _) = termination(&recs[0]);
    assert_eq!((res, term), ("1/2-1/2", "ply limit"), "{}", r.stdout);
    assert_eq!(recs[0].moves.len(), 12);
    // The warning names the value, once for the whole match.
    assert_eq!(
        count(&r.stderr, "an info line with a bad value"),
        1,
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("at 12.5"), "{}", r.stderr);
}

#[test]
fn a_second_bestmove_is_dropped_with_a_warning_not_taken_for_the_next_move() {
    let (r, recs, _) = mock_match("two-moves", "two-moves 1", "depth=1", 2, "--max-plies 12");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    for rec in &recs {
        let (_, term, detail) = termination(rec);
        let reason = koma::client::reason::Reason::from_message(term).unwrap();
        assert!(!reason.is_failure(), "{term} {detail}: {}", r.stdout);
    }
    assert_eq!(
        count(&r.stderr, "a bestmove while no go was outstanding"),
        1,
        "{}",
        r.stderr
    );
}

#[test]
fn an_engine_that_exits_while_its_child_holds_the_pipe_disconnects() {
    let (r, recs, _) = mock_match("exit-child", "exit-child", "depth=1", 1, "");
    assert_eq!(
        termination(&recs[0]),
        ("0-1", "disconnects", "it exited with code 0"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_option_the_engine_refuses_stops_the_match_before_it_starts() {
    let (dir, token) = scratch("refused-option");
    let pgn = dir.join("games.pgn");
    for (option, words) in [
        (
            "EvalFile=/nonexistent",
            "cannot use /nonexistent as EvalFile: cannot read it",
        ),
        (
            "Threads=0",
            "expected an integer from 1 to 256 for Threads at 0",
        ),
        (
            "Hash=999999",
            "expected an integer from 1 to 65536 for Hash at 999999",
        ),
    ] {
        let r = run(
            &args(&format!(
                "--engine cmd={KOMA} name=good depth=1 --engine cmd={KOMA} name=bad depth=1 \
                 option.{option} --games 2 --pgnout {}",
                pgn.display()
            )),
            &token,
            Duration::from_secs(60),
        );
        assert_eq!(
            r.status.code(),
            Some(2),
            "{option}: {}\n{}",
            r.stdout,
            r.stderr
        );
        let name = option.split('=').next().unwrap();
        let want = format!("engine bad refused option {option}: info string error: {words}");
        assert!(r.stderr.contains(&want), "{option}: {}", r.stderr);
        assert!(
            !r.stdout.contains("Finished game"),
            "{option}: {}",
            r.stdout
        );
        let recorded = std::fs::read_to_string(&pgn).unwrap_or_default();
        assert!(
            recorded.is_empty(),
            "{option} ({name}): no game was recorded"
        );
        assert_no_leftovers(&token);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_option_refused_on_a_restart_mid_match_is_a_failure_of_that_engine() {
    let (dir, _) = scratch("refused-restart");
    let marker = dir.join("crashed");
    // The mock crashes at its 2nd go (game 1), and refuses its options
    // in every run after that.
    let mode = format!("refuse-again 2 {}", marker.display());
    let (r, recs, _) = mock_match("refused-restart-match", &mode, "depth=1", 2, "--recover");
    assert_eq!(recs.len(), 2, "{}", r.stdout);
    assert_eq!(termination(&recs[0]).1, "disconnects");
    let (res, term, detail) = termination(&recs[1]);
    assert_eq!((res, term), ("1-0", "fails to start"), "{}", r.stdout);
    assert!(
        detail.contains(
            "refused option UCI_Variant=kaninariebi: info string error: cannot use \
             UCI_Variant value kaninariebi on a second run"
        ),
        "{detail}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident size (VmHWM, kB) of the running process `pid`: its
/// own since it started the referee's program.
fn vm_hwm_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .unwrap_or_else(|| panic!("no VmHWM in {status}"));
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

#[test]
fn an_engine_printing_200_mb_of_info_keeps_the_referee_small_and_its_move_counts() {
    let (dir, token) = scratch("info-flood");
    let signal = dir.join("flooded");
    let file = |ext: &str| std::path::PathBuf::from(format!("{}.{ext}", signal.display()));
    // The mock prints 200 MB of info lines before its first move. Its
    // opponent, at its first move (the flood read, the move played), says
    // so with a file and waits until the test has read the referee's peak
    // memory: the reading is taken after the flood, whatever the timing.
    let a = vec![
        "--engine".to_string(),
        format!("cmd={MOCK}"),
        format!("args={KOMA} info-flood 1 200"),
        "name=flood".into(),
        "depth=1".into(),
        "--engine".into(),
        format!("cmd={MOCK}"),
        format!("args={KOMA} wait-file 1 {}", signal.display()),
        "name=plain".into(),
        "depth=1".into(),
        "--games".into(),
        "1".into(),
        "--max-plies".into(),
        "2".into(),
        "--heartbeat".into(),
        "600000".into(),
    ];
    let mut child = spawn(&a, &token);
    let end = std::time::Instant::now() + Duration::from_secs(120);
    while !file("reached").exists() {
        assert!(std::time::Instant::now() < end, "the flood was not read");
        assert!(child.try_wait().unwrap().is_none(), "the referee ended");
        std::thread::sleep(Duration::from_millis(10));
    }
    let peak = vm_hwm_kb(child.id());
    eprintln!("the referee's peak after the flood: {peak} kB");
    std::fs::write(file("go"), "").unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut out, &mut stdout).unwrap();
    assert!(child.wait().unwrap().success(), "{stdout}");
    assert!(stdout.contains("{draw by ply limit}"), "{stdout}");
    assert!(peak < 64 * 1024, "the referee grew to {peak} kB");
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}
