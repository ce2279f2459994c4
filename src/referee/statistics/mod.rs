//! The numbers of a match: `stats` and `sprt` (the formulas), `report`,
//! `cutechess` and `json` (the summaries), `thinking` (what the engines reported), `pool` and
//! `merge` (`--report`: the shards of a match pooled, followed as they grow),
//! `what_if` (`--report` with `--draw`/`--resign`: a rule checked on them).

pub mod cutechess;
pub mod json;
pub mod merge;
pub mod pool;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod thinking;
pub mod what_if;
