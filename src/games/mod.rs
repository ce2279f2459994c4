//! The games and the registry that maps their names to them. `GameId` is
//! the one dynamic seam: `GameId::visit` turns a run-time choice into a
//! monomorphised call, so everything below it pays no dynamic dispatch.

#[cfg(test)]
pub(crate) mod conformance;
pub mod endings;
pub mod hasami;
pub mod kaninariebi;
pub mod nana;
pub mod negaeri;
mod sandwich;

use crate::core::endgame::Layered;
use crate::core::{
    EndReason, Game, OptionSpec, Presentation, RuleError, RuleValues, Rules, Searchable, Solver,
    TableFile, read_rule_values,
};
use crate::eval::Evaluation;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    KaniNariEbi,
    Hasami,
    Nana,
    Negaeri,
}

/// A computation generic over the game, run by `GameId::visit`. Every
/// registered game can be searched and has an evaluation of terms, so the
/// visitor may search it, load its weights and fit them.
pub trait GameVisitor {
    type Output;
    fn visit<G: Searchable + Evaluation>(self) -> Self::Output;
}

/// A computation over a game's own solver (`core::Solver`), run by
/// `GameId::visit_solver` for the games that have one.
pub trait SolverVisitor {
    type Output;
    fn visit<G: Searchable + Evaluation, S: Solver<G>>(self, solver: &S) -> Self::Output;
}

/// A computation over a game solved by material signatures
/// (`core::endgame::Layered`), run by `GameId::visit_layered`.
pub trait LayeredVisitor {
    type Output;
    fn visit<G: Searchable + Layered>(self) -> Self::Output;
}

/// See `GameId::facts`.
#[derive(Clone, Copy, Debug)]
pub struct GameFacts {
    /// `Game::ENDINGS`.
    pub endings: &'static [EndReason],
    /// The rule options the game reads.
    pub rule_specs: &'static [OptionSpec],
    pub files: u8,
    pub ranks: u8,
}

impl GameId {
    /// In the order of `docs/rules/notation.md`.
    pub const ALL: &'static [GameId] = &[
        GameId::KaniNariEbi,
        GameId::Hasami,
        GameId::Nana,
        GameId::Negaeri,
    ];
    pub const DEFAULT: GameId = GameId::KaniNariEbi;

    pub fn name(self) -> &'static str {
        match self {
            GameId::KaniNariEbi => kaninariebi::KaniNariEbi::NAME,
            GameId::Hasami => hasami::Hasami::NAME,
            GameId::Nana => nana::Nana::NAME,
            GameId::Negaeri => negaeri::Negaeri::NAME,
        }
    }

    pub fn from_name(name: &str) -> Option<GameId> {
        GameId::ALL.iter().copied().find(|g| g.name() == name)
    }

    pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
        match self {
            GameId::KaniNariEbi => v.visit::<kaninariebi::KaniNariEbi>(),
            GameId::Hasami => v.visit::<hasami::Hasami>(),
            GameId::Nana => v.visit::<nana::Nana>(),
            GameId::Negaeri => v.visit::<negaeri::Negaeri>(),
        }
    }

    /// The game's table of solved positions, for games that have one.
    pub fn table(self) -> Option<TableFile> {
        match self {
            GameId::Nana => Some(nana::TABLE),
            _ => None,
        }
    }

    /// Runs `v` with the game's solver; `None` for a game without one.
    pub fn visit_solver<V: SolverVisitor>(self, v: V) -> Option<V::Output> {
        match self {
            GameId::Nana => Some(v.visit::<nana::Nana, _>(&nana::solver::NanaSolver)),
            _ => None,
        }
    }

    /// Runs `v` with a game whose endgame tables `koma solve --pieces`
    /// builds; `None` for the others.
    pub fn visit_layered<V: LayeredVisitor>(self, v: V) -> Option<V::Output> {
        match self {
            GameId::KaniNariEbi => Some(v.visit::<kaninariebi::KaniNariEbi>()),
            _ => None,
        }
    }

    /// Whether the game has endgame tables by material (`visit_layered`).
    pub fn layered(self) -> bool {
        struct Has;
        impl LayeredVisitor for Has {
            type Output = ();
            fn visit<G: Searchable + Layered>(self) {}
        }
        self.visit_layered(Has).is_some()
    }

    /// Whether the game has a solver (`visit_solver`).
    pub fn solvable(self) -> bool {
        struct Has;
        impl SolverVisitor for Has {
            type Output = ();
            fn visit<G: Searchable, S: Solver<G>>(self, _: &S) {}
        }
        self.visit_solver(Has).is_some()
    }

    /// The opening suites shipped for this game.
    pub fn suites(self) -> &'static [ShippedSuite] {
        match self {
            GameId::KaniNariEbi => kaninariebi::SUITES,
            GameId::Hasami => hasami::SUITES,
            GameId::Nana => nana::SUITES,
            GameId::Negaeri => negaeri::SUITES,
        }
    }

    /// How the game shows itself to a reader (the board's page).
    pub fn presentation(self) -> &'static Presentation {
        match self {
            GameId::KaniNariEbi => &kaninariebi::PRESENTATION,
            GameId::Hasami => &hasami::PRESENTATION,
            GameId::Nana => &nana::PRESENTATION,
            GameId::Negaeri => &negaeri::PRESENTATION,
        }
    }

    /// What any layer may know of the game without its type, read in one
    /// visit.
    pub fn facts(self) -> GameFacts {
        struct Facts;
        impl GameVisitor for Facts {
            type Output = GameFacts;
            fn visit<G: Searchable>(self) -> GameFacts {
                GameFacts {
                    endings: G::ENDINGS,
                    rule_specs: G::Rules::specs(),
                    files: G::FILES,
                    ranks: G::RANKS,
                }
            }
        }
        self.visit(Facts)
    }

    /// The endings of this game's own rules (`Game::ENDINGS`).
    pub fn endings(self) -> &'static [EndReason] {
        self.facts().endings
    }

    /// The rule options this game reads.
    pub fn rule_specs(self) -> &'static [OptionSpec] {
        self.facts().rule_specs
    }

    /// This game's rule options given by name with values as text (see
    /// `read_rule_values`).
    pub fn read_rules<'a>(
        self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<RuleValues, RuleError> {
        read_rule_values(self.name(), self.rule_specs(), pairs)
    }
}

/// An opening suite shipped with Koma (`record::suite` reads it), embedded
/// in the binaries.
pub struct ShippedSuite {
    /// Where it lives in the repository (and how to regenerate it: its
    /// header's `command`).
    pub path: &'static str,
    pub text: &'static str,
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Every ending a game can have: core's generic ones, then the games'
/// own, each once (games share some).
pub fn all_endings() -> Vec<EndReason> {
    let mut all = EndReason::GENERIC.to_vec();
    for &e in GameId::ALL.iter().flat_map(|g| g.endings()) {
        if !all.contains(&e) {
            all.push(e);
        }
    }
    all
}
