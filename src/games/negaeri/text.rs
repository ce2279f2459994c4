//! Negaeri position strings: `<board>[<hand>] <side> <passes> <move number>`,
//! e.g. the start `2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1`.
//! - board: ranks 6 to 1, pieces `K P R B` and promoted `+P +R +B`, first
//!   player upper case;
//! - hand: always written, first player's pieces then the second's, each in
//!   the order Rook, Bishop, Pawn (`[]` when both are empty; any order and
//!   `[-]` are read);
//! - `<passes>`: passes in a row just played, 0 to 2 (2: the game is over);
//! - `<move number>`: starts at 1 and grows after the second player's move.
//!
//! Both counters may be left out together (read as `0 1`).

use super::board::{self, Kind, MAX_IN_HAND, Square};
use super::{Negaeri, NegaeriRules, movegen};
use crate::core::{Color, Coord, PieceText, Place, PositionError, PositionText};

/// How many pieces of each unpromoted kind the set has (Pawn, Rook, Bishop).
const SET: [u32; 3] = [MAX_IN_HAND as u32, 4, 4];

pub fn from_text(t: &PositionText, rules: &NegaeriRules) -> Result<Negaeri, PositionError> {
    t.check_size(board::FILES, board::RANKS)?;
    let mut p = Negaeri {
        kinds: [0; 7],
        colors: [0; 2],
        hands: [[0; 3]; 2],
        side: t.side,
        passes: 0,
        fullmove: 1,
        rules: *rules,
        hash: 0,
    };
    let mut set = place_board(t, &mut p)?;
    fill_hands(t, &mut p, &mut set)?;
    let waiting = t.side.opponent();
    if p.king(waiting) == 0 {
        return Err(PositionError::Unreachable(format!(
            "the {waiting} has no King, but only the side to move can have lost its King"
        )));
    }
    (p.passes, p.fullmove) = read_counters(t)?;
    check_passes(&p)?;
    p.hash = p.compute_hash();
    Ok(p)
}

/// Puts the board's pieces on `p`; returns how many of each unpromoted
/// kind (Kings aside) the board holds, for the set check.
fn place_board(t: &PositionText, p: &mut Negaeri) -> Result<[u32; 3], PositionError> {
    let mut set = [0u32; 3];
    for r in 0..board::RANKS {
        for f in 0..board::FILES {
            let c = Coord::new(f, r);
            let Some(pt) = t.at(c) else { continue };
            let k =
                Kind::from_letter(pt.letter, pt.promoted).ok_or(PositionError::UnknownPiece {
                    piece: pt,
                    place: Place::Square(c),
                    known: "Negaeri pieces are K, P, R, B, +P, +R, +B",
                })?;
            if k == Kind::King && p.king(pt.color) != 0 {
                return Err(PositionError::TooMany(format!(
                    "a second King of the {} on {c}",
                    pt.color
                )));
            }
            let sq = Square::new(f, r);
            p.kinds[k.index()] |= sq.bit();
            p.colors[pt.color.index()] |= sq.bit();
            if k != Kind::King {
                set[k.unpromoted().index()] += 1;
            }
        }
    }
    Ok(set)
}

/// Puts the hands' pieces on `p`, counting them into `set`, and refuses
/// more pieces of a kind than the set has.
fn fill_hands(t: &PositionText, p: &mut Negaeri, set: &mut [u32; 3]) -> Result<(), PositionError> {
    for pt in t.hand.iter().flatten() {
        let k = match Kind::from_letter(pt.letter, false) {
            Some(Kind::King) => {
                return Err(PositionError::Miswritten {
                    piece: *pt,
                    place: Place::Hand,
                    why: "a King is never held in hand",
                });
            }
            Some(k) => k,
            None => {
                return Err(PositionError::UnknownPiece {
                    piece: *pt,
                    place: Place::Hand,
                    known: "Negaeri hands hold P, R, B",
                });
            }
        };
        set[k.index()] += 1;
        if set[k.index()] > SET[k.index()] {
            break; // reported below
        }
        p.hands[pt.color.index()][k.index()] += 1;
    }
    for k in Kind::HAND {
        if set[k.index()] > SET[k.index()] {
            return Err(PositionError::TooMany(format!(
                "too many {} pieces: the set has {} (promoted, on the board and in hand counted together)",
                k.letter(),
                SET[k.index()]
            )));
        }
    }
    Ok(())
}

/// Passes in a row and the move number, `0 1` when both are left out.
fn read_counters(t: &PositionText) -> Result<(u8, u32), PositionError> {
    match t.counters.as_slice() {
        [] => Ok((0, 1)),
        [passes, _] if *passes > 2 => Err(PositionError::Unreachable(format!(
            "passes in a row {passes}: at most 2 (two end the game)"
        ))),
        [_, 0] => Err(PositionError::MoveNumber { max: None }),
        [passes, n] => Ok((*passes as u8, *n)),
        _ => Err(PositionError::Counters {
            game: "Negaeri",
            expected: "two counters: passes in a row and the move number",
        }),
    }
}

/// Refuses passes the position could not have followed.
fn check_passes(p: &Negaeri) -> Result<(), PositionError> {
    // A pass is played only without a board move or a drop, and changes
    // nothing: whoever passed still has neither. The last move captured
    // the King of a side to move without one, so it was no pass.
    let waiting = p.side.opponent();
    let passed: &[Color] = match p.passes {
        0 => &[],
        1 => &[waiting],
        _ => &[waiting, p.side],
    };
    for &c in passed {
        if p.hands[c.index()].iter().any(|&n| n > 0) {
            return Err(PositionError::Unreachable(format!(
                "the {c} passed with pieces in hand: a pass is played only without a drop or a board move"
            )));
        }
        if movegen::board_move_count(p, c) > 0 {
            return Err(PositionError::Unreachable(format!(
                "the {c} passed with a board move to play: a pass is played only without a drop or a board move"
            )));
        }
    }
    if p.passes > 0 && p.king(p.side) == 0 {
        return Err(PositionError::Unreachable(format!(
            "the {}'s King was captured by the last move, which cannot have been a pass",
            p.side
        )));
    }
    Ok(())
}

pub fn to_text(pos: &Negaeri) -> PositionText {
    let ranks = PositionText::grid(board::FILES, board::RANKS, |c| {
        let (color, k) = pos.piece_at(Square::new(c.file, c.rank))?;
        Some(PieceText {
            letter: k.letter(),
            color,
            promoted: k.is_promoted(),
        })
    });
    let mut hand = Vec::new();
    for color in Color::BOTH {
        for k in Kind::HAND_ORDER {
            for _ in 0..pos.in_hand(color, k) {
                hand.push(PieceText {
                    letter: k.letter(),
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
        counters: vec![pos.passes as u32, pos.fullmove],
    }
}
