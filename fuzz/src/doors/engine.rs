//! Protocol lines fed to the engine's command loop in-process, with its
//! state machine running (positions, options, searches, perft, ponder).
//! Input: either a script (text, one protocol line per line: the seeds
//! are the examples of protocol.md and the tests) or, after a first byte
//! 0, a sequence of steps read with `arbitrary` that become protocol
//! lines built from the engine's current state: legal move lists of any
//! length, options with values in and out of range, `go` with tiny limits.
//!
//! Properties: a line answered with `info string error: …` leaves the
//! engine's state (what `d` prints and every option's value) as it was;
//! nothing ever prints `internal error`; every accepted `go` gets exactly
//! one `bestmove`, legal in the position the `go` was given (or `(none)`
//! exactly when `d` said the game was over); every `go perft` and `bench`
//! ends with exactly one `Nodes searched`; the position `d` prints is one
//! the game accepts.

use super::rules_of;
use arbitrary::{Arbitrary, Unstructured};
use koma::core::{Game, History, MoveText, OptionKind, OptionValue, Rules, status_with_history};
use koma::engine::options::{HASH, OptionStore, THREADS, VARIANT};
use koma::engine::uci::Flow;
use koma::engine::{Engine, Output, Registry};
use koma::games::{GameId, GameVisitor};
use koma::protocol::{Command, Reply, parse_command, parse_position, parse_reply};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Most MB of `Hash` and most `Threads` the fuzzer may ask for: larger
/// values are accepted by the engine and cost memory and threads, not
/// coverage.
const MAX_HASH: i64 = 64;
const MAX_THREADS: i64 = 4;
/// Lines per input: more add time, not coverage.
const MAX_LINES: usize = 64;

#[derive(Arbitrary, Debug)]
enum Step {
    Raw(String),
    Variant(u8),
    SetOption { option: u8, value: Value },
    Position(PositionStep),
    Go(GoStep),
    Perft(u8),
    Stop,
    IsReady,
    Display,
    NewGame(bool),
    PonderHit,
    Query(u8),
    Debug(bool),
    Uci(bool),
}

#[derive(Arbitrary, Debug)]
enum Value {
    /// A value the option's spec allows (the k-th one).
    Valid(u8),
    Raw(String),
    Missing,
}

#[derive(Arbitrary, Debug)]
struct PositionStep {
    start: Start,
    /// Each picks a legal move (modulo their number).
    picks: Vec<u8>,
    /// A last move token, legal or not.
    extra: Option<String>,
}

#[derive(Arbitrary, Debug)]
enum Start {
    Initial,
    /// One of the test data's positions of the current game.
    Known(u8),
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct GoStep {
    depth: Option<u8>,
    nodes: Option<u16>,
    movetime: Option<u8>,
    clocks: Option<(u16, u16, u8, u8)>,
    movestogo: Option<u8>,
    infinite: bool,
    ponder: bool,
}

/// Output captured in memory, shared with the search thread.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
    /// The whole lines written from byte `from` on.
    fn lines_from(&self, from: usize) -> Vec<String> {
        let b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&b[from..])
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// What a rejected line must leave as it was.
#[derive(Clone, Debug, PartialEq)]
struct State {
    display: String,
    options: Vec<(&'static str, OptionValue)>,
}

struct Driver {
    engine: Engine,
    sink: Sink,
    specs: OptionStore,
    /// The state at each accepted `go`, in order.
    gos: Vec<State>,
    counts: usize,
    quit: bool,
}

pub fn engine_lines(data: &[u8]) {
    let mut d = Driver::new();
    if let Some((&0, rest)) = data.split_first() {
        let mut u = Unstructured::new(rest);
        for _ in 0..MAX_LINES {
            if u.is_empty() || d.quit {
                break;
            }
            let Ok(step) = u.arbitrary::<Step>() else {
                break;
            };
            let line = d.render(step);
            d.feed(&line);
        }
    } else {
        for line in data.split(|&b| b == b'\n').take(MAX_LINES) {
            if d.quit {
                break;
            }
            // Lines that are not UTF-8 are refused before the loop sees
            // them (engine::lines), tested there.
            if let Ok(line) = std::str::from_utf8(line) {
                d.feed(line.strip_suffix('\r').unwrap_or(line));
            }
        }
    }
    d.finish();
}

impl Driver {
    fn new() -> Driver {
        let sink = Sink::default();
        Driver {
            engine: Engine::new(Output::new(sink.clone()), Registry::koma()),
            sink,
            specs: OptionStore::new(Registry::koma()),
            gos: Vec::new(),
            counts: 0,
            quit: false,
        }
    }

    fn state(&self) -> State {
        State {
            display: self.engine.display(),
            options: self
                .engine
                .option_values()
                .map(|(n, v)| (n, v.clone()))
                .collect(),
        }
    }

    fn game(&self) -> GameId {
        self.engine
            .option(VARIANT)
            .and_then(OptionValue::as_str)
            .and_then(GameId::from_name)
            .unwrap_or(GameId::DEFAULT)
    }

    fn rule_values(&self, game: GameId) -> Vec<(&'static str, OptionValue)> {
        game.rule_specs()
            .iter()
            .filter_map(|s| self.engine.option(s.name).map(|v| (s.name, v.clone())))
            .collect()
    }

    /// Sends one line and checks what it did.
    fn feed(&mut self, line: &str) {
        let cmd = parse_command(line);
        if let Ok(Some(Command::SetOption {
            name,
            value: Some(v),
        })) = &cmd
        {
            let cap = if name.trim().eq_ignore_ascii_case(HASH) {
                MAX_HASH
            } else if name.trim().eq_ignore_ascii_case(THREADS) {
                MAX_THREADS
            } else {
                i64::MAX
            };
            if v.trim().parse::<i64>().is_ok_and(|n| n > cap) {
                return;
            }
        }
        let before = self.state();
        let mark = self.sink.len();
        let flow = self.engine.handle_line(line);
        let said = self.sink.lines_from(mark);
        let rejected = said.iter().any(|l| l.starts_with("info string error:"));
        if rejected {
            assert_eq!(
                self.state(),
                before,
                "the rejected line {line:?} changed the engine"
            );
        } else {
            match cmd {
                Ok(Some(Command::Go(_))) => self.gos.push(before),
                Ok(Some(Command::Perft(_) | Command::Bench)) => self.counts += 1,
                _ => {}
            }
        }
        self.quit = flow == Flow::Quit;
    }

    /// Stops what runs and checks the whole conversation.
    fn finish(mut self) {
        self.engine.shutdown();
        let out = self.sink.lines_from(0);
        // Only the engine's own internal-error reports count: a rejected
        // line's message may quote input that says "internal error".
        for l in &out {
            assert!(!l.starts_with("info string error: internal error"), "{l}");
        }
        let bestmoves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(
            bestmoves.len(),
            self.gos.len(),
            "one bestmove per go: {out:#?}"
        );
        for (line, state) in bestmoves.iter().zip(&self.gos) {
            let Ok(Reply::BestMove { mv, .. }) = parse_reply(line) else {
                panic!("unreadable {line:?}");
            };
            let over = state.display.contains("\nGame: over");
            match mv {
                None => assert!(over, "{line} in a game not over:\n{}", state.display),
                Some(mv) => {
                    assert!(!over, "{line} in a game over:\n{}", state.display);
                    assert!(legal(state, &mv), "{line} is illegal in\n{}", state.display);
                }
            }
        }
        let counted = out
            .iter()
            .filter(|l| l.starts_with("Nodes searched"))
            .count();
        assert_eq!(counted, self.counts, "one count per go perft and bench");
    }

    /// The protocol line a step stands for, in the engine's current state.
    fn render(&self, step: Step) -> String {
        let game = self.game();
        match step {
            Step::Raw(s) => s,
            Step::Variant(k) => {
                let g = GameId::ALL[usize::from(k) % GameId::ALL.len()];
                format!("setoption name {VARIANT} value {g}")
            }
            Step::SetOption { option, value } => {
                let specs: Vec<_> = self.specs.specs().collect();
                let spec = specs[usize::from(option) % specs.len()];
                let value = match value {
                    Value::Missing => return format!("setoption name {}", spec.name),
                    Value::Raw(s) => s,
                    Value::Valid(k) => {
                        let k = i64::from(k);
                        match &spec.kind {
                            OptionKind::Check { .. } => (k % 2 == 0).to_string(),
                            OptionKind::Spin { min, max, .. } => {
                                (min + k % (max - min + 1).min(MAX_THREADS + 1)).to_string()
                            }
                            OptionKind::Combo { values, .. } => {
                                values[k as usize % values.len()].to_string()
                            }
                            OptionKind::Text { .. } => "<empty>".to_string(),
                            OptionKind::Button => String::new(),
                        }
                    }
                };
                format!("setoption name {} value {value}", spec.name)
            }
            Step::Position(p) => self.position_line(game, p),
            Step::Go(g) => {
                let mut s = String::from("go");
                if g.ponder {
                    s.push_str(" ponder");
                }
                if let Some(d) = g.depth {
                    s += &format!(" depth {}", d % 5);
                }
                if let Some(n) = g.nodes {
                    s += &format!(" nodes {n}");
                }
                if let Some(t) = g.movetime {
                    s += &format!(" movetime {t}");
                }
                if let Some((w, b, wi, bi)) = g.clocks {
                    s += &format!(" wtime {w} btime {b} winc {wi} binc {bi}");
                }
                if let Some(m) = g.movestogo {
                    s += &format!(" movestogo {m}");
                }
                if g.infinite {
                    s.push_str(" infinite");
                }
                s
            }
            Step::Perft(d) => format!("go perft {}", d % 4),
            Step::Stop => "stop".into(),
            Step::IsReady => "isready".into(),
            Step::Display => "d".into(),
            Step::NewGame(ugi) => if ugi { "uginewgame" } else { "ucinewgame" }.into(),
            Step::PonderHit => "ponderhit".into(),
            Step::Query(k) => {
                ["query gameover", "query p1turn", "query result"][usize::from(k) % 3].into()
            }
            Step::Debug(on) => if on { "debug on" } else { "debug off" }.into(),
            Step::Uci(ugi) => if ugi { "ugi" } else { "uci" }.into(),
        }
    }

    fn position_line(&self, game: GameId, p: PositionStep) -> String {
        let start = match p.start {
            Start::Initial => None,
            Start::Known(k) => {
                let known = super::known_positions(game);
                Some(known[usize::from(k) % known.len()].to_string())
            }
            Start::Text(s) => Some(s),
        };
        let moves = game
            .visit(Picks {
                rules: &self.rule_values(game),
                start: start.as_deref(),
                picks: &p.picks,
            })
            .unwrap_or_default();
        let mut line = match start {
            None => "position startpos".to_string(),
            Some(s) => format!("position fen {s}"),
        };
        if !moves.is_empty() || p.extra.is_some() {
            line.push_str(" moves");
        }
        for m in moves.iter().map(ToString::to_string).chain(p.extra) {
            line.push(' ');
            line.push_str(&m);
        }
        line
    }
}

/// Legal moves picked one by one from the start (`None` when the start
/// is not a position of the game).
struct Picks<'a> {
    rules: &'a [(&'static str, OptionValue)],
    start: Option<&'a str>,
    picks: &'a [u8],
}

impl GameVisitor for Picks<'_> {
    type Output = Option<Vec<MoveText>>;
    fn visit<G: Game>(self) -> Self::Output {
        let rules = rules_of::<G>(self.rules)?;
        let mut pos = match self.start {
            None => G::start(&rules),
            Some(s) => G::from_text(&parse_position(s).ok()?, &rules).ok()?,
        };
        let mut history = History::starting_at(&pos);
        let mut out = Vec::new();
        for &k in self.picks {
            if status_with_history(&pos, &history).is_some() {
                break;
            }
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            let m = moves[usize::from(k) % moves.len()];
            out.push(pos.move_text(m));
            pos = pos.play(m);
            history.push(pos.repetition_key());
        }
        Some(out)
    }
}

/// Whether `mv` is legal in the position `d` showed, under the rules the
/// options named.
fn legal(state: &State, mv: &MoveText) -> bool {
    struct Legal<'a>(&'a State, &'a MoveText);
    impl GameVisitor for Legal<'_> {
        type Output = bool;
        fn visit<G: Game>(self) -> bool {
            let values: Vec<(&str, OptionValue)> = G::Rules::specs()
                .iter()
                .filter_map(|s| {
                    let v = self.0.options.iter().find(|(n, _)| *n == s.name)?;
                    Some((s.name, v.1.clone()))
                })
                .collect();
            let rules = rules_of::<G>(&values).expect("the engine's rules are valid");
            let text = self
                .0
                .display
                .lines()
                .find_map(|l| l.strip_prefix("Position: "))
                .expect("d prints the position");
            let t = parse_position(text).unwrap_or_else(|e| panic!("d printed {text}: {e}"));
            let pos = G::from_text(&t, &rules).unwrap_or_else(|e| panic!("d printed {text}: {e}"));
            pos.find_move(self.1).is_some()
        }
    }
    let game = state
        .options
        .iter()
        .find(|(n, _)| *n == VARIANT)
        .and_then(|(_, v)| v.as_str())
        .and_then(GameId::from_name)
        .unwrap_or(GameId::DEFAULT);
    game.visit(Legal(state, mv))
}
