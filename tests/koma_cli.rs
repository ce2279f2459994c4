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
