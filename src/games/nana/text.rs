//! Nana position strings: `<board>[<hand>] <side> <move number>`, e.g. the
//! start `3/3/3[KRBkrb] w 1`.
//!
//! - board: ranks 3 to 1, letters of the King and of the cube states
//!   (`K`, `R` `V` `W` `G`, `B` `T` `C` `D`), upper case first player;
//! - hand: always written, `[]` when both are empty; pieces by base letter
//!   (`K`, `R` for the orthogonal cube, `B` for the diagonal cube), the first
//!   player's in the order K R B, then the second player's in the same order;
//!   a missing bracket reads as empty hands;
//! - move number: 1 at the start, one more after each move of the second
//!   player (as in Hasami and chess); optional when reading (default 1); no
//!   rule reads it and repetition ignores it.

use super::board::{FILES, Family, Kind, RANKS, Square};
use super::{Hand, Nana, Piece};
use crate::core::{Color, Coord, PieceText, Place, PositionError, PositionText};

pub fn from_text(t: &PositionText) -> Result<Nana, PositionError> {
    t.check_size(FILES, RANKS)?;
    let mut placement = [None; 9];
    for sq in Square::all() {
        let Some(p) = t.at(sq.coord()) else { continue };
        let kind = Kind::from_letter(p.letter).filter(|_| !p.promoted).ok_or(
            PositionError::UnknownPiece {
                piece: p,
                place: Place::Square(sq.coord()),
                known: "Nana pieces are K, R V W G and B T C D",
            },
        )?;
        placement[sq.index()] = Some(Piece::new(p.color, kind));
    }
    let mut hands = [[0u8; 3]; 2];
    for p in t.hand.iter().flatten() {
        let family = match p.letter {
            'K' => Family::King,
            'R' => Family::Orth,
            'B' => Family::Diag,
            c if Kind::from_letter(c).is_some() => {
                return Err(PositionError::Miswritten {
                    piece: *p,
                    place: Place::Hand,
                    why: "a cube in hand has no state, write it R or B",
                });
            }
            _ => {
                return Err(PositionError::UnknownPiece {
                    piece: *p,
                    place: Place::Hand,
                    known: "Nana hands hold K, R and B",
                });
            }
        };
        let n = &mut hands[p.color.index()][family.index()];
        *n = n.saturating_add(1);
    }
    let hands = hands.map(|[k, r, b]| Hand::new(k, r, b));
    let number = match t.counters.as_slice() {
        [] => 1,
        [n] if *n >= 1 => *n,
        [_] => return Err(PositionError::MoveNumber { max: None }),
        _ => {
            return Err(PositionError::Counters {
                game: "Nana",
                expected: "one counter, the move number",
            });
        }
    };
    Ok(Nana::new(placement, hands, t.side)?.with_move_number(number))
}

pub fn to_text(pos: &Nana) -> PositionText {
    let ranks = PositionText::grid(FILES, RANKS, |c: Coord| {
        let p = pos.piece_at(Square::new(c.file, c.rank))?;
        Some(PieceText {
            letter: p.kind.letter(),
            color: p.color,
            promoted: false,
        })
    });
    let mut hand = Vec::new();
    for color in Color::BOTH {
        for f in Family::ALL {
            for _ in 0..pos.hand(color).count(f) {
                hand.push(PieceText {
                    letter: f.letter(),
                    color,
                    promoted: false,
                });
            }
        }
    }
    PositionText {
        ranks,
        hand: Some(hand),
        side: pos.side,
        counters: vec![pos.move_number()],
    }
}
