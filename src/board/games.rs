//! The games the board offers: each a `BoardGame` made once for the game's
//! type, holding what the board does that needs the type (a new game of
//! it, its endgame tables' verdicts) beside the referee's `Variant` of it
//! (its records' check). `Config::games` is Koma's unless a test adds one.

use super::endgame::{self, Endgames};
use super::play::{self, Play, PlayRefused};
use crate::core::endgame::Layered;
use crate::core::{MoveText, OptionValue, PositionText, RuleValues, Searchable};
use crate::games::{Catalogue, GameId, LayeredVisitor, MadeFor, Registered};
use crate::protocol::record::Record;
use crate::record::replay::{MatchSize, RecordError};
use crate::referee::Variant;
use crate::referee::variants;

/// `Endgames::answer` for one game's type.
pub type AskTables = fn(
    &Endgames,
    GameId,
    &RuleValues,
    Option<&PositionText>,
    &[MoveText],
) -> Result<endgame::Answer, (u16, String)>;

/// A new game of one game's type (`play::new_play_of`).
pub type NewPlay =
    fn(&[(&'static str, OptionValue)], Option<&PositionText>) -> Result<Box<dyn Play>, PlayRefused>;

/// What the board needs of one game.
#[derive(Clone, Copy, Debug)]
pub struct BoardGame {
    /// The referee's entry of it: its records' check, whether it has
    /// endgame tables.
    pub variant: Variant,
    /// A new game of it under the rule options given (the others at their
    /// defaults), from its start position or from `start`.
    pub new_play: NewPlay,
    /// Its endgame tables' verdict on a position, for a game that has
    /// them.
    pub tables: Option<AskTables>,
}

/// The board's games.
pub type BoardGames = Catalogue<BoardGame>;

impl MadeFor for BoardGame {
    fn made_for<G: Registered>() -> BoardGame {
        struct Ask;
        impl LayeredVisitor for Ask {
            type Output = AskTables;
            fn visit<L: Searchable + Layered>(self) -> AskTables {
                Endgames::answer_as::<L>
            }
        }
        BoardGame {
            variant: Variant::made_for::<G>(),
            new_play: play::new_play_of::<G>,
            tables: G::visit_layered(Ask),
        }
    }

    fn game(&self) -> GameId {
        self.variant.game
    }
}

impl BoardGame {
    pub fn id(&self) -> GameId {
        self.variant.game
    }
}

/// A record's check, by the game its `Variant` tag names; a record of a
/// game the board does not offer gets the record check's own refusal.
pub fn check_record(
    games: &BoardGames,
    r: &Record,
    size: Option<MatchSize>,
) -> Result<(), RecordError> {
    variants::check_record(r, size, |v| games.named(v).map(|g| &g.variant))
}
