//! Negaeri evaluation, from the side to move's view: material (promoted
//! values, and a premium for pieces in hand), King safety, flip exposure on
//! the edge, and the flips each side's next drop threatens; each term times
//! its weight from the weights file (`weights.bin`, see `weights.md`).

use super::Negaeri;
use super::board::{self, Bitboard, EDGE, KING, Kind};
use super::flip;
use crate::core::{Color, Game};
use crate::eval::file::Params;
use crate::eval::net::Active;
use crate::eval::{Slot, Sum, Terms};

/// Board values by kind, P, R, B, K, +P, +R, +B, for move generation
/// (which drops quiescence tries) and the flip threats; the evaluation's
/// own material weights are in the weights file. A flip promotes, so the
/// promoted values matter as much as the plain ones: the tokin moves like a
/// gold general, the dragon and horse add the King's steps.
const VALUE: [i32; 7] = [100, 520, 420, 0, 260, 720, 620];
/// In hand a piece is worth a little more than on the board: a drop goes
/// anywhere and is the only move that flips (move generation's values).
const HAND_VALUE: [i32; 3] = [120, 560, 460];
/// The terms, in the order of the weights file.
pub const TERMS: usize = 15;
pub const NAMES: [&str; TERMS] = [
    "pawn",
    "rook",
    "bishop",
    "tokin",
    "dragon",
    "horse",
    "pawn_in_hand",
    "rook_in_hand",
    "bishop_in_hand",
    "guard",
    "king_attacker",
    "edge_exposed",
    "threat_us",
    "threat_them",
    "tempo",
];
/// Pieces on the board by kind (P, R, B, +P, +R, +B; the King has none),
/// then in hand (P, R, B).
const BOARD: [usize; 7] = [0, 1, 2, usize::MAX, 3, 4, 5];
const IN_HAND: [usize; 3] = [6, 7, 8];
/// Own piece next to the own King: it is loyal (never flips) and shields
/// the King from captures.
const GUARD: usize = 9;
/// Enemy piece next to the own King: one move from capturing it.
const KING_ATTACKER: usize = 10;
/// Own piece on the board's edge that is not loyal, while the opponent has
/// something to drop: the edge closes a sandwich, so one drop next to it
/// can flip it (and what stands in line with it).
const EDGE_EXPOSED: usize = 11;
/// Flip threats, in 64ths of the swing: what one side's drops would flip
/// at the first level (all drop squares together, valued by `flip_swing`),
/// for a side with something in hand. The side to move can carry out one
/// of them; the other side's are what the side to move must parry. Flips
/// are the game's big material swings, and a quiescence search that looks
/// at only a few drops does not see them all.
const THREAT_US: usize = 12;
const THREAT_THEM: usize = 13;
/// Having the move (zero by hand; fitting may find it worth something).
const TEMPO: usize = 14;

/// The weights set by hand and fixed-node matches before they were
/// fitted to self-play data: where fitting starts. The threats at 24 for
/// both: +275 +/- 98 Elo, 100 games at 10000 nodes.
pub const HAND_MADE: [i32; TERMS] = [
    100, 520, 420, 260, 720, 620, 120, 560, 460, 15, 35, 12, 24, 24, 0,
];

/// The network's inputs per view: own and enemy pieces of each kind on
/// each square, then own and enemy pieces in hand (one input per piece of
/// each kind, up to the count there is).
pub const INPUTS: usize = 2 * 7 * board::SQUARES + 2 * HAND_INPUTS;
const HAND_INPUTS: usize = 6 + 2 + 2;
pub const HIDDEN: usize = 32;

pub type Weights = Params<TERMS, INPUTS, HIDDEN>;

static BUILT_IN: Weights = Weights::from_bytes_const(Negaeri::NAME, include_bytes!("weights.bin"));

/// The weights in force (the `EvalFile` option replaces them).
pub static WEIGHTS: Slot<Weights> = Slot::new(&BUILT_IN);

/// Board value of a kind.
#[inline]
pub fn value(k: Kind) -> i32 {
    VALUE[k.index()]
}

/// Value in hand of a kind that can be in hand (P, R, B).
#[inline]
pub fn hand_value(k: Kind) -> i32 {
    HAND_VALUE[k.index()]
}

/// What flipping the pieces of `flipped` (enemy pieces) swings the
/// material: each is lost by the opponent and gained, promoted, by the
/// mover.
pub fn flip_swing(pos: &Negaeri, flipped: Bitboard) -> i32 {
    // The King never flips (and is worth nothing here).
    const FLIPPABLE: [Kind; 6] = [
        Kind::Pawn,
        Kind::Rook,
        Kind::Bishop,
        Kind::Tokin,
        Kind::Dragon,
        Kind::Horse,
    ];
    if flipped == 0 {
        return 0;
    }
    FLIPPABLE
        .into_iter()
        .map(|k| {
            (pos.kinds[k.index()] & flipped).count_ones() as i32 * (value(k) + value(k.promoted()))
        })
        .sum()
}

fn has_hand(pos: &Negaeri, c: Color) -> bool {
    pos.hands[c.index()].iter().any(|&n| n > 0)
}

/// One side's King terms: own pieces next to its King (guards), enemy
/// pieces next to it (attackers), and its pieces on the edge that are not
/// loyal (counted by the caller only while the opponent has something to
/// drop).
#[inline(always)]
fn king_counts(pos: &Negaeri, c: Color) -> [i32; 3] {
    let ours = pos.pieces(c);
    let theirs = pos.pieces(c.opponent());
    let king = pos.pieces_of(c, Kind::King);
    let zone = match king {
        0 => 0,
        b => KING[b.trailing_zeros() as usize],
    };
    [
        (zone & ours).count_ones() as i32,
        (zone & theirs).count_ones() as i32,
        (ours & EDGE & !zone & !king).count_ones() as i32,
    ]
}

/// The evaluation's terms, from the side to move's view. Each count term
/// is added once, as our count less theirs: the same sum (and features) as
/// adding each side's count with its sign, with half the additions.
pub fn terms<A: Terms>(pos: &Negaeri, a: &mut A) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (pos.colors[us.index()], pos.colors[them.index()]);
    for k in Kind::ALL {
        if k != Kind::King {
            let kind = pos.kinds[k.index()];
            let n = (kind & ours).count_ones() as i32 - (kind & theirs).count_ones() as i32;
            a.add(BOARD[k.index()], n);
        }
    }
    for k in Kind::HAND {
        a.add(
            IN_HAND[k.index()],
            i32::from(pos.in_hand(us, k)) - i32::from(pos.in_hand(them, k)),
        );
    }
    let hands = [has_hand(pos, us), has_hand(pos, them)];
    let [guard_us, attackers_us, edge_us] = king_counts(pos, us);
    let [guard_them, attackers_them, edge_them] = king_counts(pos, them);
    a.add(GUARD, guard_us - guard_them);
    a.add(KING_ATTACKER, attackers_them - attackers_us);
    // Exposed while the opponent has something to drop.
    let exposed = i32::from(hands[1]) * edge_us - i32::from(hands[0]) * edge_them;
    a.add(EDGE_EXPOSED, -exposed);
    a.add(TEMPO, 1);
    if hands == [false, false] {
        return;
    }
    let edge = pos.rules.edge;
    let colors = [ours, theirs];
    let [t_us, t_them] = flip::level1_targets_both(colors, [pos.king(us), pos.king(them)], edge);
    if hands[0] {
        a.scaled(64, |a| a.add(THREAT_US, flip_swing(pos, t_us)));
    }
    if hands[1] {
        a.scaled(64, |a| a.add(THREAT_THEM, -flip_swing(pos, t_them)));
    }
}

/// The network's active inputs from each side's view (the side to move's
/// first): a side sees its own pieces as the first player's, the board
/// turned half a circle for the second player.
pub fn inputs(pos: &Negaeri) -> Active<64> {
    let mut act = Active::default();
    let us = pos.side_to_move();
    const HANDS: usize = 2 * 7 * board::SQUARES;
    // Where each kind's inputs in hand start, and how many it has.
    const HAND_AT: [(usize, u8); 3] = [(0, 6), (6, 2), (8, 2)];
    for (v, view) in [us, us.opponent()].into_iter().enumerate() {
        for (side, c) in [view, view.opponent()].into_iter().enumerate() {
            for k in Kind::ALL {
                for sq in board::squares(pos.pieces_of(c, k)) {
                    let s = match view {
                        Color::First => sq.index(),
                        Color::Second => board::SQUARES - 1 - sq.index(),
                    };
                    act.push(v, (side * 7 + k.index()) * board::SQUARES + s);
                }
            }
            for k in Kind::HAND {
                let (at, most) = HAND_AT[k.index()];
                for n in 0..pos.in_hand(c, k).min(most) {
                    act.push(v, HANDS + side * HAND_INPUTS + at + usize::from(n));
                }
            }
        }
    }
    act
}

/// The static evaluation in centipawns from the side to move's view.
#[inline]
pub fn evaluate(pos: &Negaeri) -> i32 {
    evaluate_with(pos, WEIGHTS.get())
}

/// The static evaluation with the given weights.
#[inline]
pub fn evaluate_with(pos: &Negaeri, w: &Weights) -> i32 {
    let mut s = Sum::new(&w.terms);
    terms(pos, &mut s);
    crate::eval::bounded(match &w.net {
        None => s.total,
        Some(net) => s.total.wrapping_add(net.evaluate(&inputs(pos))),
    })
}

crate::impl_evaluation!(Negaeri, self);
