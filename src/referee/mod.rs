//! Referee.
