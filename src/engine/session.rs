//! One game being played: its rules, the current position and its history.
//! The engine holds the selected game as a `Box<dyn Session>`, made through
//! `GameId::visit`; `GameSession<G>` is monomorphised, so nothing below it
//! pays dynamic dispatch.

use super::Output;
use super::display;
use crate::core::tablebase::best_move;
use crate::core::{
    Color, End, GameLine, History, LineError, OptionValue, ReplayError, Rules, Searchable,
    SharedTable, TableValue, Tablebase, perft, perft_divide_until,
};
use crate::games::{GameId, GameVisitor};
use crate::protocol::{InfoLine, InfoScore, PositionCommand, PositionStart, Reply};
use crate::search::{self, Context, Limits, MATE, Report, Settings, Tt, score::mate_moves};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
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
}

pub trait Session: Send {
    fn game(&self) -> GameId;
    /// Replaces the position, or changes nothing and says why.
    fn set_position(&mut self, cmd: &PositionCommand) -> Result<(), String>;
    /// The board, the position string and the state of the game, for `d`.
    fn display(&self) -> String;
    /// A perft of the current position, to run on any thread: it counts
    /// until done or until its stop flag is set.
    fn perft_job(&self, depth: u32) -> PerftJob;
    fn spawn_search(&self, job: SearchJob) -> std::io::Result<JoinHandle<()>>;
    /// The end of the game by its rules, history included.
    fn status(&self) -> Option<End>;
    fn side_to_move(&self) -> Color;
    /// Uses a table of this game loaded by `load_table` (`None`: none).
    fn set_table(&mut self, table: Option<SharedTable>);
}

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

/// The engine option naming `game`'s table file, if it has one.
pub fn table_option(game: GameId) -> Option<&'static str> {
    game.table().map(|t| t.option)
}

/// Loads `game`'s table from a file, checked by the game.
pub fn load_table(game: GameId, path: &Path) -> Result<SharedTable, String> {
    match game.table() {
        Some(t) => (t.load)(path),
        None => Err(format!("{game} has no table of solved positions")),
    }
}

pub struct GameSession<G: Searchable> {
    rules: G::Rules,
    line: GameLine<G>,
    table: Option<Arc<dyn Tablebase<G>>>,
}

impl<G: Searchable> GameSession<G> {
    pub fn new(rules: G::Rules) -> Self {
        GameSession {
            line: GameLine::new(&rules),
            rules,
            table: None,
        }
    }
}

/// A session for `game` with the given rule option values.
pub fn new_session(
    game: GameId,
    rules: &[(&'static str, OptionValue)],
) -> Result<Box<dyn Session>, String> {
    struct Make<'a>(&'a [(&'static str, OptionValue)]);
    impl GameVisitor for Make<'_> {
        type Output = Result<Box<dyn Session>, String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            Ok(Box::new(GameSession::<G>::new(G::Rules::from_values(
                self.0,
            )?)))
        }
    }
    game.visit(Make(rules))
}

impl<G: Searchable> Session for GameSession<G> {
    fn game(&self) -> GameId {
        GameId::from_name(G::NAME).unwrap_or(GameId::DEFAULT)
    }

    fn set_position(&mut self, cmd: &PositionCommand) -> Result<(), String> {
        let start = match &cmd.start {
            PositionStart::StartPos => None,
            PositionStart::Fen(t) => Some(t),
        };
        // The protocol's errors end with the token they are about.
        self.line = GameLine::from_text(start, &cmd.moves, &self.rules).map_err(|e| match e {
            LineError::Position { .. } => {
                let board = start.map(|t| t.to_string()).unwrap_or_default();
                format!("{e} at {}", board.split(' ').next().unwrap_or(""))
            }
            LineError::Move(ReplayError::Illegal { mv, .. }) => format!("illegal move at {mv}"),
            LineError::Move(ReplayError::AfterEnd { mv, end, .. }) => {
                format!("illegal move, the game is over ({end}) at {mv}")
            }
        })?;
        Ok(())
    }

    fn display(&self) -> String {
        display::render(
            &self.line.current().to_text(),
            G::FILES,
            G::RANKS,
            self.status(),
        )
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

    fn spawn_search(&self, job: SearchJob) -> std::io::Result<JoinHandle<()>> {
        let root = self.line.current().clone();
        let history = self.line.history().clone();
        let over = self.status().is_some();
        let table = self.table.clone();
        std::thread::Builder::new()
            .name("search".into())
            .spawn(move || run_search(root, history, over, table, job))
    }

    fn status(&self) -> Option<End> {
        self.line.status()
    }

    fn side_to_move(&self) -> Color {
        self.line.current().side_to_move()
    }

    fn set_table(&mut self, table: Option<SharedTable>) {
        self.table = table.and_then(|t| t.downcast_ref::<Arc<dyn Tablebase<G>>>().cloned());
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
    job: SearchJob,
) {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if over {
            return None;
        }
        // With a table that knows every move's value: its best move, at once.
        if let Some((mv, value)) = table.as_deref().and_then(|t| best_move(t, &root, &history)) {
            job.out.line(table_info(&root, mv, value));
            return Some(mv);
        }
        let ctx = Context {
            tt: &job.tt,
            stop: &job.stop,
            limits: &job.limits,
            settings: job.settings.clone(),
        };
        search::search(&root, &history, &ctx, |r| {
            job.out.line(info_line(&root, r));
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
        std::thread::sleep(Duration::from_millis(1));
    }
    job.out.line(Reply::BestMove {
        mv: best.map(|m| root.move_text(m)),
        ponder: None,
    });
}
