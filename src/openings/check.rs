//! Checking a suite: every opening legal, the game still going at its end,
//! no two reaching the same position or mirror images; and, given a
//! search, the score of every position (a deeper search than the one that
//! made the suite shows how balanced it really is).

use super::{Limit, OpeningsError, SCORE_TT_MB, canonical_key, score};
use crate::core::{Game, Rules, Searchable, read_rule_values};
use crate::games::GameVisitor;
use crate::record::opening::check;
use crate::record::suite::{Header, Suite};
use crate::search::{Score, Tt, is_mate};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a check found.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// Each problem, naming its line; none for a good suite.
    pub problems: Vec<String>,
    /// Each opening's score for the side to move, in file order, when a
    /// search was asked for.
    pub scores: Vec<Score>,
}

/// The rules a suite's header names.
pub fn header_rules<G: Game>(h: &Header) -> Result<G::Rules, OpeningsError> {
    let pairs = h.rules.iter().map(|(n, v)| (n.as_str(), v.as_str()));
    let values =
        read_rule_values(G::NAME, G::Rules::specs(), pairs).map_err(OpeningsError::HeaderRules)?;
    G::Rules::from_values(&values).map_err(OpeningsError::Rules)
}

/// Checks every opening of `suite`, and scores each within `limit` when
/// given (on `threads` threads; the scores do not depend on them).
pub fn check_suite(
    suite: &Suite,
    limit: Option<Limit>,
    threads: usize,
) -> Result<Checked, OpeningsError> {
    struct Run<'a>(&'a Suite, Option<Limit>, usize);
    impl GameVisitor for Run<'_> {
        type Output = Result<Checked, OpeningsError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            run::<G>(self.0, self.1, self.2)
        }
    }
    suite.header.variant.visit(Run(suite, limit, threads))
}

fn run<G: Searchable>(
    suite: &Suite,
    limit: Option<Limit>,
    threads: usize,
) -> Result<Checked, OpeningsError> {
    let rules = header_rules::<G>(&suite.header)?;
    let mut out = Checked::default();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut ends = Vec::new();
    for (n, line) in &suite.lines {
        let checked = match check::<G>(line, &rules) {
            Ok(c) => c,
            Err(e) => {
                out.problems.push(format!("line {n}: {e}"));
                continue;
            }
        };
        let played = checked.line::<G>(&rules)?;
        let (pos, history) = (played.current().clone(), played.history().clone());
        if let Some(first) = seen.insert(canonical_key(&pos, &rules), *n) {
            out.problems.push(format!(
                "line {n}: the same position as line {first}, or its mirror image"
            ));
        }
        ends.push((pos, history));
    }
    let Some(limit) = limit else {
        return Ok(out);
    };
    if !out.problems.is_empty() {
        return Ok(out);
    }
    let scores = Mutex::new(vec![0; ends.len()]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            let (ends, scores, next) = (&ends, &scores, &next);
            s.spawn(move || {
                let tt = Tt::new(SCORE_TT_MB);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pos, history)) = ends.get(i) else {
                        break;
                    };
                    let v = score(pos, history, limit, &tt);
                    scores.lock().unwrap_or_else(|e| e.into_inner())[i] = v;
                }
            });
        }
    });
    out.scores = scores.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(out)
}

/// A score distribution, as docs/openings.md's quality tables give it.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub sd: f64,
    /// 5th, 25th, 50th, 75th and 95th percentiles.
    pub percentiles: [Score; 5],
    /// Shares of |score| <= 25, <= 50, <= 100, and > 200 cp (mates
    /// included).
    pub within_25: f64,
    pub within_50: f64,
    pub within_100: f64,
    pub beyond_200: f64,
    /// Forced results found.
    pub mates: usize,
}

impl Distribution {
    /// `None` for no scores.
    pub fn of(scores: &[Score]) -> Option<Distribution> {
        if scores.is_empty() {
            return None;
        }
        let mut v = scores.to_vec();
        v.sort_unstable();
        let n = v.len() as f64;
        let mean = v.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
        let var = v
            .iter()
            .map(|&s| (f64::from(s) - mean).powi(2))
            .sum::<f64>()
            / n;
        let at = |p: f64| v[((p * (n - 1.0)).round() as usize).min(v.len() - 1)];
        let share = |f: &dyn Fn(Score) -> bool| v.iter().filter(|&&s| f(s)).count() as f64 / n;
        Some(Distribution {
            count: v.len(),
            mean,
            sd: var.sqrt(),
            percentiles: [at(0.05), at(0.25), at(0.5), at(0.75), at(0.95)],
            within_25: share(&|s| s.abs() <= 25),
            within_50: share(&|s| s.abs() <= 50),
            within_100: share(&|s| s.abs() <= 100),
            beyond_200: share(&|s| s.abs() > 200),
            mates: v.iter().filter(|&&s| is_mate(s)).count(),
        })
    }
}

impl std::fmt::Display for Distribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.percentiles;
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        write!(
            f,
            "{} positions: mean {:+.1} cp, sd {:.1}; percentiles 5/25/50/75/95: {:+}/{:+}/{:+}/{:+}/{:+}; |score| <= 25: {}, <= 50: {}, <= 100: {}, > 200: {}; forced results: {}",
            self.count,
            self.mean,
            self.sd,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            pct(self.within_25),
            pct(self.within_50),
            pct(self.within_100),
            pct(self.beyond_200),
            self.mates
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distribution_has_its_percentiles_and_shares() {
        let scores: Vec<Score> = (-50..=50).collect();
        let d = Distribution::of(&scores).unwrap();
        assert_eq!(d.count, 101);
        assert_eq!(d.percentiles, [-45, -25, 0, 25, 45]);
        assert!(d.mean.abs() < 1e-9);
        assert!((d.within_25 - 51.0 / 101.0).abs() < 1e-9);
        assert_eq!((d.within_50, d.beyond_200, d.mates), (1.0, 0.0, 0));
        let d = Distribution::of(&[30_000 - 5, 0]).unwrap();
        assert_eq!(d.mates, 1);
        assert!(Distribution::of(&[]).is_none());
    }
}
