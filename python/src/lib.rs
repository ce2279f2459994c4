//! The native half of the `koma` Python package. Plain Rust over the koma
//! crate: `position` (one game as a line of moves, behind one object-safe
//! trait for every registered game), `actions` and `planes` (the learning
//! environments' fixed action space and observation planes), `playout`
//! (many random games at once), `engine` (an engine process through the
//! referee's client layer). `py` (the `python` feature) wraps them for
//! PyO3; nothing else here knows Python.

pub mod actions;
pub mod engine;
pub mod planes;
pub mod playout;
pub mod position;
#[cfg(feature = "python")]
mod py;
pub mod rng;
pub mod tables;
