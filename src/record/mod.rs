//! Koma's game records, below the referee and the board that both write
//! and read them: the tag names (`tags`), a record built from a game and
//! its tags read back (`build`), and the opening-suite file (`suite`). The
//! text itself is parsed and printed by `protocol::record`.

pub mod build;
pub mod suite;
pub mod tags;

pub use build::{RecordHeader, build, rule_values, sentence};
