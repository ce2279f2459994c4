//! `koma tune --net`: trains a game's small network (`eval::net`) on
//! self-play data, on top of the terms in force: the evaluation is the
//! terms' sum plus the network's output, fitted to the same target as the
//! terms' fit (`tune`), by minibatch Adam over the float network, then
//! quantised to the integers the engine reads.

use super::error::LearnError;
use super::tune::{TuneSettings, best_k, read_positions, sigmoid};
use crate::eval::Evaluation;
use crate::eval::file::{RawNet, write};
use crate::eval::net::{QA, QB, SCALE, WEIGHT_CLIP};

/// Positions as the network sees them.
#[derive(Default)]
pub struct NetSamples {
    /// Every position's active inputs, view after view.
    inputs: Vec<u16>,
    /// Where each position's views start in `inputs`: position `i`'s first
    /// view is `starts[2i]..starts[2i + 1]`, its second up to
    /// `starts[2i + 2]`.
    starts: Vec<usize>,
    /// The terms' evaluation in centipawns (the weights in force).
    pub base: Vec<f32>,
    /// The hand-made weights' evaluation (for `K`).
    hand: Vec<f32>,
    pub result: Vec<f32>,
    pub score: Vec<f32>,
}

impl NetSamples {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    fn push(&mut self, views: &[Vec<u16>; 2], base: i32, hand: i32, result: f32, score: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for v in views {
            self.inputs.extend_from_slice(v);
            self.starts.push(self.inputs.len());
        }
        self.base.push(base as f32);
        self.hand.push(hand as f32);
        self.result.push(result);
        self.score.push(score);
    }

    pub fn views(&self, i: usize) -> [&[u16]; 2] {
        let s = &self.starts[2 * i..2 * i + 3];
        [&self.inputs[s[0]..s[1]], &self.inputs[s[1]..s[2]]]
    }

    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        lambda * f64::from(self.result[i]) + (1.0 - lambda) * sigmoid(f64::from(self.score[i]), k)
    }

    /// The loss of the hand-made evaluation with the results only: what
    /// `K` is fitted to, as in the terms' fit.
    fn hand_loss(&self, k: f64) -> f64 {
        let sum: f64 = (0..self.len())
            .map(|i| (sigmoid(f64::from(self.hand[i]), k) - f64::from(self.result[i])).powi(2))
            .sum();
        sum / self.len().max(1) as f64
    }
}

/// The float network: parameters in one vector (input weights input by
/// input, hidden biases, output weights of the side to move's view then
/// the other's, output bias) so that the optimiser sees one list. A hidden
/// unit is clipped to `0..=1` (the integer network's `0..=QA`); the output
/// times `SCALE` is centipawns.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub inputs: usize,
    pub hidden: usize,
    pub p: Vec<f64>,
}

/// The output bias stays within this (in output units, 600 centipawns) so
/// that its quantised form stays inside the file's ±100000 limit.
const OUTPUT_BIAS_CLIP: f64 = 1.5;

/// SplitMix64 step: the network's starting weights and the batches' order.
fn next(state: &mut u64) -> u64 {
    let (s, v) = crate::core::zobrist::splitmix(*state);
    *state = s;
    v
}

/// Uniform in `-1..1`.
fn uniform(state: &mut u64) -> f64 {
    (next(state) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

impl FloatNet {
    /// A network of random small weights (deterministic for `seed`):
    /// hidden units start in their unclipped range, the output near zero.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> Self {
        let mut s = seed;
        let mut n = FloatNet {
            inputs,
            hidden,
            p: vec![0.0; inputs * hidden + 3 * hidden + 1],
        };
        for w in n.p[..inputs * hidden].iter_mut() {
            *w = 0.15 * uniform(&mut s);
        }
        let b = n.bias_at();
        n.p[b..b + hidden].fill(0.5);
        let o = n.output_at();
        for w in n.p[o..o + 2 * hidden].iter_mut() {
            *w = 0.05 * uniform(&mut s);
        }
        n
    }

    fn bias_at(&self) -> usize {
        self.inputs * self.hidden
    }

    fn output_at(&self) -> usize {
        self.bias_at() + self.hidden
    }

    fn output_bias_at(&self) -> usize {
        self.output_at() + 2 * self.hidden
    }

    /// One view's hidden units before clipping.
    fn accumulate(&self, active: &[u16], acc: &mut [f64]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.p[self.bias_at()..self.bias_at() + h]);
        for &i in active {
            let i = usize::from(i);
            if i < self.inputs {
                for (a, w) in acc.iter_mut().zip(&self.p[i * h..(i + 1) * h]) {
                    *a += w;
                }
            }
        }
    }

    /// The output (times `SCALE`: centipawns) and each view's hidden units
    /// before clipping (`acc`: the first view's, then the second's).
    fn forward(&self, views: [&[u16]; 2], acc: &mut [f64]) -> f64 {
        let h = self.hidden;
        let mut out = self.p[self.output_bias_at()];
        for (v, active) in views.iter().enumerate() {
            let a = &mut acc[v * h..(v + 1) * h];
            self.accumulate(active, a);
            let o = &self.p[self.output_at() + v * h..self.output_at() + (v + 1) * h];
            out += a
                .iter()
                .zip(o)
                .map(|(a, o)| a.clamp(0.0, 1.0) * o)
                .sum::<f64>();
        }
        out
    }

    /// The network's output in centipawns.
    pub fn evaluate(&self, views: [&[u16]; 2]) -> f64 {
        let mut acc = vec![0.0; 2 * self.hidden];
        self.forward(views, &mut acc) * f64::from(SCALE)
    }

    /// Adds `d` (the loss's derivative by the output) times the output's
    /// gradient to `grad`.
    fn backward(&self, views: [&[u16]; 2], acc: &[f64], d: f64, grad: &mut [f64]) {
        let h = self.hidden;
        grad[self.output_bias_at()] += d;
        for (v, active) in views.iter().enumerate() {
            let a = &acc[v * h..(v + 1) * h];
            let o_at = self.output_at() + v * h;
            for j in 0..h {
                grad[o_at + j] += d * a[j].clamp(0.0, 1.0);
                if a[j] > 0.0 && a[j] < 1.0 {
                    let dh = d * self.p[o_at + j];
                    grad[self.bias_at() + j] += dh;
                    for &i in *active {
                        let i = usize::from(i);
                        if i < self.inputs {
                            grad[i * h + j] += dh;
                        }
                    }
                }
            }
        }
    }

    /// Keeps every weight where its quantised form fits (`WEIGHT_CLIP`).
    fn clip(&mut self) {
        let ob = self.output_bias_at();
        for w in self.p[..ob].iter_mut() {
            *w = w.clamp(-f64::from(WEIGHT_CLIP), f64::from(WEIGHT_CLIP));
        }
        self.p[ob] = self.p[ob].clamp(-OUTPUT_BIAS_CLIP, OUTPUT_BIAS_CLIP);
    }

    /// The mean squared error over `set` (evaluation: the terms' plus the
    /// network's) and, when `grad` is given, its gradient over the
    /// positions `only` (all when `None`).
    pub fn loss(
        &self,
        set: &NetSamples,
        k: f64,
        lambda: f64,
        only: Option<&[usize]>,
        mut grad: Option<&mut [f64]>,
    ) -> f64 {
        let mut acc = vec![0.0; 2 * self.hidden];
        if let Some(g) = grad.as_deref_mut() {
            g.fill(0.0);
        }
        let all: Vec<usize>;
        let idx = match only {
            Some(o) => o,
            None => {
                all = (0..set.len()).collect();
                &all
            }
        };
        let mut sum = 0.0;
        for &i in idx {
            let views = set.views(i);
            let out = self.forward(views, &mut acc);
            let e = f64::from(set.base[i]) + out * f64::from(SCALE);
            let p = sigmoid(e, k);
            let diff = p - set.target(i, k, lambda);
            sum += diff * diff;
            if let Some(g) = grad.as_deref_mut() {
                let d = 2.0 * diff * p * (1.0 - p) * f64::from(SCALE) / k;
                self.backward(views, &acc, d, g);
            }
        }
        let n = idx.len().max(1) as f64;
        if let Some(g) = grad {
            g.iter_mut().for_each(|g| *g /= n);
        }
        sum / n
    }

    /// The integer network of the weights file: each weight times its
    /// scale, rounded.
    pub fn quantise(&self) -> RawNet {
        let q = |x: f64, s: i32| (x * f64::from(s)).round() as i16;
        let (b, o, ob) = (self.bias_at(), self.output_at(), self.output_bias_at());
        RawNet {
            inputs: self.inputs,
            hidden: self.hidden,
            input: self.p[..b].iter().map(|&w| q(w, QA)).collect(),
            bias: self.p[b..o].iter().map(|&w| q(w, QA)).collect(),
            output: self.p[o..ob].iter().map(|&w| q(w, QB)).collect(),
            output_bias: (self.p[ob] * f64::from(QA * QB)).round() as i32,
        }
    }
}

/// Minibatch Adam from `net` for `epochs` passes over `train` in a
/// shuffled order (deterministic for `seed`); `log` gets both losses every
/// tenth of the way. Returns the network of the epoch with the lowest
/// validation loss.
#[allow(clippy::too_many_arguments)]
pub fn fit(
    mut net: FloatNet,
    train: &NetSamples,
    val: &NetSamples,
    k: f64,
    s: &TuneSettings,
    batch: usize,
    seed: u64,
    mut log: impl FnMut(&str),
) -> FloatNet {
    let n = net.p.len();
    let (mut m, mut v, mut g) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = seed ^ 0x5eed;
    let mut step = 0i32;
    let every = (s.epochs / 10).max(1);
    let mut best_loss = net.loss(val, k, s.lambda, None, None);
    let (mut best, mut best_epoch) = (net.clone(), 0);
    for epoch in 1..=s.epochs {
        for i in (1..order.len()).rev() {
            let j = (next(&mut rng) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for chunk in order.chunks(batch.max(1)) {
            net.loss(train, k, s.lambda, Some(chunk), Some(&mut g));
            step = step.saturating_add(1);
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for j in 0..n {
                m[j] = b1 * m[j] + (1.0 - b1) * g[j];
                v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
                net.p[j] -= s.rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
            net.clip();
        }
        let vl = net.loss(val, k, s.lambda, None, None);
        if vl < best_loss {
            (best, best_loss, best_epoch) = (net.clone(), vl, epoch);
        }
        if epoch % every == 0 || epoch == s.epochs {
            let tl = net.loss(train, k, s.lambda, None, None);
            log(&format!(
                "epoch {epoch} train loss {tl:.6} validation loss {vl:.6}"
            ));
        }
    }
    log(&format!(
        "kept epoch {best_epoch}: validation loss {best_loss:.6}"
    ));
    best
}

/// Reads the data: training and validation samples, and the validation
/// positions with their result and score (for the engine's own integer
/// evaluation).
pub fn load<G: Evaluation>(
    s: &TuneSettings,
) -> Result<(NetSamples, NetSamples, super::tune::Judged<G>), LearnError> {
    let terms = G::parse_weights(&G::terms_file(G::terms_in_force()))?;
    let hand = G::parse_weights(&G::terms_file(G::hand_made()))?;
    let (mut train, mut val, mut positions) =
        (NetSamples::default(), NetSamples::default(), vec![]);
    let mut views = [Vec::new(), Vec::new()];
    read_positions::<G>(s, |pos, result, score, held_out| {
        pos.net_inputs(&mut views);
        let (b, h) = (pos.evaluate_with(&terms), pos.evaluate_with(&hand));
        if held_out {
            val.push(&views, b, h, result, score);
            positions.push((pos, result, score));
        } else {
            train.push(&views, b, h, result, score);
        }
    })?;
    Ok((train, val, positions))
}

/// What a run of the network's training found.
pub struct Trained {
    pub k: f64,
    /// Validation loss of the engine's evaluation: the terms in force
    /// alone, then with the network.
    pub before: f64,
    pub after: f64,
    pub train: usize,
    pub validation: usize,
    /// The terms in force and the network, as a weights file.
    pub file: Vec<u8>,
}

/// Loads the data, fits `K` as the terms' fit does, trains the network on
/// top of the terms in force and quantises it.
pub fn run<G: Evaluation>(
    s: &TuneSettings,
    seed: u64,
    mut log: impl FnMut(&str),
) -> Result<Trained, LearnError> {
    let (train, val, val_positions) = load::<G>(s)?;
    if train.is_empty() || val.is_empty() {
        return Err(LearnError::TooFew {
            train: train.len(),
            validation: val.len(),
            task: "train",
        });
    }
    log(&format!(
        "{}: {} training positions, {} validation positions; network {} inputs x {} hidden per view",
        G::NAME,
        train.len(),
        val.len(),
        G::INPUTS,
        G::HIDDEN
    ));
    let k = best_k(|k| train.hand_loss(k));
    let terms = G::parse_weights(&G::terms_file(G::terms_in_force()))?;
    let before = super::tune::exact_loss(&val_positions, &terms, k, s.lambda);
    log(&format!(
        "K {k:.1}; the terms in force alone: validation loss {before:.6}"
    ));
    let net = FloatNet::new(G::INPUTS, G::HIDDEN, seed);
    let net = fit(net, &train, &val, k, s, BATCH, seed, &mut log);
    let file = write(G::NAME, G::terms_in_force(), Some(&net.quantise()));
    let w = G::parse_weights(&file)?;
    let after = super::tune::exact_loss(&val_positions, &w, k, s.lambda);
    let (mut worst, mut total) = (0f64, 0f64);
    for (i, (pos, _, _)) in val_positions.iter().enumerate() {
        let float = f64::from(val.base[i]) + net.evaluate(val.views(i));
        let float = float.clamp(
            -f64::from(crate::eval::EVAL_LIMIT),
            f64::from(crate::eval::EVAL_LIMIT),
        );
        let d = (f64::from(pos.evaluate_with(&w)) - float).abs();
        worst = worst.max(d);
        total += d;
    }
    log(&format!(
        "quantised: validation loss {after:.6} (terms alone {before:.6}); integer minus float evaluation: mean {:.2} cp, largest {worst:.1} cp",
        total / val_positions.len() as f64
    ));
    Ok(Trained {
        k,
        before,
        after,
        train: train.len(),
        validation: val.len(),
        file,
    })
}

/// Positions per Adam step.
pub const BATCH: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::built_in_tests::playout_positions;
    use crate::games::{hasami, kaninariebi::KaniNariEbi, nana, negaeri};
    use crate::learn::tune::tests::small_kani_data;

    #[test]
    fn training_the_network_lowers_the_loss_on_a_small_fixed_data_set() {
        let s = small_kani_data("net", 20, 0.003);
        let (train, _, _) = load::<KaniNariEbi>(&s).unwrap();
        std::fs::remove_file(&s.data[0]).unwrap();
        let k = best_k(|k| train.hand_loss(k));
        // The terms alone: a network whose output is zero.
        let mut zero = FloatNet::new(KaniNariEbi::INPUTS, KaniNariEbi::HIDDEN, 1);
        let o = zero.output_at();
        zero.p[o..].fill(0.0);
        let before = zero.loss(&train, k, 1.0, None, None);
        let net = fit(
            FloatNet::new(KaniNariEbi::INPUTS, KaniNariEbi::HIDDEN, 1),
            &train,
            &train,
            k,
            &s,
            32,
            1,
            |_| {},
        );
        let after = net.loss(&train, k, 1.0, None, None);
        assert!(after < before * 0.95, "{before} -> {after}");
        // The gradient is the loss's: a small step along it changes the
        // loss by the step times the gradient's square.
        let mut g = vec![0.0; net.p.len()];
        let l0 = net.loss(&train, k, 0.5, None, Some(&mut g));
        let mut stepped = net.clone();
        for (p, g) in stepped.p.iter_mut().zip(&g) {
            *p -= 1e-4 * g;
        }
        let l1 = stepped.loss(&train, k, 0.5, None, None);
        let predicted = 1e-4 * g.iter().map(|g| g * g).sum::<f64>();
        assert!(
            ((l0 - l1) - predicted).abs() <= 0.05 * predicted,
            "{} vs {predicted}",
            l0 - l1
        );
    }

    /// The network's part of the engine's evaluation with weights `file`.
    fn integer_net<G: Evaluation>(pos: &G, with: &G::Weights, without: &G::Weights) -> f64 {
        f64::from(pos.evaluate_with(with) - pos.evaluate_with(without))
    }

    /// The largest difference rounding can make between the integer
    /// network `q` and the float one, in centipawns, for a position of
    /// `active` inputs per view: each hidden unit's sum is off by at most
    /// half a unit per input and for the bias, each output weight by half
    /// a unit, the output bias by half, and the final division truncates.
    fn rounding_bound(q: &RawNet, active: [usize; 2]) -> f64 {
        let h = q.hidden;
        let mut sum = 0.5;
        for (v, &k) in active.iter().enumerate() {
            for &o in &q.output[v * h..(v + 1) * h] {
                sum += f64::from(o).abs() * 0.5 * (k as f64 + 1.0) + 0.5 * f64::from(QA);
            }
        }
        sum * f64::from(SCALE) / f64::from(QA * QB) + 1.0
    }

    fn integer_matches_float<G: Evaluation>() {
        let mut net = FloatNet::new(G::INPUTS, G::HIDDEN, 11);
        // Output weights of a trained network's size, so that the sum
        // means something.
        let o = net.output_at();
        let mut s = 5;
        for w in net.p[o..].iter_mut() {
            *w = 0.6 * uniform(&mut s);
        }
        let q = net.quantise();
        let with = G::parse_weights(&write(G::NAME, G::terms_in_force(), Some(&q))).unwrap();
        let without = G::parse_weights(&G::terms_file(G::terms_in_force())).unwrap();
        // The same network with the integer weights, in floats: equal but
        // for the final truncation.
        let mut exact = net.clone();
        let (b, ob) = (exact.bias_at(), exact.output_bias_at());
        for (j, p) in exact.p.iter_mut().enumerate() {
            *p = if j < o {
                f64::from(if j < b { q.input[j] } else { q.bias[j - b] }) / f64::from(QA)
            } else if j < ob {
                f64::from(q.output[j - o]) / f64::from(QB)
            } else {
                f64::from(q.output_bias) / f64::from(QA * QB)
            };
        }
        let mut views = [Vec::new(), Vec::new()];
        let (mut total, mut n) = (0.0, 0);
        for pos in playout_positions::<G>(20, 3) {
            pos.net_inputs(&mut views);
            let v = [&views[0][..], &views[1][..]];
            let int = integer_net(&pos, &with, &without);
            let dequantised = exact.evaluate(v);
            assert!(
                (int - dequantised).abs() <= 1.0,
                "{}: {} integer {int}, same weights in floats {dequantised}",
                G::NAME,
                pos.to_text()
            );
            let float = net.evaluate(v);
            let bound = rounding_bound(&q, [views[0].len(), views[1].len()]);
            assert!(
                (int - float).abs() <= bound,
                "{}: {} integer {int}, float {float}, bound {bound}",
                G::NAME,
                pos.to_text()
            );
            total += (int - float).abs();
            n += 1;
        }
        // In practice the rounding errors mostly cancel.
        let mean = total / f64::from(n);
        eprintln!("{}: mean difference {mean:.2} cp", G::NAME);
        assert!(mean <= 8.0, "{}: mean difference {mean} cp", G::NAME);
    }

    #[test]
    fn the_integer_network_equals_the_float_one_within_its_rounding() {
        integer_matches_float::<KaniNariEbi>();
        integer_matches_float::<hasami::Hasami>();
        integer_matches_float::<nana::Nana>();
        integer_matches_float::<negaeri::Negaeri>();
    }
}
