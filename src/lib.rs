//! Koma: an engine and match referee for four games of the shogi family,
//! each in its own folder of `src/games/` (the registry there names them).
//!
//! Layers, arrows pointing down only (a test, `tests/layers.rs`, keeps them
//! so): `board` (the web board) and `openings` (making opening suites) →
//! `referee` (matches) → `record` (game records: tags, build, the suite
//! format) → `client` (an engine process seen from outside) →
//! `engine` (the engine's protocol loop) → `learn` (self-play data and the
//! fit of evaluation weights) → `solve` (a retrograde solver) →
//! `search` (generic over `core::Game`, never naming a game) → `protocol`
//! (the only parser of protocol text) → `games` (the four games and the
//! registry) → `eval` (evaluations as terms times weights, the weights
//! file) → `core` (the game-agnostic vocabulary).

/// Diagnostics go to stderr through the `log` crate, at `warn` unless
/// `RUST_LOG` says otherwise (`RUST_LOG=debug` shows every line to and
/// from every engine, with its time). Never stdout: that is the protocol
/// channel of the engine and the results of the referee. Every binary
/// calls this first.
pub fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format_timestamp_micros()
        .init();
}

pub mod board;
pub mod client;
pub mod core;
pub mod engine;
pub mod eval;
pub mod games;
pub mod learn;
pub mod openings;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod search;
pub mod solve;
