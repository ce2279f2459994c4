//! The PyO3 module `koma._koma`: thin wrappers over this crate's Rust
//! parts. Arrays cross as bytes (numpy reads them without a copy in
//! `koma/`), errors as the exception classes of `koma/_errors.py`, and
//! long calls (playouts, searches) release the GIL.

use crate::actions::ActionSpace;
use crate::engine::{self, Engine, EngineConfig, ErrorKind, Limit};
use crate::planes::PlaneSpec;
use crate::playout::{PlayoutSpec, random_playouts};
use crate::position::{AnyPosition, RulesError, new_position};
use koma::client::handshake::Timeouts;
use koma::core::{Color, End, OptionKind, OptionValue, Outcome};
use koma::games::GameId;
use koma::protocol::{InfoScore, parse_move};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::sync::Mutex;
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
        let space = ActionSpace::of(g);
        d.set_item("name", g.name())?;
        d.set_item("files", space.files)?;
        d.set_item("ranks", space.ranks)?;
        d.set_item("actions", space.size())?;
        d.set_item("planes", PlaneSpec::of(g).shape().to_vec())?;
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
    /// The rule, as the engine words it (`three Shrimps`, `repetition`).
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

/// A game of any variant: its start, the moves played, the rules.
#[pyclass(module = "koma")]
struct Position {
    inner: Box<dyn AnyPosition>,
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (variant = "kaninariebi", fen = None, rules = None))]
    fn new(
        py: Python<'_>,
        variant: &str,
        fen: Option<&str>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Position> {
        let g = game(py, variant)?;
        let inner = new_position(g, &rule_pairs(rules)?, fen).map_err(|e| rules_error(py, e))?;
        Ok(Position { inner })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.game().name()
    }

    /// Every rule option with its value.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.inner.rules() {
            d.set_item(name, value(py, &v)?)?;
        }
        Ok(d)
    }

    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    fn push(&mut self, py: Python<'_>, mv: &str) -> PyResult<String> {
        self.inner.push(mv).map_err(|e| rules_error(py, e))
    }

    fn pop(&mut self, py: Python<'_>) -> PyResult<String> {
        self.inner
            .pop()
            .ok_or_else(|| error(py, "EmptyLineError", "no move to take back".into()))
    }

    fn outcome(&self) -> Option<Outcome_> {
        self.inner.outcome().map(outcome)
    }

    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    #[getter]
    fn turn(&self) -> &'static str {
        color(self.inner.turn())
    }

    fn fen(&self) -> String {
        self.inner.fen()
    }

    #[getter]
    fn start_fen(&self) -> String {
        self.inner.start_fen()
    }

    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner.moves()
    }

    #[getter]
    fn ply(&self) -> usize {
        self.inner.plies()
    }

    /// The 64-bit hash key of everything that decides the game's future.
    fn key(&self) -> u64 {
        self.inner.hash()
    }

    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos: &dyn AnyPosition = &*self.inner;
        py.detach(|| pos.perft(depth))
    }

    fn copy(&self) -> Position {
        Position {
            inner: self.inner.boxed_clone(),
        }
    }

    fn __copy__(&self) -> Position {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.copy()
    }

    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    fn __str__(&self) -> String {
        self.inner.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, fen={:?})",
            self.inner.game().name(),
            self.inner.fen()
        )
    }

    /// The `position` command that sets this game in an engine.
    fn position_command(&self) -> String {
        self.inner.position_line()
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// The observation planes as float32 bytes (`koma.env` shapes them).
    fn observation_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut planes = Vec::new();
        self.inner.planes(&mut planes);
        PyBytes::new(py, &f32_bytes(&planes))
    }

    /// The move an action stands for (legal here or not).
    fn action_to_move(&self, py: Python<'_>, action: usize) -> PyResult<String> {
        ActionSpace::of(self.inner.game())
            .decode(action)
            .map(|m| m.to_string())
            .ok_or_else(|| {
                let n = ActionSpace::of(self.inner.game()).size();
                error(
                    py,
                    "InvalidInputError",
                    format!("expected an action from 0 to {} at {action}", n - 1),
                )
            })
    }

    /// The action of a move written as text (legal here or not).
    fn move_to_action(&self, py: Python<'_>, mv: &str) -> PyResult<usize> {
        let t = parse_move(mv.trim()).map_err(|e| error(py, "InvalidInputError", e.to_string()))?;
        ActionSpace::of(self.inner.game())
            .encode(&t)
            .ok_or_else(|| {
                let game = self.inner.game();
                error(
                    py,
                    "InvalidInputError",
                    format!("{game} has no such move at {mv}"),
                )
            })
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
        .map_err(|e| rules_error(py, e))?;
    let d = PyDict::new(py);
    let results: Vec<u8> = p.results.iter().map(|&r| r as u8).collect();
    d.set_item("results", PyBytes::new(py, &results))?;
    d.set_item("plies", PyBytes::new(py, &u32_bytes(&p.plies)))?;
    let reasons: Vec<Option<&str>> = p.reasons.iter().map(|r| r.map(|r| r.message())).collect();
    d.set_item("reasons", reasons)?;
    d.set_item("planes", PyBytes::new(py, &f32_bytes(&p.planes)))?;
    d.set_item("actions", PyBytes::new(py, &u32_bytes(&p.actions)))?;
    d.set_item("game_index", PyBytes::new(py, &u32_bytes(&p.game_index)))?;
    d.set_item("seconds", p.seconds)?;
    Ok(d)
}

/// An engine process (see `koma.engine.SimpleEngine`, which wraps it).
#[pyclass(module = "koma", name = "Engine")]
struct Engine_ {
    inner: Mutex<Engine>,
}

fn seconds(s: Option<f64>) -> Option<Duration> {
    s.map(|s| Duration::from_secs_f64(s.max(0.0)))
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
                start: Duration::from_secs_f64(start_timeout),
                heartbeat: Duration::from_secs_f64(heartbeat),
                stall: Duration::from_secs_f64(stall),
            },
        };
        // Started on this thread, which the engine's death signal follows.
        let e = Engine::start(&config).map_err(|e| engine_error(py, e))?;
        Ok(Engine_ {
            inner: Mutex::new(e),
        })
    }

    /// Searches: the move and, per PV, the last scored `info`.
    #[pyo3(signature = (position, time = None, depth = None, nodes = None, timeout = None, multipv = 1))]
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
    ) -> PyResult<Bound<'py, PyDict>> {
        let limit = Limit {
            time: seconds(time),
            depth,
            nodes,
            timeout: seconds(timeout),
        };
        let pos: &dyn AnyPosition = &*position.inner;
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let engine: &mut Engine = &mut e;
        let found = py
            .detach(|| engine.search(pos, &limit, multipv))
            .map_err(|e| engine_error(py, e))?;
        let d = PyDict::new(py);
        d.set_item("move", found.mv)?;
        d.set_item("elapsed", found.elapsed.as_secs_f64())?;
        let lines = PyList::empty(py);
        for l in found.lines {
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
            i.set_item("pv", l.pv)?;
            lines.append(i)?;
        }
        d.set_item("lines", lines)?;
        Ok(d)
    }

    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let engine: &mut Engine = &mut e;
        py.detach(|| engine.new_game())
            .map_err(|e| engine_error(py, e))
    }

    fn quit(&self, py: Python<'_>) {
        let mut e = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let engine: &mut Engine = &mut e;
        py.detach(|| engine.quit());
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
    Ok(())
}
