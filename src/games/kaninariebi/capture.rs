//! Capture by the piece that just came to rest (rule 4): along each of the
//! four orthogonal directions, a run of one or more adjacent enemy pieces
//! closed directly by an own piece is taken, the whole run. Only the moved
//! piece is an end of the sandwich, and the board edge never is one.

use super::board::{Bitboard, DIRS, SQUARES, Square};

const fn ray_table() -> [[Bitboard; SQUARES]; 4] {
    let mut t = [[0; SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < SQUARES {
            let (mut f, mut r) = ((s % 5) as i8, (s / 5) as i8);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 5 || r < 0 || r >= 5 {
                    break;
                }
                t[d][s] |= 1 << (r * 5 + f);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAY[d][s]`: the squares from `s` (not included) to the edge in
/// direction `DIRS[d]`: up and right go to higher indices, down and left to
/// lower ones.
static RAY: [[Bitboard; SQUARES]; 4] = ray_table();

/// The enemy pieces taken when our piece rests on `to`; `mine` already
/// holds it there.
#[inline]
pub fn captured(to: Square, mine: Bitboard, theirs: Bitboard) -> Bitboard {
    // No enemy next to `to`: no run starts (the usual case, checked first).
    if to.neighbours() & theirs == 0 {
        return 0;
    }
    let s = to.index();
    let mut taken = 0;
    // Up and right: the run is the ray below its first non-enemy square,
    // taken when that square is ours (an all-enemy ray meets the edge).
    for ray in [RAY[0][s], RAY[2][s]] {
        let stop = ray & !theirs;
        if stop != 0 {
            let first = stop & stop.wrapping_neg();
            if first & mine != 0 {
                taken |= ray & (first - 1);
            }
        }
    }
    // Down and left: the same from the top.
    for ray in [RAY[1][s], RAY[3][s]] {
        let stop = ray & !theirs;
        if stop != 0 {
            let first = 1 << (31 - stop.leading_zeros());
            if first & mine != 0 {
                taken |= ray & !(first | (first - 1));
            }
        }
    }
    taken
}

/// The runs of `theirs` that a piece of `mine` closes going `fwd`, as the
/// squares one step `back` from their first piece: where arriving would
/// take them along `fwd`.
#[inline(always)]
fn closed_runs(mine: Bitboard, theirs: Bitboard, back: impl Fn(Bitboard) -> Bitboard) -> Bitboard {
    // Enemy pieces whose run forward ends on one of ours (at most three).
    let mut run = theirs & back(mine);
    for _ in 0..2 {
        run |= theirs & back(run);
    }
    back(run)
}

/// The empty squares where a piece of the side owning `mine` captures on
/// coming to rest: `captured` is non-empty exactly there, for every
/// movement whose origin is in `mine` (an origin never closes its own
/// sandwich: the squares between it and a resting square on its line are
/// the empty ones it slid over, or it rests next to it).
#[inline]
pub fn targets(mine: Bitboard, theirs: Bitboard) -> Bitboard {
    use super::board::{FULL, east, north, south, west};
    let empty = FULL & !(mine | theirs);
    (closed_runs(mine, theirs, south)
        | closed_runs(mine, theirs, north)
        | closed_runs(mine, theirs, west)
        | closed_runs(mine, theirs, east))
        & empty
}
