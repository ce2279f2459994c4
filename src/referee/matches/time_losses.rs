//! The match's time losses summed up at its end: how large the overruns
//! were and what to change, and whether the clock could hold a move at
//! all (every game lost on time before the loser's first move).

use super::game::TimeLoss;
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct TimeLosses {
    /// This run's games.
    games: u64,
    overruns: Vec<Duration>,
    before_a_move: u64,
}

impl TimeLosses {
    pub fn add(&mut self, loss: Option<TimeLoss>) {
        self.games += 1;
        if let Some(l) = loss {
            self.overruns.push(l.overrun);
            self.before_a_move += u64::from(l.before_a_move);
        }
    }

    /// Why the match measured nothing: every game of this run was lost on
    /// time before the loser made a move (the clock cannot hold one).
    pub fn no_move_in_time(&self) -> Option<String> {
        (self.games > 0 && self.before_a_move == self.games).then(|| {
            "every game was lost on time before the loser's first move: the clock cannot \
             hold a move on this machine (give more time, or --timemargin)"
                .to_string()
        })
    }

    /// `Time losses: 3 of 20 games, overruns of 2 ms median and 11 ms at
    /// most. …` with the advice; `None` without time losses. `load`: the
    /// load average and the cores, said when the load is above them.
    pub fn summary(&self, load: Option<(f64, usize)>) -> Option<String> {
        let mut o = self.overruns.clone();
        o.sort();
        let most = *o.last()?;
        let median = o[o.len() / 2];
        let busy = match load {
            Some((l, cores)) if l > cores as f64 => {
                format!(" (as this one is: load average {l:.1} on {cores} cores)")
            }
            _ => String::new(),
        };
        Some(format!(
            "Time losses: {} of {} games, overruns of {} median and {} at most. An engine \
             that keeps its time still overruns when the machine is too busy to run it on \
             time{busy}: give --timemargin {} (the overrun allowed without a loss; the \
             engines' clocks stay as they are), more time per move, or fewer --concurrency \
             games (docs/referee.md)\n",
            o.len(),
            self.games,
            ms(median),
            ms(most),
            suggested_margin(most)
        ))
    }
}

/// `0.42 ms`, `11 ms`.
fn ms(d: Duration) -> String {
    if d < Duration::from_millis(10) {
        format!("{:.2} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// A margin in ms that would have covered twice the largest overrun, on
/// the 1-2-5 scale (at least 10 ms): a round number to type.
fn suggested_margin(most: Duration) -> u64 {
    let want = u64::try_from(most.as_millis())
        .unwrap_or(u64::MAX)
        .saturating_mul(2)
        .max(10);
    let mut step = 10u64;
    loop {
        for k in [1, 2, 5] {
            let m = step.saturating_mul(k);
            if m >= want || m == u64::MAX {
                return m;
            }
        }
        step = step.saturating_mul(10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(ms: u64, before_a_move: bool) -> Option<TimeLoss> {
        Some(TimeLoss {
            overrun: Duration::from_millis(ms),
            before_a_move,
        })
    }

    #[test]
    fn the_summary_gives_the_overruns_and_a_margin_covering_twice_the_largest() {
        let mut t = TimeLosses::default();
        assert_eq!(t.summary(None), None);
        for l in [None, loss(3, false), None, loss(11, false), loss(1, true)] {
            t.add(l);
        }
        let s = t.summary(Some((1.5, 2))).unwrap();
        assert!(
            s.starts_with(
                "Time losses: 3 of 5 games, overruns of 3.00 ms median and 11 ms at most."
            ),
            "{s}"
        );
        assert!(s.contains("on time: give --timemargin 50 "), "{s}");
        let s = t.summary(Some((6.83, 2))).unwrap();
        assert!(
            s.contains("on time (as this one is: load average 6.8 on 2 cores): give"),
            "{s}"
        );
        assert_eq!(t.no_move_in_time(), None);
        assert_eq!(suggested_margin(Duration::ZERO), 10);
        assert_eq!(suggested_margin(Duration::from_millis(260)), 1000);
        assert_eq!(suggested_margin(Duration::from_millis(250)), 500);
        assert_eq!(suggested_margin(Duration::MAX), u64::MAX);
    }

    #[test]
    fn a_match_fails_only_when_every_game_was_lost_before_the_losers_first_move() {
        let mut t = TimeLosses::default();
        assert_eq!(t.no_move_in_time(), None, "no games, no verdict");
        t.add(loss(1, true));
        t.add(loss(5, true));
        assert!(t.no_move_in_time().is_some());
        t.add(loss(5, false));
        assert_eq!(t.no_move_in_time(), None);
    }
}
