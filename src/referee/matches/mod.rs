//! The match: `runner` deals the schedule (`schedule`) to worker threads
//! (pinned by `affinity`), each playing one `game` at a time from an
//! `opening`, ended early by `record::adjudicate`.

pub mod affinity;
pub mod game;
pub mod opening;
pub mod runner;
pub mod schedule;
