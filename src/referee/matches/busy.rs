//! Warnings before a timed match on a machine that cannot run it on time:
//! more games at once than cores (fastchess warns alike), or a load
//! average above the cores while an engine plays without a time margin.
//! Moves then overrun their clocks however well the engines keep time.

use crate::referee::cli::MatchConfig;

/// Warns on stderr before a match of `games` games to play, when one of
/// its engines plays on a clock (or a move time) the machine may not serve.
pub fn warn(cfg: &MatchConfig, games: usize) {
    let timed =
        || (cfg.engines.iter()).filter(|e| e.limits.tc.is_some() || e.limits.movetime.is_some());
    if timed().next().is_none() {
        return;
    }
    let unmargined = timed().any(|e| e.margin.unwrap_or(cfg.margin).is_zero());
    let at_once = cfg.concurrency.min(games);
    for w in warnings(at_once, cores(), load_average(), unmargined) {
        eprintln!("koma-referee: warning: {w}");
    }
}

/// The warnings for `games_at_once` timed games on `cores` cores with
/// this 1-minute `load` average (when it could be read); `unmargined`:
/// some timed engine plays with a margin of 0, where any overrun loses
/// (with a margin, the load's advice is taken already).
pub fn warnings(
    games_at_once: usize,
    cores: usize,
    load: Option<f64>,
    unmargined: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if games_at_once > cores {
        out.push(format!(
            "{games_at_once} games at once on {cores} core{}: more than the cores can serve \
             (each game's engine to move needs one), so moves may overrun their clocks; \
             give --concurrency {cores}",
            plural(cores)
        ));
    }
    if let Some(l) = load
        && l > cores as f64
        && unmargined
    {
        out.push(format!(
            "the machine is busy (load average {l:.1} on {cores} core{}) and a move that \
             overruns its clock by any time loses: give --timemargin MS, more time per move, \
             or fewer --concurrency games (docs/referee.md)",
            plural(cores)
        ));
    }
    out
}

/// The cores this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-minute load average (`/proc/loadavg`); `None` where there is none.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_beyond_the_cores_and_a_load_above_them_are_warned_about() {
        assert!(warnings(2, 2, Some(2.0), true).is_empty());
        assert!(warnings(1, 1, None, true).is_empty());
        let w = warnings(3, 2, Some(0.5), true);
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("3 games at once on 2 cores:"), "{w:?}");
        assert!(w[0].ends_with("give --concurrency 2"), "{w:?}");
        let w = warnings(2, 2, Some(6.83), true);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].starts_with("the machine is busy (load average 6.8 on 2 cores)"),
            "{w:?}"
        );
        assert_eq!(warnings(4, 1, Some(9.0), true).len(), 2);
        // With a margin the load's advice is taken: only the cores count.
        assert!(warnings(2, 2, Some(6.83), false).is_empty());
        assert_eq!(warnings(4, 1, Some(9.0), false).len(), 1);
    }
}
