//! Custodian capture by the man that just moved: closed lines (or single
//! men with `HasamiLines` off) in four directions, and corner captures.

use super::board::{Bitboard, Square};
use super::rules::HasamiRules;

/// The enemy men captured when our man arrives on `to`; `mine` already has
/// it there. The edge never closes a sandwich.
#[inline]
pub fn captured(rules: &HasamiRules, mine: Bitboard, theirs: Bitboard, to: Square) -> Bitboard {
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
