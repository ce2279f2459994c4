//! Kani Nari Ebi position strings: `<board> <w|b> <move number>`, no hand.
//! - Pieces: `C` Crab, `S` Shrimp; the first player's upper case, the
//!   second's lower case (start: `C3c/C3c/C3c/C3c/C3c w 1`). A Shrimp is
//!   written `S`, never `+C`.
//! - Move number: starts at 1 and grows after each second-player turn, as in
//!   chess (optional on input, default 1).
//!
//! Captured counts are not written: each side starts with five pieces, so
//! they are the pieces missing from the board. A position where the side to
//! move has already won (three captures or three Shrimps) cannot arise, as
//! the game ends on the winning turn, and is refused.

use super::board::{self, Square};
use super::{KaniNariEbi, KaniRules, PIECES};
use crate::core::{Color, Coord, PieceText, Place, PositionError, PositionText};

pub fn from_text(t: &PositionText, rules: &KaniRules) -> Result<KaniNariEbi, PositionError> {
    t.check_size(board::FILES, board::RANKS)?;
    if let Some(h) = &t.hand
        && !h.is_empty()
    {
        return Err(PositionError::NoHand {
            game: "Kani Nari Ebi",
        });
    }
    let mut pieces = [0; 2];
    let mut shrimps = 0;
    for r in 0..board::RANKS {
        for f in 0..board::FILES {
            let at = Coord::new(f, r);
            let Some(p) = t.at(at) else { continue };
            if p.promoted {
                return Err(PositionError::Miswritten {
                    piece: p,
                    place: Place::Square(at),
                    why: "a promoted Crab is written S (Shrimp), without +",
                });
            }
            let sq = Square::new(f, r);
            match p.letter {
                'C' => {}
                'S' => shrimps |= sq.bit(),
                _ => {
                    return Err(PositionError::UnknownPiece {
                        piece: p,
                        place: Place::Square(at),
                        known: "Kani Nari Ebi pieces are C (Crab) and S (Shrimp)",
                    });
                }
            }
            pieces[p.color.index()] |= sq.bit();
        }
    }
    for c in Color::BOTH {
        let n = pieces[c.index()].count_ones();
        if n > PIECES {
            return Err(PositionError::TooMany(format!(
                "the {c} has {n} pieces, at most {PIECES}"
            )));
        }
    }
    let move_number = match t.counters.as_slice() {
        [] => 1,
        [n] if *n >= 1 => *n,
        [_] => return Err(PositionError::MoveNumber { max: None }),
        _ => {
            return Err(PositionError::Counters {
                game: "Kani Nari Ebi",
                expected: "one counter, the move number",
            });
        }
    };
    let pos = KaniNariEbi {
        hash: KaniNariEbi::compute_hash(&pieces, shrimps, t.side),
        pieces,
        shrimps,
        side: t.side,
        move_number,
        rules: *rules,
    };
    if let Some(reason) = pos.has_won(t.side) {
        return Err(PositionError::Unreachable(format!(
            "the {} to move has already won by {reason}: the game ended on their last turn",
            t.side
        )));
    }
    Ok(pos)
}

pub fn to_text(pos: &KaniNariEbi) -> PositionText {
    let ranks = PositionText::grid(board::FILES, board::RANKS, |c| {
        let sq = Square::new(c.file, c.rank);
        Color::BOTH
            .into_iter()
            .find(|col| pos.pieces[col.index()] & sq.bit() != 0)
            .map(|color| PieceText {
                letter: if pos.shrimps & sq.bit() != 0 {
                    'S'
                } else {
                    'C'
                },
                color,
                promoted: false,
            })
    });
    PositionText {
        ranks,
        hand: None,
        side: pos.side,
        counters: vec![pos.move_number],
    }
}
