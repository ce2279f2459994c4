//! Endgame tables by material: a game whose positions fall into material
//! signatures that moves never re-enter once they leave them (captures and
//! promotions do not undo) describes its signatures and a dense index of each
//! here; the generator, the table files and the probing (`solve::tables`)
//! are generic over it. Nothing here names a game.

use super::Game;
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// A game solved signature by signature. Only positions with the first
/// player to move are stored: the game maps the others onto them by its own
/// symmetries (`locate`).
pub trait Layered: Game {
    /// A material signature: the side to move's material, then the other's.
    type Sig: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync + 'static;

    /// Every signature of a live position with at most `max_pieces` pieces
    /// on the board, in solving order: an exit from a signature (a move that
    /// leaves it without ending the game) leads to one earlier in the list
    /// (or to one with more pieces than the list holds).
    fn signatures(max_pieces: u32) -> Vec<Self::Sig>;
    /// The signature's layer: signatures of one layer never exit into
    /// each other (their units may be solved at the same time), a lower
    /// layer comes first.
    fn layer(sig: Self::Sig) -> u32;
    /// Pieces on the board in the signature's positions.
    fn pieces(sig: Self::Sig) -> u32;
    /// The signature the opponent faces after a move that stays inside it.
    fn swapped(sig: Self::Sig) -> Self::Sig;
    /// How a signature is written, for a message: "written like ...".
    fn sig_syntax() -> &'static str;
    /// The signature of its text (as `Display` writes it).
    fn parse_sig(text: &str) -> Option<Self::Sig>;
    /// The number of entries of the signature's index.
    fn entries(sig: Self::Sig) -> u64;
    /// The position of an entry (`i < entries(sig)`), the first player to
    /// move.
    fn unrank(sig: Self::Sig, i: u64, rules: &Self::Rules) -> Self;
    /// The signature and entry of a position not over, through the game's
    /// symmetries (the entry holds the position's value for its side to
    /// move), or `None` when no signature holds it.
    fn locate(&self) -> Option<(Self::Sig, u64)>;
    /// Whether the move (of this position) leaves its signature: a capture
    /// or a promotion. Agrees with `locate` of the position after it.
    fn is_exit(&self, m: Self::Move) -> bool;
    /// The rule options that change the tables' values, as a short text
    /// for file headers and folder names ("" for the defaults).
    fn rules_tag(rules: &Self::Rules) -> String;
    /// Calls `mark` with the entries of `swapped(sig)` whose position may
    /// have a quiet move (one that stays inside the signature) leading to
    /// entry `i` of `sig`, reached as any of its symmetric images: a
    /// superset is enough (the generator checks each candidate forward),
    /// missing one is a wrong table. Returns false when the game cannot
    /// say (the default): then every entry is a candidate.
    fn predecessors(
        sig: Self::Sig,
        i: u64,
        rules: &Self::Rules,
        mark: &mut impl FnMut(u64),
    ) -> bool {
        let _ = (sig, i, rules, mark);
        false
    }
}
