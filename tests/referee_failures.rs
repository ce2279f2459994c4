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
    assert!(
        r.stdout
            .contains("{mock loses on time} (overran its clock by")
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
