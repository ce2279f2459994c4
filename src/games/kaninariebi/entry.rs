//! Kani Nari Ebi's line in the registry: its entry, with weights to train
//! and endgame tables by material.

use super::{KaniNariEbi, PRESENTATION, SUITES};
use crate::games::entry::{Encoding, EvaluationVisitor, GameEntry, LayeredVisitor, Registered};

/// Crabs and Shrimps, promoted or not by the letter's case of the
/// position string (no `+`); a movement may promote and carry a Bond.
pub const ENCODING: Encoding = Encoding {
    kinds: &[('C', false), ('S', false)],
    hand: &[],
    counters: 1,
    promote: true,
    bond: true,
    drops: &[],
    pass: false,
};

impl Registered for KaniNariEbi {
    const ENTRY: GameEntry =
        GameEntry::of::<KaniNariEbi>(&PRESENTATION, &ENCODING).with_suites(SUITES);

    fn visit_evaluation<V: EvaluationVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self>())
    }

    fn visit_layered<V: LayeredVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self>())
    }
}
