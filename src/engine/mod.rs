//! The engine: one protocol loop over any reader and writer and any
//! registry of games, a session per selected game (made by its registry
//! entry), its two threads (one reads input while the other searches),
//! options, and the `bench` and `perft` jobs.

pub mod bench;
pub mod bench_positions;
pub mod display;
pub mod evalfile;
pub mod jobs;
pub mod memory;
pub mod options;
pub mod output;
pub mod refused;
pub mod registry;
pub mod session;
pub mod uci;
pub mod worker;

pub use output::Output;
pub use registry::Registry;
pub use uci::{Engine, run};
