//! Koma's game records, below the referee and the board that both write
//! and read them: the tag names (`tags`, the `shard` tag's value), a
//! record built from a game and its tags read back (`build`), the replay
//! check of a record against the rules (`replay`, its errors in `invalid`) with the score
//! adjudication a record states (`adjudicate`), the book-line check of an
//! opening (`opening`), and the opening-suite file (`suite`). The text
//! itself is parsed and printed by `protocol::record`.

pub mod adjudicate;
pub mod build;
pub mod invalid;
pub mod opening;
pub mod replay;
pub mod shard;
pub mod suite;
pub mod tables;
pub mod tags;

pub use build::{RecordHeader, build, rule_values, rules_of, sentence};
