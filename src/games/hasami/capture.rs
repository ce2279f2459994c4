//! Custodian capture by the man that just moved: closed lines (or single
//! men with `HasamiLines` off) in four directions, and corner captures.

use super::board::{ADJACENT, Bitboard, FULL, Square, down, left, right, up};
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
    let mut taken = 0;
    for d in 0..4 {
        let mut run: Bitboard = 0;
        let mut len = 0;
        let mut sq = to;
        while let Some(next) = sq.step(d) {
            if theirs & next.bit() != 0 {
                run |= next.bit();
                len += 1;
                sq = next;
            } else {
                if mine & next.bit() != 0 && len > 0 && (rules.lines || len == 1) {
                    taken |= run;
                }
                break;
            }
        }
    }
    if rules.corners {
        taken |= corner_captures(mine, theirs, to);
    }
    taken
}

/// Enemy men in a corner whose two neighbours are ours, one of them `to`.
fn corner_captures(mine: Bitboard, theirs: Bitboard, to: Square) -> Bitboard {
    const CORNERS: [(u8, u8); 4] = [(0, 0), (8, 0), (0, 8), (8, 8)];
    let mut taken = 0;
    for (f, r) in CORNERS {
        let corner = Square::new(f, r);
        if theirs & corner.bit() == 0 {
            continue;
        }
        // The corner's two neighbours: along its rank and along its file.
        let along_rank = Square::new(if f == 0 { 1 } else { 7 }, r);
        let along_file = Square::new(f, if r == 0 { 1 } else { 7 });
        let both = along_rank.bit() | along_file.bit();
        if (to == along_rank || to == along_file) && mine & both == both {
            taken |= corner.bit();
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
    if rules.corners {
        const CORNERS: [(u8, u8); 4] = [(0, 0), (8, 0), (0, 8), (8, 8)];
        for (f, r) in CORNERS {
            if theirs & Square::new(f, r).bit() == 0 {
                continue;
            }
            let a = Square::new(if f == 0 { 1 } else { 7 }, r).bit();
            let b = Square::new(f, if r == 0 { 1 } else { 7 }).bit();
            if mine & a != 0 {
                t |= b;
            }
            if mine & b != 0 {
                t |= a;
            }
        }
    }
    t & empty
}
