//! The PyO3 module `koma._koma`: thin wrappers over this crate's Rust
//! parts. Arrays cross as bytes (numpy reads them without a copy in
//! `koma/`), errors as the exception classes of `koma/_errors.py`, and
//! long calls (playouts, searches) release the GIL.

use crate::actions::{ActionSpace, MoveActions};
use crate::engine::{self, Clocks, Engine, EngineConfig, ErrorKind, Limit};
use crate::planes::PlaneSpec;
use crate::playout::{PlayoutError, PlayoutSpec, random_playouts, write_observations};
use crate::position::{AnyPosition, RulesError, new_position};
use crate::tables::{TableError, Tablebase, Value};
use koma::client::handshake::Timeouts;
use koma::core::{Color, End, OptionKind, OptionValue, Outcome};
use koma::games::GameId;
use koma::protocol::{InfoScore, parse_move};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// An instance of the exception class `name` of `koma._errors`.
fn error(py: Python<'_>, name: &str, message: String) -> PyErr {
    let made = py
        .import("koma._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|cls| cls.call1((message.clone(),)));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

fn rules_error(py: Python<'_>, e: RulesError) -> PyErr {
    match e {
        RulesError::Parse(m) => error(py, "InvalidInputError", m),
        RulesError::Illegal(m) => error(py, "IllegalMoveError", m),
    }
}

fn engine_error(py: Python<'_>, e: engine::EngineError) -> PyErr {
    let name = match e.kind {
        ErrorKind::Start => "EngineStartError",
        ErrorKind::Timeout => "EngineTimeoutError",
        ErrorKind::Terminated => "EngineTerminatedError",
        ErrorKind::Protocol => "EngineProtocolError",
        ErrorKind::Usage => "EngineUsageError",
    };
    error(py, name, e.message)
}

fn game(py: Python<'_>, name: &str) -> PyResult<GameId> {
    GameId::from_name(&name.trim().to_ascii_lowercase()).ok_or_else(|| {
        let known: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
        error(
            py,
            "InvalidInputError",
            format!("expected one of {} at {name}", known.join(", ")),
        )
    })
}

fn color(c: Color) -> &'static str {
    match c {
        Color::First => "first",
        Color::Second => "second",
    }
}

fn value<'py>(py: Python<'py>, v: &OptionValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        OptionValue::Check(b) => b.into_pyobject(py)?.to_owned().into_any(),
        OptionValue::Spin(n) => n.into_pyobject(py)?.into_any(),
        OptionValue::Combo(s) | OptionValue::Text(s) => s.into_pyobject(py)?.into_any(),
        OptionValue::Button => py.None().into_bound(py),
    })
}

/// Every game: name, board size, rule options with their kinds, values
/// and defaults, and the environments' action count and plane shape.
#[pyfunction]
fn variants(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for &g in GameId::ALL {
        let d = PyDict::new(py);
        let space = ActionSpace::of(g.entry());
        d.set_item("name", g.name())?;
        d.set_item("files", space.files)?;
        d.set_item("ranks", space.ranks)?;
        d.set_item("actions", space.size())?;
        d.set_item("planes", PlaneSpec::of(g.entry()).shape().to_vec())?;
        let options = PyList::empty(py);
        for spec in g.rule_specs() {
            let o = PyDict::new(py);
            o.set_item("name", spec.name)?;
            o.set_item("default", value(py, &spec.default_value())?)?;
            match &spec.kind {
                OptionKind::Check { .. } => o.set_item("type", "check")?,
                OptionKind::Spin { min, max, .. } => {
                    o.set_item("type", "spin")?;
                    o.set_item("min", min)?;
                    o.set_item("max", max)?;
                }
                OptionKind::Combo { values, .. } => {
                    o.set_item("type", "combo")?;
                    o.set_item("values", values.to_vec())?;
                }
                OptionKind::Text { .. } => o.set_item("type", "string")?,
                OptionKind::Button => o.set_item("type", "button")?,
            }
            options.append(o)?;
        }
        d.set_item("options", options)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Rule options from a Python mapping: names as given, values as the
/// engine reads them (`True` as `true`).
fn rule_pairs(rules: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let Some(rules) = rules else {
        return Ok(Vec::new());
    };
    rules
        .iter()
        .map(|(k, v)| {
            let text = if let Ok(b) = v.extract::<bool>() {
                b.to_string()
            } else {
                v.str()?.to_string()
            };
            Ok((k.str()?.to_string(), text))
        })
        .collect()
}

/// How a game ended: the result, the winner and the rule.
#[pyclass(module = "koma", name = "Outcome", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
struct Outcome_ {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: String,
    /// `first`, `second`, or `None` for a draw.
    winner: Option<String>,
    /// The rule, as the engine words it (`repetition`, or a game's own ending).
    reason: String,
}

#[pymethods]
impl Outcome_ {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(result={:?}, winner={}, reason={:?})",
            self.result,
            self.winner
                .as_deref()
                .map_or("None".into(), |w| format!("{w:?}")),
            self.reason
        )
    }

    /// As the engine's `d` writes it: `1-0 {first player wins by …}`.
    fn __str__(&self) -> String {
        match &self.winner {
            Some(w) => format!("{} {{{w} player wins by {}}}", self.result, self.reason),
            None => format!("{} {{draw by {}}}", self.result, self.reason),
        }
    }
}

fn outcome(end: End) -> Outcome_ {
    Outcome_ {
        result: end.outcome.score_text().to_string(),
        winner: match end.outcome {
            Outcome::Win(c) => Some(color(c).to_string()),
            Outcome::Draw => None,
        },
        reason: end.reason.message().to_string(),
    }
}

/// A game of any variant: its start, the moves played, the rules. Safe to
/// share between threads: each call holds the position's lock for its
/// own length only (a perft or a search works on a copy), so calls from
/// two threads take turns.
#[pyclass(module = "koma._koma", name = "Position", subclass, frozen)]
struct Position {
    inner: Mutex<Box<dyn AnyPosition>>,
}

impl Position {
    fn get(&self) -> MutexGuard<'_, Box<dyn AnyPosition>> {
        // A poisoned lock means a panic inside the rules, which the
        // panic itself reports; the position is still whole.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An independent copy of the game now.
    fn snapshot(&self) -> Box<dyn AnyPosition> {
        self.get().boxed_clone()
    }

    fn space(&self) -> ActionSpace {
        ActionSpace::of(self.get().entry())
    }

    fn action_error(&self, py: Python<'_>, action: usize) -> PyErr {
        let n = self.space().size();
        error(
            py,
            "InvalidInputError",
            format!("expected an action from 0 to {} at {action}", n - 1),
        )
    }

    fn text_actions(&self, py: Python<'_>, mv: &str) -> PyResult<MoveActions> {
        let t = parse_move(mv.trim()).map_err(|e| error(py, "InvalidInputError", e.to_string()))?;
        let pos = self.get();
        let space = ActionSpace::of(pos.entry());
        let m = space.encode(&t).ok_or_else(|| {
            let game = pos.entry();
            error(
                py,
                "InvalidInputError",
                format!("{game} has no such move at {mv}"),
            )
        })?;
        Ok(space.actions_in(m, &pos.legal_actions()))
    }
}

#[pymethods]
impl Position {
    #[new]
    /// `variant` is by default the registry's first game.
    #[pyo3(signature = (variant = None, fen = None, rules = None))]
    fn new(
        py: Python<'_>,
        variant: Option<&str>,
        fen: Option<&str>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Position> {
        let g = game(py, variant.unwrap_or(GameId::DEFAULT.name()))?;
        let inner = new_position(g, &rule_pairs(rules)?, fen).map_err(|e| rules_error(py, e))?;
        Ok(Position {
            inner: Mutex::new(inner),
        })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.get().entry().name
    }

    /// Every rule option with its value.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.get().rules() {
            d.set_item(name, value(py, &v)?)?;
        }
        Ok(d)
    }

    /// The legal moves as a list (`legal_moves` wraps it).
    fn legal_move_list(&self) -> Vec<String> {
        self.get().legal_moves()
    }

    /// Whether `mv` reads and is legal here.
    fn is_legal(&self, mv: &str) -> bool {
        parse_move(mv.trim()).is_ok_and(|t| self.get().legal(&t).is_some())
    }

    fn push(&self, py: Python<'_>, mv: &str) -> PyResult<String> {
        self.get().push(mv).map_err(|e| rules_error(py, e))
    }

    fn pop(&self, py: Python<'_>) -> PyResult<String> {
        self.get()
            .pop()
            .ok_or_else(|| error(py, "EmptyLineError", "no move to take back".into()))
    }

    fn outcome(&self) -> Option<Outcome_> {
        self.get().outcome().map(outcome)
    }

    fn is_over(&self) -> bool {
        self.get().outcome().is_some()
    }

    #[getter]
    fn turn(&self) -> &'static str {
        color(self.get().turn())
    }

    fn fen(&self) -> String {
        self.get().fen()
    }

    /// Starts the game again from `fen` (the rules stay).
    fn set_fen(&self, py: Python<'_>, fen: &str) -> PyResult<()> {
        let mut pos = self.get();
        let rules: Vec<(String, String)> = pos
            .rules()
            .into_iter()
            .map(|(name, v)| {
                let text = match v {
                    OptionValue::Text(t) => t,
                    v => v.to_string(),
                };
                (name.to_string(), text)
            })
            .collect();
        *pos = pos
            .of_same_game(&rules, Some(fen))
            .map_err(|e| rules_error(py, e))?;
        Ok(())
    }

    #[getter]
    fn start_fen(&self) -> String {
        self.get().start_fen()
    }

    #[getter]
    fn moves(&self) -> Vec<String> {
        self.get().moves()
    }

    /// The number of moves played (`ply` wraps it).
    fn plies(&self) -> usize {
        self.get().plies()
    }

    /// The 64-bit hash key of everything that decides the game's future.
    fn key(&self) -> u64 {
        self.get().hash()
    }

    /// How many times the current position has occurred in the game.
    fn repeats(&self) -> usize {
        self.get().repeats()
    }

    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let pos = self.snapshot();
        py.detach(|| pos.perft(depth))
            .map_err(|e| rules_error(py, e))
    }

    /// An independent copy, of the same class as this one.
    fn copy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let copied = slf.get().snapshot();
        let new = slf.get_type().call1((copied.entry().name,))?;
        *new.cast::<Position>()?.get().get() = copied;
        Ok(new)
    }

    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::copy(slf)
    }

    fn __deepcopy__<'py>(
        slf: &Bound<'py, Self>,
        _memo: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::copy(slf)
    }

    fn diagram(&self) -> String {
        self.get().diagram()
    }

    fn __str__(&self) -> String {
        self.get().diagram()
    }

    fn __repr__(&self) -> String {
        let pos = self.get();
        format!("Position({:?}, fen={:?})", pos.entry().name, pos.fen())
    }

    /// The `position` command that sets this game in an engine.
    fn position_command(&self) -> String {
        self.get().position_line()
    }

    /// The actions the player to move may take: the first actions of the
    /// legal moves, or after the movement action `pending` its follow-ups.
    #[pyo3(signature = (pending = None))]
    fn legal_actions(&self, pending: Option<usize>) -> Vec<usize> {
        let pos = self.get();
        ActionSpace::of(pos.entry()).choices(&pos.legal_actions(), pending)
    }

    /// Whether the action `first` leaves the player a second choice here
    /// (a movement that also starts a Bond turn).
    fn needs_second_action(&self, first: usize) -> bool {
        let pos = self.get();
        ActionSpace::of(pos.entry()).needs_follow_up(first, &pos.legal_actions())
    }

    /// Takes one action (after the movement action `pending`, if any):
    /// the move played, or `None` when the action is a movement that
    /// leaves a second choice (nothing is played yet). An action that is
    /// not among `legal_actions(pending)` raises IllegalMoveError.
    #[pyo3(signature = (action, pending = None))]
    fn play_action(
        &self,
        py: Python<'_>,
        action: usize,
        pending: Option<usize>,
    ) -> PyResult<Option<String>> {
        let mut pos = self.get();
        let space = ActionSpace::of(pos.entry());
        let legal = pos.legal_actions();
        let illegal = || {
            error(
                py,
                "IllegalMoveError",
                format!("illegal action at {action}"),
            )
        };
        if !space.choices(&legal, pending).contains(&action) {
            return Err(illegal());
        }
        if pending.is_none() && space.needs_follow_up(action, &legal) {
            return Ok(None);
        }
        let text = match pending {
            None => space.decode(action),
            Some(first) => space.decode_pair(first, action),
        }
        .ok_or_else(illegal)?;
        pos.push(&text.to_string())
            .map(Some)
            .map_err(|e| rules_error(py, e))
    }

    /// The observation planes as float32 bytes (`koma.env` shapes them).
    #[pyo3(signature = (pending = None))]
    fn observation_bytes<'py>(
        &self,
        py: Python<'py>,
        pending: Option<usize>,
    ) -> Bound<'py, PyBytes> {
        let mut planes = Vec::new();
        self.get().planes(pending, &mut planes);
        PyBytes::new(py, &f32_bytes(&planes))
    }

    /// The move a single action stands for (legal here or not).
    fn action_to_move(&self, py: Python<'_>, action: usize) -> PyResult<String> {
        let space = self.space();
        if Some(action) == space.end() {
            let m = "end completes a movement: use actions_to_move([movement, end])";
            return Err(error(py, "InvalidInputError", format!("{m} at {action}")));
        }
        space
            .decode(action)
            .map(|m| m.to_string())
            .ok_or_else(|| self.action_error(py, action))
    }

    /// The move of one action, or of a movement and its follow-up.
    fn actions_to_move(&self, py: Python<'_>, actions: Vec<usize>) -> PyResult<String> {
        match actions[..] {
            [a] => self.action_to_move(py, a),
            [a, b] => self
                .space()
                .decode_pair(a, b)
                .map(|m| m.to_string())
                .ok_or_else(|| {
                    let m = "expected a movement action and a Bond movement or end";
                    error(py, "InvalidInputError", format!("{m} at {a}, {b}"))
                }),
            _ => Err(error(
                py,
                "InvalidInputError",
                format!("expected one or two actions at {actions:?}"),
            )),
        }
    }

    /// The actions of a move written as text, here: one, or two for a
    /// movement that also starts a Bond turn in this position.
    fn move_to_actions(&self, py: Python<'_>, mv: &str) -> PyResult<Vec<usize>> {
        let m = self.text_actions(py, mv)?;
        Ok(std::iter::once(m.first).chain(m.then).collect())
    }

    /// The action of a move that is one action here.
    fn move_to_action(&self, py: Python<'_>, mv: &str) -> PyResult<usize> {
        let m = self.text_actions(py, mv)?;
        match m.then {
            None => Ok(m.first),
            Some(then) => Err(error(
                py,
                "InvalidInputError",
                format!(
                    "two actions here ({}, {then}): use move_to_actions at {mv}",
                    m.first
                ),
            )),
        }
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

/// Plays `games` random (or, with `depth`, engine-guided) games in Rust; the arrays come back as bytes for
/// `koma.random_playouts` to wrap.
#[pyfunction]
#[pyo3(signature = (variant, games, seed = 0, rules = None, fen = None, max_plies = 1000, observations = false, threads = 0, depth = 0, epsilon = 0.0))]
#[allow(clippy::too_many_arguments)]
fn random_playouts_raw<'py>(
    py: Python<'py>,
    variant: &str,
    games: usize,
    seed: u64,
    rules: Option<&Bound<'_, PyDict>>,
    fen: Option<String>,
    max_plies: u32,
    observations: bool,
    threads: usize,
    depth: u32,
    epsilon: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let spec = PlayoutSpec {
        game: game(py, variant)?,
        rules: rule_pairs(rules)?,
        fen,
        games,
        seed,
        max_plies,
        observations,
        threads,
        depth,
        epsilon,
    };
    let p = py
        .detach(|| random_playouts(&spec))
        .map_err(|e| playout_error(py, e))?;
    let d = PyDict::new(py);
    let results: Vec<u8> = p.results.iter().map(|&r| r as u8).collect();
    d.set_item("results", PyBytes::new(py, &results))?;
    d.set_item("plies", PyBytes::new(py, &u32_bytes(&p.plies)))?;
    let reasons: Vec<Option<&str>> = p.reasons.iter().map(|r| r.map(|r| r.message())).collect();
    d.set_item("reasons", reasons)?;
    d.set_item("actions", PyBytes::new(py, &u32_bytes(&p.actions)))?;
    d.set_item("game_index", PyBytes::new(py, &u32_bytes(&p.game_index)))?;
    d.set_item("seconds", p.seconds)?;
    if observations {
        d.set_item("planes", observation_planes(py, &spec, &p)?)?;
    }
    Ok(d)
}

fn playout_error(py: Python<'_>, e: PlayoutError) -> PyErr {
    match e {
        PlayoutError::Rules(e) => rules_error(py, e),
        PlayoutError::Resources(m) => PyMemoryError::new_err(m),
    }
}

/// The planes of every decision of `p`, written straight into one bytes
/// object of the exact size (so the peak stays near what is returned),
/// after checking the machine has that memory to give.
fn observation_planes<'py>(
    py: Python<'py>,
    spec: &PlayoutSpec,
    p: &crate::playout::Playouts,
) -> PyResult<Bound<'py, PyBytes>> {
    let too_big = |need: String| {
        PyMemoryError::new_err(format!(
            "the observations of {} decisions need {need}, more than this machine has free: \
             ask for fewer games or a lower max_plies",
            p.actions.len()
        ))
    };
    let bytes = p
        .observation_bytes(spec.game)
        .ok_or_else(|| too_big("more bytes than an address holds".into()))?;
    if let Some(free) = available_memory()
        && bytes as u64 > free
    {
        return Err(too_big(format!(
            "{} MB ({} MB free)",
            bytes >> 20,
            free >> 20
        )));
    }
    // Allocated by Python: where the memory is capped, a MemoryError.
    PyBytes::new_with(py, bytes, |out| {
        py.detach(|| write_observations(spec, p, out))
            .map_err(|e| playout_error(py, e))
    })
}

/// The memory the system can still give (Linux's `MemAvailable` plus free
/// swap), where it says; `None` elsewhere.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    Some(field("MemAvailable:")? + field("SwapFree:").unwrap_or(0))
}

/// Seconds from Python as a duration: finite, not negative, and within
/// a year (beyond, the deadline arithmetic would overflow).
fn duration(py: Python<'_>, name: &str, s: f64) -> PyResult<Duration> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    if !(0.0..=YEAR).contains(&s) {
        return Err(error(
            py,
            "InvalidInputError",
            format!("expected seconds from 0 to {YEAR} for {name} at {s}"),
        ));
    }
    Ok(Duration::from_secs_f64(s))
}

/// One `info` line as a dict (`koma.engine` shapes it).
fn info_dict<'py>(py: Python<'py>, l: &engine::Info) -> PyResult<Bound<'py, PyDict>> {
    let i = PyDict::new(py);
    i.set_item("multipv", l.multipv)?;
    i.set_item("depth", l.depth)?;
    i.set_item("seldepth", l.seldepth)?;
    match l.score {
        Some(InfoScore::Cp(cp)) => i.set_item("cp", cp)?,
        Some(InfoScore::Mate(m)) => i.set_item("mate", m)?,
        None => {}
    }
    i.set_item("nodes", l.nodes)?;
    i.set_item("nps", l.nps)?;
    i.set_item("time", l.time_ms.map(|t| t as f64 / 1000.0))?;
    i.set_item("pv", l.pv.clone())?;
    Ok(i)
}

/// The `info` lines of a running search as they come, and its stop switch
/// (see `koma.engine`'s `analysis()`).
#[pyclass(module = "koma._koma", name = "Feed", frozen)]
struct Feed_ {
    inner: Arc<engine::Feed>,
}

#[pymethods]
impl Feed_ {
    #[new]
    fn new() -> Feed_ {
        Feed_ {
            inner: Arc::default(),
        }
    }

    fn stop(&self) {
        self.inner.stop();
    }

    /// The lines arrived since the last call, waiting up to `wait`
    /// seconds for one (without the GIL).
    fn take<'py>(&self, py: Python<'py>, wait: f64) -> PyResult<Bound<'py, PyList>> {
        let wait = duration(py, "wait", wait)?;
        let feed = self.inner.clone();
        let infos = py.detach(move || feed.take(wait));
        let out = PyList::empty(py);
        for i in &infos {
            out.append(info_dict(py, i)?)?;
        }
        Ok(out)
    }
}

/// An engine process (see `koma.engine.SimpleEngine`, which wraps it).
#[pyclass(module = "koma", name = "Engine")]
struct Engine_ {
    inner: Mutex<Engine>,
}

fn seconds(py: Python<'_>, name: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    s.map(|s| duration(py, name, s)).transpose()
}

#[pymethods]
impl Engine_ {
    #[new]
    #[pyo3(signature = (command, variant, rules = None, options = None, cwd = None, start_timeout = 10.0, heartbeat = 2.0, stall = 5.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        command: Vec<String>,
        variant: &str,
        rules: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
        cwd: Option<String>,
        start_timeout: f64,
        heartbeat: f64,
        stall: f64,
    ) -> PyResult<Engine_> {
        let config = EngineConfig {
            command,
            dir: cwd.map(Into::into),
            game: game(py, variant)?,
            rules: rule_pairs(rules)?,
            options: rule_pairs(options)?,
            timeouts: Timeouts {
                start: duration(py, "timeout", start_timeout)?,
                heartbeat: duration(py, "heartbeat", heartbeat)?,
                stall: duration(py, "stall", stall)?,
            },
        };
        // Started on this thread, which the engine's death signal follows.
        let e = Engine::start(&config).map_err(|e| engine_error(py, e))?;
        Ok(Engine_ {
            inner: Mutex::new(e),
        })
    }

    /// Searches: the move and, per PV, the last scored `info`. With
    /// `clocks` (first's time left, second's, first's increment,
    /// second's, in seconds) the game is played on time.
    #[pyo3(signature = (position, time = None, depth = None, nodes = None, timeout = None, multipv = 1, clocks = None, movestogo = None, feed = None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        position: PyRef<'_, Position>,
        time: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        timeout: Option<f64>,
        multipv: u32,
        clocks: Option<(f64, f64, f64, f64)>,
        movestogo: Option<u32>,
        feed: Option<PyRef<'_, Feed_>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let clocks = match clocks {
            None => None,
            Some((wt, bt, wi, bi)) => Some(Clocks {
                remaining: [
                    duration(py, "white_clock", wt)?,
                    duration(py, "black_clock", bt)?,
                ],
                inc: [
                    duration(py, "white_inc", wi)?,
                    duration(py, "black_inc", bi)?,
                ],
                movestogo,
            }),
        };
        let limit = Limit {
            time: seconds(py, "time", time)?,
            depth,
            nodes,
            clocks,
            timeout: seconds(py, "timeout", timeout)?,
        };
        // A copy, so the position's lock is not held through the search;
        // the engine's lock is taken without the GIL, so a second thread
        // waiting for it cannot hold the GIL this one needs back.
        let pos = position.snapshot();
        let feed: Option<Arc<engine::Feed>> = feed.map(|f| f.inner.clone());
        let found = py
            .detach(|| {
                let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
                e.search(&*pos, &limit, multipv, feed.as_deref())
            })
            .map_err(|e| engine_error(py, e))?;
        let d = PyDict::new(py);
        d.set_item("move", found.mv)?;
        d.set_item("elapsed", found.elapsed.as_secs_f64())?;
        let lines = PyList::empty(py);
        for l in found.lines {
            lines.append(info_dict(py, &l)?)?;
        }
        d.set_item("lines", lines)?;
        Ok(d)
    }

    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            self.inner
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .new_game()
        })
        .map_err(|e| engine_error(py, e))
    }

    fn ping(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.inner.lock().unwrap_or_else(|p| p.into_inner()).ping())
            .map_err(|e| engine_error(py, e))
    }

    fn configure(&self, py: Python<'_>, options: &Bound<'_, PyDict>) -> PyResult<()> {
        let pairs = rule_pairs(Some(options))?;
        py.detach(|| {
            let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            e.configure(&pairs)
        })
        .map_err(|e| engine_error(py, e))
    }

    /// The options the engine declares: name, type and combo values.
    fn declared_options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let found = py.detach(|| {
            self.inner
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .declared()
        });
        let out = PyList::empty(py);
        for d in found.map_err(|e| engine_error(py, e))? {
            out.append((d.name, d.kind, d.vars))?;
        }
        Ok(out)
    }

    fn quit(&self, py: Python<'_>) {
        py.detach(|| self.inner.lock().unwrap_or_else(|p| p.into_inner()).quit());
    }

    #[getter]
    fn pid(&self) -> Option<u32> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).pid()
    }

    #[getter]
    fn id_name(&self) -> Option<String> {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.id_name.clone()
    }

    #[getter]
    fn warnings(&self) -> Vec<String> {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.warnings.clone()
    }

    #[getter]
    fn variant(&self) -> &'static str {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.game().name()
    }

    fn is_running(&self) -> bool {
        let e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        e.is_running()
    }
}

fn table_error(py: Python<'_>, e: TableError) -> PyErr {
    match e {
        TableError::Missing(m) => error(py, "MissingTableError", m),
        TableError::Bad(m) => error(py, "TableError", m),
    }
}

fn value_pair(v: Value) -> (i32, i32) {
    (v.wdl, v.dtz)
}

/// A folder of endgame tables (`koma.tables.open_tablebase`). `None` once
/// closed.
#[pyclass(module = "koma._koma", name = "Tablebase", frozen)]
struct Tablebase_ {
    inner: Mutex<Option<Arc<Tablebase>>>,
}

impl Tablebase_ {
    fn tables(&self, py: Python<'_>) -> PyResult<Arc<Tablebase>> {
        let t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        t.clone()
            .ok_or_else(|| error(py, "TableError", "the tablebase is closed".to_string()))
    }
}

#[pymethods]
impl Tablebase_ {
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Tablebase_> {
        let t = Tablebase::open(path.as_deref()).map_err(|m| error(py, "TableFolderError", m))?;
        Ok(Tablebase_ {
            inner: Mutex::new(Some(Arc::new(t))),
        })
    }

    /// The folder probed.
    #[getter]
    fn path(&self, py: Python<'_>) -> PyResult<PathBuf> {
        Ok(self.tables(py)?.root().to_path_buf())
    }

    /// `(wdl, dtz)` of the position for its side to move.
    fn probe(&self, py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<(i32, i32)> {
        let t = self.tables(py)?;
        let line = Tablebase::line(&**position.get()).map_err(|e| table_error(py, e))?;
        py.detach(|| t.probe(&*line))
            .map(value_pair)
            .map_err(|e| table_error(py, e))
    }

    /// `(move, wdl, dtz)` of every legal move for the side making it,
    /// best first.
    fn probe_moves(
        &self,
        py: Python<'_>,
        position: PyRef<'_, Position>,
    ) -> PyResult<Vec<(String, i32, i32)>> {
        let t = self.tables(py)?;
        let line = Tablebase::line(&**position.get()).map_err(|e| table_error(py, e))?;
        let moves = py
            .detach(|| t.moves(&*line))
            .map_err(|e| table_error(py, e))?;
        Ok(moves.into_iter().map(|(m, v)| (m, v.wdl, v.dtz)).collect())
    }

    fn close(&self) {
        let mut t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(t) = t.take() {
            t.close();
        }
    }

    #[getter]
    fn closed(&self) -> bool {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
    }
}

/// The records of a record file (the referee's `--pgnout`), read by the
/// referee's own parser: per record its tags in order, moves, comments and
/// result, or the parse error of a damaged one.
#[pyfunction]
fn parse_records<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for item in koma::protocol::record::parse_records(text) {
        let d = PyDict::new(py);
        d.set_item("line", item.line)?;
        match item.record {
            Ok(r) => {
                d.set_item("tags", r.tags)?;
                let moves: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
                let comments: Vec<Option<String>> =
                    r.moves.iter().map(|m| m.comment.clone()).collect();
                d.set_item("moves", moves)?;
                d.set_item("comments", comments)?;
                d.set_item("result", r.result)?;
            }
            Err(e) => d.set_item("error", e.to_string())?,
        }
        out.append(d)?;
    }
    Ok(out)
}

#[pymodule]
fn _koma(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts_raw, m)?)?;
    m.add_function(wrap_pyfunction!(parse_records, m)?)?;
    m.add_class::<Position>()?;
    m.add_class::<Outcome_>()?;
    m.add_class::<Engine_>()?;
    m.add_class::<Feed_>()?;
    m.add_class::<Tablebase_>()?;
    Ok(())
}
