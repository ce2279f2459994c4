//! Nana Shogi's line in the registry: its entry, with weights to train,
//! its solver and the table of solved positions it writes.

use super::{Nana, PRESENTATION, SUITES, TABLE, solver::NanaSolver};
use crate::games::entry::{Encoding, EvaluationVisitor, GameEntry, Registered, SolverVisitor};

/// The Kings and the cubes' states on the board; Kings, Chariots and
/// Bishops in hand; every state can be dropped.
pub const ENCODING: Encoding = Encoding {
    kinds: &[
        ('K', false),
        ('R', false),
        ('V', false),
        ('W', false),
        ('G', false),
        ('B', false),
        ('T', false),
        ('C', false),
        ('D', false),
    ],
    hand: &['K', 'R', 'B'],
    counters: 1,
    promote: false,
    bond: false,
    drops: &['K', 'R', 'V', 'W', 'G', 'B', 'T', 'C', 'D'],
    pass: false,
};

impl Registered for Nana {
    const ENTRY: GameEntry = GameEntry::of::<Nana>(&PRESENTATION, &ENCODING)
        .with_suites(SUITES)
        .with_table(TABLE);

    fn visit_evaluation<V: EvaluationVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self>())
    }

    fn visit_solver<V: SolverVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self, _>(&NanaSolver))
    }
}
