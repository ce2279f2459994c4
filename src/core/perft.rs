//! Perft: the number of move sequences of a given length, with no moves
//! below a finished game, bulk-counted at the last ply. Repetition and
//! move-count limits are ignored, as chess perft ignores the fifty-move rule.

use super::Game;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft anyone can ask for. Perft recurses once per ply, and
/// an input must not choose how deep a thread's stack goes; no perft this
/// deep could finish anyway (every game here has far more than two moves
/// per ply on average, and 2^64 sequences would not fit the count).
pub const MAX_PERFT_DEPTH: u32 = 64;

pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.terminal().is_some() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    moves.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
}

/// Perft per root move, for `go perft`: (move, count) in generation order.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 || pos.terminal().is_some() {
        return Vec::new();
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    moves
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

/// A perft per root move that gives up as soon as `stop` is set: the
/// engine runs `go perft` on its own thread and `stop` may end it.
pub struct Divided<M> {
    /// (move, count) in generation order, for the root moves started; the
    /// last one is partial when `complete` is false.
    pub rows: Vec<(M, u64)>,
    pub complete: bool,
}

/// `perft_divide` that checks `stop` at every node whose children are
/// counted in bulk, so a stop takes effect within one node's move
/// generation. With `stop` never set it counts exactly what
/// `perft_divide` counts.
pub fn perft_divide_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Divided<G::Move> {
    let mut counter = Stoppable {
        stop,
        stopped: false,
    };
    let mut rows = Vec::new();
    if depth > 0 && pos.terminal().is_none() {
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        for &m in moves.iter() {
            if counter.stopped || stop.load(Ordering::Relaxed) {
                counter.stopped = true;
                break;
            }
            rows.push((m, counter.count(&pos.play(m), depth - 1)));
        }
    }
    Divided {
        rows,
        complete: !counter.stopped,
    }
}

struct Stoppable<'a> {
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Stoppable<'_> {
    fn count<G: Game>(&mut self, pos: &G, depth: u32) -> u64 {
        if depth <= 1 {
            return perft(pos, depth);
        }
        if self.stopped || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return 0;
        }
        if pos.terminal().is_some() {
            return 0;
        }
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        moves
            .iter()
            .map(|&m| self.count(&pos.play(m), depth - 1))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hasami::Hasami;

    #[test]
    fn a_stoppable_perft_counts_what_perft_divide_counts() {
        let pos = Hasami::start(&Default::default());
        let stop = AtomicBool::new(false);
        let d = perft_divide_until(&pos, 3, &stop);
        assert!(d.complete);
        assert_eq!(d.rows, perft_divide(&pos, 3));
    }

    #[test]
    fn a_stopped_perft_counts_nothing_more_and_says_it_is_partial() {
        let pos = Hasami::start(&Default::default());
        let stop = AtomicBool::new(true);
        let d = perft_divide_until(&pos, 3, &stop);
        assert!(!d.complete);
        assert!(d.rows.is_empty());
    }
}
