//! `koma`'s command-line jobs: how `koma perft` reads its arguments and
//! what it says about a bad one.

use std::process::Command;

fn koma(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .expect("koma runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn total(stdout: &str) -> Option<u64> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
}

/// `--moves` takes its moves in one argument, so the depth after it is read
/// as the depth (it used to be read as one more move), in any order.
#[test]
fn perft_reads_the_depth_after_the_moves() {
    for args in [
        &["perft", "--variant", "hasami", "--moves", "e1e5 e9e6", "1"][..],
        &["perft", "--variant", "hasami", "1", "--moves", "e1e5 e9e6"][..],
        &[
            "perft",
            "--variant",
            "hasami",
            "--moves",
            "e1e5",
            "--moves",
            "e9e6",
            "1",
        ][..],
    ] {
        let (code, out, err) = koma(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(total(&out), Some(70), "{args:?}: {out}");
    }
    // Moves in separate arguments are a usage error, never a silent
    // misreading.
    let (code, _, err) = koma(&["perft", "--moves", "a3b3", "e3d3", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage: koma perft"), "{err}");
    let (_, help, _) = koma(&["perft", "--help"]);
    assert!(help.contains("--moves <MOVES>"), "{help}");
    assert!(!help.contains("<MOVES>..."), "{help}");
}

/// An unknown game is refused with the list of the known ones.
#[test]
fn perft_of_an_unknown_game_lists_the_games() {
    let (code, out, err) = koma(&["perft", "--variant", "chess", "1"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    for g in koma::games::GameId::ALL {
        assert!(err.contains(g.name()), "{g} missing from {err}");
    }
    assert!(err.contains("chess"), "{err}");
}

/// A depth deeper than 64 plies is refused with exit 2 (it used to overflow
/// the stack and abort the process).
#[test]
fn perft_deeper_than_64_plies_is_refused_with_exit_2() {
    for depth in ["65", "2147483648"] {
        let (code, out, err) = koma(&["perft", depth]);
        assert_eq!(code, 2, "{depth}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("0..=64"), "{depth}: {err}");
    }
}

/// A bad position or move names what is wrong and exits 2.
#[test]
fn perft_of_a_bad_position_says_why() {
    let (code, _, err) = koma(&["perft", "--fen", "9/9 w 1", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected 5"), "{err}");
    let (code, _, err) = koma(&["perft", "--moves", "a3a4", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("illegal move at a3a4"), "{err}");
}

/// Bad arguments to datagen and tune name the argument and exit 2, and
/// leave no file behind.
#[test]
fn datagen_and_tune_refuse_bad_arguments_with_exit_2() {
    let out = std::env::temp_dir().join(format!("koma-cli-{}-data.txt", std::process::id()));
    let o = out.to_str().unwrap();
    for (args, says) in [
        (
            vec!["datagen", "--variant", "chess", "--games", "3", "--out", o],
            "chess",
        ),
        (
            vec!["datagen", "--variant", "nana", "--games", "0", "--out", o],
            "--games",
        ),
        (
            vec![
                "datagen",
                "--variant",
                "nana",
                "--games",
                "2",
                "--nodes",
                "x",
                "--out",
                o,
            ],
            "--nodes",
        ),
        (
            vec!["datagen", "--variant", "nana", "--games", "2"],
            "--out",
        ),
        (vec!["tune", "--variant", "nana"], "--data"),
        (
            vec!["tune", "--variant", "nana", "--data", o, "--lambda", "2"],
            "--lambda",
        ),
        (
            vec!["tune", "--variant", "nana", "--data", o, "--holdout", "1"],
            "--holdout",
        ),
    ] {
        let (code, _, err) = koma(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!out.exists());
}

/// A short datagen run writes whole games that tune reads back.
#[test]
fn datagen_writes_games_that_tune_fits() {
    let out = std::env::temp_dir().join(format!("koma-cli-{}-nana.txt", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let o = out.to_str().unwrap();
    let (code, stdout, err) = koma(&[
        "datagen",
        "--variant",
        "nana",
        "--games",
        "30",
        "--nodes",
        "300",
        "--random-plies",
        "3",
        "--out",
        o,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("nana: 30 games, "), "{stdout}");
    assert!(err.contains("games 30/30 positions "), "{err}");
    let (code, stdout, err) = koma(&[
        "tune",
        "--variant",
        "nana",
        "--data",
        o,
        "--epochs",
        "20",
        "--holdout",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("validation loss"), "{stdout}");
    // Data of one game is refused by another's fit.
    let (code, _, err) = koma(&["tune", "--variant", "hasami", "--data", o]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("data of another game"), "{err}");
    std::fs::remove_file(&out).unwrap();
}
