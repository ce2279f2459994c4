//! What a match keeps on disk: `records` written as games end, `state`
//! (resume), `lock` (one referee per record file), `shard` (which part of a
//! match, and its file names) `files` (only regular files are read) and
//! `config_file` (fastchess's `-config`).

pub mod config_file;
pub mod files;
pub mod lock;
pub mod records;
pub mod shard;
pub mod state;
