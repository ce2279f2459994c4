use super::*;
use crate::core::OptionValue;
use std::path::PathBuf;
use std::time::Duration;

/// The command line as the binary parses it: over Koma's games.
fn parse<I, T>(args: I) -> Result<Mode, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    super::parse(args, &Variants::koma())
}

fn parse_ok(args: &str) -> MatchConfig {
    let argv = std::iter::once("koma-referee").chain(args.split_whitespace());
    match parse(argv) {
        Ok(Mode::Match(m)) => *m,
        other => panic!("{args}: {other:?}"),
    }
}

fn usage(args: &str) -> String {
    let argv = std::iter::once("koma-referee").chain(args.split_whitespace());
    match parse(argv) {
        Err(CliError::Usage(Usage(m))) => m,
        Err(CliError::Clap(e)) => e.to_string(),
        Err(CliError::File(e)) => format!("{:#}", anyhow::Error::new(e)),
        Ok(m) => panic!("{args} was accepted: {m:?}"),
    }
}

#[test]
fn spin_wait_is_microseconds_up_to_a_second_and_left_to_the_match_by_default() {
    let base = "--engine cmd=/bin/a --engine cmd=/bin/b --each depth=1 --variant hasami";
    assert_eq!(parse_ok(base).spin_wait, None);
    let m = parse_ok(&format!("{base} --spin-wait 0"));
    assert_eq!(m.spin_wait, Some(Duration::ZERO));
    let m = parse_ok(&format!("{base} --spin-wait 1000000"));
    assert_eq!(m.spin_wait, Some(Duration::from_secs(1)));
    assert!(usage(&format!("{base} --spin-wait 1000001")).contains("--spin-wait"));
    assert!(usage(&format!("{base} --spin-wait soon")).contains("--spin-wait"));
}

#[test]
fn engines_take_each_and_their_own_keys() {
    let m = parse_ok(
        "--engine cmd=/bin/a name=A depth=2 option.Hash=16 --engine cmd=/bin/b tc=10+0.1 \
         --each option.Hash=8 nodes=100 --rule HasamiWin=lead3 --variant hasami",
    );
    assert_eq!(m.engines.len(), 2);
    let a = &m.engines[0];
    assert_eq!(a.name, "A");
    assert_eq!(a.options, vec![("Hash".to_string(), "16".to_string())]);
    assert_eq!((a.limits.depth, a.limits.nodes), (Some(2), Some(100)));
    let b = &m.engines[1];
    assert_eq!(b.name, "b");
    assert_eq!(b.limits.to_string(), "10+0.1 nodes=100");
    assert_eq!(
        m.rules,
        vec![("HasamiWin", OptionValue::Combo("lead3".into()))]
    );
    assert_eq!((m.games, m.rounds, m.seed), (2, 1, 1));
}

#[test]
fn time_controls_parse_in_seconds() {
    let t = time_control("40/60+0.5").unwrap();
    assert_eq!(t.moves, Some(40));
    assert_eq!(t.base, Duration::from_secs(60));
    assert_eq!(t.inc, Duration::from_millis(500));
    assert_eq!(time_control("0.2").unwrap().inc, Duration::ZERO);
    for bad in [
        "", "x", "1+", "+1", "0/1", "-1", "0+0", "inf", "1e99", "0+1", "0.0009", "40/0+5",
    ] {
        assert!(time_control(bad).is_err(), "{bad}");
    }
}

#[test]
fn usage_errors_say_what_is_wrong() {
    let cases = [
        ("--engine cmd=a depth=1", "at least two --engine"),
        (
            "--engine cmd=a depth=1 --engine name=b depth=1",
            "cmd=PATH is missing",
        ),
        ("--engine cmd=a --engine cmd=b depth=1", "no limit"),
        (
            "--engine cmd=a depth=1 --engine cmd=a depth=1",
            "two engines are named a",
        ),
        ("--engine cmd=a depth=x --engine cmd=b depth=1", "depth=x"),
        (
            "--engine cmd=a foo=1 depth=1 --engine cmd=b depth=1",
            "unknown key foo",
        ),
        (
            "--engine cmd=a nonsense --engine cmd=b depth=1",
            "expected KEY=VALUE",
        ),
        ("--engine cmd=a tc=1+x --engine cmd=b depth=1", "tc=1+x"),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --variant chess",
            "unknown variant chess",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --rule Nope=1",
            "no rule option Nope",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --variant hasami --rule HasamiWin=six",
            "expected one of",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --sprt elo0=5 elo1=0",
            "elo0",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --sprt elo1=5",
            "needs elo0",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --engine cmd=c --sprt elo0=0 elo1=5",
            "exactly two",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --shard 3/2",
            "--shard 3/2",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --games 0",
            "--games must be",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings order=random",
            "needs file",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings file=/nonexistent/x",
            "cannot read",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings file=x suite=default",
            "not both",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=nope",
            "no shipped opening suite nope for kaninariebi with KaniBondAnyType=false",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=nope",
            "shipped: default (rules KaniBondAnyType=false",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default \
             --rule KaniBondAnyType=true",
            "no shipped opening suite default for kaninariebi with KaniBondAnyType=true",
        ),
        (
            "--each depth=1 --engine cmd=a --engine cmd=b --concurrency x",
            "invalid value",
        ),
        ("--bogus", "unexpected argument"),
    ];
    for (args, want) in cases {
        let got = usage(args);
        assert!(got.contains(want), "{args}: {got}");
    }
}

fn clap_error(args: &[&str]) -> String {
    match parse(std::iter::once("koma-referee").chain(args.iter().copied())) {
        Err(CliError::Clap(e)) => e.render().to_string(),
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn an_unknown_option_gets_the_real_usage_and_only_a_likely_suggestion() {
    for args in [
        &["--bogus"][..],
        &["--engine", "cmd=x", "depth=1", "--bogus"],
    ] {
        let e = clap_error(args);
        assert!(e.contains("unexpected argument '--bogus'"), "{e}");
        assert!(!e.contains("--rounds"), "{e}");
        assert!(
            e.contains("Usage: koma-referee --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]"),
            "{e}"
        );
        assert!(e.contains("koma-referee --replay FILE"), "{e}");
    }
    let e = clap_error(&["--round", "3"]);
    assert!(e.contains("a similar argument exists: '--rounds'"), "{e}");
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("round", "rounds"), 1);
}

#[test]
fn report_and_replay_modes_need_no_engine() {
    let argv = ["koma-referee", "--report", "a.pgn", "b.pgn"];
    assert!(matches!(parse(argv), Ok(Mode::Report(r)) if r.files.len() == 2));
    let argv = ["koma-referee", "--replay", "a.pgn"];
    assert!(matches!(parse(argv), Ok(Mode::Replay(_, None))));
}

#[test]
fn a_shipped_suite_is_found_by_name_for_the_match_rules() {
    let m = parse_ok(
        "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default order=random",
    );
    let o = m.openings.unwrap();
    assert_eq!(o.suite.as_deref(), Some("kaninariebi/default"));
    assert_eq!(o.source, "suite kaninariebi/default");
    assert!(o.random);
    assert!(o.lines.len() >= 1000, "{}", o.lines.len());
    let m = parse_ok(
        "--each depth=1 --engine cmd=a --engine cmd=b --openings suite=default \
         --rule KaniBondAnyType=false",
    );
    assert!(m.openings.is_some(), "the defaults, spelled out");
}

#[test]
fn a_report_may_follow_its_files_and_test_them() {
    let report = |line: &str| {
        let argv = std::iter::once("koma-referee").chain(line.split_whitespace());
        match parse(argv) {
            Ok(Mode::Report(r)) => r,
            other => panic!("{line}: {other:?}"),
        }
    };
    let r = report("--report a.pgn b.pgn");
    assert_eq!((r.follow, r.sprt.is_some()), (None, false));
    let r = report("--report a.pgn --follow --sprt elo0=0 elo1=5");
    assert_eq!(r.follow, Some(Duration::from_secs(5)));
    assert_eq!(r.sprt.map(|s| s.elo1), Some(5.0));
    let r = report("--follow=0.5 --report a.pgn b.pgn");
    assert_eq!(
        (r.follow, r.files.len()),
        (Some(Duration::from_millis(500)), 2)
    );
    for (bad, words) in [
        ("--report a.pgn --follow=0", "--follow=0"),
        ("--report a.pgn --follow=x", "--follow=x"),
        ("--report a.pgn --sprt elo0=5 elo1=0", "elo0"),
        (
            "--follow --each depth=1 --engine cmd=a --engine cmd=b",
            "--report",
        ),
    ] {
        let got = usage(bad);
        assert!(got.contains(words), "{bad}: {got}");
    }
}

fn recorded(line: &str) -> RecordedMatch {
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    recorded_match(&words).unwrap()
}

#[test]
fn a_recorded_command_line_gives_the_engines_the_total_and_what_differs() {
    let a = recorded(
        "koma-referee --each depth=2 --engine cmd=/x/koma name=a --engine cmd=/y/koma \
         --engine cmd=/z/c depth=3 --rounds 2 --shard auto --pgnout m.pgn",
    );
    assert_eq!(a.engines, ["a", "koma", "c"]);
    assert_eq!(a.total_games, 2 * 3 * 2);
    let b = recorded(
        "koma-referee --each depth=2 --engine cmd=/x/koma name=a --engine cmd=/y/koma \
         --engine cmd=/z/c depth=4 --rounds 2 --shard 1/9 --pgnout other.pgn --concurrency 4",
    );
    assert_eq!(differences(&a, &b), ["engine c depth: 3 vs 4"]);
    let c = recorded(
        "koma-referee --engine cmd=/x/koma name=a tc=1+0.1 --engine cmd=/w/d tc=1+0.1 --seed 5",
    );
    let d = differences(&a, &c);
    assert_eq!(d[0], "--rounds: 2 vs 1", "{d:?}");
    assert!(
        d.contains(&"engines: a, koma, c vs a, d".to_string()),
        "{d:?}"
    );
    assert!(
        d.contains(&"engine a tc: unset vs 1+0.1".to_string()),
        "{d:?}"
    );
    assert!(recorded_match(&["koma-referee".into(), "--bogus".into()]).is_none());
}

#[test]
fn a_recorded_command_line_too_large_to_count_saturates() {
    // A record's RefereeCommand is outside input: the product of its
    // counts overflowed (a panic in a debug build).
    let m = recorded(
        "koma-referee --each depth=1 --engine cmd=a --engine cmd=b --engine cmd=c \
         --rounds 4294967295 --games 4294967295",
    );
    assert_eq!(m.total_games, u64::MAX);
    let g = recorded(
        "koma-referee --each depth=1 --engine cmd=a --engine cmd=b --engine cmd=c \
         --tournament gauntlet --seeds 1 --rounds 3 --games 1",
    );
    assert_eq!(g.total_games, 6);
}

#[test]
fn the_state_file_defaults_to_the_record_file() {
    let m = parse_ok("--each depth=1 --engine cmd=a --engine cmd=b --pgnout file=x.pgn");
    assert_eq!(m.pgnout, Some(PathBuf::from("x.pgn")));
    assert_eq!(m.state, Some(PathBuf::from("x.pgn")));
    let m = parse_ok("--each depth=1 --engine cmd=a --engine cmd=b");
    assert_eq!(m.state, None);
}

#[test]
fn strict_also_refuses_pgnout_and_log_values_that_change_nothing() {
    let base = "--engine cmd=/bin/sh name=a depth=1 --engine cmd=/bin/sh name=b depth=1";
    for extra in [
        "--pgnout file=g.pgn hashfull=true",
        "--pgnout g.pgn min",
        "--pgnout file=g.pgn match_line=x",
        "--log file=l.txt level=info",
    ] {
        // Without --strict: a warning, and the match goes on.
        parse_ok(&format!("{base} {extra}"));
        let e = usage(&format!("{base} {extra} --strict"));
        assert!(e.contains("--strict: warning:"), "{extra}: {e}");
        assert!(e.contains("changes nothing"), "{extra}: {e}");
    }
}
