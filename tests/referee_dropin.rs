//! The referee as a drop-in for fastchess and cutechess-cli: real command
//! lines (both man pages' examples, and wrapper scripts from public code),
//! each run on a short match with only the engines, the book, the game and
//! the counts changed, checked for the number of games, the colours and the
//! records; the regular expressions of real parsers read its output; the
//! records' seven-tag roster reads in pgn-extract; Ctrl-C prints the results
//! and the command that resumes.

mod referee;
use koma::protocol::record::Record;
use referee::*;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(300);

/// A Kani Nari Ebi book in fastchess's EPD shape, one line with EPD
/// operations after `;`.
fn book(dir: &Path) -> PathBuf {
    let start = "C3c/C3c/C3c/C3c/C3c w 1";
    let p = dir.join("book.epd");
    std::fs::write(
        &p,
        format!(
            "{start} moves a1b1 e1c1\n{start} moves a1b1 e1c1 a2b2 ; id \"k3\"; c0 \"three plies\"\n\
             {start} moves a2b2\n{start} moves a1b1\n"
        ),
    )
    .unwrap();
    p
}

/// Links to the Koma engine under the names a script gives its engines.
fn engine_named(dir: &Path, name: &str) -> String {
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    std::os::unix::fs::symlink(KOMA, &p).unwrap();
    p.display().to_string()
}

/// The referee installed under another program name.
fn program(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    std::os::unix::fs::symlink(REFEREE, &p).unwrap();
    p
}

/// What a line must give: the games, who moves first in each (by engine
/// name, in game order) and which games share an opening as a pair.
struct Expect<'a> {
    games: usize,
    firsts: &'a [&'a str],
    pairs: &'a [Option<u64>],
}

fn check_records(pgn: &Path, e: &Expect) -> Vec<Record> {
    let mut recs = records(pgn);
    recs.sort_by_key(|r| r.tag("Game").unwrap().parse::<u64>().unwrap());
    assert_eq!(recs.len(), e.games, "{}", pgn.display());
    if !e.firsts.is_empty() {
        let firsts: Vec<&str> = recs.iter().map(|r| r.tag("White").unwrap()).collect();
        assert_eq!(firsts, e.firsts);
    }
    if !e.pairs.is_empty() {
        let pairs: Vec<Option<u64>> = recs
            .iter()
            .map(|r| r.tag("Pair").map(|p| p.parse().unwrap()))
            .collect();
        assert_eq!(pairs, e.pairs);
    }
    for r in &recs {
        // The seven-tag roster, first after the Match tag, in PGN's order.
        let roster: Vec<&str> = r
            .tags
            .iter()
            .skip(1)
            .take(7)
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(
            roster,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        assert_eq!(r.tag("White"), r.tag("First"));
        assert_eq!(r.tag("Black"), r.tag("Second"));
    }
    assert_replays(pgn);
    recs
}

fn run_line(prog: Option<&Path>, words: Vec<String>, token: &str) -> Run {
    let program = prog.map_or(PathBuf::from(REFEREE), Path::to_path_buf);
    let r = run_program(&program, &words, token, LIMIT, &[]);
    assert!(r.status.success(), "{words:?}\n{}\n{}", r.stdout, r.stderr);
    r
}

fn w(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// fastchess's man page (man.md, EXAMPLES, first): "a match between two
/// engines using random openings from book.epd":
/// `fastchess -engine cmd=Engine1.exe name=Engine1 -engine cmd=Engine2.exe
/// name=Engine2 -openings file=book.epd format=epd order=random -each
/// tc=60+0.6 option.Hash=64 -rounds 200 -repeat -concurrency 4`.
/// Changed: the engines, the book, tc=60+0.6 to depth=1, -rounds 200 to 3,
/// -concurrency 4 to 2. fastchess: 3 rounds of 2 games, colours swapped.
#[test]
fn fastchess_man_page_first_example() {
    let (dir, token) = scratch("dropin-fc-man1");
    let pgn = dir.join("m1.pgn");
    // The man page's line writes no records; -pgnout file= is added to
    // check them.
    let line = format!(
        "-engine cmd={KOMA} name=Engine1 -engine cmd={KOMA} name=Engine2 \
         -openings file={} format=epd order=random -each depth=1 option.Hash=64 \
         -rounds 3 -repeat -concurrency 2 -pgnout file={}",
        book(&dir).display(),
        pgn.display()
    );
    let r = run_line(None, w(&line), &token);
    assert!(
        r.stdout.contains("Schedule (fastchess counting"),
        "{}",
        r.stdout
    );
    check_records(
        &pgn,
        &Expect {
            games: 6,
            firsts: &[
                "Engine1", "Engine2", "Engine1", "Engine2", "Engine1", "Engine2",
            ],
            pairs: &[Some(1), Some(1), Some(2), Some(2), Some(3), Some(3)],
        },
    );
    assert_no_leftovers(&token);
}

/// fastchess's man page, second example (SPRT, nodes, Fishtest
/// adjudication, SAN records with nodes): `fastchess -engine cmd=Engine1.exe
/// name=Engine1 option.Threads=1 nodes=2000000 -engine cmd=Engine2.exe
/// name=Engine2 option.Threads=2 nodes=1000000 -openings
/// file=UHO_Lichess_4852_v1.epd format=epd order=random -each tc=300+5
/// -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20
/// -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 -rounds 100000 -concurrency 3
/// -pgnout notation=san nodes=true file=./games/sprt.pgn`. Changed: the
/// engines, the book, the nodes to 300 and 200, -rounds 100000 to 2,
/// -concurrency 3 to 2.
#[test]
fn fastchess_man_page_sprt_example_writes_nodes_into_the_comments() {
    let (dir, token) = scratch("dropin-fc-man2");
    let pgn = dir.join("sprt.pgn");
    let line = format!(
        "-engine cmd={KOMA} name=Engine1 option.Threads=1 nodes=300 \
         -engine cmd={KOMA} name=Engine2 option.Threads=2 nodes=200 \
         -openings file={} format=epd order=random -each tc=300+5 \
         -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
         -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 -rounds 2 -concurrency 2 \
         -pgnout notation=san nodes=true file={}",
        book(&dir).display(),
        pgn.display()
    );
    let r = run_line(None, w(&line), &token);
    assert!(
        r.stderr.contains("notation=san: these games have no SAN"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("Finished match\n"), "{}", r.stdout);
    let recs = check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["Engine1", "Engine2", "Engine1", "Engine2"],
            pairs: &[Some(1), Some(1), Some(2), Some(2)],
        },
    );
    // fastchess's comment: `score/depth time, n=NODES`.
    let with_nodes = Regex::new(r"^[+-][0-9.M]+/[0-9]+ [0-9.]+s, n=[0-9]+$").unwrap();
    let played: Vec<&str> = recs
        .iter()
        .flat_map(|r| r.moves.iter())
        .filter_map(|m| m.comment.as_deref())
        .filter(|c| *c != "book")
        .collect();
    assert!(!played.is_empty());
    for c in played {
        assert!(with_nodes.is_match(c), "{c}");
    }
    assert_no_leftovers(&token);
}

/// cutechess-cli's man page (cutechess-cli.6, EXAMPLES, first): "Play ten
/// games between two Sloppy engines": `cutechess-cli -engine cmd=sloppy
/// -engine cmd=sloppy -each proto=xboard tc=40/60 -rounds 10`. Changed: the
/// engines (two links to Koma, sloppy and sloppy2, as Koma wants two names),
/// proto=xboard to uci (the engines' protocol), tc=40/60 to depth=1, -rounds
/// 10 to 5. cutechess-cli: 5 games, colours alternating, no pairs.
#[test]
fn cutechess_man_page_ten_games_are_ten_games() {
    let (dir, token) = scratch("dropin-cc-man1");
    let prog = program(&dir, "cutechess-cli");
    let (a, b) = (engine_named(&dir, "sloppy"), engine_named(&dir, "sloppy2"));
    let pgn = dir.join("cc1.pgn");
    let line = format!(
        "-engine cmd={a} -engine cmd={b} -each proto=uci depth=1 -rounds 5 -pgnout {}",
        pgn.display()
    );
    let r = run_line(Some(&prog), w(&line), &token);
    assert!(
        r.stdout
            .contains("Schedule (cutechess-cli counting, run as cutechess-cli)"),
        "{}",
        r.stdout
    );
    // cutechess-cli's lines by default when run as cutechess-cli.
    assert!(
        r.stdout.contains("Score of sloppy vs sloppy2: "),
        "{}",
        r.stdout
    );
    check_records(
        &pgn,
        &Expect {
            games: 5,
            firsts: &["sloppy", "sloppy2", "sloppy", "sloppy2", "sloppy"],
            pairs: &[None; 5],
        },
    );
    assert_no_leftovers(&token);
}

/// cutechess-cli's man page, second example: "a single game between Atak
/// and Glaurung": `cutechess-cli -engine name=Atak cmd=Atak32.exe
/// dir=C:\atak proto=xboard -engine cmd=glaurung proto=uci option.Threads=1
/// -each tc=40/1:30+1`. Changed: the engines, the directory, proto=xboard to
/// uci; depth=1 added so the game is short.
#[test]
fn cutechess_man_page_single_game() {
    let (dir, token) = scratch("dropin-cc-man2");
    let prog = program(&dir, "cutechess-cli");
    let glaurung = engine_named(&dir, "glaurung");
    let pgn = dir.join("cc2.pgn");
    let line = format!(
        "-engine name=Atak cmd={KOMA} dir={} proto=uci -engine cmd={glaurung} proto=uci \
         option.Threads=1 -each tc=40/1:30+1 depth=1 -pgnout {}",
        dir.display(),
        pgn.display()
    );
    run_line(Some(&prog), w(&line), &token);
    check_records(
        &pgn,
        &Expect {
            games: 1,
            firsts: &["Atak"],
            pairs: &[None],
        },
    );
    assert_no_leftovers(&token);
}

/// cutechess-cli's man page, third example: "a Round-Robin tournament
/// between Fruit, Crafty, Stockfish and Sloppy": `cutechess-cli -engine
/// conf=Fruit -engine conf=Crafty -engine conf=Stockfish -engine conf=Sloppy
/// -each tc=4 book=book.bin -games 2 -rounds 10 -repeat`. Changed: conf= (an
/// engines.json entry) to cmd= and name=, book=book.bin (a Polyglot book)
/// left out, tc=4 to depth=1, -rounds 10 to 1. Its note: "In each two-game
/// encounter colors are switched between games and the same opening line is
/// played in both games": 6 encounters of 2 games.
#[test]
fn cutechess_man_page_round_robin() {
    let (dir, token) = scratch("dropin-cc-man3");
    let prog = program(&dir, "cutechess-cli");
    let pgn = dir.join("rr.pgn");
    let engines: String = ["Fruit", "Crafty", "Stockfish", "Sloppy"]
        .iter()
        .map(|n| format!("-engine cmd={KOMA} name={n} "))
        .collect();
    let line = format!(
        "{engines}-each depth=1 -games 2 -rounds 1 -repeat -pgnout {}",
        pgn.display()
    );
    let r = run_line(Some(&prog), w(&line), &token);
    // The rank table of three or more engines.
    assert!(r.stdout.contains("Rank Name"), "{}", r.stdout);
    let recs = check_records(
        &pgn,
        &Expect {
            games: 12,
            firsts: &[],
            pairs: &[],
        },
    );
    for pair in recs.chunks(2) {
        assert_eq!(pair[0].tag("Pair"), pair[1].tag("Pair"));
        assert!(pair[0].tag("Pair").is_some());
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
    }
    assert_no_leftovers(&token);
}

/// OpenBench's client (AndyGrant/OpenBench, Client/worker.py,
/// `build_runner_command`): `./fastchess-ob -recover -variant standard
/// -testEnv -concurrency C -rounds R -games 2 -resign … -draw … -engine
/// dir=Engines/ cmd=./DEV proto=uci tc=… option.Hash=… name=E-dev -engine
/// … name=E-base -openings file=Books/B.epd format=epd order=random start=S
/// -srand SEED -pgnout file=PGNs/P.pgn seldepth=true nodes=true
/// match_line='^info string pgncomment .*'`. Changed: the engines, the book,
/// -variant standard to kaninariebi, tc to depth=1, the counts. Its parser
/// (`update_results`) reads the Finished game lines: run below.
#[test]
fn openbench_s_fastchess_line_runs_and_its_parser_reads_the_games() {
    let (dir, token) = scratch("dropin-openbench");
    let pgn = dir.join("ob.pgn");
    let mut words = w(&format!(
        "-recover -variant kaninariebi -testEnv -concurrency 2 -rounds 2 -games 2 \
         -resign movecount=3 score=400 -draw movenumber=20 movecount=8 score=10 \
         -engine dir={d} cmd={KOMA} proto=uci depth=1 option.Hash=8 name=Koma-dev \
         -engine dir={d} cmd={KOMA} proto=uci depth=1 option.Hash=8 name=Koma-base \
         -openings file={b} format=epd order=random start=2 -srand 7 \
         -pgnout file={p} seldepth=true nodes=true",
        d = dir.display(),
        b = book(&dir).display(),
        p = pgn.display()
    ));
    words.push("match_line=^info string pgncomment .*".into());
    let r = run_line(None, words, &token);
    check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["Koma-dev", "Koma-base", "Koma-dev", "Koma-base"],
            pairs: &[Some(1), Some(1), Some(2), Some(2)],
        },
    );
    let ob = openbench_update_results(&r.stdout);
    assert_eq!(ob.pentanomial.iter().sum::<u32>(), 2, "{}", r.stdout);
    assert_eq!(ob.trinomial.iter().sum::<u32>(), 4);
    assert_no_leftovers(&token);
}

/// OpenBench's `MatchRunner.update_results` (Client/worker.py), as it
/// reads each `Finished game` line: the game number is the third blank-
/// separated word, the result the seventh; games 2k-1 and 2k are a pair.
struct OpenBench {
    trinomial: [u32; 3],
    pentanomial: [u32; 5],
}

fn openbench_update_results(stdout: &str) -> OpenBench {
    let mut ob = OpenBench {
        trinomial: [0; 3],
        pentanomial: [0; 5],
    };
    let mut games = std::collections::BTreeMap::new();
    let lookup = |r: &str| match r {
        "0-1" => 0,
        "1/2-1/2" => 1,
        "1-0" => 2,
        other => panic!("OpenBench cannot read the result {other:?}"),
    };
    for line in stdout.lines().filter(|l| l.contains("Finished game")) {
        // `reason = line.split(':')[1]`
        assert!(line.split(':').nth(1).is_some(), "{line}");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let game: u64 = tokens[2].parse().unwrap_or_else(|_| panic!("{line}"));
        games.insert(game, tokens[6].to_string());
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        if let (Some(r1), Some(r2)) = (games.get(&first), games.get(&second)) {
            let (r1, r2) = (lookup(r1), lookup(r2));
            ob.pentanomial[r1 + 2 - r2] += 1;
            ob.trinomial[r1] += 1;
            ob.trinomial[2 - r2] += 1;
        }
    }
    ob
}

/// Fishtest's worker (official-stockfish/fishtest, worker/games.py,
/// `run_games`): `fastchess -testEnv -recover -repeat -games 2 -rounds R
/// -ratinginterval 1 -scoreinterval 1 -autosaveinterval 0 -report penta=true
/// -pgnout file=P append=false -crc32 pgn=true -site URL -event "Batch N: …"
/// -srand S -resign movecount=3 score=600 -draw movenumber=34 movecount=8
/// score=20 -variant standard -concurrency C -openings file=B format=epd
/// order=random plies=P start=S -check-mate-pvs -engine name=New-… tc=…
/// cmd=… dir=. -engine name=Base-… … -each proto=uci option.Threads=1`.
/// Changed: the engines, the book, the variant, tc to depth=1, the counts
/// (its `_spsa_` placeholders, which it fills or drops, left out). Its
/// regular expressions read the summary: run below.
#[test]
fn fishtest_s_fastchess_line_runs_and_its_regular_expressions_read_the_summary() {
    let (dir, token) = scratch("dropin-fishtest");
    let pgn = dir.join("ft.pgn");
    std::fs::write(&pgn, "left over from an earlier batch\n").unwrap();
    let mut words = w(&format!(
        "-testEnv -recover -repeat -games 2 -rounds 2 -ratinginterval 1 -scoreinterval 1 \
         -autosaveinterval 0 -report penta=true -pgnout file={p} append=false -crc32 pgn=true \
         -site https://tests.stockfishchess.org/tests/view/1 -event",
        p = pgn.display()
    ));
    words.push("Batch 7: New vs Base".into());
    words.extend(w(&format!(
        "-srand 5 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
         -variant kaninariebi -concurrency 2 -openings file={b} format=epd order=random \
         plies=2 start=1 -check-mate-pvs -engine name=New-1 depth=1 cmd={KOMA} dir=. \
         -engine name=Base-1 depth=1 cmd={KOMA} dir=. -each proto=uci option.Threads=1",
        b = book(&dir).display()
    )));
    let r = run_line(None, words, &token);
    let recs = check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["New-1", "Base-1", "New-1", "Base-1"],
            pairs: &[Some(1), Some(1), Some(2), Some(2)],
        },
    );
    assert_eq!(
        recs[0].tag("Site"),
        Some("https://tests.stockfishchess.org/tests/view/1")
    );
    assert_eq!(recs[0].tag("Event"), Some("Batch 7: New vs Base"));
    // worker/games.py's patterns, as it compiles them.
    let pattern_wld = Regex::new(
        r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(",
    )
    .unwrap();
    let pattern_ptnml =
        Regex::new(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]").unwrap();
    let wld = pattern_wld
        .captures_iter(&r.stdout)
        .last()
        .unwrap_or_else(|| panic!("{}", r.stdout));
    let n = |i: usize| wld[i].parse::<u32>().unwrap();
    assert_eq!(n(1), 4);
    assert_eq!(n(2) + n(3) + n(4), 4);
    let ptnml = pattern_ptnml.captures_iter(&r.stdout).last().unwrap();
    let pairs: u32 = (1..=5).map(|i| ptnml[i].parse::<u32>().unwrap()).sum();
    assert_eq!(pairs, 2);
    assert_no_leftovers(&token);
}

/// chess-tuning-tools (kiudee/chess-tuning-tools, tune/local.py,
/// `run_match`): `cutechess-cli -concurrency N -engine conf=engine1
/// tc=inf nodes=N1 -engine conf=engine2 tc=inf nodes=N2 -openings
/// file=F format=epd order=random -draw movenumber=… movecount=… score=…
/// -resign movecount=… score=… -rounds R -games 2 -repeat -recover -debug
/// -pgnout out.pgn`. Changed: conf= (an engines.json entry) to cmd= and
/// name=, the book, the nodes, the counts. Its `parse_experiment_result`
/// and `is_debug_log` regular expressions read the output: run below.
#[test]
fn chess_tuning_tools_cutechess_line_runs_and_its_parser_reads_the_pairs() {
    let (dir, token) = scratch("dropin-ctt");
    let prog = program(&dir, "cutechess-cli");
    let pgn = dir.join("out.pgn");
    let line = format!(
        "-concurrency 2 -engine cmd={KOMA} name=engine1 tc=inf nodes=300 \
         -engine cmd={KOMA} name=engine2 tc=inf nodes=200 \
         -openings file={} format=epd order=random \
         -draw movenumber=20 movecount=10 score=8 -resign movecount=3 score=550 \
         -rounds 3 -games 2 -repeat -recover -debug -pgnout {}",
        book(&dir).display(),
        pgn.display()
    );
    let r = run_line(Some(&prog), w(&line), &token);
    check_records(
        &pgn,
        &Expect {
            games: 6,
            firsts: &[
                "engine1", "engine2", "engine1", "engine2", "engine1", "engine2",
            ],
            pairs: &[Some(1), Some(1), Some(2), Some(2), Some(3), Some(3)],
        },
    );
    // parse_experiment_result: one Score line per game, in the order the
    // games finished, and their numbers.
    let wdl = Regex::new(r"Score of.*:\s*([0-9]+\s-\s[0-9]+\s-\s[0-9]+)").unwrap();
    let finished = Regex::new(r"Finished game ([0-9]+)").unwrap();
    let debug = Regex::new(r"^[0-9]+ [<>]").unwrap();
    let scores: Vec<[u32; 3]> = wdl
        .captures_iter(&r.stdout)
        .map(|c| {
            let v: Vec<u32> = c[1].split('-').map(|x| x.trim().parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect();
    let games: Vec<u32> = finished
        .captures_iter(&r.stdout)
        .map(|c| c[1].parse().unwrap())
        .collect();
    assert_eq!(games.len(), 6, "{}", r.stdout);
    assert_eq!(scores.len(), 6, "{}", r.stdout);
    let last = scores.last().unwrap();
    assert_eq!(last.iter().sum::<u32>(), 6);
    // Each game adds one to exactly one count, in finishing order.
    let mut before = [0; 3];
    for s in &scores[..6] {
        let added: u32 = (0..3).map(|i| s[i] - before[i]).sum();
        assert_eq!(added, 1, "{}", r.stdout);
        before = *s;
    }
    assert!(!r.stdout.lines().any(|l| debug.is_match(l)));
    assert_no_leftovers(&token);
}

/// mathmoi/oxide9, scripts/cute.sh: `cutechess-cli -engine cmd=o9-dev
/// -engine cmd=o9-tt2 -each proto=uci tc=1+0.8 -games 2 -rounds 10000
/// -repeat 2 -maxmoves 250 -openings file=….epd format=epd order=sequential
/// -pgnout cutechess.pgn -concurrency 15 -ratinginterval 10 -sprt elo0=0
/// elo1=10 alpha=0.05 beta=0.05`. Changed: the engines (links named
/// o9-dev and o9-tt2), the book, tc to depth=1, -rounds 10000 to 2,
/// -concurrency 15 to 2.
#[test]
fn oxide9_s_cutechess_sprt_script() {
    let (dir, token) = scratch("dropin-oxide9");
    let prog = program(&dir, "cutechess-cli");
    let (a, b) = (engine_named(&dir, "o9-dev"), engine_named(&dir, "o9-tt2"));
    let pgn = dir.join("cutechess.pgn");
    let line = format!(
        "-engine cmd={a} -engine cmd={b} -each proto=uci depth=1 -games 2 -rounds 2 \
         -repeat 2 -maxmoves 250 -openings file={} format=epd order=sequential \
         -pgnout {} -concurrency 2 -ratinginterval 10 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05",
        book(&dir).display(),
        pgn.display()
    );
    let r = run_line(Some(&prog), w(&line), &token);
    assert!(r.stdout.contains("SPRT: llr "), "{}", r.stdout);
    check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["o9-dev", "o9-tt2", "o9-dev", "o9-tt2"],
            pairs: &[Some(1), Some(1), Some(2), Some(2)],
        },
    );
    assert_no_leftovers(&token);
}

/// DutChen18/chess-master, tournament.sh: `cutechess-cli -engine
/// cmd=target/release/chess-master -engine cmd=binaries/v4 -tournament
/// gauntlet -games 10 -concurrency 10 -pgnout pgn -each proto=uci st=0.1
/// timemargin=250`. Changed: the engines (links of those names), st=0.1 to
/// depth=1, -games 10 to 4, -concurrency 10 to 2. cutechess-cli: 4 games,
/// colours alternating, each on its own opening.
#[test]
fn chess_master_s_cutechess_gauntlet_script() {
    let (dir, token) = scratch("dropin-chess-master");
    let prog = program(&dir, "cutechess-cli");
    let (a, b) = (engine_named(&dir, "chess-master"), engine_named(&dir, "v4"));
    let pgn = dir.join("pgn");
    let line = format!(
        "-engine cmd={a} -engine cmd={b} -tournament gauntlet -games 4 -concurrency 2 \
         -pgnout {} -each proto=uci depth=1 timemargin=250",
        pgn.display()
    );
    run_line(Some(&prog), w(&line), &token);
    check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["chess-master", "v4", "chess-master", "v4"],
            pairs: &[None; 4],
        },
    );
    assert_no_leftovers(&token);
}

/// dannyhammer/brogle, scripts/run-fastchess.sh: `fastchess -engine
/// cmd=$engine1 name=$name1 -engine cmd=$engine2 name=$name2 -openings
/// file=epd/8moves_v3.epd format=epd order=random -each tc=8+0.08 -rounds
/// 500 -repeat -concurrency 1 -log file=fastchess.log`. Changed: the
/// engines, the book, tc to depth=1, -rounds 500 to 2. No -pgnout: the
/// games are counted from the output.
#[test]
fn brogle_s_fastchess_script() {
    let (dir, token) = scratch("dropin-brogle");
    let log = dir.join("fastchess.log");
    let line = format!(
        "-engine cmd={KOMA} name=brogle-new -engine cmd={KOMA} name=brogle-old \
         -openings file={} format=epd order=random -each depth=1 -rounds 2 -repeat \
         -concurrency 1 -log file={}",
        book(&dir).display(),
        log.display()
    );
    let r = run_line(None, w(&line), &token);
    let started: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Started game "))
        .collect();
    assert_eq!(
        started,
        [
            "Started game 1 of 4 (brogle-new vs brogle-old)",
            "Started game 2 of 4 (brogle-old vs brogle-new)",
            "Started game 3 of 4 (brogle-new vs brogle-old)",
            "Started game 4 of 4 (brogle-old vs brogle-new)",
        ]
    );
    assert!(std::fs::read_to_string(&log).unwrap().contains("> go "));
    assert_no_leftovers(&token);
}

/// One count, two tools: the same words give fastchess's schedule or
/// cutechess-cli's, as `--dialect` (or the program's name) says, and the
/// schedule line says which before any game.
#[test]
fn rounds_and_repeat_count_as_the_tool_the_line_was_written_for() {
    let (dir, token) = scratch("dropin-counts");
    let base = format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 -rounds 3 -repeat"
    );
    let fc = run_line(None, w(&base), &token);
    assert!(
        fc.stdout
            .contains("3 rounds x 2 games per encounter x 1 encounter = 6 games"),
        "{}",
        fc.stdout
    );
    assert_eq!(fc.stdout.matches("Finished game").count(), 6);
    let cc = run_line(None, w(&format!("{base} --dialect cutechess")), &token);
    assert!(
        cc.stdout
            .contains("3 rounds x 1 game per encounter x 1 encounter = 3 games"),
        "{}",
        cc.stdout
    );
    assert_eq!(cc.stdout.matches("Finished game").count(), 3);
    // Koma's own: --games 2 --rounds 1 by default.
    let koma = run_line(
        None,
        w(&format!(
            "--engine cmd={KOMA} name=a --engine cmd={KOMA} name=b --each depth=1"
        )),
        &token,
    );
    assert!(
        koma.stdout.contains("Schedule (koma counting"),
        "{}",
        koma.stdout
    );
    assert_eq!(koma.stdout.matches("Finished game").count(), 2);
    let mixed = run_program(
        Path::new(REFEREE),
        &w(&format!(
            "{base} -config outname=c.json -pgnout {}",
            dir.join("x.pgn").display()
        )),
        &token,
        LIMIT,
        &[],
    );
    assert_eq!(mixed.status.code(), Some(2), "{}", mixed.stderr);
    assert!(
        mixed
            .stderr
            .contains("--dialect fastchess or --dialect cutechess"),
        "{}",
        mixed.stderr
    );
    assert_no_leftovers(&token);
}

/// Debian's pgn-extract reads the seven-tag roster of Koma's records. It
/// checks moves as chess moves, which Koma's are not, so it matches none;
/// but it reads every record and names each one it cannot replay by its
/// roster, `White - Black Event Site Date`: those names must be each
/// game's engines in the order Koma played them. Skipped where pgn-extract
/// is not installed.
#[test]
fn pgn_extract_reads_the_seven_tag_roster() {
    let tool = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    let Some(tool) = tool else {
        eprintln!("skipped: pgn-extract is not installed (apt-get install pgn-extract)");
        return;
    };
    let (dir, token) = scratch("dropin-pgn-extract");
    let pgn = dir.join("g.pgn");
    let line = format!(
        "-engine cmd={KOMA} name=alpha -engine cmd={KOMA} name=beta -each depth=1 -rounds 2 \
         -site lab -event Koma-event -pgnout file={}",
        pgn.display()
    );
    run_line(None, w(&line), &token);
    let recs = check_records(
        &pgn,
        &Expect {
            games: 4,
            firsts: &["alpha", "beta", "alpha", "beta"],
            pairs: &[],
        },
    );
    // -r: report the errors, extract nothing.
    let out = std::process::Command::new(&tool)
        .arg("-r")
        .arg(&pgn)
        .output()
        .unwrap();
    let report =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let date = recs[0].tag("Date").unwrap();
    // It names a record twice in a row (the move it failed on, then the
    // line): once each, as the colours alternate from game to game.
    let mut named: Vec<String> = report
        .lines()
        .filter(|l| l.ends_with(&format!("Koma-event lab {date} ")))
        .map(|l| l.split(" Koma-event").next().unwrap().to_string())
        .collect();
    named.dedup();
    let played: Vec<String> = recs
        .iter()
        .map(|r| format!("{} - {}", r.tag("White").unwrap(), r.tag("Black").unwrap()))
        .collect();
    assert_eq!(named, played, "{report}");
    assert_no_leftovers(&token);
}

/// Ctrl-C: the results so far and the exact command that resumes, then the
/// end; the same command then plays only the games that were missing.
#[test]
fn ctrl_c_prints_the_results_and_the_command_that_resumes() {
    use std::io::{BufRead, BufReader};
    let (dir, token) = scratch("dropin-sigint");
    let pgn = dir.join("int.pgn");
    let words = w(&format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 -rounds 20 \
         -pgnout file={}",
        pgn.display()
    ));
    for (signal, json) in [(libc::SIGINT, false), (libc::SIGTERM, true)] {
        let _ = std::fs::remove_file(&pgn);
        let mut words = words.clone();
        if json {
            words.extend(w("-output format=json"));
        }
        let mut child = spawn(&words, &token);
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let mut seen = String::new();
        // The signal once a game is recorded, so there is something to say.
        for l in lines.by_ref() {
            let l = l.unwrap();
            seen += &l;
            seen.push('\n');
            if l.starts_with("Finished game ") {
                break;
            }
        }
        // SAFETY: kill(2) on the child's own pid.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        for l in lines {
            seen += &l.unwrap();
            seen.push('\n');
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{seen}");
        assert!(seen.contains("Interrupted: "), "{seen}");
        assert!(seen.contains("Games: "), "{seen}");
        let resume = seen
            .lines()
            .find_map(|l| {
                l.split_once("run the same command: ")
                    .map(|(_, c)| c.to_string())
            })
            .unwrap_or_else(|| panic!("{seen}"));
        // The command exactly as typed, program first.
        assert_eq!(resume, format!("{REFEREE} {}", words.join(" ")));
        if json {
            let last = seen.lines().last().unwrap();
            let v: serde_json::Value = serde_json::from_str(last).unwrap();
            assert_eq!(v["state"], "interrupted");
        }
        let done = records(&pgn).len();
        assert!((1..40).contains(&done), "{done}");
        // Resuming plays only the missing games: none twice, none lost.
        let r = run(&words, &token, LIMIT);
        assert!(r.status.success(), "{}", r.stderr);
        assert_eq!(
            r.stdout.matches("Finished game").count(),
            40 - done,
            "{}",
            r.stdout
        );
        assert_eq!(records(&pgn).len(), 40);
        assert_replays(&pgn);
    }
    assert_no_leftovers(&token);
}

/// fastchess's `-config`: the match writes `outname` in fastchess's layout
/// with its command line; `-config file=…` alone runs that match again,
/// which resumes from its record file (here: nothing left to play).
#[test]
fn config_file_written_then_read_resumes_the_match() {
    let (dir, token) = scratch("dropin-config");
    let pgn = dir.join("c.pgn");
    let config = dir.join("c.json");
    let line = format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 -rounds 2 \
         -wait 1 -pgnout file={} -config outname={}",
        pgn.display(),
        config.display()
    );
    run_line(None, w(&line), &token);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["games"], 2);
    assert_eq!(v["engines"][0]["name"], "a");
    let s = &v["stats"]["a vs b"];
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("losses") + n("draws"), 4);
    let pairs: u64 = [
        "penta_WW", "penta_WD", "penta_WL", "penta_DD", "penta_LD", "penta_LL",
    ]
    .iter()
    .map(|k| n(k))
    .sum();
    assert_eq!(pairs, 2);
    let again = run_line(
        None,
        vec!["-config".into(), format!("file={}", config.display())],
        &token,
    );
    assert!(
        again.stdout.contains("4 of 4 games already played"),
        "{}\n{}",
        again.stdout,
        again.stderr
    );
    assert!(!again.stdout.contains("Finished game"), "{}", again.stdout);
    assert_eq!(records(&pgn).len(), 4);
    // Those records as a book: whole games need plies=N, and say so.
    let book = format!(
        "-engine cmd={KOMA} name=a -engine cmd={KOMA} name=b -each depth=1 \
         -openings file={} format=pgn",
        pgn.display()
    );
    let r = run(&w(&book), &token, LIMIT);
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("add plies=N"), "{}", r.stderr);
    assert_no_leftovers(&token);
}

/// A public wrapper script's cutechess-cli line (a toy engine's
/// misc/match.sh, found by code search; the index does not name its
/// repository): `$CLI -tournament round-robin -concurrency 2 -engine
/// $ENGINE1 -engine $ENGINE2 -each proto=uci … $OPENINGS` with `OPENINGS`
/// `-openings file=misc/8moves_v3.pgn policy=round -repeat` and `-rounds
/// 5`: one opening a round, the two games of a round a colour-swapped pair.
/// Changed: the engines, the book (EPD), tc to depth=1, -rounds 5 to 3,
/// `-games 2` written out (the script's other variant has it).
#[test]
fn cutechess_policy_round_plays_one_opening_a_round() {
    let (dir, token) = scratch("dropin-policy-round");
    let prog = program(&dir, "cutechess-cli");
    let pgn = dir.join("pr.pgn");
    let line = format!(
        "-tournament round-robin -concurrency 2 -engine depth=1 name=toy cmd={KOMA} \
         -engine depth=1 name=other cmd={KOMA} -each proto=uci -rounds 3 -games 2 \
         -openings file={} format=epd policy=round -repeat -pgnout {}",
        book(&dir).display(),
        pgn.display()
    );
    let r = run_line(Some(&prog), w(&line), &token);
    assert!(
        r.stdout.contains("one opening for each round"),
        "{}",
        r.stdout
    );
    let recs = check_records(
        &pgn,
        &Expect {
            games: 6,
            firsts: &["toy", "other", "toy", "other", "toy", "other"],
            pairs: &[Some(1), Some(1), Some(2), Some(2), Some(3), Some(3)],
        },
    );
    // The book in order: round k plays line k (its opening plies).
    let plies: Vec<&str> = recs
        .iter()
        .map(|r| r.tag("OpeningPlies").unwrap())
        .collect();
    assert_eq!(plies, ["2", "2", "3", "3", "1", "1"]);
    assert_no_leftovers(&token);
}

/// `koma-referee --help` lists every option of docs/referee.md's table of
/// fastchess's and cutechess-cli's options, whose it is, and what Koma
/// makes of it (the long option, accepted or refused).
#[test]
fn the_help_agrees_with_the_docs_table() {
    let (_dir, token) = scratch("dropin-help");
    let r = run(&["--help".to_string()], &token, LIMIT);
    assert!(r.status.success(), "{}", r.stderr);
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/referee.md")).unwrap();
    // The table of the section "## Options".
    let rows: Vec<Vec<&str>> = page
        .lines()
        .skip_while(|l| *l != "## Options")
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `-"))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .filter(|cells: &Vec<&str>| cells.len() == 4)
        .collect();
    assert!(rows.len() > 50, "{}", rows.len());
    for row in rows {
        let name = row[0].trim_matches('`');
        let line = r
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is not in --help"));
        assert!(line.contains(row[1]), "{line} vs {row:?}");
        let koma = row[2].trim_matches('`');
        let said = match koma {
            "always" => "accepted: ",
            "refused" => "refused: ",
            "preset" => "preset",
            "--games N" => "--games N",
            long => long,
        };
        assert!(line.contains(said), "{line} vs {row:?}");
    }
}
