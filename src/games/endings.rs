//! Endings more than one game has, so that they read and write the same
//! words; each game lists the ones it uses in its `Game::ENDINGS` beside
//! its own.

use crate::core::EndReason;

/// Captured the number of pieces the rules require (Hasami five, Kani
/// three).
pub const CAPTURES: EndReason = EndReason::Game("enough captures");

/// The enemy King was captured (Nana, Negaeri).
pub const KING_CAPTURED: EndReason = EndReason::Game("King captured");

#[cfg(test)]
mod tests {
    use crate::core::EndReason;
    use crate::games::{GameId, all_endings};

    #[test]
    fn games_list_only_their_own_endings_and_no_two_share_words() {
        for g in GameId::ALL {
            for e in g.endings() {
                assert!(matches!(e, EndReason::Game(_)), "{}: {e:?}", g.name());
            }
        }
        let all = all_endings();
        let mut words: Vec<_> = all.iter().map(|e| e.message()).collect();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), all.len(), "{all:?}");
    }
}
