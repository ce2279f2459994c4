//! Endgame tables of a game solved signature by signature (`core::Layered`):
//! the generator (`job`, `unit`), the table files (`file`), probing a
//! folder of them (`probe`) and the check of a folder by the local equations
//! (`check`). Each entry holds the side to move's win, draw or loss and its
//! distance to the next exit (a move leaving the signature) or end: DTZ.
//! Nothing here names a game; `docs/tables.md` has the format and figures.

pub mod check;
pub mod error;
pub mod file;
pub mod job;
#[cfg(test)]
mod kani_plain;
pub mod probe;
#[cfg(test)]
mod tests;
pub mod unit;
pub mod value;

pub use error::TableError;
pub use probe::Tables;
pub use value::Dtz;
