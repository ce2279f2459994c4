//! Command-line jobs that reuse the engine's pieces: perft from a position
//! given as text.

use super::options::OptionStore;
use super::registry::Registry;
use crate::core::MAX_PERFT_DEPTH;
use crate::games::GameId;
use crate::protocol::{PositionCommand, PositionStart, parse_move, parse_position};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub struct PerftRun {
    pub rows: Vec<(String, u64)>,
    pub total: u64,
    pub millis: u128,
}

/// Perft of `variant` at `depth` from the start or `fen`, after `moves`;
/// the error names the bad argument.
pub fn perft(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    depth: u32,
) -> Result<PerftRun, String> {
    let game = GameId::from_name(variant).ok_or_else(|| {
        let known: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
        format!(
            "unknown variant {variant}: expected one of {}",
            known.join(", ")
        )
    })?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft depth {depth}: at most {MAX_PERFT_DEPTH} plies"
        ));
    }
    let registry = Registry::koma();
    let entry = (registry.game(game.name())).ok_or("the registry holds every game")?;
    let mut session = (entry.new_session)(&OptionStore::new(registry).rule_values(entry))?;
    let start = match fen {
        Some(f) => PositionStart::Fen(parse_position(f).map_err(|e| e.to_string())?),
        None => PositionStart::StartPos,
    };
    let moves = moves
        .iter()
        .map(|m| parse_move(m).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    (session.set_position(&PositionCommand { start, moves })).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let count = session.perft_job(depth)(&AtomicBool::new(false));
    Ok(PerftRun {
        rows: count.rows,
        total: count.total,
        millis: t.elapsed().as_millis(),
    })
}
