//! Koma: an engine and match referee for four games of the shogi family
//! (Kani Nari Ebi, Hasami Shogi, Nana Shogi, Negaeri Shogi).
//!
//! Layers, arrows pointing down only: `engine` and `referee` use `search`,
//! `protocol` and `games`; `search` is generic over `core::Game` and never
//! names a game; `games` implement the trait on top of `core`. `board` (the
//! web board) and `openings` (making opening suites) sit on top of
//! `referee`.

pub mod board;
pub mod core;
pub mod engine;
pub mod games;
pub mod openings;
pub mod protocol;
pub mod referee;
pub mod search;
