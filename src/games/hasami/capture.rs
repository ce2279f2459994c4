//! Custodian capture by the man that just moved: closed lines (or single
//! men with `HasamiLines` off) in four directions, and corner captures.

use super::board::{
    ADJACENT, Bitboard, CORNER_SQUARES, CORNERS, FULL, RAY, Square, down, left, right, up,
};
use super::rules::HasamiRules;

/// The enemy men captured when our man arrives on `to`; `mine` already has
/// it there. The edge never closes a sandwich.
#[inline]
pub fn captured(rules: &HasamiRules, mine: Bitboard, theirs: Bitboard, to: Square) -> Bitboard {
    // Every capture, line or corner, starts next to `to`: no enemy man
    // there (the usual case) means nothing is taken.
    if ADJACENT[to.index()] & theirs == 0 {
        return 0;
    }
    let s = to.index();
    let lines = rules.lines;
    let mut taken = closed::<0>(lines, mine, theirs, s)
        | closed::<1>(lines, mine, theirs, s)
        | closed::<2>(lines, mine, theirs, s)
        | closed::<3>(lines, mine, theirs, s);
    if rules.corners {
        taken |= corner_captures(mine, theirs, to);
    }
    taken
}

/// The run of enemy men from square `s` in direction `D` (`DIRS`) that a
/// man of ours closes, or 0: the ray's squares before its first square
/// not theirs, when that square is ours (an all-enemy ray meets the edge).
/// Up and right go to higher indices, so that square is the lowest bit;
/// down and left, the highest.
#[inline(always)]
fn closed<const D: usize>(lines: bool, mine: Bitboard, theirs: Bitboard, s: usize) -> Bitboard {
    let ray = RAY[D][s];
    let stop = ray & !theirs;
    if stop == 0 {
        return 0;
    }
    let (first, run) = if D == 0 || D == 2 {
        let first = stop & stop.wrapping_neg();
        (first, ray & (first - 1))
    } else {
        let first = 1 << (127 - stop.leading_zeros());
        (first, ray & !(first | (first - 1)))
    };
    if first & mine != 0 && run != 0 && (lines || run.count_ones() == 1) {
        run
    } else {
        0
    }
}

/// Enemy men in a corner whose two neighbours are ours, one of them `to`.
fn corner_captures(mine: Bitboard, theirs: Bitboard, to: Square) -> Bitboard {
    if theirs & CORNER_SQUARES == 0 {
        return 0;
    }
    let mut taken = 0;
    for [corner, along_rank, along_file] in CORNERS {
        let both = along_rank | along_file;
        if theirs & corner != 0 && to.bit() & both != 0 && mine & both == both {
            taken |= corner;
        }
    }
    taken
}

/// Enemy men `x` with `step(x)` ours or, with `HasamiLines`, `step(x)`
/// such an enemy man in turn: the men a sandwich closed in the direction
/// `step` points away from would take. `back` is `step`'s inverse.
#[inline(always)]
fn closed_runs(
    lines: bool,
    mine: Bitboard,
    theirs: Bitboard,
    back: impl Fn(Bitboard) -> Bitboard,
) -> Bitboard {
    let mut run = theirs & back(mine);
    if lines {
        loop {
            let grown = run | (theirs & back(run));
            if grown == run {
                break;
            }
            run = grown;
        }
    }
    run
}

/// Every empty square where a man of ours would capture on arrival: `to`
/// of a move captures exactly when `to` is in this set. (The man that moves
/// is never needed as the far end of its own sandwich: it would have to
/// slide through the run to get there.)
pub fn targets(rules: &HasamiRules, mine: Bitboard, theirs: Bitboard) -> Bitboard {
    let empty = !(mine | theirs) & FULL;
    // A sandwich closed upward from the target: the target lies below the run.
    let mut t = down(closed_runs(rules.lines, mine, theirs, down))
        | up(closed_runs(rules.lines, mine, theirs, up))
        | left(closed_runs(rules.lines, mine, theirs, left))
        | right(closed_runs(rules.lines, mine, theirs, right));
    if rules.corners && theirs & CORNER_SQUARES != 0 {
        for [corner, a, b] in CORNERS {
            if theirs & corner != 0 {
                if mine & a != 0 {
                    t |= b;
                }
                if mine & b != 0 {
                    t |= a;
                }
            }
        }
    }
    t & empty
}
