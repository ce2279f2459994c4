//! Negaeri Shogi's line in the registry: its entry, with weights to train.

use super::{Negaeri, PRESENTATION, SUITES};
use crate::games::entry::{Encoding, EvaluationVisitor, GameEntry, Registered};

/// King, Pawn, Rook and Bishop, the last three also promoted; Rooks,
/// Bishops and Pawns in hand and dropped; a pass is a move; two counters
/// (the move number and the passes).
pub const ENCODING: Encoding = Encoding {
    kinds: &[
        ('K', false),
        ('P', false),
        ('R', false),
        ('B', false),
        ('P', true),
        ('R', true),
        ('B', true),
    ],
    hand: &['R', 'B', 'P'],
    counters: 2,
    promote: false,
    bond: false,
    drops: &['R', 'B', 'P'],
    pass: true,
};

impl Registered for Negaeri {
    const ENTRY: GameEntry = GameEntry::of::<Negaeri>(&PRESENTATION, &ENCODING).with_suites(SUITES);

    fn visit_evaluation<V: EvaluationVisitor>(v: V) -> Option<V::Output> {
        Some(v.visit::<Self>())
    }
}
