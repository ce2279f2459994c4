//! The referee as fastchess and cutechess-cli users drive it: their command
//! lines run unchanged (single-dash options, their engine keys, openings,
//! adjudication, concurrency); adjudication by the engines' own scores;
//! `--compliance`; gauntlets; CPU affinity; JSON summaries and `-epdout`.

mod referee;
use koma::client::reason::Reason;
use koma::protocol::record::parse_openings;
use referee::*;
use std::path::Path;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(300);

fn mock(mode: &str) -> String {
    format!("cmd={MOCK} args=\"{KOMA} {mode}\"")
}

/// Splits like `args`, but keeps `args="A B"` in one word.
fn words(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for w in s.split_whitespace() {
        if open {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(w.trim_end_matches('"'));
            open = !w.ends_with('"');
        } else if let Some(rest) = w.strip_prefix("args=\"") {
            open = !rest.ends_with('"');
            out.push(format!("args={}", rest.trim_end_matches('"')));
        } else {
            out.push(w.to_string());
        }
    }
    out
}

fn terminations(pgn: &Path) -> Vec<Reason> {
    records(pgn)
        .iter()
        .map(|r| Reason::from_message(r.tag("Termination").unwrap()).unwrap())
        .collect()
}

#[test]
fn a_fastchess_sprt_command_line_with_openings_adjudication_and_concurrency_runs_unchanged() {
    let (dir, token) = scratch("fc-sprt");
    let book = dir.join("book.epd");
    let start = "C3c/C3c/C3c/C3c/C3c w 1";
    std::fs::write(
        &book,
        format!("{start}\n{start} moves a1b1 e1c1\n{start} moves a1b1 e1c1 a2b2\n"),
    )
    .unwrap();
    let pgn = dir.join("sprt.pgn");
    let log = dir.join("fc.log");
    // As fastchess's manual writes it, save the engines and the book.
    let line = format!(
        "-engine cmd={KOMA} name=new option.Hash=16 \
         -engine cmd={KOMA} name=base option.Hash=8 \
         -openings file={} format=epd order=random plies=2 start=2 \
         -each tc=10+0.1 nodes=3000 proto=uci \
         -resign movecount=3 score=600 -draw movenumber=8 movecount=4 score=20 \
         -maxmoves 40 \
         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized \
         -rounds 3 -repeat -concurrency 2 -recover -srand 7 -ratinginterval 2 \
         -pgnout notation=uci file={} -log file={} level=warn engine=true",
        book.display(),
        pgn.display(),
        log.display()
    );
    let r = run(&args(&line), &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Results of new vs base"), "{}", r.stdout);
    assert!(r.stdout.contains("LLR: "), "{}", r.stdout);
    assert!(
        r.stderr.contains("--log level=warn changes nothing"),
        "{}",
        r.stderr
    );
    let recs = records(&pgn);
    assert_eq!(recs.len(), 6);
    for rec in &recs {
        // plies=2: at most two book moves; the max moves are the engines'.
        let book_plies: usize = rec.tag("OpeningPlies").unwrap().parse().unwrap();
        assert!(book_plies <= 2, "{book_plies}");
        let max: usize = rec.tag("MaxPlies").unwrap().parse().unwrap();
        assert_eq!(max, book_plies + 80);
        assert_eq!(rec.tag("TimeControl"), Some("10+0.1 nodes=3000"));
    }
    assert!(std::fs::read_to_string(&log).unwrap().contains("> go "));
    assert_replays(&pgn);
    assert_no_leftovers(&token);
}

#[test]
fn a_cutechess_cli_command_line_runs_unchanged_and_writes_the_last_positions() {
    let (dir, token) = scratch("cc-line");
    let pgn = dir.join("cc.pgn");
    let epd = dir.join("cc.epd");
    let line = format!(
        "-engine name=a cmd={KOMA} proto=uci restart=on -engine name=b cmd={KOMA} proto=uci \
         -each tc=40/1:00+0.1 nodes=500 timemargin=200 -games 2 -rounds 2 -repeat 2 \
         -concurrency 2 -maxmoves 4 -srand 3 -recover -event CC \
         -draw movenumber=30 movecount=3 score=5 -resign movecount=3 score=900 \
         -pgnout {} min -epdout {}",
        pgn.display(),
        epd.display()
    );
    let r = run(&args(&line), &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 4);
    for rec in &recs {
        assert_eq!(rec.tag("Event"), Some("CC"));
        assert_eq!(rec.tag("TimeControl"), Some("40/60+0.1 nodes=500"));
    }
    // -maxmoves 4: four full moves of the engines, then a draw.
    for reason in terminations(&pgn) {
        assert!(
            matches!(reason, Reason::PlyLimit | Reason::Rules(_)),
            "{reason:?}"
        );
    }
    // One last position a line, each a book line for the next match.
    let text = std::fs::read_to_string(&epd).unwrap();
    let lines = parse_openings(&text).unwrap();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines
            .iter()
            .all(|(_, l)| l.start.is_some() && l.moves.is_empty())
    );
    let again = format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 -maxmoves 1 \
         -openings file={} format=epd",
        epd.display()
    );
    let r = run(&args(&again), &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    // The records as a book: each game's first three plies.
    let from_records = format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 -maxmoves 1 \
         -openings file={} format=pgn plies=3 -pgnout {}",
        pgn.display(),
        dir.join("again.pgn").display()
    );
    let r = run(&args(&from_records), &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    for rec in records(&dir.join("again.pgn")) {
        assert_eq!(rec.tag("OpeningPlies"), Some("3"));
    }
    assert_replays(&pgn);
    assert_no_leftovers(&token);
}

#[test]
fn what_cannot_be_honoured_is_refused_by_name_and_an_unknown_option_gets_a_hint() {
    let (_dir, token) = scratch("fc-refused");
    let base = format!("-engine cmd={KOMA} -engine cmd={KOMA} name=k2 -each depth=1");
    for (extra, want) in [
        (
            "-tbignore50",
            "-tbignore50 is not supported: Koma's games have no fifty-move rule",
        ),
        ("-noswap", "-noswap is not supported"),
        // fastchess's -strict: a warning is an error.
        (
            "-testEnv -strict",
            "--strict: warning: -testEnv: nothing to do",
        ),
        ("-each proto=xboard", "proto=xboard is not supported"),
        ("-openings file=x.pgn format=fen", "expected epd"),
        ("-variant standard", "Koma's games are not chess"),
        ("-sprt elo0=0 elo1=5 model=bayesian", "model=bayesian"),
        (
            "-output format=xml",
            "expected fastchess, cutechess or json",
        ),
        (
            "-openings file=x.epd policy=never",
            "expected default, encounter or round",
        ),
        (
            "-concurency 2",
            "unknown option -concurency (did you mean -concurrency?)",
        ),
        (
            "-rounds 2 -ratinginterva 1",
            "did you mean -ratinginterval?",
        ),
    ] {
        let r = run(&args(&format!("{base} {extra}")), &token, LIMIT);
        assert_eq!(r.status.code(), Some(2), "{extra}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{extra}: {}", r.stderr);
    }
    let r = run(&args("-help"), &token, LIMIT);
    assert!(r.status.success());
    assert!(r.stdout.contains("-engine cmd="), "{}", r.stdout);
}

#[test]
fn scores_adjudicate_resignations_and_draws_and_the_records_say_so() {
    let (dir, token) = scratch("adjudicate");
    let play = |name: &str, a: &str, b: &str, extra: &str| {
        let pgn = dir.join(format!("{name}.pgn"));
        let line = format!(
            "--engine {} name=a --engine {} name=b --each depth=1 --games 2 --max-plies 12 \
             --pgnout {} {extra}",
            mock(a),
            mock(b),
            pgn.display()
        );
        let r = run(&words(&line), &token, LIMIT);
        assert!(r.status.success(), "{name}: {}\n{}", r.stdout, r.stderr);
        assert_replays(&pgn);
        (r.stdout, records(&pgn))
    };
    // a reports -1000 cp with every move: it resigns on its second.
    let (out, recs) = play(
        "resign",
        "resigns",
        "normal",
        "--resign movecount=2 score=500",
    );
    assert!(
        out.contains("b wins by adjudicated resignation}\nGame ")
            && out.contains(" detail: a scored -500 cp or worse for 2 moves\n"),
        "{out}"
    );
    for rec in &recs {
        assert_eq!(rec.tag("Termination"), Some("adjudicated resignation"));
        let a_first = rec.tag("First") == Some("a");
        assert_eq!(rec.result, if a_first { "0-1" } else { "1-0" });
        // a's second move ends it: ply 3 when a moves first, else ply 4.
        assert_eq!(rec.moves.len(), if a_first { 3 } else { 4 });
    }
    // A mate against it is beyond any score.
    let (_, recs) = play(
        "mated",
        "mated",
        "normal",
        "-resign movecount=1 score=1000000",
    );
    assert!(
        recs.iter()
            .all(|r| r.tag("Termination") == Some("adjudicated resignation"))
    );
    // Two-sided: b (cp 0) does not agree that a is lost; the ply limit ends it.
    let (_, recs) = play(
        "twosided",
        "resigns",
        "normal",
        "-resign movecount=2 score=500 twosided=true",
    );
    assert!(
        recs.iter()
            .all(|r| r.tag("Termination") == Some("ply limit"))
    );
    // Both report cp 0: a draw after two moves each, from move 2 on.
    let (out, recs) = play(
        "draw",
        "normal",
        "normal",
        "-draw movenumber=2 movecount=2 score=0",
    );
    assert!(out.contains("draw by score adjudication"), "{out}");
    for rec in &recs {
        assert_eq!(rec.tag("Termination"), Some("score adjudication"));
        assert_eq!(rec.result, "1/2-1/2");
        assert_eq!(rec.moves.len(), 4);
    }
    // --replay replays the comments' scores through the recorded rule: a
    // score changed by hand no longer calls for the draw.
    let pgn = dir.join("draw.pgn");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[DrawAdjudication \"movenumber=2 movecount=2 score=0\"]"));
    let tampered = dir.join("tampered.pgn");
    std::fs::write(&tampered, text.replacen("{+0.00/1 ", "{+0.50/1 ", 1)).unwrap();
    let r = run(
        &args(&format!("--replay {}", tampered.display())),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(1), "{}", r.stdout);
    assert!(r.stdout.contains("do not call for it"), "{}", r.stdout);
    // The report counts them among its endings, in JSON too.
    let r = run(
        &args(&format!("--report {} --json", pgn.display())),
        &token,
        LIMIT,
    );
    assert!(r.status.success(), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["encounters"][0]["endings"]["score adjudication"], 2);
    // From the move comments: the mocks' depth 1, their time; no nodes.
    let a = &v["engines"][0];
    assert_eq!(
        (a["name"].as_str(), a["moves"].as_u64()),
        (Some("a"), Some(4)),
        "{v}"
    );
    assert_eq!(a["depth_per_move"], 1.0, "{v}");
    assert!(
        a["ms_per_move"].is_number() && a["nodes_per_move"].is_null(),
        "{v}"
    );
    assert_eq!(v["games"], 2);
    assert_no_leftovers(&token);
}

#[test]
fn compliance_passes_koma_and_fails_a_broken_engine_on_the_right_lines() {
    let (_dir, token) = scratch("compliance");
    // A loaded machine gets time: movetime 200 may be answered within the
    // heartbeat on top.
    let r = run(
        &args(&format!("--heartbeat 3000 --compliance {KOMA}")),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("FAIL"), "{}", r.stdout);
    for v in ["kaninariebi", "hasami", "nana", "negaeri"] {
        assert!(
            r.stdout.contains(&format!("pass {v}: go infinite")),
            "{}",
            r.stdout
        );
    }
    assert!(
        r.stdout.contains("pass quit ends the process"),
        "{}",
        r.stdout
    );
    let r = run(
        &args(&format!(
            "--variant kaninariebi --compliance {MOCK} {KOMA} broken"
        )),
        &token,
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.stdout, r.stderr);
    for failing in [
        "FAIL kaninariebi: go infinite, isready during the search, stop: bestmove",
        "FAIL info lines parse: ",
        "FAIL quit ends the process: still running",
    ] {
        assert!(r.stdout.contains(failing), "{failing}: {}", r.stdout);
    }
    for passing in [
        "pass uci: id name, uciok: id name mock-broken",
        "pass kaninariebi: position startpos, go depth 1: bestmove",
        // It reports no errors: the check does not apply.
        "pass kaninariebi: the position kept after a rejected position line: not applicable",
    ] {
        assert!(r.stdout.contains(passing), "{passing}: {}", r.stdout);
    }
    assert!(
        !r.stdout.contains("hasami:"),
        "only --variant's: {}",
        r.stdout
    );
    assert_no_leftovers(&token);
}

#[test]
fn a_gauntlet_plays_only_the_seeds_encounters_and_tables_each_seed() {
    let (dir, token) = scratch("gauntlet");
    let pgn = dir.join("g.pgn");
    let line = format!(
        "-engine cmd={KOMA} name=s -engine cmd={KOMA} name=x -engine cmd={KOMA} name=y \
         -engine cmd={KOMA} name=z -each depth=1 -maxmoves 3 -tournament gauntlet -seeds 1 \
         -rounds 1 -games 2 -pgnout {}",
        pgn.display()
    );
    let r = run(&args(&line), &token, LIMIT);
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 6);
    assert!(
        recs.iter()
            .all(|r| r.tag("First") == Some("s") || r.tag("Second") == Some("s"))
    );
    assert!(r.stdout.contains("Gauntlet of s (seed 1):"), "{}", r.stdout);
    for other in ["x", "y", "z"] {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{other} ")) && l.contains(" 2 ")),
            "{other}: {}",
            r.stdout
        );
    }
    // --report knows the match is complete, and tables the seed too.
    let r = run(&args(&format!("--report {}", pgn.display())), &token, LIMIT);
    assert!(r.stdout.contains("Gauntlet of s (seed 1):"), "{}", r.stdout);
    let r = run(
        &args(&format!("--report {} --json", pgn.display())),
        &token,
        LIMIT,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["total_games"], 6, "{v}");
    let r = run(&args(&format!("{line} -seeds 4")), &token, LIMIT);
    assert_eq!(r.status.code(), Some(2));
    assert!(r.stderr.contains("needs 1 to 3 seeds"), "{}", r.stderr);
}

#[test]
fn use_affinity_pins_each_game_s_engines_to_their_own_cpu() {
    let cpus = koma::referee::matches::affinity::this_thread().unwrap();
    if cpus.len() < 2 {
        eprintln!(
            "skipped: this machine lets the test run on {} CPU",
            cpus.len()
        );
        return;
    }
    let (dir, token) = scratch("affinity");
    let seen = |extra: &str| -> Vec<String> {
        let log = dir.join("a.log");
        let _ = std::fs::remove_file(&log);
        let line = format!(
            "--engine {} name=a --engine {} name=b --each depth=1 --games 2 --rounds 2 \
             --max-plies 2 --concurrency 2 --log {} {extra}",
            mock("affinity"),
            mock("affinity"),
            log.display()
        );
        let r = run(&words(&line), &token, LIMIT);
        assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter_map(|l| l.split("< info string cpus ").nth(1).map(str::to_string))
            .collect()
    };
    let all = seen("");
    assert!(!all.is_empty());
    assert!(
        all.iter().all(|l| l.contains(',') || l.contains('-')),
        "{all:?}"
    );
    let pinned = seen("-use-affinity");
    let allowed: Vec<String> = cpus[..2].iter().map(|c| c.to_string()).collect();
    assert!(!pinned.is_empty());
    assert!(
        pinned.iter().all(|l| allowed.contains(l)),
        "{pinned:?} not within {allowed:?}"
    );
    let one = cpus[1].to_string();
    let pinned = seen(&format!("-use-affinity {one}"));
    assert!(pinned.iter().all(|l| *l == one), "{pinned:?}");
    assert_no_leftovers(&token);
}

#[test]
fn a_report_with_draw_and_resign_rules_says_what_they_would_have_done() {
    let (dir, token) = scratch("what-if");
    let play = |name: &str, a: &str, extra: &str| {
        let pgn = dir.join(format!("{name}.pgn"));
        let line = format!(
            "--engine {} name=a --engine {} name=b --each depth=1 --games 2 --max-plies 12 \
             --pgnout {} {extra}",
            mock(a),
            mock("normal"),
            pgn.display()
        );
        let r = run(&words(&line), &token, LIMIT);
        assert!(r.status.success(), "{name}: {}\n{}", r.stdout, r.stderr);
        pgn
    };
    let report = |pgn: &Path, rules: &str| {
        let r = run(
            &words(&format!("--report {} {rules}", pgn.display())),
            &token,
            LIMIT,
        );
        assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
        r.stdout
    };
    // a reports -1000 cp with every move but the games run to the ply
    // limit (draws): a resign rule would have given both to b, on a's
    // second move (ply 3 or 4), against the result played.
    let pgn = play("resigns", "resigns", "");
    let out = report(&pgn, "-resign movecount=2 score=500");
    assert!(
        out.contains(
            "--resign movecount=2 score=500: calls 2 games, 2 of them (100.0 %) against the \
             result played; 3.5 plies a game instead of 12.0"
        ),
        "{out}"
    );
    assert!(
        out.contains("Ptnml(0-2) [0, 0, 1, 0, 0] -> [1, 0, 0, 0, 0]"),
        "{out}"
    );
    // Both report 0 cp: a draw rule calls the draws the games became.
    let pgn = play("draws", "normal", "");
    let out = report(
        &pgn,
        "-draw movenumber=2 movecount=2 score=0 -resign movecount=2 score=500",
    );
    assert!(
        out.contains(
            "--draw movenumber=2 movecount=2 score=0: calls 2 games, 0 of them (0.0 %) against \
             the result played; 4.0 plies a game instead of 12.0"
        ),
        "{out}"
    );
    assert!(
        out.contains("--resign movecount=2 score=500: calls 0 games"),
        "{out}"
    );
    assert!(out.contains("both: calls 2 games, 0 of them"), "{out}");
    let r = run(
        &words(&format!(
            "--report {} --json -draw movenumber=2 movecount=2 score=0",
            pgn.display()
        )),
        &token,
        LIMIT,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let c = &v["adjudication_check"]["rules"][0];
    assert_eq!(
        (c["called"].as_u64(), c["overturned"].as_u64()),
        (Some(2), Some(0)),
        "{v}"
    );
    assert_eq!(c["plies_adjudicated"], 4.0, "{v}");
    // Games adjudicated when played are left out: their real end is unknown.
    let pgn = play(
        "adjudicated",
        "normal",
        "-draw movenumber=2 movecount=2 score=0",
    );
    let out = report(&pgn, "-draw movenumber=2 movecount=2 score=0");
    assert!(
        out.contains("0 games played without score adjudication (2 adjudicated games left out)"),
        "{out}"
    );
    assert_no_leftovers(&token);
}
