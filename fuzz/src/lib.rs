//! The bodies of Koma's fuzz targets: each feeds one door (a parser and
//! the state machine behind it) and checks properties, not only that
//! nothing panics. `fuzz_targets/` holds one thin libFuzzer entry per
//! body; the main crate's tests run the same bodies over the seed corpus.

pub mod doors;
pub use doors::*;
