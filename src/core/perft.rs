//! Perft: the number of move sequences of a given length, with no moves
//! below a finished game, bulk-counted at the last ply. Repetition and
//! move-count limits are ignored, as chess perft ignores the fifty-move rule.

use super::Game;

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
