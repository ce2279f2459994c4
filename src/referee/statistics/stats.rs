//! Match statistics with the formulas fastchess uses: Elo difference from
//! the score, 95% error bars from the score's variance (per game for the
//! trinomial W/D/L model, per colour-swapped pair for the pentanomial one),
//! LOS, and the SPRT log-likelihood ratio (`sprt.rs`).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959963984540054;

/// Results from one player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub penta: Penta,
}

/// Colour-swapped pairs by their two results: LL, LD, WL, DD, WD, WW.
/// fastchess keeps WL and DD apart (its WL/DD ratio) and counts them
/// together as the middle bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub ll: u64,
    pub ld: u64,
    pub wl: u64,
    pub dd: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The five buckets by pair score 0, 0.5, 1, 1.5, 2.
    pub fn buckets(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Adds a pair from its two game scores (each 0, 1/2 or 1, in halves).
    pub fn add_pair(&mut self, a_halves: u8, b_halves: u8) {
        match (a_halves.min(b_halves), a_halves.max(b_halves)) {
            (0, 0) => self.ll += 1,
            (0, 1) => self.ld += 1,
            (0, 2) => self.wl += 1,
            (1, 1) => self.dd += 1,
            (1, 2) => self.wd += 1,
            _ => self.ww += 1,
        }
    }
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same results from the other player's view.
    pub fn flipped(&self) -> Tally {
        let p = self.penta;
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
            penta: Penta {
                ll: p.ww,
                ld: p.wd,
                wl: p.wl,
                dd: p.dd,
                wd: p.ld,
                ww: p.ll,
            },
        }
    }
}

/// `-400 log10(1/score - 1)`: infinite at a score of 0 or 1.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Normalised Elo: the score's distance from 1/2 in standard deviations,
/// scaled as fastchess does (per game, or per pair with a factor sqrt 2).
fn score_to_nelo(score: f64, variance: f64, per_pair: bool) -> f64 {
    let sd = if per_pair {
        (2.0 * variance).sqrt()
    } else {
        variance.sqrt()
    };
    (score - 0.5) / sd * (800.0 / std::f64::consts::LN_10)
}

/// An Elo estimate with its 95% error bar and LOS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Infinite at a score of 0 or 1 (see `bound`).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo (as fastchess computes
    /// it; infinite when the interval reaches a score of 0 or 1).
    pub error: f64,
    /// The 95% interval in Elo, each end infinite where the interval of the
    /// score reaches 0 or 1.
    pub lower: f64,
    pub upper: f64,
    /// Normalised Elo and its error: `None` when every game (or pair)
    /// scored the same, which leaves no spread to normalise by.
    pub nelo: Option<(f64, f64)>,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
    /// Whether it came from pairs (pentanomial) or games (trinomial).
    pub pentanomial: bool,
    /// Games (trinomial) or pairs (pentanomial) it rests on.
    pub samples: u64,
}

impl Estimate {
    /// At a score of 0 or 1 the estimate is infinite and the normal
    /// interval empty; what the results do bound is the Elo: with every
    /// one of n samples lost, the chance of scoring anything is at most
    /// 1 - 0.025^(1/n) at 95% (two-sided, as the error bars), and the
    /// score no more. The bound in Elo: an upper one after all losses, a
    /// lower one after all wins; `None` for any other score.
    pub fn bound(&self) -> Option<f64> {
        let p = 1.0 - 0.025f64.powf(1.0 / self.samples.max(1) as f64);
        if self.score <= 0.0 {
            Some(score_to_elo(p))
        } else if self.score >= 1.0 {
            Some(score_to_elo(1.0 - p))
        } else {
            None
        }
    }
}

/// Mean and variance of a discrete distribution: values `x` with
/// probabilities `p` (summing to 1). The SPRT's likelihoods use it too.
pub(super) fn mean_var(x: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = x.iter().zip(p).map(|(x, p)| x * p).sum();
    let var = x.iter().zip(p).map(|(x, p)| p * (x - mu) * (x - mu)).sum();
    (mu, var)
}

/// Number, mean and variance of observations of the values `x`, seen
/// `counts` times each; `None` before the first.
fn observed<const N: usize>(x: [f64; N], counts: [u64; N]) -> Option<(u64, f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let (mu, var) = mean_var(&x, &counts.map(|c| c as f64 / n as f64));
    Some((n, mu, var))
}

fn estimate(count: u64, score: f64, variance: f64, pentanomial: bool) -> Estimate {
    let per = variance / count as f64;
    // The interval of the score stops at 0 and 1, where the Elo is
    // infinite: never the NaN of a logarithm of a negative number.
    let (hi, lo) = (score + Z95 * per.sqrt(), score - Z95 * per.sqrt());
    let los = if per > 0.0 {
        (1.0 - erf(-(score - 0.5) / (2.0 * per).sqrt())) / 2.0
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    };
    let (lower, upper) = (score_to_elo(lo.max(0.0)), score_to_elo(hi.min(1.0)));
    let nelo = (variance > 0.0).then(|| {
        (
            score_to_nelo(score, variance, pentanomial),
            (score_to_nelo(hi, variance, pentanomial) - score_to_nelo(lo, variance, pentanomial))
                / 2.0,
        )
    });
    Estimate {
        score,
        elo: score_to_elo(score),
        error: (upper - lower) / 2.0,
        lower,
        upper,
        nelo,
        los,
        pentanomial,
        samples: count,
    }
}

/// Elo from wins, draws and losses (fastchess `EloWDL`).
pub fn elo_wdl(t: &Tally) -> Option<Estimate> {
    let (n, mu, var) = observed([1.0, 0.5, 0.0], [t.wins, t.draws, t.losses])?;
    Some(estimate(n, mu, var, false))
}

/// Elo from colour-swapped pairs (fastchess `EloPentanomial`): the pair
/// score is halved so it is a per-game score again.
pub fn elo_penta(p: &Penta) -> Option<Estimate> {
    let (n, mu, var) = observed([0.0, 0.25, 0.5, 0.75, 1.0], p.buckets())?;
    Some(estimate(n, mu, var, true))
}

/// The estimate a summary shows: pentanomial when there are pairs,
/// otherwise from single games.
pub fn elo(t: &Tally) -> Option<Estimate> {
    if t.penta.pairs() > 0 {
        elo_penta(&t.penta)
    } else {
        elo_wdl(t)
    }
}

/// Draws over games, 0..1.
pub fn draw_ratio(t: &Tally) -> f64 {
    if t.games() == 0 {
        0.0
    } else {
        t.draws as f64 / t.games() as f64
    }
}

/// The error function, to about 1e-13: its Taylor series near zero and the
/// continued fraction of erfc in the tails (std has no stable `erf`).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let r = if a < 3.0 {
        let mut term = a;
        let mut sum = a;
        let x2 = a * a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(a) = exp(-a²)/sqrt(pi) · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …))))
        let mut f = a;
        for k in (1..=80).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / f
    };
    if x < 0.0 { -r } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_tabulated_values() {
        for (x, v) in [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (2.9, 0.9999589021219005),
            (3.0, 0.9999779095030014),
            (3.5, 0.9999992569016276),
            (5.0, 0.9999999999984626),
        ] {
            assert!(close(erf(x), v, 1e-13), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -v, 1e-13));
        }
    }

    /// 10 wins, 5 losses, 5 draws: score 12.5/20 = 0.625, Elo
    /// -400 log10(0.6) = 88.7395. Variance per game: 0.5·0.375² +
    /// 0.25·0.125² + 0.25·0.625² = 0.171875; /20 = 0.00859375, sd
    /// 0.0927025; bounds 0.625 ± 0.181694 = 0.806694 and 0.443306, Elo
    /// 248.183 and -39.567, error 143.875. LOS: (1 - erf(-0.125 /
    /// sqrt(0.0171875)))/2 = (1 + erf(0.953463))/2 = 0.911235.
    #[test]
    fn trinomial_elo_error_and_los_by_hand() {
        let t = Tally {
            wins: 10,
            losses: 5,
            draws: 5,
            ..Tally::default()
        };
        let e = elo_wdl(&t).unwrap();
        assert!(close(e.score, 0.625, 1e-12));
        assert!(close(e.elo, 88.7395, 1e-4), "{}", e.elo);
        assert!(close(e.error, 143.875, 2e-3), "{}", e.error);
        assert!(close(e.los, 0.911235, 1e-6), "{}", e.los);
        assert!(!e.pentanomial);
        assert!(close(draw_ratio(&t), 0.25, 1e-12));
    }

    /// Pairs [LL, LD, WL+DD, WD, WW] = [1, 2, 4, 2, 1] (10 pairs) are
    /// symmetric: score 0.5, Elo 0, LOS 0.5. Variance per pair: (1·0.25 +
    /// 2·0.0625 + 4·0 + 2·0.0625 + 1·0.25)/10 = 0.075; /10 = 0.0075, sd
    /// 0.0866025; bounds 0.5 ± 0.169741 = 0.669741 and 0.330259, Elo
    /// ±122.818, error 122.818.
    #[test]
    fn pentanomial_elo_and_error_by_hand() {
        let p = Penta {
            ll: 1,
            ld: 2,
            wl: 3,
            dd: 1,
            wd: 2,
            ww: 1,
        };
        assert_eq!(p.buckets(), [1, 2, 4, 2, 1]);
        let e = elo_penta(&p).unwrap();
        assert!(close(e.score, 0.5, 1e-12));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.error, 122.818, 2e-3), "{}", e.error);
        assert!(close(e.los, 0.5, 1e-12));
        assert!(e.pentanomial);
    }

    /// [0, 1, 2, 4, 3]: score (0.25 + 2·0.5 + 4·0.75 + 3)/10 = 0.725, Elo
    /// -400 log10(1/0.725 - 1) = 168.402; variance per pair (0.475² +
    /// 2·0.225² + 4·0.025² + 3·0.275²)/10 = 0.055625, /10 = 0.0055625;
    /// LOS (1 + erf(0.225 / sqrt(0.011125)))/2 = (1 + erf(2.133207))/2 =
    /// 0.998723.
    #[test]
    fn pentanomial_los_by_hand() {
        let p = Penta {
            ll: 0,
            ld: 1,
            wl: 1,
            dd: 1,
            wd: 4,
            ww: 3,
        };
        let e = elo_penta(&p).unwrap();
        assert!(close(e.score, 0.725, 1e-12));
        assert!(close(e.elo, 168.4021, 1e-4), "{}", e.elo);
        assert!(close(e.los, 0.998723, 1e-6), "{}", e.los);
    }

    #[test]
    fn pairs_are_bucketed_by_their_two_results() {
        let mut p = Penta::default();
        for (a, b) in [(0, 0), (0, 1), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)] {
            p.add_pair(a, b);
        }
        assert_eq!((p.ll, p.ld, p.wl, p.dd, p.wd, p.ww), (1, 2, 1, 1, 1, 1));
        let t = Tally {
            wins: 3,
            losses: 1,
            draws: 2,
            penta: p,
        };
        let f = t.flipped();
        assert_eq!((f.wins, f.losses, f.draws), (1, 3, 2));
        assert_eq!(f.penta.buckets(), [1, 1, 2, 2, 1]);
    }

    #[test]
    fn one_sided_and_empty_results_do_not_divide_by_zero() {
        assert!(elo_wdl(&Tally::default()).is_none());
        let all_wins = Tally {
            wins: 4,
            ..Tally::default()
        };
        let e = elo_wdl(&all_wins).unwrap();
        assert_eq!(e.los, 1.0);
        assert!(e.elo.is_infinite());
        let all_draws = Tally {
            draws: 4,
            ..Tally::default()
        };
        assert_eq!(elo_wdl(&all_draws).unwrap().los, 0.5);
        assert_eq!(elo_wdl(&all_draws).unwrap().nelo, None);
    }

    /// Every one of 4 games lost: the chance of scoring is at most
    /// 1 - 0.025^(1/4) = 0.602365 at 95%, so the Elo is at most
    /// -400 log10(1/0.602365 - 1) = 72.15 (4 games say little); all won:
    /// at least -72.15.
    #[test]
    fn all_losses_or_all_wins_bound_the_elo_instead_of_an_infinite_one() {
        let p = 1.0 - 0.025f64.powf(0.25);
        assert!(close(p, 0.602365, 1e-6), "{p}");
        let lost = elo_wdl(&Tally {
            losses: 4,
            ..Tally::default()
        })
        .unwrap();
        let b = lost.bound().unwrap();
        assert!(close(b, score_to_elo(p), 1e-9) && b.is_finite(), "{b}");
        let won = elo_wdl(&Tally {
            wins: 4,
            ..Tally::default()
        })
        .unwrap();
        assert!(close(won.bound().unwrap(), -b, 1e-9));
        let mixed = elo_wdl(&Tally {
            wins: 9,
            losses: 1,
            ..Tally::default()
        })
        .unwrap();
        assert_eq!(mixed.bound(), None);
        // Its interval reaches a score of 1: an upper end at infinity,
        // never NaN.
        assert!(mixed.upper.is_infinite() && mixed.lower.is_finite());
        assert!(!mixed.error.is_nan());
    }
}
