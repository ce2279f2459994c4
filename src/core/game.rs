//! The one trait every game implements. A value is one position without
//! history; positions are small, so moves are played by copy ("copy-make"),
//! and there is no undo code to get wrong. History-dependent rules
//! (repetition) are applied by `History`, owned by search and referee.

use super::{
    Color, Coord, End, EndReason, Mirror, MoveSink, MoveText, Outcome, PositionText, Rules,
    Tablebase, movelist::MoveCounter,
};
use std::fmt::Debug;
use std::ops::DerefMut;
use std::path::Path;
use std::sync::Arc;

/// Why a position string was refused, in words that name the offending part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl PositionError {
    pub fn new(msg: impl Into<String>) -> PositionError {
        PositionError(msg.into())
    }
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// What a move does that its text does not say, as marks on squares for a
/// board to show: the rules decide them, a board draws them without knowing
/// the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveHint {
    /// For each movement of the move, in order: the squares its piece may
    /// have passed through on the way to where it came to rest, where the
    /// rules moved it on from there (a board lets a click on one of them
    /// name the movement, and names them for the last move). Empty for a
    /// movement that stops where the player put it, and for the whole move
    /// when none does.
    pub paths: Vec<Vec<Coord>>,
    /// The squares the rules changed after the move's own (pieces turned,
    /// say), one group per level in the order they changed: a board shows
    /// them level by level.
    pub levels: Vec<Vec<Coord>>,
}

pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// One legal move: small and `Copy`.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    type Rules: Rules;
    /// A buffer large enough for every position's legal moves.
    type MoveList: MoveSink<Self::Move> + Default + DerefMut<Target = [Self::Move]> + Send;

    /// The name `UCI_Variant` uses.
    const NAME: &'static str;
    const FILES: u8;
    const RANKS: u8;
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
    /// The engine option naming a file of solved positions (see
    /// `load_table`), for games that have one.
    const TABLE_OPTION: Option<&'static str> = None;
    /// The reflection of the board the rules cannot tell apart from the
    /// original (see `mirror`), where there is one. A claim about the
    /// rules, checked by the games' conformance tests.
    const MIRROR: Option<Mirror> = None;
    /// The game's own endings (`EndReason::Game`), every one `terminal`,
    /// `limit_end` or `repetition_end` can give: the registry reads
    /// `Termination` tags back by them. A claim checked by the games'
    /// conformance tests.
    const ENDINGS: &'static [EndReason] = &[];

    /// The start position under these rules.
    fn start(rules: &Self::Rules) -> Self;
    /// A position from its parsed string, fully validated.
    fn from_text(text: &PositionText, rules: &Self::Rules) -> Result<Self, PositionError>;
    /// The position string; `from_text(to_text(p)) == p` for every position.
    fn to_text(&self) -> PositionText;

    fn side_to_move(&self) -> Color;

    /// Every legal move, each exactly once (distinct move texts). Only
    /// meaningful when `terminal()` is `None`.
    fn generate<S: MoveSink<Self::Move>>(&self, out: &mut S);

    /// The number of legal moves (perft's bulk count); games may override
    /// with something faster than generating.
    fn count_moves(&self) -> usize {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has a legal move (`count_moves() > 0`);
    /// games may answer without counting them all.
    fn has_moves(&self) -> bool {
        self.count_moves() > 0
    }

    /// The position after a legal move.
    fn play(&self, mv: Self::Move) -> Self;

    /// The end decided by the position alone, except "no legal move", which
    /// `game_status` checks with the move generator.
    fn terminal(&self) -> Option<End>;

    /// Ends by move-count limits (a game's ply limit). Perft ignores them.
    fn limit_end(&self) -> Option<End> {
        None
    }

    /// How many occurrences of one position end the game (see
    /// `repetition_end`), or `None` when the rules this position is played
    /// under have no repetition rule. The same for every position of one
    /// game (it depends on the game and its rule options only).
    fn repetition_limit(&self) -> Option<usize>;

    /// How the game ends when the current position reaches the repetition
    /// limit.
    fn repetition_end(&self) -> End {
        End::new(Outcome::Draw, EndReason::Repetition)
    }

    /// Zobrist hash of everything that decides the future of the game.
    fn hash(&self) -> u64;

    /// The key positions are compared by for repetition.
    fn repetition_key(&self) -> u64 {
        self.hash()
    }

    /// The move as text, in the position it is played from.
    fn move_text(&self, mv: Self::Move) -> MoveText;

    /// The legal move written as `text`, if there is one.
    fn find_move(&self, text: &MoveText) -> Option<Self::Move> {
        let mut moves = Self::MoveList::default();
        self.generate(&mut moves);
        moves.iter().copied().find(|&m| self.move_text(m) == *text)
    }

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
        struct Filter<'a, G: Game, S>(&'a G, &'a mut S);
        impl<G: Game, S: MoveSink<G::Move>> MoveSink<G::Move> for Filter<'_, G, S> {
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

    /// Loads the game's table of solved positions from a file, checking it
    /// whole; the error says what is wrong with the file (without naming
    /// it: the caller does).
    fn load_table(_path: &Path) -> Result<Arc<dyn Tablebase<Self>>, String> {
        Err(format!("{} has no table of solved positions", Self::NAME))
    }

    /// The position with the other side to move and nothing else changed,
    /// for null-move pruning; `None` (the default) where letting the side to
    /// move pass is too far from the rules for the search to assume it.
    fn play_null(&self) -> Option<Self> {
        None
    }

    /// What the legal move `mv` does beyond its text (see `MoveHint`);
    /// nothing by default.
    fn hint(&self, _mv: Self::Move) -> MoveHint {
        MoveHint::default()
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

/// The mirror image of `pos` under the game's `MIRROR`, if the game has
/// one: the rules treat it exactly like `pos` (same moves, reflected).
pub fn mirror<G: Game>(pos: &G, rules: &G::Rules) -> Option<G> {
    let m = G::MIRROR?;
    G::from_text(&m.position(&pos.to_text()), rules).ok()
}

/// The end of the game in this position by its rules, ignoring history:
/// first what the position decides, then the no-legal-move loss, then
/// move-count limits.
pub fn game_status<G: Game>(pos: &G) -> Option<End> {
    if let Some(end) = pos.terminal() {
        return Some(end);
    }
    if !pos.has_moves() {
        return Some(End::win(
            pos.side_to_move().opponent(),
            EndReason::NoLegalMove,
        ));
    }
    pos.limit_end()
}
