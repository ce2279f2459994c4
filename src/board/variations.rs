//! The variations a page tried in an analysis of a table's game, kept
//! with the table so that its record carries them (`( … )` after the move
//! each replaces) and a loaded record shows them again. Every move is
//! checked with the rules library before it is kept.

use super::play::Play;
use crate::core::MoveText;
use crate::protocol::parse_move;
use crate::protocol::record::{MAX_VARIATION_DEPTH, RecordMove, Variation};
use serde::{Deserialize, Serialize};

/// Moves kept in all the variations of a table at most (each variation
/// replays the game up to it when it is checked).
pub const MAX_MOVES: usize = 2_000;

/// A variation as the page sends it: the index of the move it replaces in
/// the line it branches from, its moves, and variations of its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariationReq {
    at: usize,
    moves: Vec<String>,
    #[serde(default)]
    variations: Vec<VariationReq>,
}

/// A variation as the page gets it.
#[derive(Serialize)]
pub struct VariationView {
    at: usize,
    moves: Vec<String>,
    variations: Vec<VariationView>,
}

pub fn view(vars: &[Variation]) -> Vec<VariationView> {
    vars.iter()
        .map(|v| VariationView {
            at: v.at,
            moves: v.moves.iter().map(|m| m.mv.to_string()).collect(),
            variations: view(&v.variations),
        })
        .collect()
}

/// The variations beside the game of `play` (its moves, from its start),
/// each move checked; refused with where and why.
pub fn check(play: &dyn Play, reqs: &[VariationReq]) -> Result<Vec<Variation>, String> {
    let main: Vec<MoveText> = play.line().moves().to_vec();
    let mut count = 0;
    lines(play, &[], &main, reqs, 1, &mut count)
}

/// The variations `reqs` beside `line`, which follows the moves `before`
/// from the game's start.
fn lines(
    play: &dyn Play,
    before: &[MoveText],
    line: &[MoveText],
    reqs: &[VariationReq],
    depth: usize,
    count: &mut usize,
) -> Result<Vec<Variation>, String> {
    if depth > MAX_VARIATION_DEPTH && !reqs.is_empty() {
        return Err(format!(
            "variations nest at most {MAX_VARIATION_DEPTH} deep"
        ));
    }
    let mut out = Vec::with_capacity(reqs.len());
    for r in reqs {
        if r.at >= line.len() {
            return Err(format!(
                "a variation at move {} of a line of {} moves",
                r.at + 1,
                line.len()
            ));
        }
        if r.moves.is_empty() {
            return Err("a variation without moves".into());
        }
        *count += r.moves.len();
        if *count > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves in the variations"));
        }
        let mut prefix: Vec<MoveText> = before.iter().chain(&line[..r.at]).copied().collect();
        let mut p = play.restarted();
        for m in &prefix {
            p.line_mut()
                .play_text(m)
                .map_err(|e| format!("the game's moves do not replay: {e}"))?;
        }
        let mut moves = Vec::with_capacity(r.moves.len());
        for (k, text) in r.moves.iter().enumerate() {
            let mv = parse_move(text.trim())
                .map_err(|e| format!("variation move {} {text:?}: {e}", k + 1))?;
            p.line_mut()
                .play_text(&mv)
                .map_err(|e| format!("variation move {} {text:?}: {e}", k + 1))?;
            moves.push(mv);
        }
        let own: Vec<MoveText> = moves.clone();
        let variations = lines(play, &prefix, &own, &r.variations, depth + 1, count)?;
        prefix.clear();
        out.push(Variation {
            at: r.at,
            moves: moves
                .into_iter()
                .map(|mv| RecordMove { mv, comment: None })
                .collect(),
            variations,
        });
    }
    Ok(out)
}
