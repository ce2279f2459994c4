//! The games and the registry that lists them. A game is its folder and
//! one line of `registry!` below (its type, which implements
//! `entry::Registered`); `GameId` names a game by its entry, and
//! `GameId::visit` turns a run-time choice among the list's games into a
//! monomorphised call, so everything below it pays no dynamic dispatch.
//! A front end offers its games as a `Catalogue`, made from this list
//! and open to games outside it (a test's).

pub mod catalogue;
#[cfg(test)]
pub(crate) mod conformance;
pub mod endings;
pub mod entry;
pub mod hasami;
pub mod kaninariebi;
pub mod nana;
pub mod negaeri;
mod sandwich;

pub use catalogue::{Catalogue, MadeFor};
pub use entry::{
    Encoding, EvaluationVisitor, GameEntry, GameVisitor, LayeredVisitor, Registered, ShippedSuite,
    SolverVisitor,
};

use crate::core::{
    EndReason, OptionSpec, Presentation, RuleError, RuleValues, TableFile, read_rule_values,
};

/// Makes the list's entries and the table `GameId::visit` dispatches by:
/// one function per game, instantiated for the visitor's type.
macro_rules! registry {
    [$($game:ty),+ $(,)?] => {
        const ENTRIES: &[&GameEntry] = &[$(&<$game as Registered>::ENTRY),+];

        fn dispatch<V: GameVisitor>(index: usize, v: V) -> V::Output {
            let table: &[fn(V) -> V::Output] = &[$(visit_one::<V, $game>),+];
            table[index](v)
        }
    };
}

// Koma's games, one line each, in the order of `docs/rules/notation.md`;
// the first is the one an engine starts with.
registry![
    kaninariebi::KaniNariEbi,
    hasami::Hasami,
    nana::Nana,
    negaeri::Negaeri,
];

fn visit_one<V: GameVisitor, G: Registered>(v: V) -> V::Output {
    v.visit::<G>()
}

/// A game, by its entry: one of the registry's list, or (made by
/// `GameId::of`) a game outside it that a front end's `Catalogue` offers.
/// Two ids are the same game when they have the same name.
#[derive(Copy, Clone)]
pub struct GameId(&'static GameEntry);

impl PartialEq for GameId {
    fn eq(&self, other: &GameId) -> bool {
        self.name() == other.name()
    }
}

impl Eq for GameId {}

impl std::hash::Hash for GameId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

const COUNT: usize = ENTRIES.len();

impl GameId {
    /// Every game of the list, in its order.
    pub const ALL: &'static [GameId] = &{
        let mut all = [GameId(ENTRIES[0]); COUNT];
        let mut i = 0;
        while i < COUNT {
            all[i] = GameId(ENTRIES[i]);
            i += 1;
        }
        all
    };
    pub const DEFAULT: GameId = GameId(ENTRIES[0]);

    /// Its place in the registry's list; `None` for a game outside it.
    fn index(self) -> Option<usize> {
        ENTRIES.iter().position(|e| e.name == self.name())
    }

    /// The game's entry: everything known of it without its type.
    pub fn entry(self) -> &'static GameEntry {
        self.0
    }

    /// The id of `G`, listed or not.
    pub fn of<G: Registered>() -> GameId {
        GameId(const { &G::ENTRY })
    }

    /// Whether the game is one of the registry's list (the games `visit`
    /// reaches).
    pub fn listed(self) -> bool {
        self.index().is_some()
    }

    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The registry's game of this name.
    pub fn from_name(name: &str) -> Option<GameId> {
        GameId::ALL.iter().copied().find(|g| g.name() == name)
    }

    /// Runs `v` with the game's type.
    ///
    /// # Panics
    /// For a game outside the registry's list: the type of such a game is
    /// known only where it was named, which reaches it through the
    /// entries it made of it (a `Catalogue`'s), never through its id.
    pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
        let Some(index) = self.index() else {
            panic!("{self} is not a game of the registry's list: reach it through a catalogue");
        };
        dispatch(index, v)
    }

    /// Runs `v` with the game's trainable evaluation; `None` for a game
    /// without one.
    pub fn visit_evaluation<V: EvaluationVisitor>(self, v: V) -> Option<V::Output> {
        struct Has<V>(V);
        impl<V: EvaluationVisitor> GameVisitor for Has<V> {
            type Output = Option<V::Output>;
            fn visit<G: Registered>(self) -> Self::Output {
                G::visit_evaluation(self.0)
            }
        }
        self.visit(Has(v))
    }

    /// Runs `v` with the game's solver; `None` for a game without one.
    pub fn visit_solver<V: SolverVisitor>(self, v: V) -> Option<V::Output> {
        struct Has<V>(V);
        impl<V: SolverVisitor> GameVisitor for Has<V> {
            type Output = Option<V::Output>;
            fn visit<G: Registered>(self) -> Self::Output {
                G::visit_solver(self.0)
            }
        }
        self.visit(Has(v))
    }

    /// Runs `v` with a game whose endgame tables `koma solve --pieces`
    /// builds; `None` for the others.
    pub fn visit_layered<V: LayeredVisitor>(self, v: V) -> Option<V::Output> {
        struct Has<V>(V);
        impl<V: LayeredVisitor> GameVisitor for Has<V> {
            type Output = Option<V::Output>;
            fn visit<G: Registered>(self) -> Self::Output {
                G::visit_layered(self.0)
            }
        }
        self.visit(Has(v))
    }

    /// Whether the game has endgame tables by material (`visit_layered`).
    pub fn layered(self) -> bool {
        struct Has;
        impl LayeredVisitor for Has {
            type Output = ();
            fn visit<G>(self) {}
        }
        self.visit_layered(Has).is_some()
    }

    /// Whether the game has a solver (`visit_solver`).
    pub fn solvable(self) -> bool {
        struct Has;
        impl SolverVisitor for Has {
            type Output = ();
            fn visit<G, S>(self, _: &S) {}
        }
        self.visit_solver(Has).is_some()
    }

    /// The game's table of solved positions, for games that have one.
    pub fn table(self) -> Option<TableFile> {
        self.entry().table
    }

    /// The opening suites shipped for this game.
    pub fn suites(self) -> &'static [ShippedSuite] {
        self.entry().suites
    }

    /// How the game shows itself to a reader (the board's page).
    pub fn presentation(self) -> &'static Presentation {
        self.entry().presentation
    }

    /// The endings of this game's own rules (`Game::ENDINGS`).
    pub fn endings(self) -> &'static [EndReason] {
        self.entry().endings
    }

    /// The rule options this game reads.
    pub fn rule_specs(self) -> &'static [OptionSpec] {
        (self.entry().rule_specs)()
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

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Debug for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameId({})", self.name())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_id_visits_the_game_of_its_entry() {
        struct Name;
        impl GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: Registered>(self) -> &'static str {
                G::NAME
            }
        }
        for &g in GameId::ALL {
            assert_eq!(g.visit(Name), g.name());
            assert_eq!(GameId::from_name(g.name()), Some(g));
        }
        assert_eq!(GameId::DEFAULT, GameId::ALL[0]);
        assert_eq!(GameId::ALL.len(), 4);
        assert_eq!(
            GameId::of::<nana::Nana>(),
            GameId::from_name("nana").unwrap()
        );
        assert!(GameId::of::<nana::Nana>().listed());
    }

    #[test]
    fn the_capabilities_are_those_the_games_register() {
        let names = |f: fn(GameId) -> bool| -> Vec<&str> {
            GameId::ALL
                .iter()
                .filter(|&&g| f(g))
                .map(|g| g.name())
                .collect()
        };
        assert_eq!(names(GameId::layered), ["kaninariebi"]);
        assert_eq!(names(GameId::solvable), ["nana"]);
        assert_eq!(names(|g| g.table().is_some()), ["nana"]);
        struct Has;
        impl EvaluationVisitor for Has {
            type Output = ();
            fn visit<G>(self) {}
        }
        assert_eq!(
            names(|g| g.visit_evaluation(Has).is_some()),
            ["kaninariebi", "hasami", "nana", "negaeri"]
        );
    }
}
