//! Move ordering: the hash move, then tactical moves by their history,
//! then killers, then quiet moves by their history: the side's history of
//! the move and the continuation history (how the move fared after each of
//! the two moves before it). Moves are picked one at a time (selection),
//! since a cutoff usually comes early.

use super::MAX_PLY;
use crate::core::Searchable;

pub const HASH_MOVE: i32 = 1 << 30;
pub const TACTICAL: i32 = 1 << 28;
pub const KILLER: i32 = 1 << 27;
/// Every history entry stays inside ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;
/// `cont_key` of "no move" (the root's past); any key at or above
/// `CONT_KEYS` means none.
pub const NO_CONT: usize = usize::MAX;

/// What a cutoff at `depth` adds to the history of the move that made it
/// (and takes from the moves tried before it).
pub fn bonus(depth: i32) -> i32 {
    (32 * depth * depth + 64 * depth).min(2_000)
}

/// A history entry. `update` keeps it inside ±HISTORY_MAX, which an i16
/// holds: the tables a search zeroes when it starts are half the size
/// (most of a short search's set-up).
type Entry = i16;

/// Gravity update: the bonus shrinks as the entry nears the bound, so old
/// results fade. Computed in i32; the result is back inside the bound.
#[inline]
fn update(h: &mut Entry, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let old = i32::from(*h);
    *h = (old + bonus - old * bonus.abs() / HISTORY_MAX) as Entry;
}

/// Quiet moves that caused cutoffs: two killers per ply; history tables per
/// side and move key, for quiet and for tactical moves; the continuation
/// history by the previous move's and this move's `cont_key`.
pub struct Heuristics<M> {
    pub killers: Vec<[Option<M>; 2]>,
    quiet: Vec<Entry>,
    tactical: Vec<Entry>,
    cont: Vec<Entry>,
    /// The continuation row of no move: zeros.
    no_cont: Vec<Entry>,
    keys: usize,
    cont_keys: usize,
}

impl<M: Copy + Eq> Heuristics<M> {
    pub fn new(keys: usize, cont_keys: usize) -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            quiet: vec![0; 2 * keys],
            tactical: vec![0; 2 * keys],
            cont: vec![0; cont_keys * cont_keys],
            no_cont: vec![0; cont_keys],
            keys,
            cont_keys,
        }
    }

    pub fn tactical(&self, side: usize, key: usize) -> i32 {
        i32::from(self.tactical[side * self.keys + key])
    }

    pub fn update_quiet(&mut self, side: usize, key: usize, bonus: i32) {
        update(&mut self.quiet[side * self.keys + key], bonus);
    }

    pub fn update_tactical(&mut self, side: usize, key: usize, bonus: i32) {
        update(&mut self.tactical[side * self.keys + key], bonus);
    }

    pub fn update_cont(&mut self, prev: usize, key: usize, bonus: i32) {
        if prev < self.cont_keys {
            update(&mut self.cont[prev * self.cont_keys + key], bonus);
        }
    }

    pub fn add_killer(&mut self, ply: usize, m: M) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// The quiet history as a node reads it: the rows of its side and of
    /// its two previous moves, found once for all its moves.
    #[inline]
    pub fn quiet_view(&self, side: usize, prev: [usize; 2], with_cont: bool) -> QuietHistory<'_> {
        // No move before: a row of zeros, so that a move's sum needs no
        // test per move.
        let row = |p: usize| {
            if p < self.cont_keys {
                &self.cont[p * self.cont_keys..(p + 1) * self.cont_keys]
            } else {
                &self.no_cont[..]
            }
        };
        QuietHistory {
            own: &self.quiet[side * self.keys..(side + 1) * self.keys],
            cont: [row(prev[0]), row(prev[1])],
            with_cont,
        }
    }
}

/// One node's view of the quiet history (`Heuristics::quiet_view`).
pub struct QuietHistory<'a> {
    own: &'a [Entry],
    cont: [&'a [Entry]; 2],
    with_cont: bool,
}

impl QuietHistory<'_> {
    /// A quiet move's history: its own, twice, and its continuations.
    #[inline(always)]
    pub fn of<G: Searchable>(&self, pos: &G, m: G::Move) -> i32 {
        let own = 2 * i32::from(self.own[pos.move_key(m)]);
        if !self.with_cont {
            return own;
        }
        let ck = pos.cont_key(m);
        own + i32::from(self.cont[0][ck]) + i32::from(self.cont[1][ck])
    }
}

/// What the ordering knows of a node: the hash move and the continuation
/// keys of the two moves before it.
pub struct Node {
    pub hash_move: Option<u32>,
    pub ply: usize,
    pub prev: [usize; 2],
}

/// A quiet move's history: its own, twice, and its continuations.
pub fn quiet_history<G: Searchable>(
    pos: &G,
    m: G::Move,
    node: &Node,
    h: &Heuristics<G::Move>,
) -> i32 {
    let side = pos.side_to_move().index();
    h.quiet_view(side, node.prev, G::TUNING.continuation_history)
        .of(pos, m)
}

/// Scores every move of `moves` into `scores` for `pick`, and returns the
/// index `pick` would bring forward first (the first of the best scores),
/// found on the way (`place` it instead of picking the first move).
pub fn score_moves<G: Searchable>(
    pos: &G,
    moves: &[G::Move],
    node: &Node,
    h: &Heuristics<G::Move>,
    scores: &mut Vec<i32>,
    tactical: &mut Vec<bool>,
) -> usize {
    scores.clear();
    tactical.clear();
    let side = pos.side_to_move().index();
    pos.mark_tactical(moves, tactical);
    let quiet = h.quiet_view(side, node.prev, G::TUNING.continuation_history);
    let killers = h.killers[node.ply];
    let (mut best, mut best_score) = (0, i32::MIN);
    for (j, (&m, &t)) in moves.iter().zip(tactical.iter()).enumerate() {
        let s = if t {
            TACTICAL + h.tactical(side, pos.move_key(m))
        } else if killers.contains(&Some(m)) {
            KILLER
        } else {
            quiet.of(pos, m)
        };
        if s > best_score {
            (best, best_score) = (j, s);
        }
        scores.push(s);
    }
    // The hash move's score replaces what the loop gave it: the many nodes
    // without one then ask no move its id. No other score reaches
    // HASH_MOVE, so the first hash move is the first of the best.
    if let Some(id) = node.hash_move {
        let mut found = false;
        for (j, (s, &m)) in scores.iter_mut().zip(moves).enumerate() {
            if pos.move_id(m) == id {
                *s = HASH_MOVE;
                if !found {
                    (best, found) = (j, true);
                }
            }
        }
    }
    best
}

/// Moves the best-scored move from `i..` to `i` (with its score and flag).
pub fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], tactical: &mut [bool], i: usize) {
    let mut best = i;
    // The best score kept in hand, the slice bounded once: this loop runs
    // for every move searched, over every move not yet tried.
    if let (Some(&first), Some(rest)) = (scores.get(i), scores.get(i + 1..moves.len())) {
        let mut best_score = first;
        for (j, &s) in rest.iter().enumerate() {
            if s > best_score {
                best = i + 1 + j;
                best_score = s;
            }
        }
    }
    place(moves, scores, tactical, i, best);
}

/// Moves the move at `best` to `i` (with its score and flag), as `pick`
/// does once it has found `best`.
#[inline]
pub fn place<M: Copy>(
    moves: &mut [M],
    scores: &mut [i32],
    tactical: &mut [bool],
    i: usize,
    best: usize,
) {
    moves.swap(i, best);
    scores.swap(i, best);
    tactical.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::{Entry, HISTORY_MAX, pick, update};

    #[test]
    fn a_history_entry_stays_inside_its_bound_whatever_the_bonuses() {
        let mut h: Entry = 0;
        for _ in 0..100 {
            update(&mut h, 1 << 20);
        }
        assert_eq!(i32::from(h), HISTORY_MAX);
        for _ in 0..100 {
            update(&mut h, -(1 << 20));
        }
        assert_eq!(i32::from(h), -HISTORY_MAX);
        let mut x = 12345u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            update(&mut h, (x % 8001) as i32 - 4000);
            assert!(i32::from(h).abs() <= HISTORY_MAX, "{h}");
        }
    }

    /// Picking move by move gives the moves best score first, the earlier
    /// of equal scores first, each move keeping its score and flag.
    #[test]
    fn pick_brings_the_first_of_the_best_remaining_scores_forward() {
        let mut moves = ['a', 'b', 'c', 'd', 'e', 'f'];
        let mut scores = [5, 9, -3, 9, 5, 0];
        let mut tactical = [false, true, false, false, true, false];
        for i in 0..moves.len() {
            pick(&mut moves, &mut scores, &mut tactical, i);
        }
        assert_eq!(moves, ['b', 'd', 'a', 'e', 'f', 'c']);
        assert_eq!(scores, [9, 9, 5, 5, 0, -3]);
        assert_eq!(tactical, [true, false, false, true, false, false]);
    }
}
