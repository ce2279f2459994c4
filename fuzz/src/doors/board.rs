//! The board's HTTP door: raw requests (`board_http`) and sequences of
//! API calls with JSON bodies on one board (`board_api`), answered
//! in-process by the server's own parser and routes (`LocalBoard`).
//!
//! Players are people only: a request naming an engine would start a
//! program the input names, so any request whose JSON holds the string
//! `engine` is left out, and so are the analyses and reviews, which start
//! an engine too (the engine side of the board has its own tests).
//!
//! Properties: a request the parser accepts has a path starting with `/`,
//! an upper-case method, lower-case header names and a body of exactly
//! `Content-Length` bytes; every answer is a 2xx or a 4xx (never a 5xx),
//! every API answer is JSON, and every refusal says why in `error`; a
//! refused move or undo leaves the game as it was, an accepted move adds
//! one ply; a position the positions route prints is read back by it to
//! the same position.

use arbitrary::{Arbitrary, Unstructured};
use koma::board::http::{Request, Response, parse_request};
use koma::board::{Config, LocalBoard};
use koma::client::process::Launch;
use koma::games::GameId;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const SECRET: &str = "fuzz";
const HOST: &str = "127.0.0.1:8080";
/// Calls per input.
const MAX_CALLS: usize = 24;

fn board() -> LocalBoard {
    let mut config = Config::new(
        8080,
        Launch {
            cmd: "/nonexistent/koma-fuzz-engine".into(),
            args: Vec::new(),
            dir: None,
        },
    );
    config.allow_hosts = vec!["board.fuzz".into()];
    LocalBoard::new(config, SECRET.into())
}

/// Whether a request would start an engine: an analysis or a review, or
/// a JSON body that names an engine anywhere (as a value).
fn starts_an_engine(path: &str, body: &[u8]) -> bool {
    path.starts_with("/api/analyses") || path.ends_with("/review") || names_an_engine(body)
}

/// Whether a JSON body names an engine anywhere (as a value).
fn names_an_engine(body: &[u8]) -> bool {
    fn walk(v: &Value) -> bool {
        match v {
            Value::String(s) => s == "engine",
            Value::Array(a) => a.iter().any(walk),
            Value::Object(o) => o.values().any(walk),
            _ => false,
        }
    }
    serde_json::from_slice::<Value>(body).is_ok_and(|v| walk(&v))
}

/// Checks an answer; returns its JSON when it has one.
fn answer(req: &Request, r: &Response) -> Option<Value> {
    assert!(
        (200..300).contains(&r.status) || (400..500).contains(&r.status),
        "{} {}: {} {}",
        req.method,
        req.path,
        r.status,
        String::from_utf8_lossy(&r.body)
    );
    if r.content_type != "application/json" {
        assert!(
            !req.path.starts_with("/api/") || r.status == 200,
            "{}",
            req.path
        );
        return None;
    }
    let v: Value = serde_json::from_slice(&r.body).expect("the answer is JSON");
    if r.status >= 400 {
        assert!(v["error"].is_string(), "{v}");
    }
    Some(v)
}

pub fn board_http(data: &[u8]) {
    let req = match parse_request(data) {
        Ok(r) => r,
        Err(r) => {
            assert!(r.status >= 400, "a refusal is a 4xx or 5xx");
            let v: Value = serde_json::from_slice(&r.body).expect("refusals are JSON");
            assert!(v["error"].is_string());
            return;
        }
    };
    assert!(req.path.starts_with('/'), "{:?}", req.path);
    assert!(!req.method.is_empty() && req.method.bytes().all(|b| b.is_ascii_uppercase()));
    for (n, _) in &req.headers {
        assert_eq!(*n, n.to_ascii_lowercase());
    }
    let length = req
        .header("content-length")
        .map_or(0, |v| v.parse().unwrap_or(0));
    assert_eq!(req.body.len(), length);
    if starts_an_engine(&req.path, &req.body) {
        return;
    }
    let b = board();
    let r = b.handle(&req);
    answer(&req, &r);
}

#[derive(Arbitrary, Debug)]
enum Call {
    NewTable {
        game: u8,
        rules: Vec<(u8, RuleArg)>,
        start: Option<StartArg>,
        clocks: Option<(u8, u16)>,
        max_plies: Option<u16>,
    },
    Move {
        table: u8,
        mv: MoveArg,
        ply: Option<u8>,
    },
    Undo(u8),
    Close(u8),
    Show {
        table: u8,
        since: Option<u8>,
        ply: Option<u8>,
    },
    Record(u8),
    /// A record of a table, read back by the records and review routes.
    Reread(u8),
    Records(String),
    Review(String, u8),
    Positions {
        game: u8,
        rules: Vec<(u8, RuleArg)>,
        start: Option<StartArg>,
        moves: Vec<MoveArg>,
    },
    /// Any body to one of the POST routes.
    Raw(u8, String),
    Games,
    Tables,
}

#[derive(Arbitrary, Debug)]
enum RuleArg {
    Valid(u8),
    Text(String),
    Number(i64),
    Bool(bool),
}

#[derive(Arbitrary, Debug)]
enum StartArg {
    Known(u8),
    Text(String),
}

#[derive(Arbitrary, Debug)]
enum MoveArg {
    /// The k-th legal move.
    Legal(u8),
    Text(String),
}

struct Session {
    board: LocalBoard,
    /// Ids of the tables opened.
    tables: Vec<u64>,
}

pub fn board_api(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut s = Session {
        board: board(),
        tables: Vec::new(),
    };
    for _ in 0..MAX_CALLS {
        if u.is_empty() {
            break;
        }
        let Ok(call) = u.arbitrary::<Call>() else {
            break;
        };
        s.call(call);
    }
}

fn game_of(k: u8) -> GameId {
    GameId::ALL[usize::from(k) % GameId::ALL.len()]
}

fn rules_json(game: GameId, rules: Vec<(u8, RuleArg)>) -> Value {
    let specs = game.rule_specs();
    let mut map = BTreeMap::new();
    for (k, arg) in rules {
        let name = specs
            .get(usize::from(k) % (specs.len() + 1))
            .map_or("NoSuchRule", |s| s.name);
        let v = match arg {
            RuleArg::Valid(k) => match specs.iter().find(|s| s.name == name).map(|s| &s.kind) {
                Some(koma::core::OptionKind::Combo { values, .. }) => {
                    json!(values[usize::from(k) % values.len()])
                }
                Some(koma::core::OptionKind::Spin { min, .. }) => json!(min + i64::from(k % 8)),
                _ => json!(k % 2 == 0),
            },
            RuleArg::Text(t) => json!(t),
            RuleArg::Number(n) => json!(n),
            RuleArg::Bool(b) => json!(b),
        };
        map.insert(name.to_string(), v);
    }
    json!(map)
}

fn start_json(game: GameId, start: Option<StartArg>) -> Value {
    match start {
        None => Value::Null,
        Some(StartArg::Known(k)) => {
            let known = super::known_positions(game);
            json!(known[usize::from(k) % known.len()])
        }
        Some(StartArg::Text(t)) => json!(t),
    }
}

/// The parts of a game's state a refused action must leave alone (the
/// clocks run, and the thinking comes and goes).
fn steady(mut v: Value) -> Value {
    if let Value::Object(o) = &mut v {
        o.remove("clocks");
        o.remove("thinking");
    }
    v
}

impl Session {
    fn request(&self, method: &str, path: &str, body: Option<String>) -> (u16, Option<Value>) {
        let body = body.unwrap_or_default().into_bytes();
        if starts_an_engine(path, &body) {
            return (0, None);
        }
        let mut headers = vec![
            ("host".to_string(), HOST.to_string()),
            ("x-koma-secret".to_string(), SECRET.to_string()),
        ];
        if method == "POST" {
            headers.push(("content-type".into(), "application/json".into()));
        }
        let (path, query) = match path.split_once('?') {
            None => (path.to_string(), Vec::new()),
            Some((p, q)) => (
                p.to_string(),
                q.split('&')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
        };
        let req = Request {
            method: method.into(),
            path,
            query,
            headers,
            body,
        };
        let r = self.board.handle(&req);
        (r.status, answer(&req, &r))
    }

    fn post(&self, path: &str, body: Value) -> (u16, Option<Value>) {
        self.request("POST", path, Some(body.to_string()))
    }

    fn table(&self, k: u8) -> u64 {
        // Now and then an id that is not open.
        let n = self.tables.len() + 1;
        self.tables
            .get(usize::from(k) % n)
            .copied()
            .unwrap_or(u64::from(k) + 1000)
    }

    fn show(&self, id: u64) -> Option<Value> {
        match self.request("GET", &format!("/api/tables/{id}"), None) {
            (200, v) => v,
            _ => None,
        }
    }

    fn call(&mut self, call: Call) {
        match call {
            Call::NewTable {
                game,
                rules,
                start,
                clocks,
                max_plies,
            } => {
                let g = game_of(game);
                let human = |k: usize| match clocks {
                    // Clocks of a minute at least: a clock running out
                    // between two calls would change the game.
                    Some((mode, secs)) if mode % 2 == 0 => json!({ "kind": "human",
                        "time": { "mode": "clock", "base": 60 + u32::from(secs), "inc": k } }),
                    Some((_, secs)) => json!({ "kind": "human",
                        "time": { "mode": "move", "seconds": 60 + u32::from(secs) } }),
                    None => json!({ "kind": "human" }),
                };
                let mut body = json!({
                    "game": g.name(),
                    "rules": rules_json(g, rules),
                    "players": [human(0), human(1)],
                    "start": start_json(g, start),
                });
                if let Some(m) = max_plies {
                    body["maxPlies"] = json!(m);
                }
                if let (200, Some(v)) = self.post("/api/tables", body) {
                    self.tables
                        .push(v["id"].as_u64().expect("a new table has an id"));
                }
            }
            Call::Move { table, mv, ply } => {
                let id = self.table(table);
                let before = self.show(id);
                let text = match (mv, &before) {
                    (MoveArg::Legal(k), Some(b)) => match b["legal"]["moves"].as_array() {
                        Some(l) if !l.is_empty() => l[usize::from(k) % l.len()]["t"].clone(),
                        _ => json!("pass"),
                    },
                    (MoveArg::Legal(_), None) => json!("a1a2"),
                    (MoveArg::Text(t), _) => json!(t),
                };
                let mut body = json!({ "move": text });
                if let Some(p) = ply {
                    body["ply"] = json!(p);
                }
                let (status, _) = self.post(&format!("/api/tables/{id}/move"), body);
                self.after(id, before, status, 1);
            }
            Call::Undo(table) => {
                let id = self.table(table);
                let before = self.show(id);
                let (status, _) = self.post(&format!("/api/tables/{id}/undo"), json!({}));
                self.after(id, before, status, -1);
            }
            Call::Close(table) => {
                let id = self.table(table);
                self.post(&format!("/api/tables/{id}/close"), json!({}));
            }
            Call::Show { table, since, ply } => {
                let id = self.table(table);
                let mut q = Vec::new();
                if let Some(s) = since {
                    q.push(format!("since={s}"));
                }
                if let Some(p) = ply {
                    q.push(format!("ply={p}"));
                }
                self.request("GET", &format!("/api/tables/{id}?{}", q.join("&")), None);
            }
            Call::Record(table) => {
                let id = self.table(table);
                self.request("GET", &format!("/api/tables/{id}/record"), None);
            }
            Call::Reread(table) => {
                let id = self.table(table);
                let req = Request {
                    method: "GET".into(),
                    path: format!("/api/tables/{id}/record"),
                    headers: vec![
                        ("host".into(), HOST.into()),
                        ("x-koma-secret".into(), SECRET.into()),
                    ],
                    ..Request::default()
                };
                let r = self.board.handle(&req);
                if r.status == 200 {
                    let text = String::from_utf8(r.body).expect("a record is text");
                    let (status, v) = self.post("/api/records", json!({ "text": text }));
                    assert_eq!(status, 200);
                    let list = v.expect("JSON");
                    let first = &list["records"][0];
                    assert_eq!(first["ok"], json!(true), "{text}\n{list}");
                    // A finished game's record is one `--replay` accepts.
                    if first["result"] != json!("*") {
                        assert_eq!(first["valid"], json!(true), "{text}\n{list}");
                    }
                    let (status, _) =
                        self.post("/api/tables", json!({ "review": { "text": text } }));
                    assert_eq!(status, 200, "{text}");
                }
            }
            Call::Records(text) => {
                self.post("/api/records", json!({ "text": text }));
            }
            Call::Review(text, index) => {
                self.post(
                    "/api/tables",
                    json!({ "review": { "text": text, "index": index } }),
                );
            }
            Call::Positions {
                game,
                rules,
                start,
                moves,
            } => self.positions(game_of(game), rules, start, moves),
            Call::Raw(route, body) => {
                let path = match route % 6 {
                    0 => "/api/tables".to_string(),
                    1 => "/api/records".to_string(),
                    2 => "/api/positions".to_string(),
                    3 => format!("/api/tables/{}/move", self.table(route / 6)),
                    4 => format!("/api/tables/{}/undo", self.table(route / 6)),
                    _ => format!("/api/tables/{}/close", self.table(route / 6)),
                };
                self.request("POST", &path, Some(body));
            }
            Call::Games => {
                self.request("GET", "/api/games", None);
            }
            Call::Tables => {
                self.request("GET", "/api/tables", None);
            }
        }
    }

    /// After a move (`step` 1) or an undo (-1): refused, nothing changed;
    /// a move accepted, one ply more.
    fn after(&self, id: u64, before: Option<Value>, status: u16, step: i64) {
        let (Some(before), Some(now)) = (before, self.show(id)) else {
            return;
        };
        if status >= 400 {
            assert_eq!(
                steady(now),
                steady(before),
                "a refused action changed the game"
            );
        } else if step == 1 {
            let plies = |v: &Value| v["plies"].as_i64().expect("plies");
            assert_eq!(plies(&now), plies(&before) + 1);
        }
    }

    fn positions(
        &self,
        g: GameId,
        rules: Vec<(u8, RuleArg)>,
        start: Option<StartArg>,
        moves: Vec<MoveArg>,
    ) {
        let rules = rules_json(g, rules);
        let mut body = json!({ "game": g.name(), "rules": rules, "start": start_json(g, start) });
        let mut texts: Vec<Value> = Vec::new();
        for mv in moves {
            body["moves"] = json!(texts);
            let (status, v) = self.post("/api/positions", body.clone());
            let Some(v) = v.filter(|_| status == 200) else {
                return;
            };
            let position = v["position"].clone();
            // The position printed reads back as itself.
            let again = json!({ "game": g.name(), "rules": body["rules"], "start": position });
            let (s2, v2) = self.post("/api/positions", again);
            assert_eq!(s2, 200, "{position} is refused");
            assert_eq!(v2.expect("JSON")["position"], position);
            let legal = v["legal"].as_array().cloned().unwrap_or_default();
            texts.push(match mv {
                MoveArg::Legal(k) if !legal.is_empty() => {
                    legal[usize::from(k) % legal.len()].clone()
                }
                MoveArg::Legal(_) => return,
                MoveArg::Text(t) => json!(t),
            });
        }
    }
}
