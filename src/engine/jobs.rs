//! Command-line jobs that reuse the engine's pieces: perft from a position
//! given as text.

use super::options::OptionStore;
use super::registry::Registry;
use super::session::PositionRefused;
use crate::core::{MAX_PERFT_DEPTH, RuleError};
use crate::games::GameId;
use crate::protocol::{ParseError, PositionCommand, PositionStart, parse_move, parse_position};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub struct PerftRun {
    pub rows: Vec<(String, u64)>,
    pub total: u64,
    pub millis: u128,
}

/// Why `koma perft` cannot run: the bad argument, in the words it prints.
#[derive(Debug)]
pub enum PerftError {
    /// Not a game's name.
    UnknownVariant(String),
    /// Deeper than `MAX_PERFT_DEPTH`.
    Depth(u32),
    Rules(RuleError),
    Fen(ParseError),
    Move(ParseError),
    Position(PositionRefused),
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::UnknownVariant(variant) => {
                let known: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
                write!(
                    f,
                    "unknown variant {variant}: expected one of {}",
                    known.join(", ")
                )
            }
            PerftError::Depth(depth) => {
                write!(f, "perft depth {depth}: at most {MAX_PERFT_DEPTH} plies")
            }
            PerftError::Rules(e) => e.fmt(f),
            PerftError::Fen(e) | PerftError::Move(e) => e.fmt(f),
            PerftError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PerftError {}

/// Perft of `variant` at `depth` from the start or `fen`, after `moves`;
/// the error names the bad argument.
pub fn perft(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    depth: u32,
) -> Result<PerftRun, PerftError> {
    let game = GameId::from_name(variant)
        .ok_or_else(|| PerftError::UnknownVariant(variant.to_string()))?;
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::Depth(depth));
    }
    let registry = Registry::koma();
    // Every game of `GameId` is in Koma's registry.
    let entry = (registry.game(game.name()))
        .ok_or_else(|| PerftError::UnknownVariant(variant.to_string()))?;
    let mut session = (entry.new_session)(&OptionStore::new(registry).rule_values(entry))
        .map_err(PerftError::Rules)?;
    let start = match fen {
        Some(f) => PositionStart::Fen(parse_position(f).map_err(PerftError::Fen)?),
        None => PositionStart::StartPos,
    };
    let moves = moves
        .iter()
        .map(|m| parse_move(m).map_err(PerftError::Move))
        .collect::<Result<Vec<_>, _>>()?;
    (session.set_position(&PositionCommand { start, moves })).map_err(PerftError::Position)?;
    let t = Instant::now();
    let count = session.perft_job(depth)(&AtomicBool::new(false));
    Ok(PerftRun {
        rows: count.rows,
        total: count.total,
        millis: t.elapsed().as_millis(),
    })
}
