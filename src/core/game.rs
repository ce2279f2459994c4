//! The rules every game implements (what a referee, a board and a fuzzer
//! need; a search needs `Searchable` too). A value is one position without
//! history; positions are small, so moves are played by copy ("copy-make"),
//! and there is no undo code to get wrong. History-dependent rules
//! (repetition) are applied by `History`, owned by search and referee.

use super::{
    Color, Coord, End, EndReason, Mirror, MoveSink, MoveText, Outcome, PositionError, PositionText,
    Rules, movelist::MoveCounter,
};
use std::fmt::Debug;
use std::ops::DerefMut;

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

    /// What the legal move `mv` does beyond its text (see `MoveHint`);
    /// nothing by default.
    fn hint(&self, _mv: Self::Move) -> MoveHint {
        MoveHint::default()
    }
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
