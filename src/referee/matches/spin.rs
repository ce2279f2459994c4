//! How long a game's thread polls its engine's pipes before it sleeps.
//! Waking a sleeping core costs tens of microseconds on a virtual machine
//! (a fifth of a depth-1 move), so a thread with a core to itself polls
//! through a short move instead; where cores are shared, polling would take
//! the engines' time, and the thread sleeps at once.

use std::time::Duration;

/// The polling a game's thread does by default when it has a core to spare.
pub const AUTO: Duration = Duration::from_micros(200);

/// The polling for a game's thread: `given` (`--spin-wait`) when there is
/// one; else `AUTO` when the `cores` the game may run on hold its engine's
/// `engine_threads` and one more, else none.
pub fn budget(given: Option<Duration>, cores: usize, engine_threads: usize) -> Duration {
    match given {
        Some(d) => d,
        None if cores > engine_threads.max(1) => AUTO,
        None => Duration::ZERO,
    }
}

/// The most threads an engine of the match searches with: the largest
/// `Threads` option given (1 when none is).
pub fn engine_threads<'a>(options: impl IntoIterator<Item = &'a (String, String)>) -> usize {
    options
        .into_iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("Threads"))
        .filter_map(|(_, value)| value.trim().parse::<usize>().ok())
        .fold(1, usize::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Duration = Duration::ZERO;

    #[test]
    fn a_game_with_a_core_beside_its_engine_polls() {
        assert_eq!(budget(None, 2, 1), AUTO);
        assert_eq!(budget(None, 8, 4), AUTO);
    }

    #[test]
    fn a_game_whose_engine_fills_its_cores_sleeps_at_once() {
        assert_eq!(budget(None, 1, 1), NONE);
        assert_eq!(budget(None, 2, 2), NONE);
        assert_eq!(budget(None, 0, 1), NONE);
    }

    #[test]
    fn the_option_wins_either_way() {
        let given = Duration::from_micros(250);
        assert_eq!(budget(Some(given), 1, 1), given);
        assert_eq!(budget(Some(NONE), 16, 1), NONE);
    }

    #[test]
    fn the_engine_threads_are_the_largest_threads_option() {
        let opts = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(engine_threads(&opts(&[])), 1);
        assert_eq!(engine_threads(&opts(&[("Hash", "64")])), 1);
        assert_eq!(
            engine_threads(&opts(&[("threads", "3"), ("Threads", "2")])),
            3
        );
        assert_eq!(
            engine_threads(&opts(&[("Threads", "0"), ("Threads", "x")])),
            1
        );
    }
}
