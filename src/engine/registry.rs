//! The games an engine loop can play, each an entry made once for its
//! type, so the loop itself names no game and dispatches on none:
//! `Registry::koma()` holds Koma's games (made through `GameId::visit`),
//! and a test can run the same loop over a registry of a game of its own.

use super::bench_positions::{self, BenchLine};
use super::evalfile::{self, Install};
use super::refused::FileRefused;
use super::session::{GameSession, Session};
use crate::core::endgame::Layered;
use crate::core::{
    FileFault, OptionSpec, OptionValue, RuleError, Rules, Searchable, SharedTable, TableFile,
};
use crate::eval::Evaluation;
use crate::games::{EvaluationVisitor, GameId, GameVisitor, LayeredVisitor, Registered};
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// Rule option values, by name, as the engine keeps them.
pub type RuleSettings = [(&'static str, OptionValue)];

/// Reads and checks a weights file of one game (see `evalfile`).
pub type PrepareEval = fn(&str) -> Result<Install, FileFault>;

/// What the engine loop needs of one game.
#[derive(Clone, Copy)]
pub struct EngineGame {
    pub name: &'static str,
    /// The rule options the game reads.
    pub rule_specs: &'static [OptionSpec],
    /// A game from its start under these rule values (the others at
    /// their defaults).
    pub new_session: fn(&RuleSettings) -> Result<Box<dyn Session>, RuleError>,
    /// Reads and checks an `EvalFile` of this game (empty: the built-in
    /// weights); `None` for a game without a weights file.
    pub eval_file: Option<PrepareEval>,
    /// The game's table of solved positions, for games that have one.
    pub table: Option<TableFile>,
    /// Whether the game has endgame tables by material, which its
    /// sessions probe under the `TablePath` folder.
    pub endgame_tables: bool,
    /// The game's bench (`Searchable::BENCH`), `bench_positions::positions`.
    pub bench: fn(Option<u32>, &AtomicBool) -> Vec<BenchLine>,
}

fn new_session<G: Searchable>(rules: &RuleSettings) -> Result<Box<dyn Session>, RuleError> {
    let rules = G::Rules::from_values(rules)?;
    Ok(Box::new(GameSession::<G>::new(rules)))
}

fn new_session_with_tables<G: Searchable + Layered>(
    rules: &RuleSettings,
) -> Result<Box<dyn Session>, RuleError> {
    let rules = G::Rules::from_values(rules)?;
    Ok(Box::new(GameSession::<G>::with_tables(rules)))
}

impl EngineGame {
    /// A game that can be searched: no weights file, no table.
    pub fn of<G: Searchable>() -> EngineGame {
        EngineGame {
            name: G::NAME,
            rule_specs: G::Rules::specs(),
            new_session: new_session::<G>,
            eval_file: None,
            table: None,
            endgame_tables: false,
            bench: bench_positions::positions::<G>,
        }
    }

    /// The game of `G`'s entry, with what it registers: its table, its
    /// weights file, its endgame tables.
    pub fn registered<G: Registered>() -> EngineGame {
        struct Weights(EngineGame);
        impl EvaluationVisitor for Weights {
            type Output = EngineGame;
            fn visit<G: Registered + Evaluation>(self) -> EngineGame {
                self.0.with_weights::<G>()
            }
        }
        struct Tables(EngineGame);
        impl LayeredVisitor for Tables {
            type Output = EngineGame;
            fn visit<G: Registered + Layered>(self) -> EngineGame {
                self.0.with_endgame_tables::<G>()
            }
        }
        let game = EngineGame {
            table: G::ENTRY.table,
            ..EngineGame::of::<G>()
        };
        let game = G::visit_evaluation(Weights(game)).unwrap_or(game);
        G::visit_layered(Tables(game)).unwrap_or(game)
    }

    /// This game with `G`'s endgame tables, probed by its sessions.
    pub fn with_endgame_tables<G: Searchable + Layered>(self) -> EngineGame {
        EngineGame {
            new_session: new_session_with_tables::<G>,
            endgame_tables: true,
            ..self
        }
    }

    /// This game with `G`'s weights file as its `EvalFile`.
    pub fn with_weights<G: Searchable + Evaluation>(self) -> EngineGame {
        EngineGame {
            eval_file: Some(evalfile::prepare::<G>),
            ..self
        }
    }

    /// The engine option naming the game's table file, if it has one.
    pub fn table_option(&self) -> Option<&'static str> {
        self.table.map(|t| t.option)
    }

    /// Loads the game's table from a file, checked by the game.
    pub fn load_table(&self, path: &Path) -> Result<SharedTable, FileRefused> {
        match self.table {
            Some(t) => (t.load)(path).map_err(FileRefused::Bad),
            None => Err(FileRefused::NoTable(self.name)),
        }
    }

    /// `eval_file`, or for a game without one: the built-in weights kept
    /// for an empty value, any file refused.
    pub fn prepare_eval(&self, path: &str) -> Result<Install, FileRefused> {
        match self.eval_file {
            Some(prepare) => prepare(path).map_err(FileRefused::Bad),
            None if path.is_empty() => Ok(Box::new(|| Ok(()))),
            None => Err(FileRefused::NoWeights(self.name)),
        }
    }
}

/// The games of one engine and the one it starts with.
pub struct Registry {
    games: Vec<EngineGame>,
    names: Vec<&'static str>,
    default: usize,
}

impl Registry {
    /// # Panics
    /// When `default` is not one of `games`: an engine always has a game
    /// selected.
    pub fn new(games: Vec<EngineGame>, default: &str) -> Registry {
        let default = (games.iter().position(|g| g.name == default))
            .unwrap_or_else(|| panic!("the default game {default} is in the registry"));
        Registry {
            names: games.iter().map(|g| g.name).collect(),
            games,
            default,
        }
    }

    /// Koma's games, in `GameId::ALL`'s order.
    pub fn koma() -> &'static Registry {
        struct Entry;
        impl GameVisitor for Entry {
            type Output = EngineGame;
            fn visit<G: Registered>(self) -> EngineGame {
                EngineGame::registered::<G>()
            }
        }
        static KOMA: OnceLock<Registry> = OnceLock::new();
        KOMA.get_or_init(|| {
            Registry::new(
                GameId::ALL.iter().map(|g| g.visit(Entry)).collect(),
                GameId::DEFAULT.name(),
            )
        })
    }

    pub fn games(&self) -> &[EngineGame] {
        &self.games
    }

    /// Every game's name, as `UCI_Variant` lists them.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    pub fn default_game(&self) -> &EngineGame {
        &self.games[self.default]
    }

    pub fn game(&self, name: &str) -> Option<&EngineGame> {
        self.games.iter().find(|g| g.name == name)
    }
}
