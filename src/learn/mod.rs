//! Learning the evaluation from Koma's own games: self-play data
//! (`datagen`, in the format of `sample`) and the fit of each game's
//! evaluation weights to it (`tune`), and the training of its small network
//! (`net`). The commands are `koma datagen` and
//! `koma tune`; each game's `weights.md` gives the ones that made its
//! built-in weights.

pub mod datagen;
pub mod net;
pub mod sample;
pub mod table_data;
pub mod tune;

use crate::eval::Evaluation;
use crate::games::{GameId, hasami, kaninariebi, nana, negaeri};

/// Self-play data for `game` (see `datagen::run`).
pub fn datagen(
    game: GameId,
    s: &datagen::DatagenSettings,
    log: impl FnMut(&str),
) -> Result<(u64, u64), String> {
    match game {
        GameId::KaniNariEbi => datagen::run::<kaninariebi::KaniNariEbi>(s, log),
        GameId::Hasami => datagen::run::<hasami::Hasami>(s, log),
        GameId::Nana => datagen::run::<nana::Nana>(s, log),
        GameId::Negaeri => datagen::run::<negaeri::Negaeri>(s, log),
    }
}

/// The fit of `game`'s weights (see `tune::run`).
pub fn tune(
    game: GameId,
    s: &tune::TuneSettings,
    log: impl FnMut(&str),
) -> Result<tune::Fitted, String> {
    fn run<G: Evaluation>(
        s: &tune::TuneSettings,
        log: impl FnMut(&str),
    ) -> Result<tune::Fitted, String> {
        tune::run::<G>(s, log)
    }
    match game {
        GameId::KaniNariEbi => run::<kaninariebi::KaniNariEbi>(s, log),
        GameId::Hasami => run::<hasami::Hasami>(s, log),
        GameId::Nana => run::<nana::Nana>(s, log),
        GameId::Negaeri => run::<negaeri::Negaeri>(s, log),
    }
}

/// The training of `game`'s network (see `net::run`).
pub fn tune_net(
    game: GameId,
    s: &tune::TuneSettings,
    seed: u64,
    log: impl FnMut(&str),
) -> Result<net::Trained, String> {
    match game {
        GameId::KaniNariEbi => net::run::<kaninariebi::KaniNariEbi>(s, seed, log),
        GameId::Hasami => net::run::<hasami::Hasami>(s, seed, log),
        GameId::Nana => net::run::<nana::Nana>(s, seed, log),
        GameId::Negaeri => net::run::<negaeri::Negaeri>(s, seed, log),
    }
}
