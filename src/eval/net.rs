//! The small network, in integers: one-hot inputs (a game lists the active
//! ones for each side's view), one hidden layer of `H` units per view with
//! a clipped ReLU, and one output over both views (the side to move's
//! first). Inputs are few on these boards, so the hidden layer is summed
//! afresh at each evaluation.
//!
//! Quantisation: input weights and biases are the float ones times `QA`,
//! output weights times `QB`, the output bias times `QA * QB`; the output
//! in centipawns is the sum times `SCALE / (QA * QB)`.

/// Scale of the input layer: a hidden unit is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 256;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// The largest float weight: clipping to it in training keeps every
/// quantised weight in an `i16` and sums of up to 64 inputs from wrapping.
pub const WEIGHT_CLIP: f32 = 1.98;

#[derive(Clone, Debug, PartialEq)]
pub struct Network<const IN: usize, const H: usize> {
    /// `input[i]`: what input `i` adds to each hidden unit.
    pub input: [[i16; H]; IN],
    pub bias: [i16; H],
    /// `output[0]` weighs the side to move's hidden units, `output[1]` the
    /// other side's.
    pub output: [[i16; H]; 2],
    pub output_bias: i32,
}

/// The active inputs of one position from each side's view: the side to
/// move's first. Fixed capacity, filled without allocating.
pub struct Active<const CAP: usize> {
    pub views: [[u16; CAP]; 2],
    pub len: [usize; 2],
}

impl<const CAP: usize> Default for Active<CAP> {
    fn default() -> Self {
        Active {
            views: [[0; CAP]; 2],
            len: [0; 2],
        }
    }
}

impl<const CAP: usize> Active<CAP> {
    /// Input `i` is on in view `v` (0: the side to move).
    #[inline(always)]
    pub fn push(&mut self, v: usize, i: usize) {
        let n = self.len[v];
        if n < CAP {
            self.views[v][n] = i as u16;
            self.len[v] = n + 1;
        }
    }

    pub fn view(&self, v: usize) -> &[u16] {
        &self.views[v][..self.len[v]]
    }
}

impl<const IN: usize, const H: usize> Network<IN, H> {
    /// Both views' hidden layers before any input (the side to move's
    /// first): a game that finds its inputs on its own board adds them with
    /// `add` and ends with `output`, listing nothing.
    #[inline(always)]
    pub fn start(&self) -> [[i16; H]; 2] {
        [self.bias; 2]
    }

    /// Input `i` is on in the view whose hidden layer is `acc`.
    #[inline(always)]
    pub fn add(&self, acc: &mut [i16; H], i: usize) {
        if let Some(w) = self.input.get(i) {
            for (a, &w) in acc.iter_mut().zip(w) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// `add` of an input the caller knows is in the table: one past it
    /// panics instead of being skipped, so that a loop of these keeps its
    /// sums in registers (a skip is a second path they must merge from).
    #[inline(always)]
    pub fn add_known(&self, acc: &mut [i16; H], i: usize) {
        for (a, &w) in acc.iter_mut().zip(&self.input[i]) {
            *a = a.wrapping_add(w);
        }
    }

    /// One view's share of the output: its hidden layer clipped, times its
    /// output weights.
    #[inline(always)]
    fn view_output(acc: &[i16; H], out: &[i16; H]) -> i32 {
        let mut s: i32 = 0;
        for (&a, &w) in acc.iter().zip(out) {
            let h = i32::from(a).clamp(0, QA);
            s = s.wrapping_add(h * i32::from(w));
        }
        s
    }

    /// The output sum in centipawns.
    #[inline(always)]
    fn scaled(sum: i32) -> i32 {
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation in centipawns of both views' hidden layers, before
    /// clipping.
    #[inline(always)]
    pub fn output(&self, hidden: &[[i16; H]; 2]) -> i32 {
        let mut sum = self.output_bias;
        for (acc, out) in hidden.iter().zip(&self.output) {
            sum = sum.wrapping_add(Self::view_output(acc, out));
        }
        Self::scaled(sum)
    }

    /// The hidden layer of one view, before clipping.
    #[inline(always)]
    fn hidden(&self, active: &[u16]) -> [i16; H] {
        let mut acc = self.bias;
        for &i in active {
            self.add(&mut acc, usize::from(i));
        }
        acc
    }

    /// The evaluation in centipawns from the side to move's view.
    #[inline]
    pub fn evaluate<const CAP: usize>(&self, active: &Active<CAP>) -> i32 {
        let mut sum = self.output_bias;
        for v in 0..2 {
            let acc = self.hidden(active.view(v));
            sum = sum.wrapping_add(Self::view_output(&acc, &self.output[v]));
        }
        Self::scaled(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_sums_both_views_clipped_and_scaled() {
        let net = Network::<3, 2> {
            input: [[100, -50], [300, 20], [-400, 10]],
            bias: [10, 0],
            output: [[64, 32], [-64, 0]],
            output_bias: QA * QB / 4,
        };
        let mut a = Active::<4>::default();
        a.push(0, 0);
        a.push(0, 1);
        a.push(1, 2);
        // Own view: hidden (410 -> 255, -30 -> 0); other: (-390 -> 0, 10).
        let sum = 255 * 64 + QA * QB / 4;
        assert_eq!(
            net.evaluate(&a),
            (sum as i64 * SCALE as i64 / (QA * QB) as i64) as i32
        );
    }

    #[test]
    fn inputs_past_the_capacity_or_the_table_are_ignored() {
        let mut a = Active::<1>::default();
        a.push(0, 7);
        a.push(0, 8);
        assert_eq!(a.view(0), &[7]);
        let net = Network::<1, 1> {
            input: [[1]],
            bias: [0],
            output: [[QB as i16], [0]],
            output_bias: 0,
        };
        // Input 7 does not exist: the hidden unit stays at its bias.
        assert_eq!(net.evaluate(&a), 0);
    }
}
