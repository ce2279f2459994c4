//! Real matches between `koma` processes: every game at a short time
//! control with records that replay cleanly; resuming after `kill -9`
//! without losing or duplicating a game (and without leaving engines
//! behind); shards merged by `--report`; the SPRT stopping a match; usage
//! errors giving exit code 2.

mod referee;
use koma::client::reason::Reason;
use koma::games::GameId;
use koma::protocol::record::tag_number;
use referee::*;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn koma_plays_koma_on_every_game_at_a_short_time_control() {
    for &game in GameId::ALL {
        let (dir, token) = scratch(&format!("tc-{game}"));
        let pgn = dir.join("games.pgn");
        let mut a = args(&format!(
            "--variant {game} --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b \
             --games 2 --random-plies 2 --max-plies 40 --timemargin 5000 --concurrency 2 \
             --pgnout {} --each tc=1+0.02",
            pgn.display()
        ));
        a.push("option.Move Overhead=50".into());
        let r = run(&a, &token, LIMIT);
        assert!(r.status.success(), "{game}: {}\n{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("Finished game 1 ("), "{}", r.stdout);
        assert!(r.stdout.contains("Results of a vs b"), "{}", r.stdout);
        assert_eq!(endings_total(&r.stdout), 2, "{}", r.stdout);
        assert!(r.stderr.is_empty(), "{game}: {}", r.stderr);
        let recs = records(&pgn);
        assert_eq!(recs.len(), 2);
        for rec in &recs {
            assert_eq!(rec.tag("Variant"), Some(game.name()));
            assert_eq!(rec.tag("TimeControl"), Some("1+0.02"));
            let term = rec.tag("Termination").unwrap();
            let reason = Reason::from_message(term).unwrap();
            assert!(
                !reason.is_failure(),
                "{game}: {term} {:?}",
                rec.tag("TerminationDetails")
            );
        }
        assert_replays(&pgn);
        assert_no_leftovers(&token);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn rule_options_reach_the_records_and_the_engines() {
    let (dir, token) = scratch("rules");
    let pgn = dir.join("games.pgn");
    let log = dir.join("engines.log");
    let r = run(
        &args(&format!(
            "--variant hasami --rule HasamiWin=lead3 --rule hasamilines=false \
             --engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b nodes=200 \
             --games 2 --pgnout {} --log {}",
            pgn.display(),
            log.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    for rec in records(&pgn) {
        assert_eq!(rec.tag("HasamiWin"), Some("lead3"));
        assert_eq!(rec.tag("HasamiLines"), Some("false"));
        assert_eq!(rec.tag("HasamiCorners"), Some("true"));
        assert_eq!(
            rec.tag("FirstTimeControl"),
            Some(if rec.tag("First") == Some("a") {
                "depth=1"
            } else {
                "nodes=200"
            })
        );
    }
    let log = std::fs::read_to_string(&log).unwrap();
    for sent in [
        "> setoption name UCI_Variant value hasami",
        "> setoption name HasamiWin value lead3",
        "> setoption name HasamiLines value false",
        "> setoption name HasamiCorners value true",
        "> go depth 1",
        "< bestmove ",
    ] {
        assert!(log.contains(sent), "no {sent:?} in the log");
    }
    assert_replays(&pgn);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Processes started by the run with `token`, waiting until there are some.
fn engines_of(token: &str) -> Vec<u32> {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let p = carrying(token);
        if p.len() >= 2 || Instant::now() > end {
            return p;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_match_killed_with_sigkill_resumes_without_losing_or_repeating_a_game() {
    let (dir, token) = scratch("resume");
    let pgn = dir.join("games.pgn");
    let games = 60u64;
    let a = args(&format!(
        "--engine cmd={KOMA} name=a depth=2 --engine cmd={KOMA} name=b depth=3 \
         --games 2 --rounds {} --random-plies 4 --max-plies 200 --pgnout {}",
        games / 2,
        pgn.display()
    ));
    let mut child = spawn(&a, &token);
    // Wait for a few finished games, then kill -9 mid-match.
    let end = Instant::now() + LIMIT;
    loop {
        let text = std::fs::read_to_string(&pgn).unwrap_or_default();
        if text.matches("[Game ").count() >= 3 {
            break;
        }
        assert!(Instant::now() < end, "no games recorded");
        std::thread::sleep(Duration::from_millis(2));
    }
    let engines = engines_of(&token);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!engines.is_empty());
    // The engines die with the referee (PR_SET_PDEATHSIG).
    assert_no_leftovers(&token);
    let before = records(&pgn).len() as u64;
    assert!(before < games, "the kill came after the end");
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Resuming from"), "{}", r.stdout);
    let mut numbers: Vec<u64> = records(&pgn)
        .iter()
        .map(|r| tag_number(r, "Game").unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=games).collect::<Vec<_>>());
    assert!(
        r.stdout.contains(&format!("Games: {games},")),
        "{}",
        r.stdout
    );
    assert_replays(&pgn);
    // Once complete, running again plays nothing.
    let again = run(&a, &token, LIMIT);
    assert!(again.status.success());
    assert!(!again.stdout.contains("Finished game"), "{}", again.stdout);
    assert_eq!(records(&pgn).len() as u64, games);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merge_into_one_report() {
    let (dir, token) = scratch("shards");
    let mut files = Vec::new();
    for i in 1..=2 {
        let pgn = dir.join(format!("shard{i}.pgn"));
        let r = run(
            &args(&format!(
                "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=2 \
                 --rounds 3 --random-plies 2 --shard {i}/2 --pgnout {}",
                pgn.display()
            )),
            &token,
            LIMIT,
        );
        assert!(r.status.success(), "{}", r.stdout);
        files.push(pgn.display().to_string());
    }
    let n0 = records(std::path::Path::new(&files[0])).len();
    let n1 = records(std::path::Path::new(&files[1])).len();
    assert_eq!((n0, n1), (4, 2));
    let mut a = vec!["--report".to_string()];
    a.extend(files);
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success());
    assert!(r.stdout.contains("6 games from 2 file(s)"), "{}", r.stdout);
    assert!(r.stdout.contains("Games: 6,"), "{}", r.stdout);
    assert!(r.stdout.contains("Ptnml(0-2): ["), "{}", r.stdout);
    assert_eq!(endings_total(&r.stdout), 6, "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games counted by the last `Endings:` line in `out` (each item ends
/// with its count).
fn endings_total(out: &str) -> u64 {
    let line = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("Endings: "))
        .unwrap_or_else(|| panic!("no Endings line in\n{out}"));
    line.split(", ")
        .map(|item| {
            let n = item.rsplit(' ').next().unwrap_or_default();
            n.parse::<u64>()
                .unwrap_or_else(|_| panic!("{item:?} ends in no count"))
        })
        .sum()
}

#[test]
fn the_sprt_stops_a_lopsided_match() {
    let (dir, token) = scratch("sprt");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=weak depth=1 --engine cmd={KOMA} name=strong depth=3 \
             --rounds 200 --random-plies 4 --concurrency 2 --sprt elo0=0 elo1=10 \
             --rating-interval 0"
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stdout);
    assert!(r.stdout.contains("SPRT: H0 accepted"), "{}", r.stdout);
    let played = r.stdout.matches("Finished game").count();
    assert!(played < 400, "played {played}");
    assert!(r.stdout.contains("LLR: -"), "{}", r.stdout);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_with_code_2() {
    for bad in [
        "",
        "--engine cmd=x depth=1",
        "--engine cmd=x --engine cmd=y",
        "--each depth=1 --engine cmd=x --engine cmd=y --variant chess",
        "--each depth=1 --engine cmd=x --engine cmd=y --rule HasamiWin=six --variant hasami",
        "--each depth=1 --engine cmd=x --engine cmd=y --games -1",
        "--each depth=1 --engine cmd=x --engine cmd=y --nonsense",
        "--each depth=1 --engine cmd=x --engine cmd=y --openings file=/nonexistent",
        "--report",
    ] {
        let r = run(&args(bad), "usage", LIMIT);
        assert_eq!(r.status.code(), Some(2), "{bad:?}: {}", r.stdout);
        assert!(r.stderr.contains("error"), "{bad:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{bad:?}");
    }
    let help = run(&args("--help"), "usage", LIMIT);
    assert_eq!(help.status.code(), Some(0));
    for opt in [
        "--engine",
        "--each",
        "--variant",
        "--rule",
        "--games",
        "--rounds",
        "--openings",
        "--random-plies",
        "--concurrency",
        "--max-plies",
        "--timemargin",
        "--seed",
        "--sprt",
        "--pgnout",
        "--state",
        "--log",
        "--recover",
        "--shard",
        "--report",
        "--replay",
        "cmd=PATH",
        "tc=[M/]BASE[+INC]",
        "option.NAME=VALUE",
    ] {
        assert!(help.stdout.contains(opt), "--help lacks {opt}");
    }
}

#[test]
fn a_file_that_cannot_be_used_exits_with_code_2_naming_it_and_the_cause() {
    let (dir, token) = scratch("files");
    let missing = dir.join("missing").join("x.pgn");
    let binary = dir.join("binary.pgn");
    std::fs::write(&binary, b"\xff\xfe\n").unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "a1a2 zz\n").unwrap();
    let state = dir.join("state.pgn");
    let m = missing.display();
    let match_ = format!("--each depth=1 --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b");
    let no_file = "No such file or directory";
    let cases = [
        (
            format!("{match_} --log {m}"),
            format!("koma-referee: cannot open the log {m}: {no_file}"),
        ),
        (
            format!("{match_} --pgnout {m} --state {}", state.display()),
            format!("koma-referee: cannot open the record file {m}: {no_file}"),
        ),
        (
            format!("{match_} --state {m}"),
            format!("koma-referee: cannot open the state file {m}: {no_file}"),
        ),
        (
            format!("{match_} --state /dev/null"),
            "koma-referee: cannot open the state file /dev/null: not a regular file".into(),
        ),
        (
            format!("{match_} --state {}", binary.display()),
            format!(
                "koma-referee: cannot read the state file {}: not a text file",
                binary.display()
            ),
        ),
        (
            format!("{match_} --openings file={m}"),
            format!("koma-referee: cannot read the openings file {m}: {no_file}"),
        ),
        (
            format!("{match_} --openings file={}", book.display()),
            format!("koma-referee: {} line 1: ", book.display()),
        ),
        (
            format!("--report {m}"),
            format!("koma-referee: cannot read {m}: {no_file}"),
        ),
        (
            "--replay /dev/null".into(),
            "koma-referee: cannot read /dev/null: not a regular file".into(),
        ),
    ];
    for (cmd, said) in cases {
        let r = run(&args(&cmd), &token, LIMIT);
        assert_eq!(r.status.code(), Some(2), "{cmd}: {}", r.stderr);
        assert!(r.stderr.starts_with(&said), "{cmd}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{cmd}: {}", r.stdout);
    }
    assert!(!missing.parent().unwrap().exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_from_a_file_are_played_and_bad_ones_refused() {
    let (dir, token) = scratch("book");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# two openings\na1a2 i9i8\nfen ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1 moves i9i7\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--variant hasami --engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --rounds 2 --openings file={} order=sequential --max-plies 30 --pgnout {}",
            book.display(),
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 4);
    assert_eq!(recs[0].tag("OpeningPlies"), Some("2"));
    assert_eq!(recs[0].moves[0].mv.to_string(), "a1a2");
    assert_eq!(
        recs[2].tag("FEN"),
        Some("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1")
    );
    assert_eq!(recs[2].moves[0].mv.to_string(), "i9i7");
    assert_replays(&pgn);
    std::fs::write(&book, "a1a2 a2a3\n").unwrap();
    let r = run(
        &args(&format!(
            "--variant hasami --each depth=1 --engine cmd={KOMA} name=a --engine cmd={KOMA} name=b \
             --openings file={}",
            book.display()
        )),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(
        r.stderr.contains("line 1: move 2 (a2a3) is illegal"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_schedule_and_openings_follow_the_seed() {
    let (dir, token) = scratch("seed");
    let moves_of = |seed: u64, name: &str| -> Vec<Vec<String>> {
        let pgn = dir.join(name);
        let r = run(
            &args(&format!(
                "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
                 --rounds 3 --random-plies 6 --concurrency 2 --seed {seed} --pgnout {}",
                pgn.display()
            )),
            &token,
            LIMIT,
        );
        assert!(r.status.success(), "{}", r.stdout);
        let mut recs = records(&pgn);
        recs.sort_by_key(|r| tag_number(r, "Game"));
        recs.iter()
            .map(|r| r.moves.iter().map(|m| m.mv.to_string()).collect())
            .collect()
    };
    let a = moves_of(7, "a.pgn");
    let b = moves_of(7, "b.pgn");
    let c = moves_of(8, "c.pgn");
    assert_eq!(a, b, "same seed, same games");
    assert_ne!(a, c, "another seed, other openings");
    // Both games of a pair open alike.
    assert_eq!(a[0][..6], a[1][..6]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_referee_on_the_same_state_file_refuses_to_start() {
    let (dir, token) = scratch("lock");
    let pgn = dir.join("games.pgn");
    let long = args(&format!(
        "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
         --rounds 1000 --pgnout {}",
        pgn.display()
    ));
    let mut first = spawn(&long, &token);
    // Its engines run: it holds the lock.
    wait_for_processes(&token, 3, LIMIT);
    let second = run(&long, &format!("{token}-2"), LIMIT);
    assert_eq!(second.status.code(), Some(2), "{}", second.stdout);
    assert!(
        second.stderr.contains("is in use by another koma-referee"),
        "{}",
        second.stderr
    );
    assert!(second.stdout.is_empty(), "{}", second.stdout);
    // Another match on the same file waits its turn too, through --state.
    let other = args(&format!(
        "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
         --pgnout {} --state {}",
        dir.join("other.pgn").display(),
        pgn.display()
    ));
    let r = run(&other, &format!("{token}-3"), LIMIT);
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    // kill -9 leaves no stale lock: the file is free at once.
    first.kill().unwrap();
    first.wait().unwrap();
    assert_no_leftovers(&token);
    let short = args(&format!(
        "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
         --pgnout {}",
        pgn.display()
    ));
    let r = run(&short, &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_an_engine_started_outlives_a_killed_referee() {
    let (dir, token) = scratch("grandchildren");
    // The engine leaves two processes of its own behind: a background
    // child, and one whose parent has already exited.
    let wrapper = script(
        &dir,
        "wrapper.sh",
        "sleep 300 &\n(sleep 301 &)\nexec \"$@\"",
    );
    let a = args(&format!(
        "--engine cmd={} args={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
         --rounds 1000",
        wrapper.display()
    ));
    let mut child = spawn(&a, &token);
    // The referee, two engines and two sleeps.
    wait_for_processes(&token, 5, LIMIT);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_finds_bad_tags_and_bytes_invalid_and_reads_only_regular_files() {
    let (dir, token) = scratch("replay");
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --max-plies 30 --pgnout {}",
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let good = std::fs::read_to_string(&pgn).unwrap();
    let one = good.split("\n\n[").next().unwrap().to_string() + "\n\n";
    let retag = |tag: &str, value: &str| {
        let start = one.find(&format!("[{tag} \"")).unwrap();
        let end = start + one[start..].find('\n').unwrap();
        format!("{}[{tag} \"{value}\"]{}", &one[..start], &one[end..])
    };
    let mut bad: Vec<u8> = good.clone().into_bytes();
    for text in [
        retag("PlyCount", "9999999999999999999999928"),
        retag("MaxPlies", "-1000"),
        one.replacen("[Variant ", "[Variant \"nana\"]\n[Variant ", 1),
    ] {
        bad.extend_from_slice(text.as_bytes());
    }
    // One bad byte spoils one record, not the file.
    bad.extend_from_slice(one.replacen("[Event \"", "[Event \"\u{1}", 1).as_bytes());
    let at = bad.iter().rposition(|&b| b == 1).unwrap();
    bad[at] = 0xff;
    bad.extend_from_slice(one.as_bytes());
    let file = dir.join("bad.pgn");
    std::fs::write(&file, &bad).unwrap();
    let r = run(
        &args(&format!("--replay {}", file.display())),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    for words in [
        "PlyCount \"9999999999999999999999928\" is not a whole number",
        "MaxPlies \"-1000\" is not a whole number",
        "two Variant tags",
        "not UTF-8 text",
        "7 records, 4 invalid",
    ] {
        assert!(r.stdout.contains(words), "{words}: {}", r.stdout);
    }
    // Not regular files: refused at once (exit 2), nothing read.
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for special in ["/dev/zero".to_string(), fifo.display().to_string()] {
        let started = Instant::now();
        let r = run(
            &["--replay".to_string(), special.clone()],
            &token,
            Duration::from_secs(20),
        );
        assert_eq!(r.status.code(), Some(2), "{special}: {}", r.stdout);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
        assert!(started.elapsed() < Duration::from_secs(5), "{special}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_record_file_under_two_names_gets_each_record_once() {
    let (dir, token) = scratch("two-names");
    let pgn = dir.join("games.pgn");
    let other_name = dir.join(".").join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --max-plies 20 --pgnout {} --state {}",
            pgn.display(),
            other_name.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert_eq!(records(&pgn).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rust_log_debug_shows_every_engine_line_with_its_time_on_stderr_only() {
    let (dir, token) = scratch("rust-log");
    let a = args(&format!(
        "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --games 1 --max-plies 6 \
         --each depth=1"
    ));
    let r = run_with(&a, &token, LIMIT, &[("RUST_LOG", "koma::client=debug")]);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let timed = |what: &str| {
        r.stderr
            .lines()
            .any(|l| l.starts_with("[20") && l.contains(what))
    };
    for what in ["a(", "b(", " > go ", " < bestmove ", " > quit"] {
        assert!(timed(what), "no {what:?} in\n{}", r.stderr);
    }
    assert!(!r.stdout.contains("bestmove"), "{}", r.stdout);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_file_ending_in_nul_bytes_keeps_every_complete_record_on_resume() {
    let (dir, token) = scratch("nul-tail");
    let pgn = dir.join("games.pgn");
    let a = args(&format!(
        "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=2 \
         --games 2 --rounds 3 --random-plies 2 --max-plies 16 --pgnout {}",
        pgn.display()
    ));
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}", r.stdout);
    let full = std::fs::read_to_string(&pgn).unwrap();
    let spans: Vec<_> = koma::protocol::record::parse_records(&full)
        .into_iter()
        .map(|i| i.span)
        .collect();
    assert_eq!(spans.len(), 6);
    let four = &full[..spans[3].end];
    // What a crash or a full disk leaves: 4 whole records, then zeros.
    let mut bytes = four.as_bytes().to_vec();
    bytes.extend([0u8; 100]);
    std::fs::write(&pgn, &bytes).unwrap();
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("4 of 6 games already played"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("dropped 100 NUL bytes at the end"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with(four), "the 4 games are kept as they were");
    assert!(!text.contains('\0'));
    assert_eq!(records(&pgn).len(), 6);
    assert_replays(&pgn);
    // An incomplete last record before the zeros is dropped, and said so.
    // Cut 10 bytes before the end: in the last move or the result.
    let cut = spans[3].end - 10;
    let mut bytes = full.as_bytes()[..cut].to_vec();
    bytes.extend([0u8; 100]);
    std::fs::write(&pgn, &bytes).unwrap();
    let r = run(&a, &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("3 of 6 games already played"),
        "{}",
        r.stdout
    );
    let line = full[..spans[3].start].matches('\n').count() + 1;
    let words = format!("dropped an incomplete last record at line {line}");
    assert!(r.stderr.contains(&words), "{words}: {}", r.stderr);
    assert_eq!(records(&pgn).len(), 6);
    assert_replays(&pgn);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_with_200000_distinct_tags_replays_in_linear_time() {
    let (dir, token) = scratch("many-tags");
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --games 1 --max-plies 4 --pgnout {}",
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stdout);
    let text = std::fs::read_to_string(&pgn).unwrap();
    // 200,000 more tags (4.4 MB) after the first tag line: pairwise
    // checks took minutes of a core; one pass takes well under a second.
    let first_end = text.find('\n').unwrap() + 1;
    let mut big = text[..first_end].to_string();
    for k in 0..200_000 {
        big.push_str(&format!("[Extra{k} \"v\"]\n"));
    }
    big.push_str(&text[first_end..]);
    std::fs::write(&pgn, &big).unwrap();
    let started = Instant::now();
    let r = run(
        &["--replay".to_string(), pgn.display().to_string()],
        &token,
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("all valid"), "{}", r.stdout);
    eprintln!("--replay of 200,000 tags: {:?}", started.elapsed());
    // A tag given twice among them is still found.
    big.insert_str(first_end, "[Extra199999 \"w\"]\n");
    std::fs::write(&pgn, &big).unwrap();
    let r = run(
        &["--replay".to_string(), pgn.display().to_string()],
        &token,
        Duration::from_secs(60),
    );
    assert!(!r.status.success(), "{}", r.stdout);
    assert!(
        format!("{}{}", r.stdout, r.stderr).contains("two Extra199999 tags"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_time_below_a_millisecond_is_a_usage_error() {
    let (dir, token) = scratch("st-zero");
    for st in ["0", "0.0004"] {
        let r = run(
            &args(&format!(
                "--engine cmd={KOMA} name=a st={st} --engine cmd={KOMA} name=b depth=1 --games 1"
            )),
            &token,
            LIMIT,
        );
        assert_eq!(r.status.code(), Some(2), "st={st}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!(
                "engine 1: st={st}: less than the 1 ms go movetime"
            )),
            "{}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_openings_file_starting_with_a_byte_order_mark_is_read() {
    let (dir, token) = scratch("bom");
    let book = dir.join("book.txt");
    let line = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/suites/kaninariebi.txt"
    ))
    .unwrap()
    .lines()
    .find(|l| !l.starts_with('#') && !l.trim().is_empty())
    .unwrap()
    .to_string();
    std::fs::write(&book, format!("\u{feff}{line}\n")).unwrap();
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --openings file={} --games 2 --max-plies 30 --pgnout {}",
            book.display(),
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 2);
    assert_replays(&pgn);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_file_that_cannot_be_written_is_warned_about_once_and_in_the_summary() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: no /dev/full here");
        return;
    }
    let (dir, token) = scratch("log-full");
    let r = run(
        &args(
            "--engine cmd=KOMA name=a depth=1 --engine cmd=KOMA name=b depth=1 \
             --games 2 --max-plies 10 --log /dev/full"
                .replace("KOMA", KOMA)
                .as_str(),
        ),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr.matches("cannot write to the --log file").count(),
        1,
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains(
            "Log: /dev/full is incomplete: a write to it failed (No space left on device"
        ),
        "{}",
        r.stdout
    );
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_number_beyond_the_match_is_invalid_and_not_counted() {
    let (dir, token) = scratch("game-number");
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a depth=1 --engine cmd={KOMA} name=b depth=1 \
             --games 2 --max-plies 6 --pgnout {}",
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stdout);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Game \"2\"]").count(), 1);
    std::fs::write(&pgn, text.replace("[Game \"2\"]", "[Game \"30\"]")).unwrap();
    let path = pgn.display().to_string();
    let r = run(&["--replay".into(), path.clone()], &token, LIMIT);
    assert_eq!(r.status.code(), Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("game 30: game 30 of a match of 2 games"),
        "{}",
        r.stdout
    );
    let r = run(&["--report".into(), path], &token, LIMIT);
    assert!(
        r.stderr.contains("skipped, game 30 of a match of 2 games"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("Games: 1,"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
