//! The games and the registry that maps their names to them. `GameId` is
//! the one dynamic seam: `GameId::visit` turns a run-time choice into a
//! monomorphised call, so everything below it pays no dynamic dispatch.

#[cfg(test)]
pub(crate) mod conformance;
pub mod hasami;
pub mod nana;

use crate::core::{Game, OptionSpec, Rules};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    Hasami,
    Nana,
}

/// A computation generic over the game, run by `GameId::visit`.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

impl GameId {
    pub const ALL: &'static [GameId] = &[GameId::Hasami, GameId::Nana];
    pub const DEFAULT: GameId = GameId::Hasami;

    pub fn name(self) -> &'static str {
        match self {
            GameId::Hasami => hasami::Hasami::NAME,
            GameId::Nana => nana::Nana::NAME,
        }
    }

    pub fn from_name(name: &str) -> Option<GameId> {
        GameId::ALL.iter().copied().find(|g| g.name() == name)
    }

    pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
        match self {
            GameId::Hasami => v.visit::<hasami::Hasami>(),
            GameId::Nana => v.visit::<nana::Nana>(),
        }
    }

    /// The rule options this game reads.
    pub fn rule_specs(self) -> &'static [OptionSpec] {
        struct Specs;
        impl GameVisitor for Specs {
            type Output = &'static [OptionSpec];
            fn visit<G: Game>(self) -> Self::Output {
                G::Rules::specs()
            }
        }
        self.visit(Specs)
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
