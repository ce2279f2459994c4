//! Endgame tables for Python, of the games solved by material (the
//! registry's `GameId::visit_layered`), in the shape of python-chess's
//! `chess.syzygy`: a folder opened once, probed with a game line (its
//! history decides which moves a repetition turns into draws).

use crate::position::{AnyPosition, line_of};
use koma::core::endgame::Layered;
use koma::core::{GameLine, Outcome, Searchable};
use koma::games::{GameId, LayeredVisitor, Registered};
use koma::solve::tables::probe::default_root;
use koma::solve::tables::{Dtz, Tables};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Why a probe has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// No table holds the position: another game, too many pieces, or its
    /// file is absent (python-chess's `KeyError`).
    Missing(String),
    /// The table's file is there but refused (header, size or checksum).
    Bad(String),
}

/// A position's value for its side to move as python-chess counts it:
/// `wdl` 2, 0 or -2 (no cursed results: no move-count rule), `dtz` the
/// distance in plies to the next exit (capture or promotion) or the end,
/// positive when winning, negative when losing, 0 for a draw or a game
/// already over.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub wdl: i32,
    pub dtz: i32,
}

impl Value {
    fn of(v: Dtz) -> Value {
        // Distances fit a byte (`value::MAX_DISTANCE`).
        let d = |d: u32| i32::try_from(d).unwrap_or(i32::MAX);
        match v {
            Dtz::Win(n) => Value { wdl: 2, dtz: d(n) },
            Dtz::Loss(n) => Value {
                wdl: -2,
                dtz: -d(n),
            },
            Dtz::Draw => Value { wdl: 0, dtz: 0 },
        }
    }
}

/// The tables under one folder; each game's and rule variant's tables
/// are opened on first use and keep the files read so far until dropped.
pub struct Tablebase {
    root: PathBuf,
    open: Mutex<HashMap<TablesKey, Arc<dyn Any + Send + Sync>>>,
}

/// A game's name and its rules' tag: the key of an `Arc<Tables<G>>` of
/// that game.
type TablesKey = (&'static str, String);

/// What a probe asks of the tables.
#[derive(Clone, Copy)]
enum Ask {
    Value,
    Moves,
}

/// What the tables answered.
enum Answer {
    Value(Value),
    Moves(Vec<(String, Value)>),
}

impl Tablebase {
    /// The tables under `root`, else the folder `koma solve` writes to.
    /// A folder named but absent is refused; the default one may be
    /// absent (every probe then misses).
    pub fn open(root: Option<&Path>) -> Result<Tablebase, String> {
        let root = match root {
            Some(r) if r.is_dir() => r.to_path_buf(),
            Some(r) => return Err(format!("no folder {}", r.display())),
            None => default_root().ok_or("no home folder for the default tables")?,
        };
        Ok(Tablebase {
            root,
            open: Mutex::new(HashMap::new()),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A copy of the position to probe without holding its lock, when
    /// its game has tables.
    pub fn line(pos: &dyn AnyPosition) -> Result<Box<dyn AnyPosition>, TableError> {
        let name = pos.entry().name;
        match GameId::from_name(name) {
            Some(g) if g.layered() => Ok(pos.boxed_clone()),
            _ => Err(TableError::Missing(format!("no tables for {name}"))),
        }
    }

    /// The value of the position's line now. A game over (by the rules or
    /// by repetition) is a win, draw or loss at distance 0.
    pub fn probe(&self, pos: &dyn AnyPosition) -> Result<Value, TableError> {
        match self.ask(pos, Ask::Value)? {
            Answer::Value(v) => Ok(v),
            Answer::Moves(_) => unreachable!("a value was asked"),
        }
    }

    /// Every legal move with its value for the side making it, best first
    /// (a move repeating a position for the last allowed time is a draw).
    pub fn moves(&self, pos: &dyn AnyPosition) -> Result<Vec<(String, Value)>, TableError> {
        match self.ask(pos, Ask::Moves)? {
            Answer::Moves(m) => Ok(m),
            Answer::Value(_) => unreachable!("the moves were asked"),
        }
    }

    fn ask(&self, pos: &dyn AnyPosition, ask: Ask) -> Result<Answer, TableError> {
        struct Run<'a>(&'a Tablebase, &'a dyn AnyPosition, Ask);
        impl LayeredVisitor for Run<'_> {
            type Output = Result<Answer, TableError>;
            fn visit<G: Registered + Layered>(self) -> Self::Output {
                let Run(tb, pos, ask) = self;
                let line = line_of::<G>(pos).ok_or_else(|| no_tables(pos))?;
                match ask {
                    Ask::Value => tb.probe_line(line).map(Answer::Value),
                    Ask::Moves => tb.moves_of_line(line).map(Answer::Moves),
                }
            }
        }
        let game = GameId::from_name(pos.entry().name).ok_or_else(|| no_tables(pos))?;
        game.visit_layered(Run(self, pos, ask))
            .unwrap_or_else(|| Err(no_tables(pos)))
    }

    fn tables<G: Layered>(&self, line: &GameLine<G>) -> Arc<Tables<G>> {
        let rules = line.rules();
        let key = (G::NAME, G::rules_tag(rules));
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let any = open
            .entry(key)
            .or_insert_with(|| Arc::new(Arc::new(Tables::<G>::open(&self.root, rules))))
            .clone();
        drop(open);
        // The key names the game, so the entry is this game's.
        any.downcast_ref::<Arc<Tables<G>>>()
            .expect("the tables of the game named in the key")
            .clone()
    }

    fn probe_line<G: Layered + Searchable>(&self, line: &GameLine<G>) -> Result<Value, TableError> {
        if let Some(end) = line.status() {
            let wdl = match end.outcome {
                Outcome::Win(c) if c == line.current().side_to_move() => 2,
                Outcome::Win(_) => -2,
                Outcome::Draw => 0,
            };
            return Ok(Value { wdl, dtz: 0 });
        }
        let tables = self.tables(line);
        match tables.lookup(line.current()) {
            Ok(Some(v)) => Ok(Value::of(v)),
            Ok(None) => Err(TableError::Missing(format!(
                "no table holds {} (too many pieces, or too few a side)",
                line.current().to_text()
            ))),
            Err(e) if missing_file(&tables, line) => Err(TableError::Missing(e.to_string())),
            Err(e) => Err(TableError::Bad(e.to_string())),
        }
    }

    fn moves_of_line<G: Layered + Searchable>(
        &self,
        line: &GameLine<G>,
    ) -> Result<Vec<(String, Value)>, TableError> {
        if line.status().is_some() {
            return Ok(Vec::new());
        }
        // The probe names the missing or bad table when a move's is.
        self.probe_line(line)?;
        let tables = self.tables(line);
        let pos = line.current();
        let Some(moves) = tables.moves(pos, line.history()) else {
            return Err(first_failure(&tables, line));
        };
        Ok(moves
            .into_iter()
            .map(|(m, v)| (pos.move_text(m).to_string(), Value::of(v)))
            .collect())
    }

    /// Drops the tables read so far.
    pub fn close(&self) {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

fn no_tables(pos: &dyn AnyPosition) -> TableError {
    TableError::Missing(format!("no tables for {}", pos.entry().name))
}

/// The error of the first move whose table cannot answer.
fn first_failure<G: Layered>(tables: &Tables<G>, line: &GameLine<G>) -> TableError {
    let pos = line.current();
    let mut ml = G::MoveList::default();
    pos.generate(&mut ml);
    for &m in ml.iter() {
        let child = pos.play(m);
        if child.terminal().is_some() {
            continue;
        }
        if let Err(e) = tables.lookup(&child) {
            let mut after = line.clone();
            after.play(m);
            return if missing_file(tables, &after) {
                TableError::Missing(e.to_string())
            } else {
                TableError::Bad(e.to_string())
            };
        }
    }
    TableError::Missing("a move's table is missing".to_string())
}

/// Whether the table file of the line's position is absent (rather than
/// present and refused).
fn missing_file<G: Layered>(tables: &Tables<G>, line: &GameLine<G>) -> bool {
    line.current()
        .locate()
        .is_some_and(|(sig, _)| !tables.has_file(sig))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::new_position;
    use koma::games::GameId;

    fn position(game: GameId, fen: Option<&str>) -> Box<dyn AnyPosition> {
        new_position(game, &[], fen).expect("a valid position")
    }

    #[test]
    fn a_missing_table_file_and_another_game_are_misses() {
        let root = std::env::temp_dir().join(format!("koma-py-tables-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("a temp folder");
        let tb = Tablebase::open(Some(&root)).expect("the folder exists");
        let six = position(
            GameId::from_name("kaninariebi").unwrap(),
            Some("5/1CS2/s1s2/2S2/3c1 w 1"),
        );
        let line = Tablebase::line(&*six).expect("a game with tables");
        assert!(
            matches!(tb.probe(&*line), Err(TableError::Missing(m)) if m.contains("CSSvCSS.ktb"))
        );
        assert!(matches!(tb.moves(&*line), Err(TableError::Missing(_))));
        // Every live position has a signature: the start's file is named.
        let start = Tablebase::line(&*position(GameId::from_name("kaninariebi").unwrap(), None))
            .expect("a game");
        assert!(
            matches!(tb.probe(&*start), Err(TableError::Missing(m)) if m.contains("CCCCCvCCCCC.ktb"))
        );
        let nana = position(GameId::from_name("nana").unwrap(), None);
        assert!(
            matches!(Tablebase::line(&*nana), Err(TableError::Missing(m)) if m.contains("nana"))
        );
        assert!(Tablebase::open(Some(&root.join("absent"))).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }
}
