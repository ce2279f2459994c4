//! The positions of one game so far, for the rules that need history
//! (repetition). Owned by whoever plays a game: the engine session, the
//! referee, the search (which pushes and pops as it walks the tree).

use super::{End, Game, game_status};

#[derive(Clone, Debug, Default)]
pub struct History {
    keys: Vec<u64>,
}

impl History {
    pub fn new() -> History {
        History { keys: Vec::new() }
    }

    /// A history holding just the start position of a game.
    pub fn starting_at<G: Game>(pos: &G) -> History {
        History {
            keys: vec![pos.repetition_key()],
        }
    }

    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    pub fn pop(&mut self) {
        self.keys.pop();
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How often the last position occurred, itself included.
    pub fn occurrences_of_last(&self) -> usize {
        match self.keys.last() {
            Some(&k) => self.keys.iter().filter(|&&x| x == k).count(),
            None => 0,
        }
    }

    /// Whether the last position occurred before (within the last `window`
    /// positions; pass `usize::MAX` for all).
    pub fn last_repeats(&self, window: usize) -> bool {
        let Some((&last, rest)) = self.keys.split_last() else {
            return false;
        };
        rest.iter().rev().take(window).any(|&k| k == last)
    }
}

/// The full status of a game whose last position is `pos`: the rules of the
/// position, then repetition from `history` (whose last key is `pos`'s).
pub fn status_with_history<G: Game>(pos: &G, history: &History) -> Option<End> {
    if let Some(end) = game_status(pos) {
        return Some(end);
    }
    match pos.repetition_limit() {
        Some(limit) if history.occurrences_of_last() >= limit => Some(pos.repetition_end()),
        _ => None,
    }
}
