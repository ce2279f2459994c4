//! What a match keeps on disk: `records` written as games end, `state`
//! (resume), `lock` (one referee per record file), `shard` (which part of a
//! match, and its file names) and `files` (only regular files are read).

pub mod files;
pub mod lock;
pub mod records;
pub mod shard;
pub mod state;
