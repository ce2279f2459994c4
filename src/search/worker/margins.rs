//! The search's fixed margins and depths: the numbers no game tunes. Those
//! a game does tune are its `Tuning` (futility, reverse futility, late
//! move pruning's depth, ProbCut's margin, the reductions' formula).

use super::Score;

/// Aspiration windows: the first window's half width around the previous
/// iteration's score (doubled on every failure), from this depth on.
pub const ASPIRATION_DELTA: Score = 30;
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// Late quiet root moves are reduced from this depth and move number on.
pub const ROOT_LMR_MIN_DEPTH: i32 = 3;
pub const ROOT_LMR_MIN_MOVE: usize = 4;

/// Null move (step 6): tried from this depth on where the static
/// evaluation is at least `beta + BASE - PER_PLY * depth`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_EVAL_BASE: Score = 45;
pub const NMP_EVAL_PER_PLY: Score = 15;
/// Its reduction: this, a ply per `NMP_DEPTH_PER_REDUCTION` of depth, and
/// a ply per `NMP_EVAL_PER_REDUCTION` the evaluation stands above beta (at
/// most `NMP_MAX_EVAL_REDUCTION`).
pub const NMP_REDUCTION: i32 = 3;
pub const NMP_DEPTH_PER_REDUCTION: i32 = 3;
pub const NMP_EVAL_PER_REDUCTION: Score = 200;
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;
/// Null-move cutoffs from this depth on are verified.
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// ProbCut (step 6b) from this depth on; its searches are this much
/// shallower, and what it stores this much shallower than the node (the
/// table's entry that rules it out must be at least as deep).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_REDUCTION: i32 = 4;
pub const PROBCUT_TT_REDUCTION: i32 = 3;

/// Internal iterative reduction (step 7) from this depth on.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning (step 10) keeps the first `LMP_BASE + depth^2` moves.
pub const LMP_BASE: i32 = 3;
/// History pruning (step 10) below this reduced depth, of quiet moves whose
/// history is below `-HISTORY_PRUNING_PER_PLY * depth`.
pub const HISTORY_PRUNING_DEPTH: i32 = 4;
pub const HISTORY_PRUNING_PER_PLY: i32 = 2_000;
/// Futility pruning (step 10) below this reduced depth.
pub const FUTILITY_DEPTH: i32 = 8;

/// Singular extension (step 11) from this depth on, with a table entry at
/// most `SINGULAR_TT_REDUCTION` shallower, tested `SINGULAR_MARGIN_PER_PLY`
/// per ply below the table's score.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_TT_REDUCTION: i32 = 3;
pub const SINGULAR_MARGIN_PER_PLY: Score = 2;

/// Late move reductions (step 12) from this depth on, from this move
/// number on (at PV nodes and others), a ply less per
/// `LMR_HISTORY_PER_PLY` of history.
pub const LMR_MIN_DEPTH: i32 = 2;
pub const LMR_FIRST_MOVE_PV: usize = 4;
pub const LMR_FIRST_MOVE: usize = 2;
pub const LMR_HISTORY_PER_PLY: i32 = 12_000;
