//! `koma openings` as a user runs it (bad arguments exit 2, a suite on
//! standard output that `--check` accepts and a tampered one it refuses),
//! and the referee playing a shipped suite by name: its openings in order,
//! the suite named in the summary, the records and `--report`.

mod referee;
use koma::protocol::record::tag_number;
use koma::record::suite;
use referee::*;
use std::process::Command;
use std::time::Duration;

fn koma(args: &[&str]) -> std::process::Output {
    Command::new(KOMA).args(args).output().expect("koma runs")
}

#[test]
fn bad_generator_arguments_exit_2_with_a_message() {
    let cases: [(&[&str], &str); 10] = [
        (&["--plies", "5-3"], "--plies 5-3"),
        (&["--plies", "x"], "expected A-B or N"),
        (&["--window", "5"], "expected LO,HI"),
        (&["--window=5,-5"], "lowest score"),
        (&["--variant", "chess"], "unknown variant chess"),
        (&["--rule", "Nope=1"], "no rule option Nope"),
        (&["--depth", "0"], "--depth must be at least 1"),
        (&["--playout", "best"], "invalid value"),
        (&["--check", "/nonexistent/suite.txt"], "cannot read"),
        (&["--commit", "main; rm"], "expected a git commit"),
    ];
    for (args, want) in cases {
        let mut all = vec!["openings"];
        all.extend_from_slice(args);
        let out = koma(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_generated_suite_passes_its_check_and_a_tampered_one_fails() {
    let (dir, _) = scratch("openings-gen");
    let out = koma(&[
        "openings",
        "--variant",
        "hasami",
        "--positions",
        "4",
        "--depth",
        "2",
        "--threads",
        "2",
        "--commit",
        "697E2BB",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let s = suite::parse(&text).unwrap();
    assert_eq!(s.lines.len(), 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4/4 kept"), "progress on stderr: {err}");
    assert!(
        s.header
            .field("command")
            .unwrap()
            .starts_with("koma openings --variant hasami --name default --positions 4")
    );
    let build = s.header.field("build").unwrap();
    assert!(
        build.contains(", bench ") && build.ends_with(", commit 697e2bb"),
        "the build and the commit it names: {build}"
    );
    assert!(
        !s.header.field("command").unwrap().contains("--commit"),
        "the commit names the build, it is no setting of the suite"
    );
    let file = dir.join("s.txt");
    std::fs::write(&file, &text).unwrap();
    let f = file.to_str().unwrap();
    let out = koma(&["openings", "--check", f, "--depth", "2"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("all legal, unfinished and distinct"),
        "{said}"
    );
    assert!(said.contains("scores at depth 2: 4 positions"), "{said}");
    // The first opening twice.
    let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let doubled = text.replace("# positions: 4", "# positions: 5") + first + "\n";
    std::fs::write(&file, doubled).unwrap();
    let out = koma(&["openings", "--check", f]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("the same position as line"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_referee_plays_a_shipped_suite_by_name_and_says_so() {
    let (dir, token) = scratch("openings-suite");
    let pgn = dir.join("games.pgn");
    let s = suite::shipped(
        koma::games::GameId::from_name("kaninariebi").unwrap(),
        "default",
        &[("KaniBondAnyType", koma::core::OptionValue::Check(false))],
    )
    .unwrap();
    let n = s.lines.len();
    let r = run(
        &args(&format!(
            "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each depth=1 \
             --openings suite=default --games 2 --rounds 2 --max-plies 60 --pgnout {}",
            pgn.display()
        )),
        &token,
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let words = format!("suite kaninariebi/default ({n} openings)");
    assert!(r.stdout.contains(&words), "{}", r.stdout);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 4);
    for rec in &recs {
        assert_eq!(rec.tag("OpeningSuite"), Some("kaninariebi/default"));
        assert_eq!(tag_number(rec, "OpeningSuiteSize"), Some(n as u64));
        // Pair k plays line k of the suite, in file order.
        let pair = tag_number(rec, "Pair").unwrap() as usize;
        let line = &s.lines[pair - 1].1.moves;
        assert_eq!(tag_number(rec, "OpeningPlies"), Some(line.len() as u64));
        let book: Vec<_> = rec.moves[..line.len()].iter().map(|m| m.mv).collect();
        assert_eq!(&book, line);
    }
    assert_replays(&pgn);
    let report = Command::new(REFEREE)
        .arg("--report")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&report.stdout).contains(&words));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--window=LO,HI` of a suite's command.
fn window_of(command: &str) -> (i32, i32) {
    let w = command
        .split_whitespace()
        .find_map(|w| w.strip_prefix("--window="))
        .unwrap_or_else(|| panic!("no --window in {command}"));
    let (lo, hi) = w.split_once(',').unwrap();
    (lo.parse().unwrap(), hi.parse().unwrap())
}

/// The number after `word ` in a header field (`lowest -30`).
fn number_after(field: &str, word: &str) -> i32 {
    let rest = &field[field.find(word).unwrap() + word.len()..];
    let n: String = rest
        .trim_start()
        .chars()
        .take_while(|c| *c == '-' || *c == '+' || c.is_ascii_digit())
        .collect();
    n.parse().unwrap_or_else(|_| panic!("{field}"))
}

#[test]
fn every_game_ships_a_default_suite_of_good_openings_with_its_command() {
    use koma::games::GameId;
    use koma::openings::check::check_suite;
    for &g in GameId::ALL {
        let rules = koma::core::with_defaults(g.rule_specs(), &[]);
        let s = suite::shipped(g, "default", &rules)
            .unwrap_or_else(|e| panic!("{g}: no default suite: {e}"));
        let path = format!("suites/{g}.txt");
        let file = std::fs::read_to_string(path.as_str()).unwrap();
        assert_eq!(
            suite::parse(&file).as_ref(),
            Ok(&s),
            "{path} is the embedded suite"
        );
        assert!(s.lines.len() >= 2000, "{path}: {} openings", s.lines.len());
        let h = &s.header;
        let command = h.field("command").unwrap();
        assert!(
            command.starts_with(&format!("koma openings --variant {g} --name default "))
                && command.ends_with(&format!(" --out {path}")),
            "{path}: its command makes it again: {command}"
        );
        // The build that makes it again: its bench signature and commit.
        let build = h.field("build").unwrap();
        let commit = build.split(", commit ").nth(1).unwrap_or("");
        assert!(
            build.contains(", bench ")
                && commit.len() >= 7
                && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{path}: {build}"
        );
        // Every rule option is spelled out, at its default.
        assert_eq!(h.rules.len(), g.rule_specs().len(), "{path}: {:?}", h.rules);
        assert!(h.fits(&rules));
        // The kept scores lie inside the command's window.
        let (lo, hi) = window_of(command);
        let scores = h.field("scores").unwrap();
        assert!(number_after(scores, "lowest") >= lo, "{path}: {scores}");
        assert!(number_after(scores, "highest") <= hi, "{path}: {scores}");
        let made = h.field("made").unwrap();
        assert!(
            made.starts_with(&format!("{} kept", s.lines.len())),
            "{made}"
        );
        // Legal, unfinished, no position twice, no mirror images.
        let checked = check_suite(&s, None, 2).unwrap();
        assert!(
            checked.problems.is_empty(),
            "{path}: {:?}",
            checked.problems
        );
    }
}
