//! Move ordering: the hash move, then tactical moves, then killers, then
//! quiet moves by their history score. Moves are picked one at a time
//! (selection), since a cutoff usually comes early.

use super::MAX_PLY;
use crate::core::Game;

pub const HASH_MOVE: i32 = 1 << 30;
pub const TACTICAL: i32 = 1 << 28;
pub const KILLER: i32 = 1 << 27;
/// History scores stay inside ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 1 << 20;

/// Quiet moves that caused cutoffs: two killers per ply and a history table
/// per side and move key.
pub struct Heuristics<M> {
    pub killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    keys: usize,
}

impl<M: Copy + Eq> Heuristics<M> {
    pub fn new(keys: usize) -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * keys],
            keys,
        }
    }

    pub fn history(&self, side: usize, key: usize) -> i32 {
        self.history[side * self.keys + key]
    }

    /// Gravity update: the bonus shrinks as the entry nears the bound, so
    /// old results fade.
    pub fn update_history(&mut self, side: usize, key: usize, bonus: i32) {
        let h = &mut self.history[side * self.keys + key];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += bonus - (*h as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    pub fn add_killer(&mut self, ply: usize, m: M) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    pub fn is_killer(&self, ply: usize, m: M) -> bool {
        self.killers[ply].contains(&Some(m))
    }
}

/// Scores every move of `moves` into `scores` for `pick`.
pub fn score_moves<G: Game>(
    pos: &G,
    moves: &[G::Move],
    hash_move: Option<u32>,
    ply: usize,
    h: &Heuristics<G::Move>,
    scores: &mut Vec<i32>,
    tactical: &mut Vec<bool>,
) {
    scores.clear();
    tactical.clear();
    let side = pos.side_to_move().index();
    pos.mark_tactical(moves, tactical);
    for (&m, &t) in moves.iter().zip(tactical.iter()) {
        let s = if hash_move == Some(pos.move_id(m)) {
            HASH_MOVE
        } else if t {
            TACTICAL + h.history(side, pos.move_key(m)) / 64
        } else if h.is_killer(ply, m) {
            KILLER
        } else {
            h.history(side, pos.move_key(m))
        };
        scores.push(s);
    }
}

/// Moves the best-scored move from `i..` to `i` (with its score and flag).
pub fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], tactical: &mut [bool], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    tactical.swap(i, best);
}
