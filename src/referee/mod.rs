//! The referee: engine processes, clocks, games, matches, statistics and
//! records. `run` is the whole `koma-referee` program.

pub mod cli;
pub mod clock;
pub mod engine_proc;
pub mod game;
pub mod handshake;
pub mod log;
pub mod opening;
pub mod reason;
pub mod records;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod sprt;
pub mod state;
pub mod stats;
