//! Sandwich threats for the custodian-capture games (Hasami, Kani Nari
//! Ebi): which of one side's men a single enemy landing would enclose. The
//! evaluations count them; the board size is the caller's bitboard type.

use std::ops::{BitAnd, BitOr};

/// The bit operations `exposed_along` needs from a bitboard.
pub trait Bits: Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> {
    const ZERO: Self;
}

impl Bits for u32 {
    const ZERO: Self = 0;
}

impl Bits for u128 {
    const ZERO: Self = 0;
}

/// The men of `ours` in an unbroken run that starts next to an empty
/// `landing` square and ends on a man of `theirs`, the run going `fwd`
/// from the landing square (`back` is the inverse step): the men an enemy
/// arriving on that square would sandwich along this direction.
#[inline(always)]
pub fn exposed_along<B: Bits>(
    ours: B,
    theirs: B,
    landing: B,
    fwd: impl Fn(B) -> B,
    back: impl Fn(B) -> B,
) -> B {
    // Own men from which the run forward ends on an enemy man.
    let mut run = ours & back(theirs);
    if run == B::ZERO {
        return B::ZERO;
    }
    loop {
        let grown = run | (ours & back(run));
        if grown == run {
            break;
        }
        run = grown;
    }
    let starts = back(run) & landing;
    if starts == B::ZERO {
        return B::ZERO;
    }
    let mut hit = fwd(starts) & run;
    loop {
        let grown = hit | (fwd(hit) & run);
        if grown == hit {
            return hit;
        }
        hit = grown;
    }
}

/// `exposed_along` on lines too short for a run of more than `MEN` men
/// between a landing square and an enemy man (lines `MEN + 2` squares
/// long), in a fixed number of steps and without a branch: whether a run
/// is there is the board's chance, and a mispredicted branch costs more
/// than the steps.
#[inline(always)]
pub fn exposed_along_within<B: Bits, const MEN: usize>(
    ours: B,
    theirs: B,
    landing: B,
    fwd: impl Fn(B) -> B,
    back: impl Fn(B) -> B,
) -> B {
    let mut run = ours & back(theirs);
    for _ in 1..MEN {
        run = run | (ours & back(run));
    }
    let mut hit = fwd(back(run) & landing) & run;
    for _ in 1..MEN {
        hit = hit | (fwd(hit) & run);
    }
    hit
}
