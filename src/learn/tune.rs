//! `koma tune`: Texel-style fitting of a game's evaluation weights to
//! self-play data. The prediction is `sigmoid(eval / K)`, the target the
//! game's result from the side to move's view (mixed with
//! `sigmoid(score / K)` of the search's score by `lambda`), the loss their
//! mean squared difference. `K` is first fitted to the hand-made weights;
//! then every weight moves at once by full-batch Adam. One game in
//! `holdout` (by game index) is kept out of the fit to measure it.

use super::error::{LearnError, LineError};
use super::sample::{Line, parse_line};
use crate::core::{Color, Outcome};
use crate::eval::Evaluation;
use crate::protocol::parse_position;
use std::io::BufRead;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub data: Vec<PathBuf>,
    pub epochs: u32,
    /// Weight of the result in the target (1: the result only).
    pub lambda: f64,
    /// Adam's step, in centipawns.
    pub rate: f64,
    /// Games with `index % holdout == 0` are the validation set.
    pub holdout: u64,
}

/// Positions as features, with what the fit compares them to.
#[derive(Default)]
pub struct Samples {
    pub terms: usize,
    pub features: Vec<f32>,
    /// The result from the side to move's view: 1, 0.5 or 0.
    pub result: Vec<f32>,
    pub score: Vec<f32>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.features[i * self.terms..(i + 1) * self.terms]
    }

    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        lambda * f64::from(self.result[i]) + (1.0 - lambda) * sigmoid(f64::from(self.score[i]), k)
    }

    /// The mean squared error of `w`, and its gradient when `grad` is given.
    pub fn loss(&self, w: &[f64], k: f64, lambda: f64, mut grad: Option<&mut [f64]>) -> f64 {
        if let Some(g) = grad.as_deref_mut() {
            g.fill(0.0);
        }
        let mut sum = 0.0;
        for i in 0..self.len() {
            let row = self.row(i);
            let e: f64 = row.iter().zip(w).map(|(&x, &w)| f64::from(x) * w).sum();
            let p = sigmoid(e, k);
            let d = p - self.target(i, k, lambda);
            sum += d * d;
            if let Some(g) = grad.as_deref_mut() {
                let c = 2.0 * d * p * (1.0 - p) / k;
                for (g, &x) in g.iter_mut().zip(row) {
                    *g += c * f64::from(x);
                }
            }
        }
        let n = self.len().max(1) as f64;
        if let Some(g) = grad {
            g.iter_mut().for_each(|g| *g /= n);
        }
        sum / n
    }
}

pub fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-e / k).exp())
}

/// The result of one side's view: 1 won, 0.5 drawn, 0 lost.
pub fn points(result: Outcome, side: Color) -> f32 {
    match result {
        Outcome::Draw => 0.5,
        Outcome::Win(c) if c == side => 1.0,
        Outcome::Win(_) => 0.0,
    }
}

/// Validation positions with their result (side to move's view) and
/// search score.
pub type Judged<G> = Vec<(G, f32, f32)>;

/// Reads the data files and hands each position to `each` with its result
/// (side to move's view), its search score, and whether it is held out
/// (its game's index is a multiple of `holdout`).
pub fn read_positions<G: Evaluation>(
    s: &TuneSettings,
    mut each: impl FnMut(G, f32, f32, bool),
) -> Result<(), LearnError> {
    let rules = G::Rules::default();
    for path in &s.data {
        let read = |error| LearnError::Read {
            path: path.clone(),
            error,
        };
        let file = std::fs::File::open(path).map_err(read)?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(read)?;
            let at = |what| LearnError::Line {
                path: path.clone(),
                line: n + 1,
                what,
            };
            let r = match parse_line(&line).map_err(|e| at(LineError::Sample(e)))? {
                Line::Position(r) => r,
                Line::Header(h) => {
                    if !h.contains(&format!("variant={} ", G::NAME)) {
                        return Err(at(LineError::OtherGame(h)));
                    }
                    continue;
                }
                Line::End { .. } => continue,
            };
            let text =
                parse_position(&r.position).map_err(|e| at(LineError::Position(Box::new(e))))?;
            let pos =
                G::from_text(&text, &rules).map_err(|e| at(LineError::Position(Box::new(e))))?;
            let result = points(r.result, pos.side_to_move());
            each(pos, result, r.score as f32, r.game % s.holdout.max(1) == 0);
        }
    }
    Ok(())
}

/// Reads the data files: the training samples, the validation samples,
/// and the validation positions themselves (for the engine's exact
/// integer evaluation).
pub fn load<G: Evaluation>(s: &TuneSettings) -> Result<(Samples, Samples, Judged<G>), LearnError> {
    let mut train = Samples {
        terms: G::TERMS,
        ..Default::default()
    };
    let mut val = Samples {
        terms: G::TERMS,
        ..Default::default()
    };
    let mut val_positions = Vec::new();
    let mut f = vec![0.0; G::TERMS];
    read_positions::<G>(s, |pos, result, score, held_out| {
        pos.features(&mut f);
        let set = if held_out {
            val_positions.push((pos, result, score));
            &mut val
        } else {
            &mut train
        };
        set.features.extend_from_slice(&f);
        set.result.push(result);
        set.score.push(score);
    })?;
    Ok((train, val, val_positions))
}

/// The `K` in `10..5000` where `loss` is lowest (golden-section search on
/// its logarithm).
pub fn best_k(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (10f64.ln(), 5000f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let f = |x: f64| loss(x.exp());
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// `K` that fits `w` best to the results.
pub fn fit_k(set: &Samples, w: &[f64]) -> f64 {
    best_k(|k| set.loss(w, k, 1.0, None))
}

/// Adam from `start` for `epochs` full passes; `log` gets the losses every
/// tenth of the way. Returns the weights of the epoch with the lowest
/// validation loss (not rounded): past it the fit learns the training
/// games' noise.
pub fn fit(
    train: &Samples,
    val: &Samples,
    start: &[f64],
    k: f64,
    s: &TuneSettings,
    mut log: impl FnMut(&str),
) -> Vec<f64> {
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v, mut g) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let every = (s.epochs / 10).max(1);
    let (mut best, mut best_loss, mut best_epoch) = (w.clone(), val.loss(&w, k, s.lambda, None), 0);
    for epoch in 1..=s.epochs {
        let l = train.loss(&w, k, s.lambda, Some(&mut g));
        for j in 0..n {
            m[j] = b1 * m[j] + (1.0 - b1) * g[j];
            v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            w[j] -= s.rate * mh / (vh.sqrt() + eps);
        }
        let vl = val.loss(&w, k, s.lambda, None);
        if vl < best_loss {
            (best, best_loss, best_epoch) = (w.clone(), vl, epoch);
        }
        if epoch % every == 0 || epoch == s.epochs {
            log(&format!(
                "epoch {epoch} train loss {l:.6} validation loss {vl:.6}"
            ));
        }
    }
    log(&format!(
        "kept epoch {best_epoch}: validation loss {best_loss:.6}"
    ));
    best
}

/// The loss of the engine's own integer evaluation with weights `w` over
/// positions with their results and scores.
pub fn exact_loss<G: Evaluation>(
    positions: &[(G, f32, f32)],
    w: &G::Weights,
    k: f64,
    lambda: f64,
) -> f64 {
    let mut sum = 0.0;
    for (pos, result, score) in positions {
        let p = sigmoid(f64::from(pos.evaluate_with(w)), k);
        let t = lambda * f64::from(*result) + (1.0 - lambda) * sigmoid(f64::from(*score), k);
        sum += (p - t) * (p - t);
    }
    sum / positions.len().max(1) as f64
}

/// What a run of the fit found.
pub struct Fitted {
    pub k: f64,
    pub terms: Vec<i32>,
    /// Validation loss of the engine's evaluation, hand-made then fitted.
    pub before: f64,
    pub after: f64,
    pub train: usize,
    pub validation: usize,
    /// The fitted weights as a weights file.
    pub file: Vec<u8>,
}

/// Loads the data, fits `K` and then the weights from the hand-made ones.
pub fn run<G: Evaluation>(
    s: &TuneSettings,
    mut log: impl FnMut(&str),
) -> Result<Fitted, LearnError> {
    let (train, val, val_positions) = load::<G>(s)?;
    if train.is_empty() || val.is_empty() {
        return Err(LearnError::TooFew {
            train: train.len(),
            validation: val.len(),
            task: "fit",
        });
    }
    log(&format!(
        "{}: {} training positions, {} validation positions, {} terms",
        G::NAME,
        train.len(),
        val.len(),
        G::TERMS
    ));
    let start: Vec<f64> = G::hand_made().iter().map(|&w| f64::from(w)).collect();
    let k = fit_k(&train, &start);
    let hand = G::parse_weights(&G::terms_file(G::hand_made()))?;
    let before = exact_loss(&val_positions, &hand, k, s.lambda);
    log(&format!(
        "K {k:.1}; hand-made: train loss {:.6} validation loss {before:.6}",
        train.loss(&start, k, s.lambda, None)
    ));
    let w = fit(&train, &val, &start, k, s, &mut log);
    let terms: Vec<i32> = w.iter().map(|&x| x.round() as i32).collect();
    let file = G::terms_file(&terms);
    let after = exact_loss(&val_positions, &G::parse_weights(&file)?, k, s.lambda);
    log(&format!(
        "fitted: validation loss {after:.6} (hand-made {before:.6})"
    ));
    for ((name, h), f) in G::term_names().iter().zip(G::hand_made()).zip(&terms) {
        log(&format!("  {name:<16} {h:>6} -> {f:>6}"));
    }
    Ok(Fitted {
        k,
        terms,
        before,
        after,
        train: train.len(),
        validation: val.len(),
        file,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::kaninariebi::KaniNariEbi;
    use crate::learn::datagen::{DatagenSettings, run as datagen};

    /// The trainers' small fixed data set: 40 Kani Nari Ebi games at 200
    /// nodes a move in a temporary file, named by settings with `epochs`
    /// and `rate`; the caller reads it, then removes `data[0]`.
    pub(crate) fn small_kani_data(name: &str, epochs: u32, rate: f64) -> TuneSettings {
        let out = std::env::temp_dir().join(format!("koma-{name}-{}-data.txt", std::process::id()));
        let _ = std::fs::remove_file(&out);
        let d = DatagenSettings {
            games: 40,
            nodes: 200,
            random_plies: 6,
            seed: 3,
            max_plies: 200,
            threads: 2,
            out: out.clone(),
        };
        datagen::<KaniNariEbi>(&d, |_| {}).unwrap();
        TuneSettings {
            data: vec![out],
            epochs,
            lambda: 1.0,
            rate,
            holdout: 5,
        }
    }

    #[test]
    fn fitting_lowers_the_loss_on_a_small_fixed_data_set() {
        let s = small_kani_data("tune", 200, 2.0);
        let (train, _, _) = load::<KaniNariEbi>(&s).unwrap();
        std::fs::remove_file(&s.data[0]).unwrap();
        let start: Vec<f64> = KaniNariEbi::hand_made().iter().map(|&w| w.into()).collect();
        let k = fit_k(&train, &start);
        let before = train.loss(&start, k, 1.0, None);
        let w = fit(&train, &train, &start, k, &s, |_| {});
        let after = train.loss(&w, k, 1.0, None);
        assert!(after < before * 0.99, "{before} -> {after}");
        // The gradient is the loss's: a small step along it changes the
        // loss by the step times the gradient.
        let mut g = vec![0.0; start.len()];
        let l0 = train.loss(&w, k, 0.5, Some(&mut g));
        let step: Vec<f64> = w.iter().zip(&g).map(|(w, g)| w - 1e-3 * g).collect();
        let l1 = train.loss(&step, k, 0.5, None);
        let predicted = 1e-3 * g.iter().map(|g| g * g).sum::<f64>();
        assert!(((l0 - l1) - predicted).abs() <= 0.05 * predicted + 1e-12);
    }
}
