//! When a search must stop: depth, nodes, a soft time (do not start another
//! iteration) and a hard time (abort now), or only `stop` when infinite.
//! Times are deadlines in milliseconds from `start`, held in atomics so that
//! `ponderhit` can arm them while the search runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const NONE: u64 = u64::MAX;

/// Milliseconds of the clock kept out of every plan (see `from_clock`).
const RESERVE_MS: u64 = 250;

#[derive(Debug)]
pub struct Deadlines {
    soft_ms: AtomicU64,
    hard_ms: AtomicU64,
}

#[derive(Clone, Debug)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub start: Instant,
    deadlines: Arc<Deadlines>,
}

impl Limits {
    pub fn infinite() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            start: Instant::now(),
            deadlines: Arc::new(Deadlines {
                soft_ms: AtomicU64::new(NONE),
                hard_ms: AtomicU64::new(NONE),
            }),
        }
    }

    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::infinite()
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Sets the time budget counting from now (at `go`, or at `ponderhit`).
    pub fn arm(&self, soft: Duration, hard: Duration) {
        let now = self.elapsed().as_millis() as u64;
        self.deadlines.soft_ms.store(
            now.saturating_add(soft.as_millis() as u64),
            Ordering::Relaxed,
        );
        self.deadlines.hard_ms.store(
            now.saturating_add(hard.as_millis() as u64),
            Ordering::Relaxed,
        );
    }

    /// No new iteration after this.
    pub fn soft_expired(&self) -> bool {
        let d = self.deadlines.soft_ms.load(Ordering::Relaxed);
        d != NONE && self.elapsed().as_millis() as u64 >= d
    }

    /// Return at once after this.
    pub fn hard_expired(&self) -> bool {
        let d = self.deadlines.hard_ms.load(Ordering::Relaxed);
        d != NONE && self.elapsed().as_millis() as u64 >= d
    }

    /// Search time for one move from the clock of the side to move.
    /// `overhead` is kept back for transport and process latency, so the
    /// move reaches the referee before the clock runs out.
    pub fn from_clock(
        time: u64,
        inc: u64,
        moves_to_go: Option<u32>,
        overhead: u64,
    ) -> (Duration, Duration) {
        // A reserve of up to a quarter second (three quarters of a short
        // clock) is never planned for: with a small increment the clock
        // settles where the share equals the increment, and without the
        // reserve that was ~90 ms at 1 s + 10 ms, lost to one scheduling
        // hiccup of a loaded machine (seen in CI-like runs).
        let reserve = (time * 3 / 4).min(RESERVE_MS);
        let usable = time.saturating_sub(overhead).saturating_sub(reserve);
        let mtg = u64::from(moves_to_go.unwrap_or(25).clamp(1, 50));
        // Soft: an even share of what is left plus most of the increment,
        // never more than half of it.
        let soft = (usable / mtg + inc * 3 / 4).min(usable / 2);
        // Hard: a few soft shares, but never more than a third of what is
        // left (half when the period ends with this move), so one long
        // iteration cannot lose on time.
        let cap = if mtg <= 1 { usable / 2 } else { usable / 3 };
        let hard = (soft * 4).min(cap).max(soft);
        (Duration::from_millis(soft), Duration::from_millis(hard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_shares_stay_well_inside_the_clock() {
        for time in [0u64, 1, 10, 50, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (soft, hard) = Limits::from_clock(time, inc, mtg, 30);
                    assert!(soft <= hard, "{time} {inc} {mtg:?}");
                    let usable = time.saturating_sub(30);
                    assert!(
                        hard.as_millis() as u64 <= usable / 2,
                        "{time} {inc} {mtg:?}"
                    );
                }
            }
        }
        let (soft, _) = Limits::from_clock(60_000, 0, None, 30);
        assert!(
            soft.as_millis() > 1_000,
            "a minute gives more than a second"
        );
    }

    /// A whole game at 1 s + 10 ms, each move using its soft share and
    /// the overhead: the clock settles far above one move's overhead.
    #[test]
    fn a_short_clock_with_increment_settles_above_the_reserve() {
        let (inc, overhead) = (10u64, 30u64);
        let mut clock = 1000u64;
        let mut lowest = clock;
        for _ in 0..300 {
            let (soft, _) = Limits::from_clock(clock, inc, None, overhead);
            clock = clock - soft.as_millis() as u64 - 5 + inc;
            lowest = lowest.min(clock);
        }
        assert!(lowest >= 150, "the clock fell to {lowest} ms");
    }

    #[test]
    fn deadlines_count_from_arming() {
        let l = Limits::infinite();
        assert!(!l.soft_expired() && !l.hard_expired());
        l.arm(Duration::ZERO, Duration::from_secs(3600));
        assert!(l.soft_expired());
        assert!(!l.hard_expired());
    }
}
