//! The board's endgame panel over HTTP (`POST /api/endgame`): the tables'
//! verdict on the shown position and on each legal move, read from a temp
//! folder of table files. The files are made-up values written in the real
//! format (solving a Kani Nari Ebi unit takes far too long for a test): what
//! is checked is that the board reads the right entry for the position and
//! for each move's result, not the values themselves (`solve::tables` checks
//! those).

use koma::board::{self, Config, Server};
use koma::client::process::Launch;
use koma::core::endgame::Layered;
use koma::core::{Game, Outcome};
use koma::games::kaninariebi::{KaniNariEbi, KaniRules};
use koma::solve::tables::{Dtz, Tables, file};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

const BOARD: &str = env!("CARGO_BIN_EXE_koma-board");

/// A made-up value for entry `i` of a table: all three results, distances
/// up to 40.
fn made_up(i: u64) -> Dtz {
    match i % 5 {
        0 => Dtz::Draw,
        1 | 2 => Dtz::Win(1 + (i / 5 % 40) as u32),
        _ => Dtz::Loss(1 + (i / 7 % 40) as u32),
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("koma-board-endgame-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes the made-up table of each signature in `sigs` under `root`.
fn write_tables(root: &Path, sigs: &BTreeSet<String>) {
    let t = Tables::<KaniNariEbi>::open(root, &KaniRules::default());
    for s in sigs {
        let sig = KaniNariEbi::parse_sig(s).expect("a signature");
        let values: Vec<u8> = (0..KaniNariEbi::entries(sig))
            .map(|i| made_up(i).encode())
            .collect();
        std::fs::create_dir_all(t.path(sig).parent().unwrap()).unwrap();
        file::write(&t.path(sig), &t.identity(sig), &values).unwrap();
    }
}

/// A position of `sig` (with moves, the game not over) and the signatures
/// its moves lead to.
fn position_of(sig: &str) -> (KaniNariEbi, BTreeSet<String>) {
    let rules = KaniRules::default();
    let s = KaniNariEbi::parse_sig(sig).unwrap();
    for i in (0..KaniNariEbi::entries(s)).step_by(7919) {
        let pos = KaniNariEbi::unrank(s, i, &rules);
        let mut ml = <KaniNariEbi as Game>::MoveList::default();
        pos.generate(&mut ml);
        if pos.terminal().is_some() || ml.len() < 4 {
            continue;
        }
        let mut sigs = BTreeSet::from([sig.to_string()]);
        let mut exits = 0;
        for &m in ml.iter() {
            let child = pos.play(m);
            exits += usize::from(pos.is_exit(m));
            if child.terminal().is_none() {
                sigs.insert(child.locate().expect("a live child").0.to_string());
            }
        }
        // A position with an exit, so that a move's distance restarting
        // is shown too.
        if exits > 0 {
            return (pos, sigs);
        }
    }
    panic!("no position of {sig} with an exit");
}

/// What the panel must say of each move of `pos`: the child's entry seen
/// from the mover (a win by the move itself is a win in 1).
fn expected_moves(pos: &KaniNariEbi) -> BTreeMap<String, Value> {
    let mut ml = <KaniNariEbi as Game>::MoveList::default();
    pos.generate(&mut ml);
    ml.iter()
        .map(|&m| {
            let child = pos.play(m);
            let v = match child.terminal() {
                Some(end) => match end.outcome {
                    Outcome::Win(c) if c == pos.side_to_move() => Dtz::Win(1),
                    Outcome::Win(_) => Dtz::Loss(1),
                    Outcome::Draw => Dtz::Draw,
                },
                None => made_up(child.locate().unwrap().1).before(pos.is_exit(m)),
            };
            (pos.move_text(m).to_string(), verdict(v))
        })
        .collect()
}

fn verdict(v: Dtz) -> Value {
    match v {
        Dtz::Win(d) => json!({"result": "win", "plies": d}),
        Dtz::Loss(d) => json!({"result": "loss", "plies": d}),
        Dtz::Draw => json!({"result": "draw", "plies": null}),
    }
}

fn start(root: &Path) -> (Server, String) {
    let mut c = Config::new(
        0,
        Launch {
            cmd: BOARD.into(),
            args: vec![],
            dir: None,
        },
    );
    c.tables = Some(root.to_path_buf());
    let s = board::start(c).expect("the server starts");
    let page = raw(s.addr, "GET", "/", "", None);
    let meta = "<meta name=\"koma-secret\" content=\"";
    let at = page.find(meta).expect("the page carries the secret") + meta.len();
    let secret = page[at..at + page[at..].find('"').unwrap()].to_string();
    (s, secret)
}

/// Sends one request, returns the body of the answer (its status must be 200).
fn raw(addr: SocketAddr, method: &str, path: &str, secret: &str, body: Option<&Value>) -> String {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nX-Koma-Secret: {secret}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{body}");
    body.to_string()
}

fn endgame(s: &Server, secret: &str, req: Value) -> Value {
    let body = raw(s.addr, "POST", "/api/endgame", secret, Some(&req));
    serde_json::from_str(&body).unwrap()
}

#[test]
fn the_panel_shows_the_tables_verdict_on_the_position_and_each_move() {
    let root = temp_dir("verdicts");
    let (pos, sigs) = position_of("CCCvCCC");
    write_tables(&root, &sigs);
    let (s, secret) = start(&root);
    let text = pos.to_text().to_string();
    let a = endgame(&s, &secret, json!({"game": "kaninariebi", "start": text}));
    assert_eq!(a["gameHasTables"], true, "{a}");
    assert_eq!(a["signature"], "CCCvCCC", "{a}");
    let (_, i) = pos.locate().unwrap();
    assert_eq!(a["verdict"], verdict(made_up(i)), "{a}");
    let shown: BTreeMap<String, Value> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["verdict"].clone(),
            )
        })
        .collect();
    assert_eq!(shown, expected_moves(&pos));
    // Best first for the side to move: a win sooner, a loss later.
    let rank = |v: &Value| match (v["result"].as_str(), v["plies"].as_i64()) {
        (Some("win"), Some(d)) => 1000 - d,
        (Some("loss"), Some(d)) => -1000 + d,
        _ => 0,
    };
    let ranks: Vec<i64> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| rank(&m["verdict"]))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");

    // The same position reached by moves from another start: the moves are
    // read as the game's history, and the verdict is of the last position.
    let mut ml = <KaniNariEbi as Game>::MoveList::default();
    pos.generate(&mut ml);
    let quiet = ml
        .iter()
        .copied()
        .find(|&m| !pos.is_exit(m))
        .expect("a quiet move");
    let after = pos.play(quiet);
    let b = endgame(
        &s,
        &secret,
        json!({"game": "kaninariebi", "start": text, "moves": [pos.move_text(quiet).to_string()]}),
    );
    assert_eq!(
        b["verdict"],
        verdict(made_up(after.locate().unwrap().1)),
        "{b}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn without_a_table_the_panel_says_why() {
    let root = temp_dir("missing");
    let (s, secret) = start(&root);
    let (pos, _) = position_of("CCCvCCC");
    let a = endgame(
        &s,
        &secret,
        json!({"game": "kaninariebi", "start": pos.to_text().to_string()}),
    );
    assert_eq!(a["verdict"], Value::Null, "{a}");
    assert_eq!(a["gameHasTables"], true, "{a}");
    assert_eq!(a["note"], "no table for CCCvCCC", "{a}");
    // The start position: ten pieces, more than any table holds here.
    let b = endgame(&s, &secret, json!({"game": "kaninariebi"}));
    assert_eq!(b["verdict"], Value::Null, "{b}");
    assert!(
        b["note"].as_str().unwrap().starts_with("no table for"),
        "{b}"
    );
    // A game without tables: no panel.
    let c = endgame(&s, &secret, json!({"game": "hasami"}));
    assert_eq!(c["gameHasTables"], false, "{c}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_tables_option_that_is_no_folder_exits_2() {
    let out = std::process::Command::new(BOARD)
        .args(["--port", "0", "--tables", "/nonexistent/koma-tables"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tables /nonexistent/koma-tables: not a folder"),
        "{err}"
    );
}

/// Not a test: writes the made-up tables of a `CCCvCCC` position and the
/// signatures its moves reach into `$KOMA_BROWSER_TABLES`, with the
/// position in `position.txt` there, for the browser test's panel
/// (`tools/browser/test.sh` runs it with `--ignored --exact`).
#[test]
#[ignore = "a fixture for tools/browser/test.sh"]
fn browser_tables() {
    let Some(root) = std::env::var_os("KOMA_BROWSER_TABLES") else {
        println!("KOMA_BROWSER_TABLES is not set: nothing written");
        return;
    };
    let root = PathBuf::from(root);
    std::fs::create_dir_all(&root).unwrap();
    let (pos, sigs) = position_of("CCCvCCC");
    write_tables(&root, &sigs);
    std::fs::write(root.join("position.txt"), pos.to_text().to_string()).unwrap();
}
