//! The EvalFile option: listed; a file that is missing, not a regular
//! file, truncated, damaged or made for another game or shape is refused
//! with the reason and the evaluation stays; a good file changes the
//! evaluation of its game and an empty value puts the built-in one back.
//! The weights in force are the process's, so these tests take turns.

mod common;
use common::{converse, one_at_a_time};
use koma::games::{hasami, kaninariebi};
use std::path::PathBuf;

/// A file under Cargo's scratch directory for tests, named for the test
/// alone: a run overwrites the last run's files instead of leaving more
/// behind in the system's temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("eval-file-{name}"));
    std::fs::write(&p, bytes).expect("temp file");
    p
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

/// The score of the depth-1 line of a search (of the Kani Nari Ebi start).
fn depth1_score(lines: &[String]) -> String {
    let l = lines
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .unwrap_or_else(|| panic!("no depth 1 line: {lines:?}"));
    let words: Vec<&str> = l.split(' ').collect();
    let at = words.iter().position(|&w| w == "score").expect("score");
    format!("{} {}", words[at + 1], words[at + 2])
}

fn search_with(setup: &str) -> Vec<String> {
    converse(&format!("{setup}position startpos\ngo depth 1\nisready\n"))
}

fn kani_weights(scale: i32) -> Vec<u8> {
    let mut w = kaninariebi::eval::Weights::terms_only(kaninariebi::eval::HAND_MADE);
    for t in &mut w.terms {
        *t *= scale;
    }
    w.to_bytes("kaninariebi")
}

#[test]
fn the_eval_file_option_is_listed_as_a_string() {
    let out = converse("uci\n");
    assert!(
        out.iter()
            .any(|l| l == "option name EvalFile type string default <empty>"),
        "{out:?}"
    );
}

#[test]
fn an_unusable_weights_file_is_reported_and_the_evaluation_stays() {
    let _turn = one_at_a_time();
    let before = depth1_score(&search_with(""));
    let good = kani_weights(3);
    let dir = std::env::temp_dir();
    let cases = [
        ("/nonexistent/kani.bin".to_string(), "cannot read it"),
        (dir.display().to_string(), "not a regular file"),
        (
            temp_file("w-short", &good[..good.len() - 3])
                .display()
                .to_string(),
            "truncated",
        ),
        (
            temp_file("w-magic", &[7u8; 200]).display().to_string(),
            "not a Koma weights file",
        ),
        (
            temp_file(
                "w-hasami",
                &hasami::eval::Weights::terms_only(hasami::eval::HAND_MADE).to_bytes("hasami"),
            )
            .display()
            .to_string(),
            "the weights of hasami, not of kaninariebi",
        ),
        (
            temp_file("w-crc", &{
                let mut b = good.clone();
                *b.last_mut().unwrap() ^= 0x40;
                b
            })
            .display()
            .to_string(),
            "checksum",
        ),
        (
            // Bytes 44..48 are zero by the layout, outside the checksum.
            temp_file("w-reserved", &{
                let mut b = good.clone();
                b[45] = 1;
                b
            })
            .display()
            .to_string(),
            "bytes 44 to 47 of the header are not zero",
        ),
    ];
    for (path, why) in cases {
        let out = search_with(&format!("setoption name EvalFile value {path}\n"));
        let e = errors(&out);
        assert_eq!(e.len(), 1, "{out:?}");
        assert!(
            e[0].starts_with(&format!(
                "info string error: cannot use {path} as EvalFile: "
            )),
            "{e:?}"
        );
        assert!(e[0].contains(why), "{why}: {e:?}");
        assert!(
            e[0].ends_with("; kaninariebi keeps the evaluation it had"),
            "{e:?}"
        );
        assert_eq!(depth1_score(&out), before, "{out:?}");
    }
}

#[test]
fn a_weights_file_changes_its_games_evaluation_and_empty_puts_the_built_in_back() {
    let _turn = one_at_a_time();
    let before = depth1_score(&search_with(""));
    let path = temp_file("w-triple", &kani_weights(3));
    let path = path.display();
    let out = search_with(&format!("setoption name EvalFile value {path}\n"));
    assert!(errors(&out).is_empty(), "{out:?}");
    let tripled = depth1_score(&out);
    assert_ne!(tripled, before);
    // Another game's EvalFile leaves this game's evaluation alone.
    let out = converse(&format!(
        "setoption name EvalFile value {path}\nsetoption name UCI_Variant value hasami\nsetoption name EvalFile value <empty>\nsetoption name UCI_Variant value kaninariebi\nposition startpos\ngo depth 1\nisready\n"
    ));
    assert_eq!(depth1_score(&out), tripled, "{out:?}");
    let out = search_with("setoption name EvalFile value <empty>\n");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(depth1_score(&out), before);
}

#[test]
fn a_weight_beyond_a_hundred_thousand_centipawns_is_refused() {
    let _turn = one_at_a_time();
    let mut w = kaninariebi::eval::Weights::terms_only(kaninariebi::eval::HAND_MADE);
    w.terms[0] = 100_001;
    let path = temp_file("w-huge", &w.to_bytes("kaninariebi"));
    let out = search_with(&format!(
        "setoption name EvalFile value {}\n",
        path.display()
    ));
    let e = errors(&out);
    assert_eq!(e.len(), 1, "{out:?}");
    assert!(e[0].contains("outside ±100000 centipawns"), "{e:?}");
}

#[test]
fn no_weights_file_makes_the_evaluation_look_like_a_mate() {
    let _turn = one_at_a_time();
    for sign in [1, -1] {
        let mut w = kaninariebi::eval::Weights::terms_only(kaninariebi::eval::HAND_MADE);
        for (i, t) in w.terms.iter_mut().enumerate() {
            *t = if i % 2 == 0 {
                sign * 100_000
            } else {
                -sign * 100_000
            };
        }
        let path = temp_file("w-extreme", &w.to_bytes("kaninariebi"));
        let out = converse(&format!(
            "setoption name EvalFile value {}\nposition startpos\ngo depth 3\nisready\nsetoption name EvalFile value <empty>\n",
            path.display()
        ));
        assert!(errors(&out).is_empty(), "{out:?}");
        let scores: Vec<&String> = out.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!scores.is_empty(), "{out:?}");
        for l in scores {
            let words: Vec<&str> = l.split(' ').collect();
            let at = words.iter().position(|&w| w == "score").expect("score");
            assert_eq!(words[at + 1], "cp", "{l}");
            let cp: i32 = words[at + 2].parse().expect("centipawns");
            assert!(cp.abs() <= koma::eval::EVAL_LIMIT, "{l}");
        }
    }
}
