//! The referee: engine processes, clocks, games, matches, statistics and
//! records. `run` is the whole `koma-referee` program.

pub mod clock;
pub mod engine_proc;
pub mod log;
pub mod reason;
pub mod sprt;
pub mod stats;
pub mod opening;
pub mod schedule;
pub mod game;
pub mod handshake;
