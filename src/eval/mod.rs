//! What the games' evaluations share: an evaluation written once as terms
//! (counts) times weights, summed by the engine and read as features by the
//! trainer; the weights in force for each game (built in, or loaded from a
//! file by the `EvalFile` option); the weights file; the small network.

pub mod file;
pub mod net;
pub mod slot;

pub use file::WeightsError;
pub use slot::{Slot, TooManyWeights};

use crate::core::Game;
use std::path::Path;

/// A game's evaluation as the trainer and the `EvalFile` option see it.
pub trait Evaluation: Game {
    /// The evaluation's terms (weights of the file).
    const TERMS: usize;
    /// The network's inputs per view and hidden units per view.
    const INPUTS: usize;
    const HIDDEN: usize;
    /// The terms' names, in file order.
    fn term_names() -> &'static [&'static str];
    /// The weights before any fitting: where fitting starts.
    fn hand_made() -> &'static [i32];
    /// The terms in force now.
    fn terms_in_force() -> &'static [i32];
    /// The position's terms as features, one per weight (`out` has
    /// `TERMS` entries): the terms' evaluation is their dot product with
    /// the weights, up to rounding.
    fn features(&self, out: &mut [f32]);
    /// The network's active inputs of each view, the side to move's first.
    fn net_inputs(&self, views: &mut [Vec<u16>; 2]);
    /// Weights as the engine holds them.
    type Weights: Send + Sync + 'static;
    /// Weights from a file's bytes, checked whole.
    fn parse_weights(bytes: &[u8]) -> Result<Self::Weights, WeightsError>;
    /// The static evaluation with the given weights instead of those in
    /// force.
    fn evaluate_with(&self, w: &Self::Weights) -> i32;
    /// The weights of a file, checked whole (the error says what is wrong
    /// with the file, without naming it).
    fn read_weights(path: &Path) -> Result<Self::Weights, WeightsError>;
    /// Puts weights in force for this game; refused (the weights in force
    /// then stay) past `slot::MAX_LOADED` distinct sets.
    fn put_weights(w: Self::Weights) -> Result<(), TooManyWeights>;
    /// Puts the built-in weights back in force.
    fn reset_weights();
    /// A weights file of these terms (`TERMS` of them) and no network.
    fn terms_file(terms: &[i32]) -> Vec<u8>;
}

/// The weight in force of having the move (every game's `tempo` term).
pub fn tempo_weight<G: Evaluation>() -> i32 {
    G::term_names()
        .iter()
        .position(|&n| n == "tempo")
        .map_or(0, |i| G::terms_in_force()[i])
}

/// Where an evaluation puts its terms. The engine sums them with its
/// integer weights (`Sum`); the trainer reads the counts (`Dense`), so its
/// gradient is exactly the evaluation's.
pub trait Terms {
    /// Term `term` counted `count` times (negative for the opponent's).
    fn add(&mut self, term: usize, count: i32);
    /// Terms whose weighted sum is divided by `div` (rounding toward zero,
    /// as integer division does) before it counts: weights finer than a
    /// centipawn.
    fn scaled(&mut self, div: i32, f: impl FnOnce(&mut Self));
}

/// Every evaluation stays within this many centipawns of zero, far inside
/// the search's mate scores: weights loaded from a file (`EvalFile`) must
/// not be able to fake a mate or overflow the search's arithmetic.
pub const EVAL_LIMIT: i32 = 20_000;

/// A weights file's terms and output bias stay within this many
/// centipawns, so that their sum over a position cannot overflow before
/// `bounded`.
pub const MAX_WEIGHT: i32 = 100_000;

/// The evaluation, clamped to `EVAL_LIMIT`.
#[inline(always)]
pub fn bounded(total: i32) -> i32 {
    total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The weighted sum of the terms, in centipawns.
pub struct Sum<'w, const N: usize> {
    weights: &'w [i32; N],
    pub total: i32,
}

impl<'w, const N: usize> Sum<'w, N> {
    #[inline(always)]
    pub fn new(weights: &'w [i32; N]) -> Self {
        Sum { weights, total: 0 }
    }
}

impl<const N: usize> Terms for Sum<'_, N> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total = self
            .total
            .wrapping_add(self.weights[term].wrapping_mul(count));
    }

    #[inline(always)]
    fn scaled(&mut self, div: i32, f: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.total, 0);
        f(self);
        self.total = outer.wrapping_add(self.total / div);
    }
}

/// The terms as one real-valued feature per weight: the evaluation is
/// their dot product with the weights (up to the rounding of `scaled`).
pub struct Dense<const N: usize> {
    pub features: [f32; N],
    scale: f32,
}

impl<const N: usize> Default for Dense<N> {
    fn default() -> Self {
        Dense {
            features: [0.0; N],
            scale: 1.0,
        }
    }
}

impl<const N: usize> Terms for Dense<N> {
    fn add(&mut self, term: usize, count: i32) {
        self.features[term] += count as f32 * self.scale;
    }

    fn scaled(&mut self, div: i32, f: impl FnOnce(&mut Self)) {
        let outer = self.scale;
        self.scale = outer / div as f32;
        f(self);
        self.scale = outer;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example<T: Terms>(t: &mut T) {
        t.add(0, 3);
        t.scaled(64, |t| {
            t.add(1, 10);
            t.add(2, -1);
        });
    }

    #[test]
    fn the_sum_is_the_dot_product_of_the_features_up_to_rounding() {
        let w = [7, 100, 50];
        let mut s = Sum::new(&w);
        example(&mut s);
        // 21 + (1000 - 50) / 64 = 21 + 14 (truncated)
        assert_eq!(s.total, 35);
        let mut d = Dense::<3>::default();
        example(&mut d);
        let dot: f32 = d.features.iter().zip(w).map(|(f, w)| f * w as f32).sum();
        assert!((dot - (21.0 + 950.0 / 64.0)).abs() < 1e-4);
        assert!((dot - s.total as f32).abs() < 1.0);
    }
}

/// `Evaluation` for a game whose `eval` module has the usual items
/// (`TERMS`, `NAMES`, `HAND_MADE`, `INPUTS`, `HIDDEN`, `Weights`,
/// `WEIGHTS`, `terms`, `inputs`, `evaluate_with`).
#[macro_export]
macro_rules! impl_evaluation {
    ($game:ty, $eval:path) => {
        const _: () = {
            use $eval as e;
            impl $crate::eval::Evaluation for $game {
                const TERMS: usize = e::TERMS;
                const INPUTS: usize = e::INPUTS;
                const HIDDEN: usize = e::HIDDEN;
                type Weights = e::Weights;
                fn term_names() -> &'static [&'static str] {
                    &e::NAMES
                }
                fn hand_made() -> &'static [i32] {
                    &e::HAND_MADE
                }
                fn terms_in_force() -> &'static [i32] {
                    &e::WEIGHTS.get().terms
                }
                fn features(&self, out: &mut [f32]) {
                    let mut d = $crate::eval::Dense::<{ e::TERMS }>::default();
                    e::terms(self, &mut d);
                    out.copy_from_slice(&d.features);
                }
                fn net_inputs(&self, views: &mut [Vec<u16>; 2]) {
                    let a = e::inputs(self);
                    for (v, out) in views.iter_mut().enumerate() {
                        out.clear();
                        out.extend_from_slice(a.view(v));
                    }
                }
                fn parse_weights(
                    bytes: &[u8],
                ) -> Result<e::Weights, $crate::eval::file::WeightsError> {
                    e::Weights::from_bytes(<$game as $crate::core::Game>::NAME, bytes)
                }
                fn evaluate_with(&self, w: &e::Weights) -> i32 {
                    e::evaluate_with(self, w)
                }
                fn read_weights(
                    path: &std::path::Path,
                ) -> Result<e::Weights, $crate::eval::file::WeightsError> {
                    e::Weights::load(<$game as $crate::core::Game>::NAME, path)
                }
                fn put_weights(w: e::Weights) -> Result<(), $crate::eval::slot::TooManyWeights> {
                    e::WEIGHTS.set(w)
                }
                fn reset_weights() {
                    e::WEIGHTS.reset()
                }
                fn terms_file(terms: &[i32]) -> Vec<u8> {
                    let mut t = [0; e::TERMS];
                    t.copy_from_slice(terms);
                    e::Weights::terms_only(t).to_bytes(<$game as $crate::core::Game>::NAME)
                }
            }
        };
    };
}

#[cfg(test)]
pub(crate) mod built_in_tests {
    use super::Evaluation;
    use crate::games::{hasami, kaninariebi, nana, negaeri};

    fn check<G: Evaluation>(bytes: &[u8]) {
        G::parse_weights(bytes).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
        assert_eq!(G::term_names().len(), G::TERMS);
        assert_eq!(G::hand_made().len(), G::TERMS);
    }

    /// Positions of random games from the start, `games` games.
    pub(crate) fn playout_positions<G: crate::core::Game>(games: usize, seed: u64) -> Vec<G> {
        let mut rng = seed;
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = G::start(&Default::default());
            for _ in 0..200 {
                if crate::core::game_status(&pos).is_some() {
                    break;
                }
                out.push(pos.clone());
                let mut moves = G::MoveList::default();
                pos.generate(&mut moves);
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = moves[((rng >> 33) % moves.len() as u64) as usize];
                pos = pos.play(m);
            }
        }
        out
    }

    /// The terms' evaluation (without the network, if the game has one)
    /// is the features' dot product with the terms in force, within the
    /// rounding of its scaled groups (one centipawn each).
    fn features_match<G: Evaluation>(rounding: f32) {
        let mut f = vec![0.0; G::TERMS];
        let terms = G::parse_weights(&G::terms_file(G::terms_in_force())).unwrap();
        for pos in playout_positions::<G>(30, 7) {
            pos.features(&mut f);
            let dot: f32 = f
                .iter()
                .zip(G::terms_in_force())
                .map(|(x, &w)| x * w as f32)
                .sum();
            let e = pos.evaluate_with(&terms) as f32;
            assert!(
                (dot - e).abs() <= rounding + 1e-3,
                "{}: {} evaluates {e}, features give {dot}",
                G::NAME,
                pos.to_text()
            );
        }
    }

    #[test]
    fn each_evaluation_is_its_features_times_its_weights() {
        features_match::<kaninariebi::KaniNariEbi>(0.0);
        features_match::<hasami::Hasami>(1.0);
        features_match::<nana::Nana>(0.0);
        features_match::<negaeri::Negaeri>(2.0);
    }

    #[test]
    fn the_built_in_weights_files_are_whole() {
        check::<kaninariebi::KaniNariEbi>(include_bytes!("../games/kaninariebi/weights.bin"));
        check::<hasami::Hasami>(include_bytes!("../games/hasami/weights.bin"));
        check::<nana::Nana>(include_bytes!("../games/nana/weights.bin"));
        check::<negaeri::Negaeri>(include_bytes!("../games/negaeri/weights.bin"));
    }
}
