//! The proof that a game needs nothing in `src/` named for it: 3x3 Hexapawn,
//! written here and nowhere else, is searched to a move, played through an
//! engine session spoken to in protocol lines, played by the referee's own
//! game code between two engine processes running Koma's engine loop over
//! a registry of it, and its games written as records and replayed. Where
//! this file had to reach around `src/` the seam is still missing (see the
//! issue 36 note).
//!
//! The engine processes are this test binary run again, told by an
//! argument (`ENGINE_MARKER`) to run the engine loop on its stdin and
//! stdout: the binary under test is always the one that is current, and
//! nothing outside this file is built for it. libtest's own line
//! (`running 1 test`) comes before `id name`, which the protocol allows and
//! the referee's handshake skips.
//!
//! The game itself is `tests/games/hexapawn.rs` (with its rules), shared
//! with the Python crate's test of the same proof.

#[path = "games/hexapawn.rs"]
mod hexapawn;

use hexapawn::{FAR_RANK, Hexapawn, Step};
use koma::client::clock::EngineLimits;
use koma::client::handshake::{self, EngineStart, Timeouts};
use koma::client::process::{EngineProc, Launch};
use koma::client::reason::Reason;
use koma::core::{
    Color, End, EndReason, Game, GameLine, History, MoveText, NoRules, Outcome, PositionText,
    game_status,
};
use koma::engine::registry::{EngineGame, Registry};
use koma::engine::session::{GameSession, PositionRefused, SearchJob, Session};
use koma::engine::{Engine, Output};
use koma::games::{EvaluationVisitor, LayeredVisitor, Registered, SolverVisitor};
use koma::protocol::record::{Record, RecordMove, parse_record};
use koma::protocol::{Command, parse_command, parse_position};
use koma::record::adjudicate::Adjudication;
use koma::record::opening::Opening;
use koma::record::{RecordHeader, build};
use koma::referee::matches::game::{GameEnd, GameSetup, play};
use koma::search::{self, Context, Limits, Settings, Tt, score::mate_moves};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

fn moves_of(pos: &Hexapawn) -> Vec<Step> {
    let mut ml = <Hexapawn as Game>::MoveList::default();
    pos.generate(&mut ml);
    ml.to_vec()
}

fn search_to_depth(pos: &Hexapawn, history: &History, depth: u32) -> search::SearchResult<Step> {
    let tt = Tt::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits::depth(depth);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        limits: &limits,
        settings: Settings::default(),
        poll: None,
    };
    search::search(pos, history, &ctx, |_| {})
}

#[test]
fn the_rules_hold_through_the_generic_layers() {
    let start = Hexapawn::start(&NoRules);
    let s = start.to_text().to_string();
    assert_eq!(s, "ppp/3/PPP w 1");
    let parsed = parse_position(&s).unwrap();
    assert_eq!(Hexapawn::from_text(&parsed, &NoRules).unwrap(), start);
    assert_eq!(moves_of(&start).len(), 3);
    // Perft through core's generic count: 3, then 3 + 4 + 3 replies.
    assert_eq!(koma::core::perft(&start, 1), 3);
    assert_eq!(koma::core::perft(&start, 2), 10);
    // A pawn reaching the far rank ends the game with this game's reason.
    let won = Hexapawn::from_text(&parse_position("P2/1p1/3 b 3").unwrap(), &NoRules).unwrap();
    assert_eq!(game_status(&won), Some(End::win(Color::First, FAR_RANK)));
    // No move left loses (core's generic rule).
    let stuck = Hexapawn::from_text(&parse_position("3/p2/P2 w 2").unwrap(), &NoRules).unwrap();
    assert_eq!(
        game_status(&stuck),
        Some(End::win(Color::Second, EndReason::NoLegalMove))
    );
}

#[test]
fn the_search_finds_the_second_players_win() {
    // 3x3 Hexapawn is a win for the second player: a full-depth search of
    // the start position sees its own loss by force.
    let start = Hexapawn::start(&NoRules);
    let r = search_to_depth(&start, &History::starting_at(&start), 12);
    let best = r.best.expect("the start has moves");
    assert!(moves_of(&start).contains(&best));
    let moves = mate_moves(r.score).expect("a forced result at depth 12");
    assert!(moves < 0, "First should be lost, got mate {moves}");
    // After 1. b1b2 (or any first move), the search of the second player
    // finds its forced win.
    let after = start.play(best);
    let mut h = History::starting_at(&start);
    h.push(after.repetition_key());
    let r2 = search_to_depth(&after, &h, 12);
    assert!(mate_moves(r2.score).is_some_and(|m| m > 0));
}

/// A writer the engine session's `Output` writes to, readable by the test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Drives an engine session with protocol lines: `position` replaces the
/// game, `go depth N` searches it and the `bestmove` line is returned.
fn session_answer(session: &mut GameSession<Hexapawn>, lines: &[&str]) -> Vec<String> {
    let out = Captured::default();
    for line in lines {
        match parse_command(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .expect("a command")
        {
            Command::Position(p) => session.set_position(&p).unwrap(),
            Command::Go(g) => {
                let job = SearchJob {
                    out: Output::new(out.clone()),
                    stop: Arc::new(AtomicBool::new(false)),
                    limits: Limits::depth(g.depth.expect("the test's go gives a depth")),
                    tt: Arc::new(Tt::new(1)),
                    settings: Settings::default(),
                    hold: Arc::new(AtomicBool::new(false)),
                    parked: None,
                };
                session.search_task(job)();
            }
            other => panic!("the test speaks only position and go, not {other:?}"),
        }
    }
    out.lines()
}

fn bestmove(lines: &[String]) -> MoveText {
    let last = lines.last().expect("the search printed something");
    let text = last
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("last line {last}"));
    koma::protocol::parse_move(text.split_whitespace().next().unwrap()).unwrap()
}

/// Plays a whole game between two engine sessions speaking the protocol,
/// as a referee does: each side is told the game so far and asked for a
/// move, which is checked against the rules before it is played.
fn play_match(depths: [u32; 2]) -> (GameLine<Hexapawn>, End) {
    let mut sessions = [
        GameSession::<Hexapawn>::new(NoRules),
        GameSession::<Hexapawn>::new(NoRules),
    ];
    let mut line = GameLine::<Hexapawn>::new(&NoRules);
    loop {
        if let Some(end) = line.status() {
            return (line, end);
        }
        let side = line.current().side_to_move().index();
        let moves: Vec<String> = line.moves().iter().map(|m| m.to_string()).collect();
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let go = format!("go depth {}", depths[side]);
        let reply = session_answer(&mut sessions[side], &[&position, &go]);
        let mv = bestmove(&reply);
        assert_eq!(sessions[side].line().side_to_move().index(), side);
        line.play_text(&mv)
            .unwrap_or_else(|e| panic!("engine {side} played {mv}: {e}"));
    }
}

#[test]
fn an_engine_session_plays_it_in_protocol_lines() {
    let mut session = GameSession::<Hexapawn>::new(NoRules);
    let lines = session_answer(
        &mut session,
        &["position startpos moves a1a2", "go depth 8"],
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    let mv = bestmove(&lines);
    let pos = Hexapawn::start(&NoRules).play(Step { from: 0, to: 3 });
    assert!(pos.find_move(&mv).is_some(), "{mv} is not legal");
    assert_eq!(session.line().side_to_move(), Color::Second);
    // A position the game refuses is refused with the game's words.
    let bad = parse_command("position fen ppp/3/PPQ w 1")
        .unwrap()
        .unwrap();
    let Command::Position(bad) = bad else {
        unreachable!()
    };
    let e = session.set_position(&bad).unwrap_err();
    assert!(matches!(e, PositionRefused::Start { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "invalid hexapawn position (unknown piece Q on c1: Hexapawn pieces are P) at ppp/3/PPQ"
    );
}

#[test]
fn a_refereed_match_ends_by_the_rules_and_its_record_round_trips() {
    // Both sides search the whole tree: the second player wins, as it must.
    let (line, end) = play_match([12, 12]);
    assert_eq!(end.outcome, koma::core::Outcome::Win(Color::Second));
    assert!(
        [FAR_RANK, EndReason::NoLegalMove].contains(&end.reason),
        "{end:?}"
    );
    // A weak first player against a full-depth second: still a result by
    // the rules, whatever it is.
    let (_, weak) = play_match([1, 12]);
    assert_eq!(weak.outcome, koma::core::Outcome::Win(Color::Second));

    let mut record = Record {
        tags: vec![
            ("Variant".into(), Hexapawn::NAME.into()),
            ("Termination".into(), end.reason.to_string()),
        ],
        moves: line
            .moves()
            .iter()
            .map(|&mv| RecordMove { mv, comment: None })
            .collect(),
        result: "0-1".into(),
    };
    record.set_tag("Result", "0-1");
    let text = record.to_string();
    let back = parse_record(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, record, "{text}");
    // The record replays under the rules to the same end.
    let mut replay = GameLine::<Hexapawn>::new(&NoRules);
    let moves: Vec<MoveText> = back.moves.iter().map(|m| m.mv).collect();
    replay.play_all(&moves).unwrap();
    assert_eq!(replay.status(), Some(end));
    // The Termination tag reads back as the game's own ending, by the
    // endings the game lists (as the registry does for its games).
    let words = back.tag("Termination").unwrap();
    let reason = Hexapawn::ENDINGS
        .iter()
        .chain(&EndReason::GENERIC)
        .find(|r| r.message() == words)
        .copied();
    assert_eq!(reason, Some(end.reason), "{words}");
}

/// Koma's engine loop, over a registry that holds Hexapawn alone, made
/// from its entry as Koma's own games are.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY
        .get_or_init(|| Registry::new(vec![EngineGame::registered::<Hexapawn>()], Hexapawn::NAME))
}

#[test]
fn its_entry_registers_what_it_has_and_the_engine_game_follows_it() {
    let entry = Hexapawn::ENTRY;
    assert_eq!((entry.name, entry.files, entry.ranks), ("hexapawn", 3, 3));
    assert_eq!(entry.endings, [FAR_RANK]);
    assert!((entry.rule_specs)().is_empty());
    assert!(entry.suites.is_empty() && entry.table.is_none());
    // No capability beyond the search: the defaults of `Registered`.
    struct Any;
    impl EvaluationVisitor for Any {
        type Output = ();
        fn visit<G>(self) {}
    }
    impl SolverVisitor for Any {
        type Output = ();
        fn visit<G, S>(self, _: &S) {}
    }
    impl LayeredVisitor for Any {
        type Output = ();
        fn visit<G>(self) {}
    }
    assert!(Hexapawn::visit_evaluation(Any).is_none());
    assert!(Hexapawn::visit_solver(Any).is_none());
    assert!(Hexapawn::visit_layered(Any).is_none());
    // The engine's game made from the entry: no weights file, no table,
    // no endgame tables; an empty EvalFile keeps the built-in evaluation.
    let game = &registry().games()[0];
    assert_eq!(game.name, "hexapawn");
    assert!(game.eval_file.is_none() && game.table.is_none() && !game.endgame_tables);
    assert!(game.prepare_eval("").is_ok());
    assert_eq!(
        game.prepare_eval("w.bin")
            .err()
            .map(|e| e.to_string())
            .as_deref(),
        Some("hexapawn has no weights file")
    );
}

/// The argument that makes this binary an engine process (a `--skip` of a
/// test that does not exist, so libtest runs the one test asked for).
const ENGINE_MARKER: &str = "hexapawn-engine-process";
const ENGINE_TEST: &str = "the_engine_loop_plays_it_over_a_registry_of_its_own";

#[test]
fn the_engine_loop_plays_it_over_a_registry_of_its_own() {
    if std::env::args().any(|a| a == ENGINE_MARKER) {
        let out = Output::new(std::io::stdout());
        koma::engine::run(registry(), std::io::stdin(), out);
        return;
    }
    // In this process: the loop lists the registry's game, plays in it,
    // and refuses a position of another game with Hexapawn's own words.
    let captured = Captured::default();
    let mut engine = Engine::new(Output::new(captured.clone()), registry());
    for line in [
        "uci",
        "setoption name UCI_Variant value hexapawn",
        "setoption name UCI_Variant value kaninariebi",
        "position fen ppp/3/PPQ w 1",
        "position startpos moves a1a2",
        "go depth 6",
    ] {
        engine.handle_line(line);
    }
    engine.shutdown();
    let lines = captured.lines();
    let has = |l: &str| lines.iter().any(|x| x == l);
    assert!(
        has("option name UCI_Variant type combo default hexapawn var hexapawn"),
        "{lines:?}"
    );
    assert!(has(
        "info string error: expected one of hexapawn for UCI_Variant at kaninariebi"
    ));
    assert!(has(
        "info string error: invalid hexapawn position (unknown piece Q on c1: Hexapawn pieces are P) at ppp/3/PPQ"
    ));
    let mv = bestmove(&lines);
    let after = Hexapawn::start(&NoRules).play(Step { from: 0, to: 3 });
    assert!(after.find_move(&mv).is_some(), "{mv} is not legal");
    // Its `bench` is the registry's games' benches: Hexapawn's own.
    let bench = Captured::default();
    let stop = AtomicBool::new(false);
    let total =
        koma::engine::bench::run(registry().games(), &Output::new(bench.clone()), None, &stop);
    let lines = bench.lines();
    assert!(
        lines[0].starts_with("info string bench hexapawn startpos nodes "),
        "{lines:?}"
    );
    assert!(total > 0);
    assert_eq!(lines.last(), Some(&format!("Nodes searched: {total}")));
}

const TIMEOUTS: Timeouts = Timeouts {
    start: Duration::from_secs(20),
    heartbeat: Duration::from_secs(20),
    stall: Duration::from_secs(20),
};

/// This binary started again as an engine process, brought through the
/// referee's handshake to Hexapawn.
fn engine_process(name: &str) -> EngineProc {
    let launch = Launch {
        cmd: std::env::current_exe().expect("the test binary"),
        args: [ENGINE_TEST, "--exact", "--quiet", "--skip", ENGINE_MARKER]
            .map(String::from)
            .to_vec(),
        dir: None,
    };
    let start = EngineStart {
        name,
        launch: &launch,
        options: &[],
        variant: Hexapawn::NAME,
        rules: &[],
        log: None,
    };
    let (engine, warnings) =
        handshake::start(&start, &TIMEOUTS).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(warnings, Vec::<String>::new());
    engine
}

/// One game of the referee's (`referee::matches::game::play`) between two
/// engine processes, from `opening`, each searching to `depth`.
fn refereed_game(opening: &Opening, depth: u32) -> GameEnd {
    let limits = EngineLimits {
        depth: Some(depth),
        ..EngineLimits::default()
    };
    let setup = GameSetup::<Hexapawn> {
        rules: &NoRules,
        opening,
        limits: [&limits, &limits],
        margins: [Duration::from_secs(1); 2],
        max_plies: None,
        adjudication: Adjudication::default(),
        tablebase: None,
        names: ["first", "second"],
        timeouts: TIMEOUTS,
        figures: Default::default(),
    };
    let mut engines = [engine_process("first"), engine_process("second")];
    let [a, b] = &mut engines;
    let end = play(&setup, [a, b]).expect("the opening replays");
    for e in engines {
        e.quit(Duration::from_secs(2));
    }
    end
}

/// A record's header for a game of Hexapawn outside a match.
fn header<'a>(start: Option<&'a PositionText>, limits: &'a EngineLimits) -> RecordHeader<'a> {
    RecordHeader {
        fingerprint: None,
        event: "the sixth game",
        date: "2026.12.04",
        round: 1,
        game: 1,
        pair: None,
        names: ["first", "second"],
        variant: Hexapawn::NAME,
        rules: &[],
        start,
        limits: [limits, limits],
        max_plies: None,
        suite: None,
    }
}

/// The game's record as the referee writes it, read back: its moves replay
/// under the rules to the end the referee recorded.
fn record_round_trip(end: &GameEnd, opening: &Opening) -> Record {
    let none = EngineLimits::default();
    let header = header(opening.start.as_ref(), &none);
    let record = build(&header, Some(&end.ending), &end.moves, opening.moves.len());
    let back = parse_record(&record.to_string()).expect("the record reads back");
    let moves: Vec<MoveText> = back.moves.iter().map(|m| m.mv).collect();
    let line = GameLine::<Hexapawn>::from_text(opening.start.as_ref(), &moves, &NoRules)
        .unwrap_or_else(|e| panic!("the record replays: {e}"));
    let Reason::Rules(reason) = end.ending.reason else {
        panic!("the game ended by the rules, not {:?}", end.ending);
    };
    assert_eq!(line.status(), Some(End::new(end.ending.outcome, reason)));
    back
}

#[test]
fn a_referee_game_between_two_engine_processes_ends_by_hexapawns_rules() {
    // From the start, both searching the whole tree: the second player's
    // forced win, every move checked by the referee against the rules.
    let start = Opening::default();
    let end = refereed_game(&start, 12);
    assert_eq!(end.ending.outcome, Outcome::Win(Color::Second), "{end:?}");
    assert!(
        end.engine_moves > 0 && end.dead == [false, false],
        "{end:?}"
    );
    let record = record_round_trip(&end, &start);
    let words = record.tag("Termination").expect("a Termination tag");
    assert!(
        [FAR_RANK, EndReason::NoLegalMove]
            .iter()
            .any(|r| r.message() == words),
        "{words}"
    );

    // From a position where every move reaches the far rank: the game ends
    // by Hexapawn's own ending, and the record says so.
    let far = Opening {
        start: Some(parse_position("p1p/1P1/3 w 2").unwrap()),
        moves: Vec::new(),
    };
    let end = refereed_game(&far, 4);
    assert_eq!(end.ending.reason, Reason::Rules(FAR_RANK), "{end:?}");
    assert_eq!(end.ending.outcome, Outcome::Win(Color::First));
    let record = record_round_trip(&end, &far);
    assert_eq!(record.tag("Termination"), Some("a pawn on the far rank"));
}

/// The record of a finished game of Hexapawn, built by the code that
/// builds the registry's games' records.
fn built_record(line: &GameLine<Hexapawn>, end: End) -> Record {
    use koma::client::reason::Ending;
    let limits = EngineLimits::default();
    let header = header(None, &limits);
    let ending = Ending {
        outcome: end.outcome,
        reason: Reason::Rules(end.reason),
        detail: None,
    };
    let moves: Vec<RecordMove> = (line.moves().iter())
        .map(|&mv| RecordMove { mv, comment: None })
        .collect();
    build(&header, Some(&ending), &moves, 0)
}

#[test]
fn its_records_are_built_and_replay_checked_by_the_same_code_as_any_games() {
    use koma::record::replay::{EndError, RecordError, TagError, check, check_as};
    let (line, end) = play_match([12, 12]);
    let text = built_record(&line, end).to_string();
    let record = parse_record(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(check_as::<Hexapawn>(&record, None), Ok(()), "{text}");
    assert_eq!(koma::record::rules_of::<Hexapawn>(&record), Ok(NoRules));
    // The registry's check does not know the game; the game's own does.
    assert_eq!(
        check(&record, None),
        Err(RecordError::Tag(TagError::UnknownVariant(
            Hexapawn::NAME.into()
        )))
    );

    // A record cut short of the end it claims is not over.
    let mut short = record.clone();
    short.moves.pop();
    short.set_tag("PlyCount", short.moves.len().to_string());
    assert_eq!(
        check_as::<Hexapawn>(&short, None),
        Err(RecordError::End(EndError::NotOver(end.reason)))
    );
    // A record claiming the game's other way to win is refused with the
    // rules' verdict.
    let other = if end.reason == FAR_RANK {
        EndReason::NoLegalMove
    } else {
        FAR_RANK
    };
    let mut wrong = record.clone();
    wrong.set_tag("Termination", other.message());
    let e = check_as::<Hexapawn>(&wrong, None).unwrap_err();
    assert_eq!(
        e,
        RecordError::End(EndError::NotTheRulesEnd {
            outcome: end.outcome,
            reason: other,
            end
        })
    );
    assert!(e.to_string().contains(end.reason.message()), "{e}");
    // An engine failure after the rules had ended the game cannot be.
    let mut late = record.clone();
    late.set_tag("Termination", "loses on time");
    assert!(
        matches!(
            check_as::<Hexapawn>(&late, None),
            Err(RecordError::End(EndError::AlreadyOver { .. }))
        ),
        "{late}"
    );
}
