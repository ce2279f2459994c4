//! The NanaTable option: listed, refused with a reason when the file is
//! not a good table (the engine then searches as before), and, with the
//! real table (built by `koma solve nana --out FILE`, named by the
//! environment variable `KOMA_NANA_TABLE`; those tests are ignored in CI),
//! instant moves with exact scores.

mod common;
use common::{Koma, converse};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A file under Cargo's scratch directory for tests, named for the test
/// alone: a run overwrites the last run's files instead of leaving more
/// behind in the system's temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("nana-table-{name}"));
    std::fs::write(&p, bytes).expect("temp file");
    p
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

/// Sets the table then searches the start of Nana to depth 2.
fn with_table(path: &str) -> Vec<String> {
    converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nposition startpos\ngo depth 2\n"
    ))
}

#[test]
fn the_table_option_is_listed_as_a_string() {
    let out = converse("uci\n");
    assert!(
        out.iter()
            .any(|l| l == "option name NanaTable type string default <empty>"),
        "{out:?}"
    );
}

#[test]
fn an_unusable_table_file_is_reported_and_the_search_goes_on() {
    let mut header = b"KOMANANA".to_vec();
    header.extend_from_slice(&[1, 0, 0, 0, 1, 1, 1, 1]);
    header.resize(64, 0);
    let cases = [
        ("/nonexistent/nana.table".to_string(), "cannot read"),
        (
            temp_file("garbage", b"not a table at all, not even close")
                .display()
                .to_string(),
            "truncated",
        ),
        (
            temp_file("magic", &[7u8; 200]).display().to_string(),
            "not a Koma Nana table",
        ),
        (
            temp_file("header", &header).display().to_string(),
            "entries",
        ),
    ];
    for (path, why) in cases {
        let out = with_table(&path);
        let e = errors(&out);
        assert_eq!(e.len(), 1, "{out:?}");
        assert!(
            e[0].starts_with(&format!(
                "info string error: cannot use {path} as NanaTable: "
            )),
            "{e:?}"
        );
        assert!(e[0].contains(why), "{e:?}");
        assert!(
            e[0].ends_with(&format!("; the game goes on without a table at {path}")),
            "{e:?}"
        );
        // The search ran as before.
        assert!(
            out.iter().any(|l| l.starts_with("info depth 2 ")),
            "{out:?}"
        );
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1);
    }
}

#[test]
fn an_empty_table_option_means_no_table() {
    let out = with_table("<empty>");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("info depth 2 ")));
}

fn real_table() -> Option<String> {
    std::env::var("KOMA_NANA_TABLE").ok()
}

#[test]
#[ignore = "needs the real table: KOMA_NANA_TABLE=FILE (koma solve nana --out FILE)"]
fn with_the_real_table_go_plays_at_once_with_the_exact_score() {
    let Some(path) = real_table() else {
        panic!("set KOMA_NANA_TABLE to the table file");
    };
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nposition startpos\ngo wtime 1000 btime 1000\n"
    ));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l == "info depth 1 score mate 64 pv K@a2"),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l == "bestmove K@a2"), "{out:?}");
    // A lost position: the longest defence, a negative mate.
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nposition fen K2/g1b/1vk[b] w 1\ngo depth 30\n"
    ));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 1 score mate -4 pv ")),
        "{out:?}"
    );
    // The table survives a change of variant and a new game.
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nsetoption name UCI_Variant value hasami\nsetoption name UCI_Variant value nana\nucinewgame\nposition startpos moves K@a2 K@c2\ngo depth 30\n"
    ));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 1 score mate 63 pv ")),
        "{out:?}"
    );
    // Unset: the search again.
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nsetoption name NanaTable value <empty>\nposition startpos\ngo depth 2\n"
    ));
    assert!(
        out.iter().any(|l| l.starts_with("info depth 2 ")),
        "{out:?}"
    );
}

#[test]
#[ignore = "needs the real table: KOMA_NANA_TABLE=FILE (koma solve nana --out FILE)"]
fn with_the_real_table_a_draw_scores_zero() {
    let Some(path) = real_table() else {
        panic!("set KOMA_NANA_TABLE to the table file");
    };
    let fen = std::env::var("KOMA_NANA_DRAW").unwrap_or_else(|_| "2c/dgk/K2[R] w 1".into());
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nposition fen {fen}\ngo depth 30\n"
    ));
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth 1 score cp 0 pv ")),
        "{out:?}"
    );
}

#[test]
#[ignore = "needs the real table: KOMA_NANA_TABLE=FILE (koma solve nana --out FILE)"]
fn a_table_file_that_cannot_be_used_keeps_the_table_loaded_before() {
    let Some(path) = real_table() else {
        panic!("set KOMA_NANA_TABLE to the table file");
    };
    let out = converse(&format!(
        "setoption name UCI_Variant value nana\nsetoption name NanaTable value {path}\nsetoption name NanaTable value /nonexistent/nana.table\nposition startpos\ngo wtime 1000 btime 1000\n"
    ));
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l == "info depth 1 score mate 64 pv K@a2"),
        "{out:?}"
    );
}

/// Sets NanaTable to `path` in the real binary: the error, and `readyok`
/// within a second of the `setoption`.
fn refused_at_once(path: &str) -> String {
    let mut k = Koma::spawn();
    k.send("setoption name UCI_Variant value nana");
    let t = Instant::now();
    k.send(&format!("setoption name NanaTable value {path}"));
    k.send("isready");
    let lines = k.read_until(Duration::from_secs(10), |l| l == "readyok");
    let took = t.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "{path}: readyok after {took:?}"
    );
    let e = errors(&lines);
    assert_eq!(e.len(), 1, "{path}: {lines:?}");
    // The game goes on, searched.
    k.send("go depth 2");
    k.read_until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    e[0].clone()
}

#[test]
fn a_fifo_as_the_table_is_refused_at_once_without_waiting_for_a_writer() {
    let p = std::env::temp_dir().join(format!("koma-{}-fifo", std::process::id()));
    let _ = std::fs::remove_file(&p);
    let made = std::process::Command::new("mkfifo").arg(&p).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let e = refused_at_once(&p.display().to_string());
    assert!(e.contains(": not a regular file;"), "{e}");
    let _ = std::fs::remove_file(&p);
}

#[test]
fn a_device_or_a_directory_as_the_table_is_refused_without_reading_it() {
    for path in ["/dev/zero", "/dev/urandom", "/"] {
        let e = refused_at_once(path);
        assert!(e.contains(": not a regular file;"), "{e}");
    }
}

/// A header that matches the real game, announcing its entries.
fn good_header() -> Vec<u8> {
    let ix = koma::games::nana::index::Index::get();
    let mut h = b"KOMANANA".to_vec();
    h.extend_from_slice(&[1, 0, 0, 0, 1, 1, 1, 1]);
    h.extend_from_slice(&(ix.len() as u64).to_le_bytes());
    h.resize(64, 0);
    h
}

#[test]
fn a_table_file_of_the_wrong_size_is_refused_by_its_size_without_reading_it() {
    // 64 bytes announcing 42 million entries; and a file one byte too long
    // (sparse: nothing is written, and nothing must be read).
    let short = temp_file("short", &good_header());
    let e = refused_at_once(&short.display().to_string());
    assert!(
        e.contains("expected") && e.contains("the file is truncated"),
        "{e}"
    );
    let long = temp_file("long", &good_header());
    let f = std::fs::OpenOptions::new().write(true).open(&long).unwrap();
    let ix = koma::games::nana::index::Index::get();
    f.set_len(64 + ix.len() as u64 + 1).unwrap();
    let e = refused_at_once(&long.display().to_string());
    assert!(e.contains("the file is longer than its header says"), "{e}");
    let _ = std::fs::remove_file(short);
    let _ = std::fs::remove_file(long);
}
