//! The routes: the page and its assets, and the JSON API the page uses.
//! Every refusal is a 4xx with `{"error": "<what is wrong>"}`.
//!
//! Because the page can start programs (engines), requests must come from
//! the page itself, whatever address the server listens on:
//! - the `Host` header must name the server: an IP address it answers on,
//!   `localhost` when it listens on loopback, or a name given with
//!   `--allow-host` (this defeats DNS rebinding, whose requests carry the
//!   attacker's host name), and an `Origin`, when sent, the same;
//! - every API request carries the server's secret in `X-Koma-Secret`: a
//!   random value made at start and written into the page it serves,
//!   which another site's page cannot read;
//! - every `POST` is JSON (which a foreign page cannot send without the
//!   browser asking first).
//!
//! The routes, what they take and answer: `docs/board-api.md`.

use super::analysis::{EngineSetup, Live, MAX_LINES, Refusal, Target};
use super::games::{BoardGame, BoardGames};
use super::http::{Request, Response};
use super::play::position_command;
use super::records;
use super::review::{GameAnalysis, Limit};
use super::review_run;
use super::table::{EndView, EngineSpec, Player, Role, Table};
use super::variations;
use super::{Registry, launch_text};
use crate::client::clock::{EngineLimits, TimeControl};
use crate::client::process::Launch;
use crate::core::{OptionKind, Presentation, RuleValues};
use crate::games::GameId;
use crate::protocol::{parse_move, parse_position};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const INDEX_HTML: &str = include_str!("assets/index.html");
const BOARD_JS: &str = include_str!("assets/board.js");
const BOARD_CSS: &str = include_str!("assets/board.css");

/// Who may talk to the server: the hosts it answers to and the secret
/// every API request must carry.
pub struct Access {
    addr: SocketAddr,
    /// Host names allowed besides IP addresses and `localhost`, lower case.
    names: Vec<String>,
    secret: String,
    /// The page with the secret written in.
    page: String,
}

/// The header that carries the secret.
pub const SECRET_HEADER: &str = "x-koma-secret";

/// Where the page's copy of the secret goes.
const SECRET_SLOT: &str = "{{KOMA_SECRET}}";

impl Access {
    /// `addr` is the address the server listens on, `names` the host names
    /// allowed with `--allow-host`.
    pub fn new(addr: SocketAddr, names: &[String], secret: String) -> Access {
        Access {
            addr,
            names: names
                .iter()
                .map(|n| n.trim().trim_end_matches('.').to_ascii_lowercase())
                .collect(),
            page: INDEX_HTML.replace(SECRET_SLOT, &secret),
            secret,
        }
    }

    /// Whether a `Host` value (`name[:port]`) names this server.
    pub fn host_ok(&self, host: &str) -> bool {
        let host = host.trim();
        let (name, port) = match host.rsplit_once(':') {
            // An IPv6 address without a port ends in `]`.
            Some((n, p)) if !p.contains(']') => match p.parse::<u16>() {
                Ok(port) => (n, port),
                Err(_) => return false,
            },
            _ => (host, 80),
        };
        if port != self.addr.port() {
            return false;
        }
        let bound = self.addr.ip();
        let literal = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        if let Ok(ip) = literal.parse::<IpAddr>() {
            // An address cannot be rebound to another machine: any one the
            // server can be reached at is fine.
            return ip == bound
                || bound.is_unspecified()
                || (bound.is_loopback() && ip.is_loopback());
        }
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        (name == "localhost" && (bound.is_loopback() || bound.is_unspecified()))
            || self.names.contains(&name)
    }

    /// Whether an `Origin` value is this server's own page.
    pub fn origin_ok(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|h| !h.contains('/') && self.host_ok(h))
    }

    /// Compares in constant time: the secret does not leak through timing.
    fn secret_ok(&self, given: &str) -> bool {
        let (a, b) = (given.as_bytes(), self.secret.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// How to reach the server, for messages.
    fn example(&self) -> String {
        let ip = self.addr.ip();
        if ip.is_unspecified() {
            format!("one of its addresses, port {}", self.addr.port())
        } else {
            self.addr.to_string()
        }
    }
}

/// A fresh random secret: 128 bits from the operating system, in hex.
pub fn new_secret() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Answers one request.
pub fn handle(reg: &Registry, access: &Access, req: &Request) -> Response {
    match req.header("host") {
        None => return Response::error(400, "the request has no Host header"),
        Some(h) if !access.host_ok(h) => {
            return Response::error(
                403,
                format!(
                    "this server answers to {}, not to host {h:?} (koma-board --allow-host NAME \
                     allows a name)",
                    access.example()
                ),
            );
        }
        Some(_) => {}
    }
    if let Some(origin) = req.header("origin")
        && !access.origin_ok(origin)
    {
        return Response::error(403, format!("requests from {origin:?} are not served"));
    }
    if req.path.starts_with("/api/")
        && !req
            .header(SECRET_HEADER)
            .is_some_and(|s| access.secret_ok(s))
    {
        return Response::error(
            403,
            "the request lacks the page's secret (X-Koma-Secret): reload the page",
        );
    }
    if req.method == "POST" {
        let json_body = req
            .header("content-type")
            .is_some_and(|c| c.to_ascii_lowercase().starts_with("application/json"));
        if !json_body {
            return Response::error(
                415,
                "POST bodies must be JSON (Content-Type: application/json)",
            );
        }
    }
    match route(reg, access, req) {
        Ok(r) => r,
        Err((status, msg)) => Response::error(status, msg),
    }
}

type Answer = Result<Response, (u16, String)>;

fn ok(v: impl Serialize) -> Answer {
    Ok(Response::json(200, &v))
}

fn body<T: for<'de> Deserialize<'de>>(req: &Request) -> Result<T, (u16, String)> {
    serde_json::from_slice(&req.body).map_err(|e| (400, format!("bad JSON body: {e}")))
}

/// Each path once, with the method it answers: any other method on a
/// known path is a 405.
fn route(reg: &Registry, access: &Access, req: &Request) -> Answer {
    let path = req.path.as_str();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let is_get = req.method == "GET" || req.method == "HEAD";
    let only = |method: &str, answer: &dyn Fn() -> Answer| {
        let allowed = if method == "GET" {
            is_get
        } else {
            req.method == method
        };
        if allowed {
            answer()
        } else {
            Err((405, format!("{} is not allowed on {path}", req.method)))
        }
    };
    let get = |answer: &dyn Fn() -> Answer| only("GET", answer);
    let post = |answer: &dyn Fn() -> Answer| only("POST", answer);
    match parts.as_slice() {
        [""] | ["index.html"] => get(&|| {
            Ok(Response::new(
                200,
                "text/html; charset=utf-8",
                access.page.as_str(),
            ))
        }),
        ["board.js"] => get(&|| {
            Ok(Response::new(
                200,
                "text/javascript; charset=utf-8",
                BOARD_JS,
            ))
        }),
        ["board.css"] => get(&|| Ok(Response::new(200, "text/css; charset=utf-8", BOARD_CSS))),
        ["favicon.ico"] if is_get => Ok(Response::new(204, "image/x-icon", Vec::new())),
        ["api", "games"] => get(&|| ok(games(reg))),
        ["api", "tables"] if is_get => ok(tables(reg)),
        ["api", "tables"] => post(&|| new_table(reg, req)),
        ["api", "tables", id] => get(&|| show(reg, req, id)),
        ["api", "tables", id, "move"] => post(&|| human_move(reg, req, id)),
        ["api", "tables", id, "variations"] => post(&|| set_variations(reg, req, id)),
        ["api", "tables", id, "undo"] => post(&|| undo(reg, id)),
        ["api", "tables", id, "close"] => post(&|| close_table(reg, id)),
        ["api", "tables", id, "record"] => get(&|| record_file(reg, id)),
        ["api", "records"] => post(&|| {
            let r: RecordsReq = body(req)?;
            ok(records::list(
                &reg.config.games,
                &r.text,
                reg.config.match_size,
            ))
        }),
        ["api", "positions"] => post(&|| positions(reg, req)),
        ["api", "endgame"] => post(&|| endgame(reg, req)),
        ["api", "analyses"] => post(&|| new_live(reg, req)),
        ["api", "analyses", id] => get(&|| {
            let l = live(reg, id)?;
            let mut st = l.lock();
            st.last_seen = Instant::now();
            ok(st.view(&l))
        }),
        ["api", "analyses", id, "position"] => post(&|| live_position(reg, req, id)),
        ["api", "analyses", id, "close"] => post(&|| close_live(reg, id)),
        ["api", "tables", id, "review"] => post(&|| start_review(reg, req, id)),
        ["api", "tables", id, "review", "stop"] => post(&|| stop_review(reg, id)),
        ["api", ..] => Err((404, format!("no such API route {path}"))),
        _ => Err((404, format!("nothing at {path}"))),
    }
}

/// A move played on the board by hand.
fn human_move(reg: &Registry, req: &Request, id: &str) -> Answer {
    let t = table(reg, id)?;
    let m: MoveReq = body(req)?;
    let text =
        parse_move(m.mv.trim()).map_err(|e| (400, format!("bad move text {:?}: {e}", m.mv)))?;
    t.human_move(&text, m.ply)?;
    let st = t.lock();
    ok(st.view(t.id, None, None))
}

/// The side lines kept with the game, replaced whole.
fn set_variations(reg: &Registry, req: &Request, id: &str) -> Answer {
    let t = table(reg, id)?;
    let r: VariationsReq = body(req)?;
    let mut st = t.lock();
    st.variations = variations::check(st.play.as_ref(), &r.variations).map_err(|e| (422, e))?;
    st.version += 1;
    ok(st.view(t.id, None, None))
}

/// Takes back the last move.
fn undo(reg: &Registry, id: &str) -> Answer {
    let t = table(reg, id)?;
    t.undo()?;
    let st = t.lock();
    ok(st.view(t.id, None, None))
}

/// Ends a game and frees its table.
fn close_table(reg: &Registry, id: &str) -> Answer {
    let id = table_id(id)?;
    if reg.close(id) {
        #[derive(Serialize)]
        struct Closed {
            closed: u64,
        }
        ok(Closed { closed: id })
    } else {
        Err((404, format!("no game {id}")))
    }
}

/// The game's record as a file to download.
fn record_file(reg: &Registry, id: &str) -> Answer {
    let t = table(reg, id)?;
    let st = t.lock();
    let r = records::record_of(&st);
    let name = format!("koma-{}-{}.pgn", st.play.line().game(), t.id);
    Ok(Response::new(
        200,
        "text/plain; charset=utf-8",
        r.text_with(&st.variations),
    )
    .with_header(
        "Content-Disposition",
        format!("attachment; filename=\"{name}\""),
    ))
}

/// Points a live analysis at another position.
fn live_position(reg: &Registry, req: &Request, id: &str) -> Answer {
    let l = live(reg, id)?;
    let r: LivePositionReq = body(req)?;
    let game = reg.config.games.of(l.game);
    let target = target_of(game, &l.rules, &r.start, &r.moves, r.lines, r.depth)?;
    l.retarget(target, || reg.take_slot())
        .map_err(|e| match e {
            Refusal::Failed(why) => (409, why),
            Refusal::Busy(why) => (503, why),
        })?;
    let mut st = l.lock();
    st.last_seen = Instant::now();
    ok(st.view(&l))
}

/// Ends a live analysis.
fn close_live(reg: &Registry, id: &str) -> Answer {
    let id = number_id(id, "analysis")?;
    if reg.close_live(id) {
        #[derive(Serialize)]
        struct Closed {
            closed: u64,
        }
        ok(Closed { closed: id })
    } else {
        Err((404, format!("no analysis {id}")))
    }
}

/// Asks a running review to stop.
fn stop_review(reg: &Registry, id: &str) -> Answer {
    let t = table(reg, id)?;
    let mut st = t.lock();
    let a = (st.analysis.as_mut()).ok_or((409, "this game has no review".to_string()))?;
    a.stop = true;
    st.version += 1;
    drop(st);
    t.notify();
    let st = t.lock();
    ok(st.view(t.id, None, None))
}

fn number_id(s: &str, what: &str) -> Result<u64, (u16, String)> {
    s.parse()
        .map_err(|_| (404, format!("no {what} {s:?} ({what} ids are numbers)")))
}

fn live(reg: &Registry, id: &str) -> Result<std::sync::Arc<Live>, (u16, String)> {
    let id = number_id(id, "analysis")?;
    reg.live(id)
        .ok_or_else(|| (404, format!("no analysis {id}: it was closed")))
}

fn table_id(s: &str) -> Result<u64, (u16, String)> {
    s.parse()
        .map_err(|_| (404, format!("no game {s:?} (game ids are numbers)")))
}

fn table(reg: &Registry, id: &str) -> Result<std::sync::Arc<Table>, (u16, String)> {
    let id = table_id(id)?;
    reg.get(id)
        .ok_or_else(|| (404, format!("no game {id}: it ended or was closed")))
}

fn show(reg: &Registry, req: &Request, id: &str) -> Answer {
    let t = table(reg, id)?;
    let number = |name: &str| -> Result<Option<u64>, (u16, String)> {
        match req.query(name) {
            None | Some("") => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| (400, format!("{name}={v:?}: expected a whole number"))),
        }
    };
    let since = number("since")?;
    let ply = number("ply")?.map(|p| p as usize);
    let mut st = t.lock();
    st.last_seen = Instant::now();
    ok(st.view(t.id, since, ply))
}

/// The games with their sizes and rule options, the default engine and
/// its levels.
fn games(reg: &Registry) -> impl Serialize {
    #[derive(Serialize)]
    struct Games {
        games: Vec<GameInfo>,
        engine: String,
        levels: Vec<String>,
    }
    #[derive(Serialize)]
    struct GameInfo {
        name: &'static str,
        files: u8,
        ranks: u8,
        rules: Vec<RuleEntry>,
        /// Whether the game has endgame tables (`POST /api/endgame`).
        endgame: bool,
        /// What the page shows of the game: titles, names, help, marks.
        #[serde(flatten)]
        presentation: &'static Presentation,
    }
    #[derive(Serialize)]
    struct RuleEntry {
        #[serde(flatten)]
        spec: RuleInfo,
        help: &'static str,
    }
    /// A rule option as the protocol's `option` line has it.
    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum RuleInfo {
        Check {
            name: &'static str,
            default: bool,
        },
        Spin {
            name: &'static str,
            default: i64,
            min: i64,
            max: i64,
        },
        Combo {
            name: &'static str,
            default: &'static str,
            values: &'static [&'static str],
        },
        Text {
            name: &'static str,
            default: &'static str,
        },
        Button {
            name: &'static str,
        },
    }
    let info = |b: &BoardGame| {
        let g = b.id();
        let entry = g.entry();
        let (files, ranks) = (entry.files, entry.ranks);
        let rules = g.rule_specs().iter().map(|s| RuleEntry {
            help: s.help,
            spec: match s.kind {
                OptionKind::Check { default } => RuleInfo::Check {
                    name: s.name,
                    default,
                },
                OptionKind::Spin { default, min, max } => RuleInfo::Spin {
                    name: s.name,
                    default,
                    min,
                    max,
                },
                OptionKind::Combo { default, values } => RuleInfo::Combo {
                    name: s.name,
                    default,
                    values,
                },
                OptionKind::Text { default } => RuleInfo::Text {
                    name: s.name,
                    default,
                },
                OptionKind::Button => RuleInfo::Button { name: s.name },
            },
        });
        GameInfo {
            name: g.name(),
            files,
            ranks,
            rules: rules.collect(),
            endgame: b.tables.is_some(),
            presentation: g.presentation(),
        }
    };
    Games {
        games: reg.config.games.iter().map(info).collect(),
        engine: launch_text(&reg.config.engine),
        levels: reg.levels(&reg.config.engine).unwrap_or_else(|e| {
            log::warn!("the default engine's levels are unknown: {e}");
            Vec::new()
        }),
    }
}

/// The open tables, for another tab to pick one to watch.
fn tables(reg: &Registry) -> impl Serialize {
    #[derive(Serialize)]
    struct Tables {
        tables: Vec<TableInfo>,
    }
    #[derive(Serialize)]
    struct TableInfo {
        id: u64,
        game: &'static str,
        players: [String; 2],
        plies: usize,
        end: Option<EndView>,
        review: bool,
    }
    let info = |t: &std::sync::Arc<Table>| {
        let st = t.lock();
        TableInfo {
            id: t.id,
            game: st.play.line().game(),
            players: st.names().map(str::to_string),
            plies: st.play.line().plies(),
            end: st.end_view(),
            review: st.review.is_some(),
        }
    };
    Tables {
        tables: reg.list().iter().map(info).collect(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
    ply: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariationsReq {
    variations: Vec<variations::VariationReq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordsReq {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeReq {
    /// `none`, `move` (seconds per move) or `clock` (base + increment).
    mode: String,
    seconds: Option<f64>,
    base: Option<f64>,
    inc: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerReq {
    /// `human` or `engine`.
    kind: String,
    name: Option<String>,
    command: Option<String>,
    level: Option<String>,
    time: Option<TimeReq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewReq {
    text: String,
    #[serde(default)]
    index: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTableReq {
    game: Option<String>,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    players: Option<Vec<PlayerReq>>,
    #[serde(rename = "maxPlies")]
    max_plies: Option<u32>,
    /// A position string to start from instead of the start position.
    start: Option<String>,
    review: Option<ReviewReq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionsReq {
    game: String,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

fn game_of<'g>(games: &'g BoardGames, name: &str) -> Result<&'g BoardGame, (u16, String)> {
    games.named(name).ok_or_else(|| {
        let names = games.names();
        (
            400,
            format!(
                "unknown game {name:?}: expected one of {}",
                names.join(", ")
            ),
        )
    })
}

/// The page's rule choices (`true`, `3`, `"lead3"`), read as the referee
/// reads `--rule`.
fn rule_values(game: GameId, rules: &BTreeMap<String, Value>) -> Result<RuleValues, (u16, String)> {
    let mut pairs = Vec::new();
    for (k, v) in rules {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            _ => {
                let msg = format!("rule {k}: expected a string, a number or true/false");
                return Err((400, msg));
            }
        };
        pairs.push((k.as_str(), text));
    }
    game.read_rules(pairs.iter().map(|(k, v)| (*k, v.as_str())))
        .map_err(|e| (400, e.to_string()))
}

fn start_text(start: &Option<String>) -> Result<Option<crate::core::PositionText>, (u16, String)> {
    match start.as_deref().map(str::trim) {
        None | Some("") | Some("startpos") => Ok(None),
        Some(s) => parse_position(s)
            .map(Some)
            .map_err(|e| (400, format!("bad start position: {e}"))),
    }
}

/// Seconds from the page: finite, not negative, at most a day.
fn seconds(v: Option<f64>, what: &str) -> Result<Duration, (u16, String)> {
    let x = v.ok_or_else(|| (400, format!("{what} is missing")))?;
    if !x.is_finite() || !(0.0..=86_400.0).contains(&x) {
        return Err((
            400,
            format!("{what}: expected seconds from 0 to 86400, got {x}"),
        ));
    }
    Ok(Duration::from_secs_f64(x))
}

fn limits(t: &Option<TimeReq>, engine: bool, side: &str) -> Result<EngineLimits, (u16, String)> {
    let mode = t.as_ref().map_or("none", |t| t.mode.as_str());
    let l = match (mode, t) {
        ("none", _) => EngineLimits::default(),
        ("move", Some(t)) => {
            let s = seconds(t.seconds, &format!("{side}: seconds per move"))?;
            if s.is_zero() {
                return Err((400, format!("{side}: seconds per move must be more than 0")));
            }
            EngineLimits {
                movetime: Some(s),
                ..EngineLimits::default()
            }
        }
        ("clock", Some(t)) => {
            let base = seconds(t.base, &format!("{side}: clock base"))?;
            let inc = seconds(t.inc.or(Some(0.0)), &format!("{side}: clock increment"))?;
            if base.is_zero() && inc.is_zero() {
                return Err((400, format!("{side}: a clock needs some time")));
            }
            EngineLimits {
                tc: Some(TimeControl {
                    moves: None,
                    base,
                    inc,
                }),
                ..EngineLimits::default()
            }
        }
        (m, _) => {
            return Err((
                400,
                format!("{side}: time mode {m:?}: expected none, move or clock"),
            ));
        }
    };
    if engine && l == EngineLimits::default() {
        return Err((
            400,
            format!("{side}: an engine needs a time limit (seconds per move or a clock)"),
        ));
    }
    Ok(l)
}

/// An engine command line as typed: the program, then its arguments,
/// split at blanks. A relative program path with a `/` is taken from the
/// server's working directory.
fn launch_of(reg: &Registry, command: &Option<String>) -> Launch {
    let text = command.as_deref().map(str::trim).unwrap_or("");
    let mut words = text.split_whitespace();
    let Some(cmd) = words.next() else {
        return reg.config.engine.clone();
    };
    let mut path = PathBuf::from(cmd);
    if !path.is_absolute()
        && cmd.contains('/')
        && let Ok(cwd) = std::env::current_dir()
    {
        path = cwd.join(path);
    }
    Launch {
        cmd: path,
        args: words.map(str::to_string).collect(),
        dir: None,
    }
}

fn player(reg: &Registry, p: &PlayerReq, k: usize) -> Result<Player, (u16, String)> {
    let side = ["first player", "second player"][k];
    let name = p.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if let Some(n) = name
        && n.chars().count() > 60
    {
        return Err((
            400,
            format!("{side}: the name is longer than 60 characters"),
        ));
    }
    match p.kind.as_str() {
        "human" => Ok(Player {
            role: Role::Human,
            name: name.unwrap_or("Human").to_string(),
            limits: limits(&p.time, false, side)?,
        }),
        "engine" => {
            let launch = launch_of(reg, &p.command);
            let level = match p.level.as_deref() {
                None | Some("") | Some("default") => None,
                Some(l) => match reg.levels(&launch) {
                    Ok(levels) if !levels.iter().any(|v| v == l) => {
                        let expected = match levels.is_empty() {
                            true => "default (the engine has no levels)".to_string(),
                            false => format!("{} or default", levels.join(", ")),
                        };
                        let msg = format!("{side}: level {l:?}: expected {expected}");
                        return Err((400, msg));
                    }
                    // An engine that does not start loses its first game,
                    // which says why.
                    _ => Some(l.to_string()),
                },
            };
            let base = launch.short_name();
            let default_name = match &level {
                Some(l) => format!("{base} ({l})"),
                None => base,
            };
            Ok(Player {
                role: Role::Engine(EngineSpec {
                    command: launch_text(&launch),
                    launch,
                    level,
                }),
                name: name.map_or(default_name, str::to_string),
                limits: limits(&p.time, true, side)?,
            })
        }
        k => Err((400, format!("{side}: kind {k:?}: expected human or engine"))),
    }
}

fn new_table(reg: &Registry, req: &Request) -> Answer {
    let r: NewTableReq = body(req)?;
    let id = reg.next_id();
    let c = &reg.config;
    let table = if let Some(rv) = &r.review {
        if r.game.is_some() || r.players.is_some() || !r.rules.is_empty() || r.start.is_some() {
            return Err((
                400,
                "a review takes only the record (text, index), not game, players, rules or start"
                    .into(),
            ));
        }
        let loaded =
            records::load(&c.games, &rv.text, rv.index, c.match_size).map_err(|e| (422, e))?;
        let viewer = |name: &String| Player {
            role: Role::Viewer,
            name: name.clone(),
            limits: EngineLimits::default(),
        };
        let players = [viewer(&loaded.names[0]), viewer(&loaded.names[1])];
        let t = Table::new(
            id,
            loaded.play,
            players,
            None,
            Some(loaded.review),
            c.margin,
            c.timeouts,
        );
        {
            let mut st = t.lock();
            st.set_comments(loaded.comments);
            st.variations = loaded.variations;
            match loaded.analysis {
                Some(Ok(a)) => st.analysis = Some(a),
                Some(Err(e)) => st.note(format!("the record's review is not shown: {e}")),
                None => {}
            }
        }
        t
    } else {
        let game = game_of(
            &c.games,
            r.game.as_deref().unwrap_or(GameId::DEFAULT.name()),
        )?;
        let rules = rule_values(game.id(), &r.rules)?;
        let start = start_text(&r.start)?;
        let play = (game.new_play)(&rules, start.as_ref()).map_err(|e| (400, e.to_string()))?;
        let reqs = r.players.unwrap_or_default();
        let mut players = if reqs.is_empty() {
            let human = |n: &str| Player {
                role: Role::Human,
                name: n.to_string(),
                limits: EngineLimits::default(),
            };
            [human("Human"), human("Human")]
        } else if reqs.len() == 2 {
            [player(reg, &reqs[0], 0)?, player(reg, &reqs[1], 1)?]
        } else {
            return Err((400, format!("players: expected two, got {}", reqs.len())));
        };
        if players[0].name == players[1].name {
            players[0].name.push_str(" 1");
            players[1].name.push_str(" 2");
        }
        let max = match r.max_plies {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(1000),
        };
        Table::new(id, play, players, max, None, c.margin, c.timeouts)
    };
    let t = reg.open(table).map_err(|e| (503, e))?;
    let st = t.lock();
    ok(st.view(t.id, None, None))
}

/// A game after some moves from a start, by the rules library; refused
/// with the rules' reason.
fn position_of(
    game: &BoardGame,
    rules: &RuleValues,
    start: &Option<String>,
    moves: &[String],
) -> Result<Box<dyn super::play::Play>, (u16, String)> {
    let start = start_text(start)?;
    let mut play = (game.new_play)(rules, start.as_ref()).map_err(|e| (400, e.to_string()))?;
    for (k, m) in moves.iter().enumerate() {
        let text = parse_move(m.trim()).map_err(|e| (400, format!("move {} {m:?}: {e}", k + 1)))?;
        play.line_mut()
            .play_text(&text)
            .map_err(|e| (422, e.to_string()))?;
    }
    Ok(play)
}

/// The endgame tables' verdict on a position and each of its moves
/// (`board::endgame`).
fn endgame(reg: &Registry, req: &Request) -> Answer {
    let r: PositionsReq = body(req)?;
    let game = game_of(&reg.config.games, &r.game)?;
    let rules = rule_values(game.id(), &r.rules)?;
    let start = start_text(&r.start)?;
    let mut moves = Vec::with_capacity(r.moves.len());
    for (k, m) in r.moves.iter().enumerate() {
        moves.push(parse_move(m.trim()).map_err(|e| (400, format!("move {} {m:?}: {e}", k + 1)))?);
    }
    ok(match game.tables {
        Some(ask) => ask(&reg.endgames, game.id(), &rules, start.as_ref(), &moves)?,
        None => super::endgame::Answer::none(false, "this game has no endgame tables"),
    })
}

fn positions(reg: &Registry, req: &Request) -> Answer {
    let r: PositionsReq = body(req)?;
    let game = game_of(&reg.config.games, &r.game)?;
    let rules = rule_values(game.id(), &r.rules)?;
    let play = position_of(game, &rules, &r.start, &r.moves)?;
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Position {
        position: String,
        plies: usize,
        to_move: &'static str,
        end: Option<String>,
        legal: Vec<String>,
        /// The legal moves with the squares and choices that make each
        /// with the mouse, as a game's `legal` (for moves made in an
        /// analysis).
        choices: super::play::Legal,
        /// The board as the page draws it.
        view: super::play::View,
    }
    let choices = play.legal();
    ok(Position {
        position: play.line().position_text(play.line().plies()).to_string(),
        plies: play.line().plies(),
        to_move: super::play::side_name(play.line().side_to_move()),
        end: play.line().status().map(|e| e.to_string()),
        legal: choices.moves.iter().map(|m| m.t.to_string()).collect(),
        choices,
        view: play.view(play.line().plies()),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveReq {
    game: String,
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    lines: Option<u32>,
    /// Stop at this depth instead of thinking until stopped.
    depth: Option<u32>,
    command: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LivePositionReq {
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    lines: Option<u32>,
    depth: Option<u32>,
}

/// What a live analysis thinks about: the position (not one where the
/// game is over) and 1 to `MAX_LINES` lines.
fn target_of(
    game: &BoardGame,
    rules: &RuleValues,
    start: &Option<String>,
    moves: &[String],
    lines: Option<u32>,
    depth: Option<u32>,
) -> Result<Target, (u16, String)> {
    let lines = lines.unwrap_or(1);
    if let Some(d) = depth
        && !(1..=99).contains(&d)
    {
        return Err((400, format!("depth: expected 1 to 99, got {d}")));
    }
    if !(1..=MAX_LINES).contains(&lines) {
        return Err((
            400,
            format!("lines: expected 1 to {MAX_LINES}, got {lines}"),
        ));
    }
    let play = position_of(game, rules, start, moves)?;
    if let Some(end) = play.line().status() {
        return Err((
            409,
            format!("the game is over in this position ({end}): nothing to analyse"),
        ));
    }
    Ok(Target {
        command: position_command(play.line()),
        side: play.line().side_to_move(),
        lines,
        depth,
    })
}

fn new_live(reg: &Registry, req: &Request) -> Answer {
    let r: LiveReq = body(req)?;
    let game = game_of(&reg.config.games, &r.game)?;
    let rules = rule_values(game.id(), &r.rules)?;
    let target = target_of(game, &rules, &r.start, &r.moves, r.lines, r.depth)?;
    let launch = launch_of(reg, &r.command);
    let live = Live::new(
        reg.next_id(),
        launch_text(&launch),
        game.id(),
        rules.clone(),
        target,
    );
    let setup = EngineSetup {
        launch,
        variant: game.id().name(),
        rules,
        timeouts: reg.config.timeouts,
    };
    let l = reg.open_live(live, setup).map_err(|e| (503, e))?;
    let st = l.lock();
    ok(st.view(&l))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseReq {
    command: Option<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    /// Milliseconds per position.
    movetime: Option<u64>,
}

/// Starts a review of a finished game or a loaded record.
fn start_review(reg: &Registry, req: &Request, id: &str) -> Answer {
    let t = table(reg, id)?;
    let r: AnalyseReq = body(req)?;
    let limit = match (r.depth, r.nodes, r.movetime) {
        (Some(d), None, None) if (1..=64).contains(&d) => Limit::Depth(d),
        (None, Some(n), None) if (1..=1_000_000_000).contains(&n) => Limit::Nodes(n),
        (None, None, Some(ms)) if (10..=60_000).contains(&ms) => {
            Limit::Movetime(Duration::from_millis(ms))
        }
        _ => {
            return Err((
                400,
                "give one limit per position: depth (1-64), nodes (1-1000000000) or movetime \
                 (milliseconds, 10-60000)"
                    .into(),
            ));
        }
    };
    let launch = launch_of(reg, &r.command);
    let mut st = t.lock();
    if st.review.is_none() && st.end.is_none() {
        return Err((
            409,
            "a review is for a finished game or a loaded record: this game is still on".into(),
        ));
    }
    if st.analysis.as_ref().is_some_and(|a| a.running) {
        return Err((
            409,
            "a review of this game runs already: stop it first".into(),
        ));
    }
    let slot = reg.take_slot().map_err(|e| (503, e))?;
    let (play, moves) = review_run::replay_of(st.play.as_ref());
    st.reviews += 1;
    let movers = (0..=st.play.line().plies())
        .map(|k| st.play.line().side_at(k))
        .collect();
    st.analysis = Some(GameAnalysis::new(
        launch.short_name(),
        limit,
        movers,
        st.reviews,
    ));
    st.version += 1;
    let job = review_run::ReviewJob {
        generation: st.reviews,
        launch,
        limit,
        play,
    };
    let view = serde_json::to_string(&st.view(t.id, None, None));
    drop(st);
    let worker = t.clone();
    std::thread::Builder::new()
        .name(format!("review {}", t.id))
        .spawn(move || {
            review_run::run(&worker, job, moves);
            drop(slot);
        })
        .map_err(|e| (500, format!("cannot start the review's thread ({e})")))?;
    let body = view.map_err(|e| (500, e.to_string()))?;
    Ok(Response::new(200, "application/json", body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(addr: &str, names: &[&str]) -> Access {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        Access::new(addr.parse().unwrap(), &names, "s3cret".into())
    }

    #[test]
    fn hosts_are_checked_on_every_address() {
        let lo = access("127.0.0.1:8080", &[]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST.:8080",
            "[::1]:8080",
        ] {
            assert!(lo.host_ok(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:9090",
            "127.0.0.1",
            "10.0.0.1:8080",
            "",
        ] {
            assert!(!lo.host_ok(bad), "{bad}");
        }
        // On every address: IP addresses pass, names only when allowed.
        let any = access("0.0.0.0:8080", &["board.lan"]);
        for ok in [
            "192.168.1.5:8080",
            "[fe80::1]:8080",
            "localhost:8080",
            "Board.LAN:8080",
        ] {
            assert!(any.host_ok(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "board.lan:80",
            "board.lan.evil.example:8080",
        ] {
            assert!(!any.host_ok(bad), "{bad}");
        }
        let one = access("192.168.1.5:80", &[]);
        assert!(one.host_ok("192.168.1.5") && one.host_ok("192.168.1.5:80"));
        assert!(!one.host_ok("192.168.1.6") && !one.host_ok("localhost"));
        assert!(any.origin_ok("http://board.lan:8080"));
        assert!(!any.origin_ok("http://evil.example:8080"));
        assert!(!any.origin_ok("null"));
    }

    #[test]
    fn the_page_carries_the_secret_and_only_it_passes() {
        let a = access("127.0.0.1:8080", &[]);
        assert!(
            a.page.contains("content=\"s3cret\""),
            "the page holds the secret"
        );
        assert!(!a.page.contains(SECRET_SLOT));
        assert!(a.secret_ok("s3cret"));
        assert!(!a.secret_ok("s3cre") && !a.secret_ok("s3creT") && !a.secret_ok(""));
        let s = new_secret().unwrap();
        assert_eq!(s.len(), 32);
        assert_ne!(s, new_secret().unwrap());
    }
}
