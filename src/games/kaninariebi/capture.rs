//! Capture by the piece that just came to rest (rule 4): along each of the
//! four orthogonal directions, a run of one or more adjacent enemy pieces
//! closed directly by an own piece is taken, the whole run. Only the moved
//! piece is an end of the sandwich, and the board edge never is one.

use super::board::{Bitboard, NEIGHBOUR, NONE, Square, orthogonal};

/// The enemy pieces taken when our piece rests on `to`; `mine` already
/// holds it there.
#[inline]
pub fn captured(to: Square, mine: Bitboard, theirs: Bitboard) -> Bitboard {
    // No enemy next to `to`: no run starts (the usual case, checked first).
    if orthogonal(to.bit()) & theirs == 0 {
        return 0;
    }
    let mut taken = 0;
    for line in &NEIGHBOUR {
        let mut run: Bitboard = 0;
        let mut sq = to.index();
        loop {
            let next = line[sq];
            if next == NONE {
                // The edge: the run is open, nothing is taken.
                break;
            }
            let bit = 1 << next;
            if theirs & bit != 0 {
                run |= bit;
                sq = next as usize;
            } else {
                if mine & bit != 0 {
                    taken |= run;
                }
                break;
            }
        }
    }
    taken
}
