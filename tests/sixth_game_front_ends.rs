//! The sixth game through Koma's two front ends, as their binaries run
//! them but over a catalogue with 3x3 Hexapawn added
//! (`Catalogue::with::<Hexapawn>()`), which no file of `src/` names: the
//! board's HTTP API lists it, sets up a table of it, takes a person's move,
//! has an engine answer and hands the record out; the referee's command
//! line plays a match of it and replays the records it wrote.
//!
//! The engine is this test binary run again with `ENGINE_MARKER` (as in
//! `tests/sixth_game.rs`): the test it is told to run sees the marker and
//! runs Koma's engine loop over a registry of Hexapawn on stdin and stdout.

#[path = "games/hexapawn.rs"]
mod hexapawn;

use hexapawn::{FAR_RANK, Hexapawn};
use koma::board::games::BoardGames;
use koma::board::{self, Config};
use koma::client::process::Launch;
use koma::core::{Game, GameLine, MoveText, NoRules};
use koma::engine::registry::{EngineGame, Registry};
use koma::engine::{Output, run as engine_loop};
use koma::games::Registered;
use koma::protocol::record::{Record, parse_records};
use koma::record::replay::check_as;
use koma::referee::{RunError, Variants};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The argument that makes this binary an engine process (a `--skip` of a
/// test that does not exist, so libtest runs only the test asked for).
const ENGINE_MARKER: &str = "hexapawn-front-end-engine";

/// In an engine process: runs Koma's engine loop over Hexapawn and says
/// so; in the test itself, false.
fn serve_as_engine() -> bool {
    if !std::env::args().any(|a| a == ENGINE_MARKER) {
        return false;
    }
    // The loop's sessions keep the registry for the life of the process.
    let registry = Registry::new(vec![EngineGame::registered::<Hexapawn>()], Hexapawn::NAME);
    engine_loop(
        Box::leak(Box::new(registry)),
        std::io::stdin(),
        Output::new(std::io::stdout()),
    );
    true
}

/// This binary as an engine: it runs `test` alone, which serves.
fn engine_words(test: &str) -> Vec<String> {
    let exe = std::env::current_exe().expect("the test binary");
    let mut words = vec![exe.display().to_string()];
    words.extend([test, "--exact", "--quiet", "--skip", ENGINE_MARKER].map(String::from));
    words
}

// The board: requests as the page sends them (Host, the secret from the
// page, JSON bodies).

struct Board {
    server: board::Server,
    secret: String,
}

struct Reply {
    status: u16,
    body: String,
}

fn exchange(addr: SocketAddr, request: String) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok());
    Reply {
        status: status.unwrap_or(0),
        body: body.to_string(),
    }
}

impl Board {
    fn start(games: BoardGames, engine: &[String]) -> Board {
        let launch = Launch {
            cmd: engine[0].clone().into(),
            args: engine[1..].to_vec(),
            dir: None,
        };
        let mut config = Config::new(0, launch);
        config.games = games;
        let server = board::start(config).expect("the server starts");
        let host = format!("127.0.0.1:{}", server.addr.port());
        let page = exchange(
            server.addr,
            format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        let key = "<meta name=\"koma-secret\" content=\"";
        let at = page.body.find(key).expect("the page carries the secret") + key.len();
        let secret = page.body[at..].split('"').next().unwrap().to_string();
        Board { server, secret }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        let addr = self.server.addr;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        exchange(
            addr,
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nX-Koma-Secret: {}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                self.secret,
                body.len()
            ),
        )
    }

    fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let r = self.call(method, path, body);
        assert_eq!(r.status, 200, "{method} {path}: {}", r.body);
        serde_json::from_str(&r.body).unwrap()
    }

    fn get(&self, path: &str) -> Value {
        self.ok("GET", path, None)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.ok("POST", path, Some(body))
    }

    /// The table's state once `done` holds (an engine's move comes when it
    /// comes: the wait is generous, the check exact).
    fn wait(&self, id: u64, done: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let st = self.get(&format!("/api/tables/{id}"));
            if done(&st) {
                return st;
            }
            assert!(Instant::now() < end, "waited in vain: {st}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The table's record, read back.
    fn record(&self, id: u64) -> Record {
        let r = self.call("GET", &format!("/api/tables/{id}/record"), None);
        assert_eq!(r.status, 200, "{}", r.body);
        let mut items = parse_records(&r.body);
        assert_eq!(items.len(), 1, "{}", r.body);
        items.remove(0).record.expect("the record reads back")
    }
}

fn moves_of(r: &Record) -> Vec<MoveText> {
    r.moves.iter().map(|m| m.mv).collect()
}

const BOARD_TEST: &str = "the_board_lists_hexapawn_plays_it_against_an_engine_and_records_it";

#[test]
fn the_board_lists_hexapawn_plays_it_against_an_engine_and_records_it() {
    if serve_as_engine() {
        return;
    }
    let board = Board::start(
        BoardGames::koma().with::<Hexapawn>(),
        &engine_words(BOARD_TEST),
    );
    // Listed after Koma's games, with its board and its (no) rule options.
    let games = board.get("/api/games");
    let listed: Vec<&str> = (games["games"].as_array().unwrap().iter())
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        ["kaninariebi", "hasami", "nana", "negaeri", "hexapawn"]
    );
    let entry = &games["games"][4];
    assert_eq!((&entry["files"], &entry["ranks"]), (&json!(3), &json!(3)));
    assert_eq!(entry["rules"], json!([]));
    assert_eq!(entry["endgame"], false);

    // A person against the engine: the person's move, then the engine's,
    // which Hexapawn's rules accept.
    let engine = json!({ "kind": "engine", "time": { "mode": "move", "seconds": 0.2 } });
    let st = board.post(
        "/api/tables",
        json!({ "game": "hexapawn", "players": [{ "kind": "human" }, engine] }),
    );
    let id = st["id"].as_u64().unwrap();
    board.post(
        &format!("/api/tables/{id}/move"),
        json!({ "move": "a1a2", "ply": 0 }),
    );
    board.wait(id, |st| st["plies"] == 2);
    let record = board.record(id);
    assert_eq!(record.tag("Variant"), Some("hexapawn"));
    let moves = moves_of(&record);
    assert_eq!(moves[0].to_string(), "a1a2");
    let line = GameLine::<Hexapawn>::from_text(None, &moves, &NoRules);
    assert_eq!(line.map(|l| l.plies()).ok(), Some(2), "{record}");
    // A move the rules refuse is refused by the board, with their words.
    let r = board.call(
        "POST",
        &format!("/api/tables/{id}/move"),
        Some(json!({ "move": "a2a4", "ply": 2 })),
    );
    assert_eq!(r.status, 422, "{}", r.body);

    // Two people from a set-up position: a pawn reaches the far rank and
    // the game ends by Hexapawn's own rule; its record replays to it.
    let st = board.post(
        "/api/tables",
        json!({ "game": "hexapawn", "start": "p1p/1P1/3 w 2" }),
    );
    let id = st["id"].as_u64().unwrap();
    let st = board.post(
        &format!("/api/tables/{id}/move"),
        json!({ "move": "b2b3", "ply": 0 }),
    );
    assert_eq!(st["end"]["reason"], FAR_RANK.message(), "{st}");
    let record = board.record(id);
    assert_eq!(record.tag("Termination"), Some(FAR_RANK.message()));
    assert_eq!(check_as::<Hexapawn>(&record, None), Ok(()), "{record}");
    // Loaded back as a review, by the catalogue's entry for the game; an
    // engine's review in its tags is drawn on Hexapawn's own win curve.
    let mut reviewed = record.clone();
    reviewed.set_tag("Analysis", "120 b2b3, 1-0 -");
    reviewed.set_tag("AnalysisEngine", "koma");
    reviewed.set_tag("AnalysisLimit", "depth 4");
    let review = board.post(
        "/api/tables",
        json!({ "review": { "text": reviewed.to_string(), "index": 0 } }),
    );
    assert_eq!(review["plies"], 1, "{review}");
    let scale = Hexapawn::ENTRY.presentation.win_scale;
    assert_eq!(review["analysis"]["winScale"], json!(scale), "{review}");
    // The positions the page asks about, by Hexapawn's move generation.
    let pos = board.post(
        "/api/positions",
        json!({ "game": "hexapawn", "start": "p1p/1P1/3 w 2" }),
    );
    let mut legal: Vec<&str> = (pos["legal"].as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap())
        .collect();
    legal.sort();
    assert_eq!(legal, ["b2a3", "b2b3", "b2c3"]);
    board.server.stop();

    // The same board with Koma's games alone does not know it.
    let koma_only = Board::start(BoardGames::koma(), &engine_words(BOARD_TEST));
    let r = koma_only.call("POST", "/api/tables", Some(json!({ "game": "hexapawn" })));
    assert_eq!(r.status, 400);
    assert!(
        r.body.contains("unknown game \\\"hexapawn\\\""),
        "{}",
        r.body
    );
    koma_only.server.stop();
}

// The referee: its command line, as a user types it.

const REFEREE_TEST: &str = "the_referees_command_line_plays_a_match_of_hexapawn_and_replays_it";

fn referee(variants: &Variants, args: &[String]) -> Result<ExitCode, RunError> {
    let argv = std::iter::once("koma-referee".to_string()).chain(args.iter().cloned());
    koma::referee::run(argv, variants)
}

#[test]
fn the_referees_command_line_plays_a_match_of_hexapawn_and_replays_it() {
    if serve_as_engine() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("koma-sixth-referee-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("hexapawn.pgn");
    let words = engine_words(REFEREE_TEST);
    // `args=` takes the engine's arguments as one word, split at spaces.
    let engine = |name: &str| {
        [
            "--engine".to_string(),
            format!("cmd={}", words[0]),
            format!("args={}", words[1..].join(" ")),
            format!("name={name}"),
            "depth=12".into(),
        ]
    };
    let mut args: Vec<String> = ["--variant", "hexapawn", "--games", "2"]
        .map(String::from)
        .to_vec();
    args.extend(engine("a"));
    args.extend(engine("b"));
    args.extend(["--pgnout".into(), format!("file={}", pgn.display())]);
    let variants = Variants::koma().with::<Hexapawn>();
    let code = referee(&variants, &args).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(code, ExitCode::SUCCESS);

    // Two games, each a win of the second player (3x3 Hexapawn is one, and
    // both engines search the whole tree), by the rules.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let records: Vec<Record> = (parse_records(&text).into_iter())
        .map(|i| i.record.expect("each record reads back"))
        .collect();
    assert_eq!(records.len(), 2, "{text}");
    for r in &records {
        assert_eq!(r.tag("Variant"), Some(Hexapawn::NAME));
        assert_eq!(r.result, "0-1", "{r}");
        assert_eq!(check_as::<Hexapawn>(r, None), Ok(()), "{r}");
        let line = GameLine::<Hexapawn>::from_text(None, &moves_of(r), &NoRules).unwrap();
        let end = line.status().expect("the game is over by the rules");
        assert_eq!(Some(end.reason.message()), r.tag("Termination"));
    }
    let firsts: Vec<Option<&str>> = records.iter().map(|r| r.tag("First")).collect();
    assert_eq!(firsts, [Some("a"), Some("b")], "colours alternate");

    // `--replay` checks them by the catalogue's entry: all valid.
    let replay = ["--replay".to_string(), pgn.display().to_string()];
    assert_eq!(referee(&variants, &replay).unwrap(), ExitCode::SUCCESS);
    // Over Koma's games alone the records are of no game it knows, and
    // the match cannot be asked for.
    let koma = Variants::koma();
    assert_eq!(referee(&koma, &replay).unwrap(), ExitCode::from(1));
    match referee(&koma, &args) {
        Err(RunError::Usage(u)) => assert_eq!(
            u.to_string(),
            "unknown variant hexapawn: expected one of kaninariebi, hasami, nana, negaeri"
        ),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_catalogue_made_with_the_game_holds_its_entry_after_komas() {
    let variants = Variants::koma().with::<Hexapawn>();
    assert_eq!(
        variants.names(),
        ["kaninariebi", "hasami", "nana", "negaeri", "hexapawn"]
    );
    let v = variants.named("hexapawn").expect("listed");
    assert_eq!(v.game.entry().files, Hexapawn::ENTRY.files);
    assert!(!v.layered && !v.game.listed());
    assert!(variants.named("kaninariebi").unwrap().layered);
    let board = BoardGames::koma().with::<Hexapawn>();
    let b = board.named("hexapawn").unwrap();
    assert!(b.tables.is_none() && board.named("kaninariebi").unwrap().tables.is_some());
    let play = (b.new_play)(&[], None).unwrap();
    assert_eq!(play.line().game(), "hexapawn");
    assert_eq!(play.legal().moves.len(), 3);
}
