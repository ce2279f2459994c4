//! The engine: one protocol loop over any reader and writer, a session per
//! selected game (built through `GameId::visit`), the search thread,
//! options, and the `bench` and `perft` jobs.

pub mod bench;
pub mod display;
pub mod evalfile;
pub mod jobs;
pub mod memory;
pub mod options;
pub mod output;
pub mod session;
pub mod uci;

pub use output::Output;
pub use uci::{Engine, run};
