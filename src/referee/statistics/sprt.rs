//! The sequential probability ratio test as fastchess runs it: the
//! generalised SPRT of Michel Van den Bergh, whose log-likelihood ratio
//! compares the maximum-likelihood result distributions under H0 (Elo =
//! elo0) and H1 (Elo = elo1), for pentanomial pairs or trinomial games.
//! Zero counts are regularised to 1e-3 as fastchess does; the equations are
//! solved with the ITP method to a tighter tolerance than fastchess's.

use super::stats::{Tally, mean_var};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// Normalised Elo (fastchess's default).
    Normalized,
    /// Logistic (classic) Elo.
    Logistic,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The LLR fell to the lower bound: elo0 holds.
    H0,
    /// The LLR rose to the upper bound: elo1 holds.
    H1,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: Model,
    pub lower: f64,
    pub upper: f64,
}

/// SPRT parameters fastchess refuses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtError {
    /// elo0 not below elo1.
    Bounds { elo0: f64, elo1: f64 },
    /// alpha not strictly between 0 and 1.
    Alpha(f64),
    /// beta not strictly between 0 and 1.
    Beta(f64),
    /// alpha + beta not below 1.
    ErrorsSum,
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            SprtError::Bounds { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::Alpha(alpha) => {
                write!(f, "alpha must lie strictly between 0 and 1, not {alpha}")
            }
            SprtError::Beta(beta) => {
                write!(f, "beta must lie strictly between 0 and 1, not {beta}")
            }
            SprtError::ErrorsSum => f.write_str("alpha + beta must be less than 1"),
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// Checks the parameters as fastchess does.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: Model,
    ) -> Result<Sprt, SprtError> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(SprtError::Alpha(alpha));
        }
        if !(beta > 0.0 && beta < 1.0) {
            return Err(SprtError::Beta(beta));
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorsSum);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        })
    }

    /// The log-likelihood ratio of the results: from pairs when there are
    /// any, else from single games.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.penta.pairs() > 0 {
            self.llr_penta(t)
        } else {
            self.llr_wdl(t)
        }
    }

    pub fn llr_wdl(&self, t: &Tally) -> f64 {
        let counts = [t.losses, t.draws, t.wins].map(regularize);
        let scale = 1.0;
        self.llr_of(&counts, &[0.0, 0.5, 1.0], scale)
    }

    pub fn llr_penta(&self, t: &Tally) -> f64 {
        let counts = t.penta.buckets().map(regularize);
        self.llr_of(&counts, &[0.0, 0.25, 0.5, 0.75, 1.0], 2f64.sqrt())
    }

    /// `scale` is sqrt 2 for pairs: normalised Elo per pair is the game
    /// value times sqrt 2.
    fn llr_of<const N: usize>(&self, counts: &[f64; N], scores: &[f64; N], scale: f64) -> f64 {
        let total: f64 = counts.iter().sum();
        let probs = counts.map(|c| c / total);
        let (p0, p1) = match self.model {
            Model::Logistic => (
                mle_logistic(scores, &probs, logistic_score(self.elo0)),
                mle_logistic(scores, &probs, logistic_score(self.elo1)),
            ),
            Model::Normalized => {
                let k = 800.0 / std::f64::consts::LN_10;
                (
                    mle_normalized(scores, &probs, 0.5, scale * self.elo0 / k),
                    mle_normalized(scores, &probs, 0.5, scale * self.elo1 / k),
                )
            }
        };
        let (Some(p0), Some(p1)) = (p0, p1) else {
            return 0.0;
        };
        total
            * (0..N)
                .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    pub fn decision(&self, llr: f64) -> Option<Decision> {
        if llr >= self.upper {
            Some(Decision::H1)
        } else if llr <= self.lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

fn regularize(c: u64) -> f64 {
    if c == 0 { 1e-3 } else { c as f64 }
}

/// Expected score at a logistic Elo difference.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The distribution closest (in likelihood) to `probs` whose expected
/// score is `s` (Van den Bergh, "Comments on Normalized Elo", prop. 1.1).
fn mle_logistic<const N: usize>(scores: &[f64; N], probs: &[f64; N], s: f64) -> Option<[f64; N]> {
    let d = scores.map(|a| a - s);
    let theta = solve_theta(&d, probs)?;
    Some(std::array::from_fn(|i| probs[i] / (1.0 + theta * d[i])))
}

/// The distribution closest to `probs` with normalised Elo `t_star`
/// (ibid., section 4.1), by fixed-point iteration from the uniform one.
fn mle_normalized<const N: usize>(
    scores: &[f64; N],
    probs: &[f64; N],
    mu_ref: f64,
    t_star: f64,
) -> Option<[f64; N]> {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..1000 {
        let (mu, var) = mean_var(scores, &p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi = scores.map(|a| {
            let z = (a - mu) / sigma;
            a - mu_ref - 0.5 * t_star * sigma * (1.0 + z * z)
        });
        let theta = solve_theta(&phi, probs)?;
        let mut diff: f64 = 0.0;
        for i in 0..N {
            let q = probs[i] / (1.0 + theta * phi[i]);
            diff = diff.max((q - p[i]).abs());
            p[i] = q;
        }
        if diff < 1e-12 {
            break;
        }
    }
    Some(p)
}

/// The root of `sum p_i d_i / (1 + x d_i)` on the interval where every
/// `1 + x d_i` is positive: `(-1/max d, -1/min d)`. The function falls
/// from +inf to -inf across it.
fn solve_theta<const N: usize>(d: &[f64; N], probs: &[f64; N]) -> Option<f64> {
    let lo_d = d.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_d = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { (0..N).map(|i| probs[i] * d[i] / (1.0 + x * d[i])).sum() };
    Some(itp(f, -1.0 / hi_d, -1.0 / lo_d, 1e-12))
}

/// The ITP root finder (Oliveira and Takahashi, ACM TOMS 47(1), 2021) for
/// `f` falling from positive at `a` to negative at `b`; the ends may be
/// poles, so the first step bisects.
fn itp(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64, eps: f64) -> f64 {
    const K1: f64 = 0.1;
    const K2: f64 = 2.0;
    const N0: f64 = 0.99;
    let (mut fa, mut fb) = (f64::INFINITY, f64::NEG_INFINITY);
    let n_max = ((b - a) / (2.0 * eps)).log2().ceil() + N0;
    let mut j = 0;
    while b - a > 2.0 * eps && j < 2000 {
        let half = 0.5 * (a + b);
        let r = (eps * 2f64.powf(n_max - j as f64) - 0.5 * (b - a)).max(0.0);
        let delta = K1 * (b - a).powf(K2);
        let x = if fa.is_finite() && fb.is_finite() {
            let xf = (fb * a - fa * b) / (fb - fa);
            let sigma = (half - xf).signum();
            let xt = if delta <= (half - xf).abs() {
                xf + sigma * delta
            } else {
                half
            };
            if (xt - half).abs() <= r {
                xt
            } else {
                half - sigma * r
            }
        } else {
            half
        };
        let y = f(x);
        if y == 0.0 {
            return x;
        }
        if y > 0.0 {
            a = x;
            fa = y;
        } else {
            b = x;
            fb = y;
        }
        j += 1;
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::statistics::stats::Penta;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn bounds_are_the_wald_thresholds() {
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        assert!(close(s.lower, -2.944439, 1e-6));
        assert!(close(s.upper, 2.944439, 1e-6));
        // ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.1, Model::Logistic).unwrap();
        assert!(close(s.lower, -2.251292, 1e-6));
        assert!(close(s.upper, 2.890372, 1e-6));
        assert_eq!(s.decision(3.0), Some(Decision::H1));
        assert_eq!(s.decision(-2.3), Some(Decision::H0));
        assert_eq!(s.decision(0.0), None);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, Model::Normalized).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, Model::Normalized).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0, Model::Normalized).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, Model::Normalized).is_err());
    }

    /// The MLE under the logistic model solves a one-variable equation;
    /// its solution must have exactly the expected score asked for.
    #[test]
    fn logistic_mle_has_the_required_mean() {
        let probs = [0.2, 0.3, 0.5];
        let scores = [0.0, 0.5, 1.0];
        for s in [0.4, 0.5, 0.6] {
            let p = mle_logistic(&scores, &probs, s).unwrap();
            let (mu, _) = mean_var(&scores, &p);
            assert!(close(mu, s, 1e-9), "{mu} vs {s}");
            assert!(close(p.iter().sum::<f64>(), 1.0, 1e-9));
        }
    }

    /// When the observed distribution has exactly the hypothesis' score, the
    /// MLE is the observation itself: the LLR term for that side is zero. A
    /// symmetric result (score 1/2) against elo0 = 0 therefore gives
    /// LLR = N · Σ p̂ ln(p1/p̂) < 0, the negated Kullback-Leibler divergence.
    #[test]
    fn a_result_at_elo0_has_a_negative_llr_equal_to_minus_kl() {
        let t = Tally {
            wins: 30,
            losses: 30,
            draws: 40,
            ..Tally::default()
        };
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05, Model::Logistic).unwrap();
        let probs = [0.3, 0.4, 0.3];
        let p1 = mle_logistic(&[0.0, 0.5, 1.0], &probs, logistic_score(10.0)).unwrap();
        let kl: f64 = (0..3).map(|i| probs[i] * (probs[i] / p1[i]).ln()).sum();
        assert!(close(s.llr(&t), -100.0 * kl, 1e-9));
        assert!(s.llr(&t) < 0.0);
    }

    /// Hand check against the normal approximation of the GSPRT, LLR ≈
    /// N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²): W 600, D 800, L 400 gives
    /// x̄ = 1000/1800 = 0.555556, σ² = (600·0.444444² + 800·0.055556² +
    /// 400·0.555556²)/1800 = 0.135802; logistic s0 = 0.5, s1 =
    /// 1/(1 + 10^(-0.025)) = 0.514387, so LLR ≈ 1800 · 0.014387 · 0.096725 /
    /// 0.271605 = 9.2226. The exact GSPRT (9.0382) agrees to within 3%.
    #[test]
    fn trinomial_llr_agrees_with_the_normal_approximation() {
        let t = Tally {
            wins: 600,
            losses: 400,
            draws: 800,
            ..Tally::default()
        };
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05, Model::Logistic).unwrap();
        let llr = s.llr(&t);
        assert!((llr - 9.2226).abs() < 0.03 * 9.2226, "{llr}");
    }

    /// Reference values from an independent script,
    /// `tests/data/sprt_reference.py` (plain bisection on the same
    /// equations, no shared code).
    #[test]
    fn llr_matches_an_independent_implementation() {
        let t = Tally {
            wins: 123,
            losses: 101,
            draws: 210,
            penta: Penta {
                ll: 7,
                ld: 30,
                wl: 20,
                dd: 80,
                wd: 45,
                ww: 15,
            },
        };
        let norm = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let logi = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Logistic).unwrap();
        for (got, want) in [
            (norm.llr_wdl(&t), REF_NORM_WDL),
            (logi.llr_wdl(&t), REF_LOGI_WDL),
            (norm.llr_penta(&t), REF_NORM_PENTA),
            (logi.llr_penta(&t), REF_LOGI_PENTA),
        ] {
            assert!(close(got, want, 1e-6), "{got} vs {want}");
        }
        let zeros = Tally {
            wins: 5,
            ..Tally::default()
        };
        assert!(close(logi.llr_wdl(&zeros), REF_LOGI_ZEROS, 1e-6));
    }

    const REF_NORM_WDL: f64 = 0.3958011388844528;
    const REF_LOGI_WDL: f64 = 0.5266520622505239;
    const REF_NORM_PENTA: f64 = 0.6525322075385074;
    const REF_LOGI_PENTA: f64 = 0.9826854026533238;
    const REF_LOGI_ZEROS: f64 = 0.07143782560247615;
}
