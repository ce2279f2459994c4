//! The match: `runner` deals the schedule (`schedule`) to worker threads
//! (pinned by `affinity`), each playing one `game` at a time from an
//! `opening`, ended early by `record::adjudicate`; `figures` are the
//! engines' numbers `-pgnout` adds to the move comments; `interrupt`
//! catches Ctrl-C.

pub mod affinity;
pub mod figures;
pub mod game;
pub mod interrupt;
pub mod opening;
pub mod runner;
pub mod schedule;
