//! One player's engine across games: started (the handshake) when it is
//! first needed, dropped when a failure killed it, and so started afresh
//! by the next `start`. The referee's workers and the board's tables hold
//! their engines in seats; a seat lives on the thread that spawns its
//! engine (see `process` on why that matters).

use super::handshake::{self, EngineStart, StartError, Timeouts};
use super::process::EngineProc;
use super::reason::Failure;
use std::time::Duration;

/// An engine slot: empty, or holding a started engine.
#[derive(Default)]
pub struct Seat {
    engine: Option<EngineProc>,
}

impl Seat {
    /// Starts the engine unless one is running. `Ok(Some(warnings))` when
    /// it was started now (its `id name` is then `Seat::id_name`),
    /// `Ok(None)` when it was running already.
    pub fn start(
        &mut self,
        s: &EngineStart<'_>,
        t: &Timeouts,
    ) -> Result<Option<Vec<String>>, StartError> {
        if self.engine.is_some() {
            return Ok(None);
        }
        let (e, warnings) = handshake::start(s, t)?;
        self.engine = Some(e);
        Ok(Some(warnings))
    }

    /// `start`, then `ucinewgame` for an engine started now: for a seat
    /// that plays one game per start. Either failure loses the game, and
    /// leaves the seat empty.
    pub fn start_for_game(
        &mut self,
        s: &EngineStart<'_>,
        t: &Timeouts,
    ) -> Result<Option<Vec<String>>, Failure> {
        let started = self.start(s, t).map_err(|e| e.failure())?;
        if started.is_some()
            && let Some(e) = self.engine.as_mut()
            && let Err(f) = handshake::new_game(e, t)
        {
            self.engine = None;
            return Err(f);
        }
        Ok(started)
    }

    /// The running engine.
    pub fn engine(&mut self) -> Option<&mut EngineProc> {
        self.engine.as_mut()
    }

    /// What the running engine calls itself (`id name`).
    pub fn id_name(&self) -> Option<&str> {
        self.engine.as_ref().and_then(|e| e.id_name.as_deref())
    }

    /// After a game or a turn: an engine that died (`Failure::dead`) is
    /// dropped, which kills and reaps what is left of it.
    pub fn drop_if_dead(&mut self, dead: bool) {
        if dead {
            self.engine = None;
        }
    }

    /// Asks the engine to quit (killed after `grace`); the seat is empty.
    pub fn quit(&mut self, grace: Duration) {
        if let Some(e) = self.engine.take() {
            e.quit(grace);
        }
    }
}
