//! The match: `runner` deals the schedule (`schedule`) to worker threads
//! (pinned by `affinity`), each playing one `game` at a time from an
//! `opening`, ended early by `record::adjudicate` and the endgame tables
//! (`tablebase`); `busy` warns of a
//! machine that cannot run it on time, `time_losses` sums up the overruns;
//! `figures` are the engines' numbers `-pgnout` adds to the move comments;
//! `interrupt` catches Ctrl-C; `spin` says whether a game's thread polls
//! its engines' pipes before it sleeps.

pub mod affinity;
pub mod busy;
pub mod figures;
pub mod game;
pub mod interrupt;
pub mod opening;
pub mod runner;
pub mod schedule;
pub mod spin;
pub mod tablebase;
pub mod time_losses;
