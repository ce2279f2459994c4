//! One engine process seen from outside, shared by the referee and the
//! board: `process` (spawn, killed and reaped on drop, with the `watchdog`
//! for its descendants), `pipe` (its output read on the playing thread,
//! lines stamped as they arrive), `handshake` (`uci` to
//! `readyok`, and before each game), `seat` (one player's engine across
//! games: started, dropped when it died, started again), `clock` (the limits and clock of one
//! side), `turn` (one move: `position` and `go`, thinking, the clock
//! charged, the `bestmove` checked), `reason` (every way a game ends,
//! failures included) and `engine_log` (every line, to `RUST_LOG=debug`
//! and the `--log` file).

pub mod clock;
pub mod engine_log;
pub mod handshake;
pub mod pipe;
pub mod process;
pub mod reason;
pub mod seat;
pub mod turn;
pub mod watchdog;
