//! Hasami position strings: `<board> <side> <move number>`, men `P`/`p`, no
//! hand. The move number starts at 1 and grows after the second player's
//! move, so the ply count is `2 * (n - 1)` plus one when `b` is to move.
//!
//! Positions no game reaches are refused where every win rule agrees: the
//! side that just moved has a man (no move loses one's own men), and the
//! ply is at most the 300-ply limit that ends every game. (Capture counts
//! past the win are not refused: `five` alone forbids them, and endgame
//! studies with a man or two a side are worth loading under any rule.)

use super::board::{self, Square};
use super::{Hasami, HasamiRules, MEN, PLY_LIMIT};
use crate::core::{Color, Coord, PieceText, Place, PositionError, PositionText};

/// Far beyond the 300-ply limit, and small enough that ply arithmetic
/// cannot overflow.
const MAX_MOVE_NUMBER: u32 = 1_000_000;

pub fn from_text(t: &PositionText, rules: &HasamiRules) -> Result<Hasami, PositionError> {
    t.check_size(board::FILES, board::RANKS)?;
    if let Some(h) = &t.hand
        && !h.is_empty()
    {
        return Err(PositionError::NoHand {
            game: "Hasami Shogi",
        });
    }
    let mut men = [0u128; 2];
    for r in 0..board::RANKS {
        for f in 0..board::FILES {
            if let Some(p) = t.at(Coord::new(f, r)) {
                if p.letter != 'P' || p.promoted {
                    return Err(PositionError::UnknownPiece {
                        piece: p,
                        place: Place::Square(Coord::new(f, r)),
                        known: "Hasami men are P and p",
                    });
                }
                men[p.color.index()] |= Square::new(f, r).bit();
            }
        }
    }
    for c in Color::BOTH {
        if men[c.index()].count_ones() > MEN {
            return Err(PositionError::TooMany(format!(
                "the {c} has more than {MEN} men"
            )));
        }
    }
    let ply = match t.counters.as_slice() {
        [] => u32::from(t.side == Color::Second),
        [n] if (1..=MAX_MOVE_NUMBER).contains(n) => {
            2 * (n - 1) + u32::from(t.side == Color::Second)
        }
        [_] => {
            return Err(PositionError::MoveNumber {
                max: Some(MAX_MOVE_NUMBER),
            });
        }
        _ => {
            return Err(PositionError::Counters {
                game: "Hasami",
                expected: "one counter, the move number",
            });
        }
    };
    let mover = t.side.opponent();
    if men[mover.index()] == 0 {
        return Err(PositionError::Unreachable(format!(
            "the {mover} has no men, but made the last move: no move takes one's own men"
        )));
    }
    if ply > PLY_LIMIT {
        return Err(PositionError::Unreachable(format!(
            "ply {ply} is past the {PLY_LIMIT}-ply limit, which ends every game"
        )));
    }
    Ok(Hasami {
        hash: Hasami::compute_hash(&men, t.side),
        men,
        side: t.side,
        ply,
        rules: *rules,
    })
}

pub fn to_text(pos: &Hasami) -> PositionText {
    let ranks = PositionText::grid(board::FILES, board::RANKS, |c| {
        let sq = Square::new(c.file, c.rank);
        Color::BOTH
            .into_iter()
            .find(|col| pos.men[col.index()] & sq.bit() != 0)
            .map(|color| PieceText {
                letter: 'P',
                color,
                promoted: false,
            })
    });
    PositionText {
        ranks,
        hand: None,
        side: pos.side,
        counters: vec![pos.ply / 2 + 1],
    }
}
