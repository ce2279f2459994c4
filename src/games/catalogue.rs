//! The games a front end offers (the referee's variants, the board's
//! games), each an entry the front end makes once for the game's type
//! (`MadeFor`): Koma's are the registry's list, and a test adds a game of
//! its own with `with::<G>()`, which no file of `src/` need name.

use super::{GameId, GameVisitor, Registered};

/// A front end's entry for one game, made for its type: what it needs of
/// the game as values and function pointers, so that it never visits.
pub trait MadeFor: Sized {
    fn made_for<G: Registered>() -> Self;
    /// The game it was made for.
    fn game(&self) -> GameId;
}

/// A front end's games, in the order it lists them; the first is the one
/// it starts with.
#[derive(Clone, Debug)]
pub struct Catalogue<E> {
    entries: Vec<E>,
}

impl<E: MadeFor> Catalogue<E> {
    /// Koma's games: the registry's list, in its order.
    pub fn koma() -> Catalogue<E> {
        struct Make<E>(std::marker::PhantomData<E>);
        impl<E: MadeFor> GameVisitor for Make<E> {
            type Output = E;
            fn visit<G: Registered>(self) -> E {
                E::made_for::<G>()
            }
        }
        let entries = (GameId::ALL.iter())
            .map(|g| g.visit(Make(std::marker::PhantomData)))
            .collect();
        Catalogue { entries }
    }

    /// These games and `G` after them.
    pub fn with<G: Registered>(mut self) -> Catalogue<E> {
        self.entries.push(E::made_for::<G>());
        self
    }

    /// The entry of the game of this name.
    pub fn named(&self, name: &str) -> Option<&E> {
        self.entries.iter().find(|e| e.game().name() == name)
    }

    /// The entry of `game`, which the catalogue offers.
    ///
    /// # Panics
    /// For a game it does not offer: an id a front end holds comes from
    /// its catalogue.
    pub fn of(&self, game: GameId) -> &E {
        (self.named(game.name()))
            .unwrap_or_else(|| panic!("{game} is not one of the catalogue's games"))
    }

    /// The games' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.game().name()).collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.entries.iter()
    }
}
