//! Hasami Shogi's line in the registry: its entry, with weights to train.

use super::{Hasami, PRESENTATION, SUITES};
use crate::games::entry::{Encoding, EvaluationVisitor, GameEntry, Registered};

/// Pawns only, nothing in hand, no promotion, drop or pass.
pub const ENCODING: Encoding = Encoding {
    kinds: &[('P', false)],
    hand: &[],
    counters: 1,
    promote: false,
    bond: false,
    drops: &[],
    pass: false,
};

impl Registered for Hasami {
    const ENTRY: GameEntry = GameEntry::of::<Hasami>(&PRESENTATION, &ENCODING).with_suites(SUITES);

    fn visit_evaluation<V: EvaluationVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self>())
    }
}
