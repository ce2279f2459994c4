//! Kani Nari Ebi's `KaniRepetition` (default on): the fourth occurrence of
//! a position is a draw, reported alike by the engine (`query`, `d`, `go`,
//! `position`), the referee (records that replay) and the board; off, only
//! the referee's `--max-plies` ends an endless game.

mod common;
mod referee;
use common::converse;
use koma::board::play::new_play_of;
use koma::core::{EndReason, MoveText, Outcome, ReplayError};
use koma::games::GameId;
use koma::games::kaninariebi::KaniNariEbi;
use referee::*;
use std::time::Duration;

/// Twelve plies of two Crabs stepping back and forth: the start position
/// for the fourth time.
const TWELVE: &str = "a1b1 e1d1 b1a1 d1e1 a1b1 e1d1 b1a1 d1e1 a1b1 e1d1 b1a1 d1e1";
const SHUFFLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock/shuffle.sh");

#[test]
fn the_engine_reports_the_fourth_occurrence_as_a_draw_in_query_d_and_go() {
    let out = converse(&format!(
        "position startpos moves {TWELVE}\nquery gameover\nquery result\nd\ngo depth 3\n"
    ));
    assert_eq!(out[0], "response true", "{out:?}");
    assert_eq!(out[1], "response draw", "{out:?}");
    assert!(
        out.iter()
            .any(|l| l == "Game: over, 1/2-1/2 {draw by repetition}"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove (none)", "{out:?}");
    // Eleven plies: the game goes on; a thirteenth is refused.
    let eleven: Vec<&str> = TWELVE.split(' ').take(11).collect();
    let out = converse(&format!(
        "position startpos moves {}\nquery gameover\nposition startpos moves {TWELVE} a1b1\nquery result\n",
        eleven.join(" ")
    ));
    assert_eq!(
        out,
        [
            "response false",
            "info string error: illegal move, the game is over (1/2-1/2 {draw by repetition}) at a1b1",
            "response none",
        ]
    );
}

#[test]
fn with_kani_repetition_false_the_engine_plays_on() {
    let out = converse(&format!(
        "setoption name KaniRepetition value false\nposition startpos moves {TWELVE} {TWELVE}\nquery gameover\nquery result\nd\n"
    ));
    assert_eq!(out[0], "response false", "{out:?}");
    assert_eq!(out[1], "response none", "{out:?}");
    assert!(out.iter().any(|l| l == "Game: in progress"), "{out:?}");
}

#[test]
fn the_board_reports_the_fourth_occurrence_as_a_draw() {
    let moves: Vec<MoveText> = TWELVE
        .split(' ')
        .map(|m| koma::protocol::parse_move(m).unwrap())
        .collect();
    let mut play = new_play_of::<KaniNariEbi>(&[], None).unwrap();
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(play.line().status(), None, "ply {i}");
        play.line_mut().play_text(m).unwrap();
    }
    let end = play.line().status().expect("over");
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Draw, EndReason::Repetition)
    );
    assert!(matches!(
        play.line_mut().play_text(&moves[0]),
        Err(ReplayError::AfterEnd { ply: 13, .. })
    ));
    // Off: the game goes on.
    let off = GameId::from_name("kaninariebi")
        .unwrap()
        .read_rules([("KaniRepetition", "false")])
        .unwrap();
    let mut play = new_play_of::<KaniNariEbi>(&off, None).unwrap();
    for m in moves.iter().chain(&moves) {
        play.line_mut().play_text(m).unwrap();
    }
    assert_eq!(play.line().status(), None);
}

/// A match between two shufflers; the records, checked by `--replay`.
fn shuffle_match(name: &str, extra: &str) -> Vec<koma::protocol::record::Record> {
    let (dir, token) = scratch(name);
    let pgn = dir.join("games.pgn");
    let r = run(
        &args(&format!(
            "--engine cmd={SHUFFLE} name=a --engine cmd={SHUFFLE} name=b --each depth=1 \
             --games 2 --pgnout {} {extra}",
            pgn.display()
        )),
        &token,
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    let recs = records(&pgn);
    assert_eq!(recs.len(), 2);
    assert_replays(&pgn);
    assert_no_leftovers(&token);
    let _ = std::fs::remove_dir_all(&dir);
    recs
}

#[test]
fn the_referee_ends_the_game_at_the_fourth_occurrence_as_a_draw_by_repetition() {
    for rec in shuffle_match("kani-rep", "") {
        assert_eq!(rec.tag("KaniRepetition"), Some("true"));
        assert_eq!(rec.tag("Result"), Some("1/2-1/2"));
        assert_eq!(rec.tag("Termination"), Some("repetition"));
        assert_eq!(rec.moves.len(), 12);
    }
}

#[test]
fn with_kani_repetition_false_only_the_referees_ply_limit_ends_the_shuffle() {
    for rec in shuffle_match("kani-norep", "--rule KaniRepetition=false --max-plies 40") {
        assert_eq!(rec.tag("KaniRepetition"), Some("false"));
        assert_eq!(rec.tag("Result"), Some("1/2-1/2"));
        assert_eq!(rec.tag("Termination"), Some("ply limit"));
        assert_eq!(rec.moves.len(), 40);
    }
}
