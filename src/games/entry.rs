//! What a game registers: its entry (`Registered`), the one place the rest
//! of the crate learns a game from. The data (name, rules, presentation,
//! suites, table, encoding for learning) is a `GameEntry` value; the optional
//! capabilities that need the game's type (an evaluation of weights, a
//! solver, endgame tables by material) are methods of `Registered` that a
//! game without them leaves at their defaults.

use crate::core::endgame::Layered;
use crate::core::{
    EndReason, Game, OptionSpec, Presentation, Rules, Searchable, Solver, TableFile,
};
use crate::eval::Evaluation;

/// A game as the registry holds it: its data in `ENTRY` and its optional
/// capabilities, each visited only when the game has it (the defaults say
/// it has none). `Searchable` is all the engine, referee, board and Python
/// package need to play it.
pub trait Registered: Searchable {
    const ENTRY: GameEntry;

    /// Runs `v` when the game's evaluation is made of trainable terms
    /// read from a weights file (`eval::Evaluation`).
    fn visit_evaluation<V: EvaluationVisitor>(v: V) -> Option<V::Output> {
        let _ = v;
        None
    }

    /// Runs `v` with the game's own solver, for a game that has one.
    fn visit_solver<V: SolverVisitor>(v: V) -> Option<V::Output> {
        let _ = v;
        None
    }

    /// Runs `v` when `koma solve --pieces` builds the game's endgame tables
    /// by material (`core::endgame::Layered`).
    fn visit_layered<V: LayeredVisitor>(v: V) -> Option<V::Output> {
        let _ = v;
        None
    }
}

/// A computation generic over the game, run by `GameId::visit`.
pub trait GameVisitor {
    type Output;
    fn visit<G: Registered>(self) -> Self::Output;
}

/// A computation over a game's trainable evaluation, run by
/// `GameId::visit_evaluation` for the games that have one.
pub trait EvaluationVisitor {
    type Output;
    fn visit<G: Registered + Evaluation>(self) -> Self::Output;
}

/// A computation over a game's own solver (`core::Solver`), run by
/// `GameId::visit_solver` for the games that have one.
pub trait SolverVisitor {
    type Output;
    fn visit<G: Registered, S: Solver<G>>(self, solver: &S) -> Self::Output;
}

/// A computation over a game solved by material signatures
/// (`core::endgame::Layered`), run by `GameId::visit_layered`.
pub trait LayeredVisitor {
    type Output;
    fn visit<G: Registered + Layered>(self) -> Self::Output;
}

/// What any layer may know of a game without its type. Made by
/// `GameEntry::of`, which reads the game's own constants, then given what
/// the type does not say (`with_*`).
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    pub name: &'static str,
    /// `Game::ENDINGS`.
    pub endings: &'static [EndReason],
    /// The rule options the game reads.
    pub rule_specs: fn() -> &'static [OptionSpec],
    pub files: u8,
    pub ranks: u8,
    /// How the game shows itself to a reader (the board's page).
    pub presentation: &'static Presentation,
    /// The opening suites shipped for this game.
    pub suites: &'static [ShippedSuite],
    /// The game's table of solved positions, for games that have one.
    pub table: Option<TableFile>,
    /// How learning environments see its positions and moves (the Python
    /// package's planes and actions).
    pub encoding: &'static Encoding,
}

impl GameEntry {
    /// The entry of `G`, shown by `presentation` and seen by learning
    /// environments through `encoding`: no suite, no table.
    pub const fn of<G: Game>(
        presentation: &'static Presentation,
        encoding: &'static Encoding,
    ) -> GameEntry {
        GameEntry {
            name: G::NAME,
            endings: G::ENDINGS,
            rule_specs: <G::Rules as Rules>::specs,
            files: G::FILES,
            ranks: G::RANKS,
            presentation,
            suites: &[],
            table: None,
            encoding,
        }
    }

    pub const fn with_suites(self, suites: &'static [ShippedSuite]) -> GameEntry {
        GameEntry { suites, ..self }
    }

    pub const fn with_table(self, table: TableFile) -> GameEntry {
        GameEntry {
            table: Some(table),
            ..self
        }
    }
}

/// An opening suite shipped with Koma (`record::suite` reads it), embedded
/// in the binaries.
#[derive(Debug)]
pub struct ShippedSuite {
    /// Where it lives in the repository (and how to regenerate it: its
    /// header's `command`).
    pub path: &'static str,
    pub text: &'static str,
}

/// The letters and move kinds a game writes, which fix the size of a
/// learning environment's observation planes and action space
/// (docs/python.md): the same in every position of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Piece kinds on the board: letter and whether promoted (`+`).
    pub kinds: &'static [(char, bool)],
    /// Letters in hand, in the order of the position string.
    pub hand: &'static [char],
    /// The counters after the side to move.
    pub counters: usize,
    /// Movements may carry `+`.
    pub promote: bool,
    /// A movement may be followed by a Bond movement of the same turn
    /// (`MoveText::Bond`): a turn may take two actions.
    pub bond: bool,
    /// The letters that can be dropped, in this order.
    pub drops: &'static [char],
    /// `pass` is a move.
    pub pass: bool,
}

impl std::fmt::Display for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}
