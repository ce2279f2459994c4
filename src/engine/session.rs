//! One game being played: its rules, the current position and its history.
//! The engine holds the selected game as a `Box<dyn Session>`, made by its
//! registry entry (`registry`); `GameSession<G>` is monomorphised, so
//! nothing below it pays dynamic dispatch.

use super::Output;
use super::display;
use super::worker::{Parked, Task};
use crate::core::endgame::Layered;
use crate::core::tablebase::best_move;
use crate::core::{
    AnyLine, End, GameLine, History, LineError, MoveText, PositionError, PositionText, ReplayError,
    Searchable, SharedTable, TableValue, Tablebase, perft, perft_divide_until,
};
use crate::protocol::{InfoLine, InfoScore, PositionCommand, PositionStart, Reply};
use crate::search::score::{TABLE_WIN, mate_moves};
use crate::search::{self, Context, Limits, MATE, Report, Settings, Tt};
use crate::solve::tables::probe::RootProbe;
use crate::solve::tables::{Dtz, Tables};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Everything a search thread needs from the engine loop.
pub struct SearchJob {
    pub out: Output,
    pub stop: Arc<AtomicBool>,
    pub limits: Limits,
    pub tt: Arc<Tt>,
    pub settings: Settings,
    /// While set, the result is held back (`go infinite`, `go ponder`):
    /// UCI prints `bestmove` only after `stop` or `ponderhit`.
    pub hold: Arc<AtomicBool>,
    /// The protocol loop, when the search runs on the thread that read its
    /// `go`: polled while the search runs, to hand it over.
    pub parked: Option<Arc<Parked>>,
}

/// One game being played, of a game chosen at run time.
pub trait Session: Send {
    /// The game's moves and positions.
    fn line(&self) -> &dyn AnyLine;
    fn line_mut(&mut self) -> &mut dyn AnyLine;
    /// A perft of the current position, to run on any thread: it counts
    /// until done or until its stop flag is set.
    fn perft_job(&self, depth: u32) -> PerftJob;
    /// The search of the current position, to run while the loop goes on.
    fn search_task(&self, job: SearchJob) -> Task;
    /// Uses a table of this game loaded by its registry entry (`None`:
    /// none).
    fn set_table(&mut self, table: Option<SharedTable>);
    /// Uses the game's endgame tables under `root` (`None`: none), for a
    /// game that has them: every file there mapped and its header checked
    /// now, so that no search opens one. The message of each file refused.
    fn set_tables_root(&mut self, root: Option<&Path>) -> Vec<String>;

    /// Replaces the position, or changes nothing and says why.
    fn set_position(&mut self, cmd: &PositionCommand) -> Result<(), PositionRefused> {
        let start = match &cmd.start {
            PositionStart::StartPos => None,
            PositionStart::Fen(t) => Some(t),
        };
        (self.line_mut().replay(start, &cmd.moves)).map_err(|e| PositionRefused::of(e, start))
    }

    /// The board, the position string and the state of the game, for `d`.
    fn display(&self) -> String {
        let line = self.line();
        let now = line.position_text(line.plies());
        display::render(&now, line.files(), line.ranks(), line.status())
    }
}

/// Why a `position` command was refused. Its words are the protocol's
/// reply (`info string error: …`), ending with the token they are about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionRefused {
    /// The start is not a position of the game: the game's words, and the
    /// board field of the position string.
    Start {
        game: &'static str,
        error: PositionError,
        board: String,
    },
    /// A move that is not legal where it is played.
    Illegal(MoveText),
    /// A move after the end of the game.
    AfterEnd { mv: MoveText, end: End },
}

impl PositionRefused {
    /// Why the line of `start` and some moves was refused.
    pub fn of(e: LineError, start: Option<&PositionText>) -> PositionRefused {
        match e {
            LineError::Position { game, error } => {
                let board = start.map(|t| t.to_string()).unwrap_or_default();
                let board = board.split(' ').next().unwrap_or("").to_string();
                PositionRefused::Start { game, error, board }
            }
            LineError::Move(ReplayError::Illegal { mv, .. }) => PositionRefused::Illegal(mv),
            LineError::Move(ReplayError::AfterEnd { mv, end, .. }) => {
                PositionRefused::AfterEnd { mv, end }
            }
        }
    }
}

impl std::fmt::Display for PositionRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionRefused::Start { game, error, board } => {
                write!(f, "invalid {game} position ({error}) at {board}")
            }
            PositionRefused::Illegal(mv) => write!(f, "illegal move at {mv}"),
            PositionRefused::AfterEnd { mv, end } => {
                write!(f, "illegal move, the game is over ({end}) at {mv}")
            }
        }
    }
}

impl std::error::Error for PositionRefused {}

/// A perft to run: given the stop flag, the count.
pub type PerftJob = Box<dyn FnOnce(&AtomicBool) -> PerftCount + Send>;

/// Perft per root move as text, sorted, and the total.
pub struct PerftCount {
    pub rows: Vec<(String, u64)>,
    pub total: u64,
    /// False when a stop cut the count short: the moves listed were
    /// counted, `partial` only in part, the others not at all.
    pub complete: bool,
    /// The root move whose count a stop cut short, if it had begun.
    pub partial: Option<String>,
}

/// Maps a game's endgame tables under a folder, for its rules: the tables,
/// and the message of each file refused.
pub type OpenTables<G> =
    fn(&Path, &<G as crate::core::Game>::Rules) -> (Arc<dyn RootProbe<G>>, Vec<String>);

pub struct GameSession<G: Searchable> {
    line: GameLine<G>,
    table: Option<Arc<dyn Tablebase<G>>>,
    /// How the game's endgame tables open, for a game that has them.
    open_tables: Option<OpenTables<G>>,
    tables: Option<Arc<dyn RootProbe<G>>>,
}

impl<G: Searchable> GameSession<G> {
    pub fn new(rules: G::Rules) -> Self {
        GameSession {
            line: GameLine::new(&rules),
            table: None,
            open_tables: None,
            tables: None,
        }
    }

    /// A game of `G`, which has endgame tables by material.
    pub fn with_tables(rules: G::Rules) -> Self
    where
        G: Layered,
    {
        fn open<G: Searchable + Layered>(
            root: &Path,
            rules: &G::Rules,
        ) -> (Arc<dyn RootProbe<G>>, Vec<String>) {
            let (tables, refused) = Tables::<G>::map_all(root, rules);
            (Arc::new(tables), refused)
        }
        GameSession {
            open_tables: Some(open::<G>),
            ..GameSession::new(rules)
        }
    }
}

impl<G: Searchable> Session for GameSession<G> {
    fn line(&self) -> &dyn AnyLine {
        &self.line
    }

    fn line_mut(&mut self) -> &mut dyn AnyLine {
        &mut self.line
    }

    fn perft_job(&self, depth: u32) -> PerftJob {
        let pos = self.line.current().clone();
        Box::new(move |stop| {
            let d = perft_divide_until(&pos, depth, stop);
            let partial = match (d.complete, d.rows.last()) {
                (false, Some(&(m, _))) => Some(pos.move_text(m).to_string()),
                _ => None,
            };
            let mut rows: Vec<(String, u64)> = d
                .rows
                .into_iter()
                .map(|(m, n)| (pos.move_text(m).to_string(), n))
                .collect();
            rows.sort();
            let total = if depth == 0 {
                perft(&pos, 0)
            } else {
                rows.iter().map(|r| r.1).sum()
            };
            PerftCount {
                rows,
                total,
                complete: d.complete,
                partial,
            }
        })
    }

    fn search_task(&self, job: SearchJob) -> Task {
        let root = self.line.current().clone();
        let history = self.line.history().clone();
        let over = self.line.status().is_some();
        let table = self.table.clone();
        let tables = self.tables.clone();
        Box::new(move || run_search(root, history, over, table, tables, job))
    }

    fn set_table(&mut self, table: Option<SharedTable>) {
        self.table = table.and_then(|t| t.downcast_ref::<Arc<dyn Tablebase<G>>>().cloned());
    }

    fn set_tables_root(&mut self, root: Option<&Path>) -> Vec<String> {
        let Some((open, root)) = self.open_tables.zip(root) else {
            self.tables = None;
            return Vec::new();
        };
        let (tables, refused) = open(root, self.line.rules());
        self.tables = Some(tables);
        refused
    }
}

/// The `info` line of a move chosen from the endgame tables: depth 1, the
/// value as a score (`TABLE_WIN` less the distance to the next exit, or 0
/// for a draw), one table hit, and the move.
fn endgame_info<G: Searchable>(root: &G, mv: G::Move, value: Dtz) -> InfoLine {
    let cp = match value {
        Dtz::Win(d) => TABLE_WIN - d as i32,
        Dtz::Loss(d) => -(TABLE_WIN - d as i32),
        Dtz::Draw => 0,
    };
    InfoLine {
        depth: Some(1),
        score: Some(InfoScore::Cp(cp)),
        tbhits: Some(1),
        pv: vec![root.move_text(mv)],
        ..InfoLine::default()
    }
}

/// The `info` line of a move chosen from a table: depth 1, the exact
/// value (mate in moves, or 0 for a draw) and the move.
fn table_info<G: Searchable>(root: &G, mv: G::Move, value: TableValue) -> InfoLine {
    let score = match value {
        TableValue::Win(d) => mate_moves(MATE - d as i32).map(InfoScore::Mate),
        TableValue::Loss(d) => mate_moves(-(MATE - d as i32)).map(InfoScore::Mate),
        TableValue::Draw => None,
    };
    InfoLine {
        depth: Some(1),
        score: Some(score.unwrap_or(InfoScore::Cp(0))),
        pv: vec![root.move_text(mv)],
        ..InfoLine::default()
    }
}

/// The `info` line of a completed iteration.
pub fn info_line<G: Searchable>(root: &G, r: &Report<G::Move>) -> InfoLine {
    let ms = r.elapsed.as_millis() as u64;
    InfoLine {
        depth: Some(r.depth),
        seldepth: Some(r.seldepth),
        multipv: Some(r.multipv as u32),
        hashfull: Some(r.hashfull),
        tbhits: (r.tbhits > 0).then_some(r.tbhits),
        score: Some(match mate_moves(r.score) {
            Some(m) => InfoScore::Mate(m),
            None => InfoScore::Cp(r.score),
        }),
        nodes: Some(r.nodes),
        nps: Some(r.nodes * 1000 / ms.max(1)),
        time: Some(ms),
        pv: search::pv_positions(root, &r.pv)
            .iter()
            .map(|(p, m)| p.move_text(*m))
            .collect(),
        ..InfoLine::default()
    }
}

fn run_search<G: Searchable>(
    root: G,
    history: History,
    over: bool,
    table: Option<Arc<dyn Tablebase<G>>>,
    tables: Option<Arc<dyn RootProbe<G>>>,
    job: SearchJob,
) {
    let mut last = Vec::new();
    let poll = || {
        if let Some(p) = &job.parked {
            p.poll();
        }
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if over {
            return None;
        }
        // With a table that knows every move's value: its best move, at once.
        if let Some((mv, value)) = table.as_deref().and_then(|t| best_move(t, &root, &history)) {
            job.out.line(table_info(&root, mv, value));
            return Some(mv);
        }
        // In the endgame tables: the move keeping the value that makes
        // progress (the game's history can turn a repetition into a draw).
        if let Some((mv, value)) = tables.as_deref().and_then(|t| t.best_move(&root, &history)) {
            job.out.line(endgame_info(&root, mv, value));
            return Some(mv);
        }
        let ctx = Context {
            tt: &job.tt,
            stop: &job.stop,
            limits: &job.limits,
            settings: job.settings.clone(),
            poll: Some(&poll),
        };
        let probe = tables.as_deref().map(|t| t as &dyn search::Probe<G>);
        search::search_with_tables(&root, &history, &ctx, probe, |r| {
            let info = info_line(&root, r).to_string();
            // The last iteration of a depth-limited search that nothing
            // holds: its lines go with the `bestmove`, just after.
            if job.limits.depth == Some(r.depth) && !job.hold.load(Ordering::Acquire) {
                last.push(info);
            } else {
                job.out.line(info);
            }
        })
        .best
    }));
    let best = match result {
        Ok(b) => b,
        Err(_) => {
            job.out
                .error("internal error in the search; playing the first legal move");
            let mut moves = G::MoveList::default();
            if !over {
                root.generate(&mut moves);
            }
            moves.first().copied()
        }
    };
    while job.hold.load(Ordering::Acquire) && !job.stop.load(Ordering::Acquire) {
        poll();
        std::thread::sleep(Duration::from_millis(1));
    }
    last.push(
        Reply::BestMove {
            mv: best.map(|m| root.move_text(m)),
            ponder: None,
        }
        .to_string(),
    );
    job.out.lines(&last);
}
