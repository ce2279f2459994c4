//! What a search needs of a game beyond its rules: an evaluation, the
//! search's settings for it and the hooks its pruning and move ordering ask.
//! It lives in core, not in search, because the games implement it and
//! games may not name search; a game is refereed, shown and fuzzed with
//! `Game` alone, and is searched (engine, learning) once it has these.

use super::{Game, MoveSink};

pub trait Searchable: Game {
    /// `move_key` maps every move into `0..MOVE_KEYS` (history tables).
    const MOVE_KEYS: usize;
    /// `cont_key` maps every move into `0..CONT_KEYS` (the continuation
    /// history holds `CONT_KEYS` squared entries).
    const CONT_KEYS: usize = Self::MOVE_KEYS;
    /// Whether `in_check` can hold in this game (the search then keeps the
    /// moves that give check when it prunes).
    const CHECKS: bool = false;
    /// The search's settings for this game (set by matches).
    const TUNING: Tuning = Tuning::DEFAULT;
    /// The positions `bench` searches in this game, and to what depth.
    const BENCH: Bench;
    /// Static evaluation in centipawns from the side to move's view.
    fn evaluate(&self) -> i32;

    /// Captures, flips, promotions: what quiescence search looks at and
    /// move ordering tries first.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// `is_tactical` of each move of `moves`, pushed onto `out` in order
    /// (move ordering asks this for a whole node at once). Games may
    /// override it to share work between the moves.
    fn mark_tactical(&self, moves: &[Self::Move], out: &mut Vec<bool>) {
        out.extend(moves.iter().map(|&m| self.is_tactical(m)));
    }

    /// The legal moves for which `is_tactical` holds (quiescence search).
    /// Games may override with something faster than filtering, and may
    /// leave out and order moves (a game may keep only the drops worth their cost).
    fn generate_tactical<S: MoveSink<Self::Move>>(&self, out: &mut S) {
        struct Filter<'a, G: Searchable, S>(&'a G, &'a mut S);
        impl<G: Searchable, S: MoveSink<G::Move>> MoveSink<G::Move> for Filter<'_, G, S> {
            fn push(&mut self, m: G::Move) {
                if self.0.is_tactical(m) {
                    self.1.push(m);
                }
            }
        }
        self.generate(&mut Filter(self, out));
    }

    /// A small index for history tables, in `0..MOVE_KEYS`.
    fn move_key(&self, mv: Self::Move) -> usize;

    /// An id for the transposition table, distinct for distinct legal moves
    /// of one position and below 2^24 - 1. The default is `move_key`;
    /// games whose `move_key` can map two moves to one key override it.
    fn move_id(&self, mv: Self::Move) -> u32 {
        self.move_key(mv) as u32
    }

    /// A small index in `0..CONT_KEYS` of what the move does (the piece
    /// kind and where it goes, as most engines key it) for the search's
    /// continuation history, which pairs a move with the moves before it.
    /// The default is `move_key`; games with many keys override it.
    fn cont_key(&self, mv: Self::Move) -> usize {
        self.move_key(mv)
    }

    /// The position with the other side to move and nothing else changed,
    /// for null-move pruning; `None` (the default) where letting the side to
    /// move pass is too far from the rules for the search to assume it.
    fn play_null(&self) -> Option<Self> {
        None
    }

    /// Whether the opponent threatens to end the game with its next move:
    /// to take the side to move's King, in games where that wins (a game
    /// without a King may name its own immediate threat). The search does
    /// not prune (futility, null move) in such a position, nor prune a move
    /// that makes one, and reduces both less. The default is `false`.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the opponent is `in_check` after the move. Asked for moves
    /// before they are played (the search's pruning), so games answer
    /// without playing it where they can. The default is `false`.
    fn gives_check(&self, _mv: Self::Move) -> bool {
        false
    }
}

/// A game's share of `bench`, the search's signature: positions (`startpos`
/// or a position string) searched one after the other to `depth`, chosen
/// so that the whole bench takes seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bench {
    pub depth: u32,
    pub positions: &'static [&'static str],
}

/// Per-game settings of the search (the game carries them, the search reads
/// them). The defaults are shared by every game and came with the search as
/// a whole; a game overrides one only where a match said so (the commit
/// messages carry the matches).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Late move reductions: a move at depth `d`, number `n`, is reduced by
    /// `(lmr_base + lmr_scale * ln d * ln n) / 100` plies.
    pub lmr_base: i32,
    pub lmr_scale: i32,
    /// Futility pruning: a quiet move is skipped where the static
    /// evaluation plus `futility_base + futility_per_ply * depth` stays
    /// below alpha (centipawns).
    pub futility_base: i32,
    pub futility_per_ply: i32,
    /// Reverse futility pruning: a node at depth `reverse_futility_depth`
    /// or less is cut where the evaluation is `reverse_futility`
    /// centipawns per ply above beta.
    pub reverse_futility: i32,
    pub reverse_futility_depth: i32,
    /// Late move pruning (quiet moves after the first `3 + depth^2`) at
    /// depth `late_move_depth` or less.
    pub late_move_depth: i32,
    /// Quiet moves with a bad history are pruned near the horizon.
    pub history_pruning: bool,
    /// Quiet moves are ordered (and reduced, and pruned) by how they fared
    /// after the two moves before them too, not only by their own history.
    pub continuation_history: bool,
    /// A hash move far better than the others is searched a ply deeper.
    pub singular_extension: bool,
    /// Late quiet root moves are reduced.
    pub root_reductions: bool,
    /// Reductions grow at expected cut nodes and where the evaluation did
    /// not improve.
    pub node_reductions: bool,
    /// Moves that give check, and every move of a node in check, are
    /// reduced a ply less than others (without it, not at all).
    pub reduce_checks: bool,
    /// ProbCut: where a tactical move's reduced search beats beta by this
    /// margin (centipawns), the node is cut; 0 turns it off.
    pub probcut_margin: i32,
    /// What a draw costs the side the search is for, in centipawns.
    pub contempt: i32,
}

impl Tuning {
    pub const DEFAULT: Tuning = Tuning {
        lmr_base: 50,
        lmr_scale: 50,
        futility_base: 60,
        futility_per_ply: 100,
        reverse_futility: 90,
        reverse_futility_depth: 8,
        late_move_depth: 64,
        history_pruning: true,
        continuation_history: true,
        singular_extension: true,
        root_reductions: true,
        node_reductions: true,
        reduce_checks: true,
        probcut_margin: 0,
        contempt: 0,
    };
}
