//! The games the referee plays (`--variant`): each a `Variant` made once
//! for the game's type, holding what the referee does that needs the type
//! (a match, a record's check, the compliance checks). `Variants::koma()`
//! is Koma's games; a test adds one of its own with `.with::<G>()`.

use super::RunError;
use super::cli::config::MatchConfig;
use super::compliance::{self, VariantChecks};
use crate::games::{Catalogue, GameId, LayeredVisitor, MadeFor, Registered};
use crate::protocol::record::Record;
use crate::record::replay::{self, MatchSize, RecordError};
use crate::record::tags;
use std::process::ExitCode;

/// What the referee needs of one game.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub game: GameId,
    /// Plays a match of it (`matches::runner::run`).
    pub play: fn(&MatchConfig) -> Result<ExitCode, RunError>,
    /// Checks one of its records (`record::replay`).
    pub check_record: fn(&Record, Option<MatchSize>) -> Result<(), RecordError>,
    /// Whether it has endgame tables by material, which `--tb` reads.
    pub layered: bool,
    /// Its checks in `--compliance`.
    pub(crate) compliance: VariantChecks,
}

/// The referee's games.
pub type Variants = Catalogue<Variant>;

impl MadeFor for Variant {
    fn made_for<G: Registered>() -> Variant {
        struct Has;
        impl LayeredVisitor for Has {
            type Output = ();
            fn visit<G>(self) {}
        }
        Variant {
            game: GameId::of::<G>(),
            play: super::matches::runner::run::<G>,
            // Koma's own games keep the check their records always had
            // (a `Termination` read among every game's endings).
            check_record: if GameId::of::<G>().listed() {
                replay::check
            } else {
                replay::check_as::<G>
            },
            layered: G::visit_layered(Has).is_some(),
            compliance: compliance::variant_checks_of::<G>,
        }
    }

    fn game(&self) -> GameId {
        self.game
    }
}

/// Checks a record by the variant its `Variant` tag names (`variant_of`
/// finds it: the referee's `Variants`, the board's games); a record of a
/// game not among them gets the record check's own refusal.
pub fn check_record<'v>(
    r: &Record,
    size: Option<MatchSize>,
    variant_of: impl FnOnce(&str) -> Option<&'v Variant>,
) -> Result<(), RecordError> {
    match r.tag(tags::VARIANT).and_then(variant_of) {
        Some(v) => (v.check_record)(r, size),
        None => replay::check(r, size),
    }
}
