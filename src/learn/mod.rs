//! Learning the evaluation from Koma's own games: self-play data
//! (`datagen`, in the format of `sample`) and the fit of each game's
//! evaluation weights to it (`tune`), and the training of its small network
//! (`net`). The commands are `koma datagen` and
//! `koma tune`; each game's `weights.md` gives the ones that made its
//! built-in weights.

pub mod datagen;
pub mod error;
pub mod net;
pub mod sample;
pub mod table_data;
pub mod tune;

pub use error::LearnError;

use crate::core::Searchable;
use crate::eval::Evaluation;
use crate::games::{EvaluationVisitor, GameId, GameVisitor, Registered};

/// Self-play data for `game` (see `datagen::run`).
pub fn datagen(
    game: GameId,
    s: &datagen::DatagenSettings,
    log: impl FnMut(&str),
) -> Result<(u64, u64), LearnError> {
    struct Run<'a, L>(&'a datagen::DatagenSettings, L);
    impl<L: FnMut(&str)> GameVisitor for Run<'_, L> {
        type Output = Result<(u64, u64), LearnError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            datagen::run::<G>(self.0, self.1)
        }
    }
    game.visit(Run(s, log))
}

/// The fit of `game`'s weights (see `tune::run`).
pub fn tune(
    game: GameId,
    s: &tune::TuneSettings,
    log: impl FnMut(&str),
) -> Result<tune::Fitted, LearnError> {
    struct Run<'a, L>(&'a tune::TuneSettings, L);
    impl<L: FnMut(&str)> EvaluationVisitor for Run<'_, L> {
        type Output = Result<tune::Fitted, LearnError>;
        fn visit<G: Registered + Evaluation>(self) -> Self::Output {
            tune::run::<G>(self.0, self.1)
        }
    }
    game.visit_evaluation(Run(s, log))
        .unwrap_or_else(|| Err(no_weights(game)))
}

/// The training of `game`'s network (see `net::run`).
pub fn tune_net(
    game: GameId,
    s: &tune::TuneSettings,
    seed: u64,
    log: impl FnMut(&str),
) -> Result<net::Trained, LearnError> {
    struct Run<'a, L>(&'a tune::TuneSettings, u64, L);
    impl<L: FnMut(&str)> EvaluationVisitor for Run<'_, L> {
        type Output = Result<net::Trained, LearnError>;
        fn visit<G: Registered + Evaluation>(self) -> Self::Output {
            net::run::<G>(self.0, self.1, self.2)
        }
    }
    game.visit_evaluation(Run(s, seed, log))
        .unwrap_or_else(|| Err(no_weights(game)))
}

/// Why a game without an evaluation of weights cannot be fitted.
fn no_weights(game: GameId) -> LearnError {
    LearnError::NoWeights(game.name())
}
