//! The real `koma` binary holding a conversation over pipes: the handshake,
//! `isready` and `stop` answered during a search, end of input as quit.

mod common;
use common::Koma;
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(10);

#[test]
fn handshake_and_a_search() {
    let mut k = Koma::spawn();
    k.send("uci");
    let lines = k.read_until(T, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Koma"));
    k.send("setoption name UCI_Variant value hasami");
    k.send("isready");
    k.read_until(T, |l| l == "readyok");
    k.send("position startpos");
    k.send("go depth 2");
    let lines = k.read_until(T, |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info depth 2")));
    k.send("quit");
    assert!(k.wait_exit(T));
}

#[test]
fn stop_during_go_infinite_returns_a_bestmove_at_once() {
    let mut k = Koma::spawn();
    k.send("setoption name UCI_Variant value hasami");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    k.send("stop");
    let lines = k.read_until(T, |l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "took {:?}",
        t.elapsed()
    );
    assert!(lines.last().unwrap().len() > "bestmove ".len());
}

#[test]
fn isready_is_answered_while_searching() {
    let mut k = Koma::spawn();
    k.send("setoption name UCI_Variant value hasami");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    k.send("isready");
    let lines = k.read_until(T, |l| l == "readyok");
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "the search goes on"
    );
    k.send("stop");
    k.read_until(T, |l| l.starts_with("bestmove"));
}

#[test]
fn end_of_input_is_quit() {
    let mut k = Koma::spawn();
    k.send("isready");
    k.read_until(T, |l| l == "readyok");
    k.close_stdin();
    assert!(k.wait_exit(T));
}

#[test]
fn bad_lines_are_answered_and_the_engine_carries_on() {
    let mut k = Koma::spawn();
    k.send("go depth banana");
    let l = k.read_until(T, |l| l.starts_with("info string error"));
    assert_eq!(
        l.last().unwrap(),
        "info string error: expected an integer after depth at banana"
    );
    k.send("isready");
    k.read_until(T, |l| l == "readyok");
}
