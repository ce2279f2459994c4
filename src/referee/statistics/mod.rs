//! The numbers of a match: `stats` and `sprt` (the formulas), `report` and
//! `json` (the summaries), `thinking` (what the engines reported), `pool` and
//! `merge` (`--report`: the shards of a match pooled, followed as they grow).

pub mod json;
pub mod merge;
pub mod pool;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod thinking;
