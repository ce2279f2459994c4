//! Limits per engine (`tc=`, `st=`, `depth=`, `nodes=`) and the clock the
//! referee keeps for each side. Moves are timed on the referee's side: from
//! writing `go` to reading `bestmove`.

use std::fmt;
use std::time::Duration;

/// `[moves/]base[+inc]`, in seconds on the command line; always printed
/// with its increment (`1+0`), so it never reads as a bare number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; the base time is added again after each period.
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

/// What bounds an engine's search; at least one is set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    pub tc: Option<TimeControl>,
    /// `st=`: fixed time per move, sent as `go movetime`.
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Seconds as written on the command line: `10`, `0.1`, `2.5`.
pub fn seconds(d: Duration) -> String {
    format!("{}", d.as_secs_f64())
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}+{}", seconds(self.base), seconds(self.inc))
    }
}

impl fmt::Display for EngineLimits {
    /// `10+0.1`, `st=0.5`, `depth=4`, or several joined by blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(st) = self.movetime {
            parts.push(format!("st={}", seconds(st)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        f.write_str(&parts.join(" "))
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: Option<TimeControl>,
    movetime: Option<Duration>,
    remaining: Duration,
    moves_in_period: u32,
}

impl Clock {
    pub fn new(limits: &EngineLimits) -> Clock {
        Clock {
            tc: limits.tc,
            movetime: limits.movetime,
            remaining: limits.tc.map_or(Duration::ZERO, |t| t.base),
            moves_in_period: 0,
        }
    }

    /// `wtime`/`btime` in ms, when this side plays on a clock.
    pub fn time_ms(&self) -> Option<u64> {
        self.tc.map(|_| self.remaining.as_millis() as u64)
    }

    pub fn inc_ms(&self) -> Option<u64> {
        self.tc.map(|t| t.inc.as_millis() as u64)
    }

    pub fn movestogo(&self) -> Option<u32> {
        let m = self.tc?.moves?;
        Some(m.saturating_sub(self.moves_in_period).max(1))
    }

    /// The time this move may take before the margin: the clock, or the
    /// fixed move time, whichever is less; `None` without either.
    pub fn allowance(&self) -> Option<Duration> {
        match (self.tc.map(|_| self.remaining), self.movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Charges a move that took `elapsed`. Over the allowance by more than
    /// `margin` loses: the error is the overrun beyond the allowance.
    /// Within the margin the clock stops at zero before the increment.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Duration> {
        if let Some(allow) = self.allowance()
            && elapsed > allow + margin
        {
            return Err(elapsed - allow);
        }
        if let Some(tc) = self.tc {
            self.remaining = self.remaining.saturating_sub(elapsed) + tc.inc;
            self.moves_in_period += 1;
            if tc.moves == Some(self.moves_in_period) {
                self.remaining += tc.base;
                self.moves_in_period = 0;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(moves: Option<u32>, base: u64, inc: u64) -> EngineLimits {
        EngineLimits {
            tc: Some(TimeControl {
                moves,
                base: ms(base),
                inc: ms(inc),
            }),
            ..EngineLimits::default()
        }
    }

    #[test]
    fn increments_are_added_after_each_move() {
        let mut c = Clock::new(&tc(None, 1000, 100));
        assert_eq!(c.time_ms(), Some(1000));
        c.charge(ms(300), ms(0)).unwrap();
        assert_eq!(c.time_ms(), Some(800));
        assert_eq!(c.inc_ms(), Some(100));
    }

    #[test]
    fn an_overrun_beyond_the_margin_loses_and_reports_the_overrun() {
        let mut c = Clock::new(&tc(None, 1000, 0));
        assert_eq!(c.charge(ms(1150), ms(100)), Err(ms(150)));
        let mut c = Clock::new(&tc(None, 1000, 50));
        assert_eq!(c.charge(ms(1080), ms(100)), Ok(()));
        assert_eq!(c.time_ms(), Some(50), "stops at zero, then the increment");
    }

    #[test]
    fn periods_restore_the_base_time() {
        let mut c = Clock::new(&tc(Some(2), 1000, 0));
        assert_eq!(c.movestogo(), Some(2));
        c.charge(ms(100), ms(0)).unwrap();
        assert_eq!(c.movestogo(), Some(1));
        c.charge(ms(100), ms(0)).unwrap();
        assert_eq!(c.time_ms(), Some(1800));
        assert_eq!(c.movestogo(), Some(2));
    }

    #[test]
    fn fixed_move_time_and_depth_limits() {
        let st = EngineLimits {
            movetime: Some(ms(200)),
            ..EngineLimits::default()
        };
        let mut c = Clock::new(&st);
        assert_eq!((c.time_ms(), c.allowance()), (None, Some(ms(200))));
        assert_eq!(c.charge(ms(260), ms(50)), Err(ms(60)));
        let depth = EngineLimits {
            depth: Some(3),
            ..EngineLimits::default()
        };
        let mut c = Clock::new(&depth);
        assert_eq!(c.allowance(), None);
        assert_eq!(c.charge(ms(100_000), ms(0)), Ok(()));
    }

    #[test]
    fn limits_print_as_typed() {
        assert_eq!(tc(None, 10_000, 100).to_string(), "10+0.1");
        assert_eq!(tc(Some(40), 60_000, 0).to_string(), "40/60+0");
        let l = EngineLimits {
            movetime: Some(ms(500)),
            depth: Some(4),
            nodes: Some(1000),
            ..EngineLimits::default()
        };
        assert_eq!(l.to_string(), "st=0.5 depth=4 nodes=1000");
    }
}
