//! The positions reachable from the start. The two King placements come
//! first (nine positions: the start, and the eight after the first King);
//! every placement of the second King then gives a main-phase position with
//! all cubes in hand, first player to move. From there, sweeps over the
//! index expand every newly reached class with the Nana move generator
//! until nothing new is reached.
//!
//! A class of the index stands for a frame position (side to move = "us")
//! and its mirror image; each concrete position of the class has the
//! first or the second player to move. So a class carries two bits:
//! reached with the first player to move (`FIRST`), with the second
//! (`SECOND`). A move from a class reached with one bit reaches the next
//! class with the other. A class is expanded once per bit, at most twice.
//! Expanding a class expands its stored position and, by symmetry, its
//! mirror image (see below for the classes with both Kings on file b).
//!
//! For the retrograde analysis the first expansion also records whether
//! the side to move can take the enemy King (a win in 1 ply) and how many
//! of its moves lead to a position where the opponent cannot take ours:
//! the moves into a King capture are thus counted out here, once, instead
//! of by visiting the predecessors of the (very many) wins in 1.

use super::unmove::apply;
use crate::core::{Color, Game};
use crate::games::nana::Nana;
use crate::games::nana::index::{Index, mirror_board};
use std::time::Instant;

/// The class was reached with the first player to move.
pub const FIRST: u8 = 1;
/// The class was reached with the second player to move.
pub const SECOND: u8 = 2;
/// Expanded for `FIRST` / `SECOND` (cleared when the sweeps end).
const DONE_FIRST: u8 = 4;
const DONE_SECOND: u8 = 8;

/// `moves` entry of a class whose side to move can take the enemy King.
pub const TAKES_KING: u8 = 0xff;
/// `moves` entry of a class whose side to move has no legal move.
pub const NO_MOVE: u8 = 0xfe;

pub struct Reached {
    /// `FIRST | SECOND` bits per index.
    pub reach: Vec<u8>,
    /// Per reached index: `TAKES_KING`, `NO_MOVE`, or the number of legal
    /// moves after which the opponent cannot take our King (at most 80).
    pub moves: Vec<u8>,
    /// Positions of the placement phase (the start and after the first
    /// King drop), outside the index.
    pub placement: u64,
    pub sweeps: u32,
    pub expansions: u64,
}

/// The main-phase positions right after the second King is placed: first
/// player to move, every cube in hand. `Nana` values, for the caller.
pub fn after_placement(ix: &Index) -> Vec<Nana> {
    let start = ix.material().start();
    let mut out = Vec::new();
    let mut ml = <Nana as Game>::MoveList::default();
    start.generate(&mut ml);
    for &m in ml.iter() {
        let p = start.play(m);
        let mut ml2 = <Nana as Game>::MoveList::default();
        p.generate(&mut ml2);
        out.extend(ml2.iter().map(|&m2| p.play(m2)));
    }
    out
}

/// The placement positions: the start and one per first King square.
pub fn placement_positions(ix: &Index) -> u64 {
    1 + ix.material().start().count_moves() as u64
}

pub fn enumerate(ix: &Index, log: &mut dyn FnMut(String)) -> Reached {
    let n = ix.len();
    let t0 = Instant::now();
    let mut reach = vec![0u8; n];
    let mut moves = vec![0u8; n];
    for p in after_placement(ix) {
        if let Some((i, _)) = ix.rank(p.board(), p.hands(), p.side_to_move()) {
            reach[i as usize] |= FIRST;
        }
    }
    let mut sweeps = 0;
    let mut expansions = 0u64;
    let mut ml = <Nana as Game>::MoveList::default();
    loop {
        sweeps += 1;
        let before = expansions;
        for i in 0..n {
            let r = reach[i];
            let pending = r & (FIRST | SECOND) & !(r >> 2);
            if pending == 0 {
                continue;
            }
            let first_time = r & (DONE_FIRST | DONE_SECOND) == 0;
            reach[i] = r | (pending << 2);
            expansions += 1;
            let (b, h) = ix.unrank(i as u32);
            let (_, own_mirror) = ix.king_pair(i as u32);
            let pos = Nana::from_parts(b, h, Color::First);
            ml.clear();
            pos.generate(&mut ml);
            let takes = b
                .king(Color::Second)
                .is_some_and(|k| b.attacked_by(Color::First, k));
            // A move swaps the side to move: the next class is reached
            // with the other bit.
            let next = ((pending & FIRST) << 1) | ((pending & SECOND) >> 1);
            let mut open = 0u8;
            for &m in ml.iter() {
                let (sb, sh) = apply(&b, &h, Color::First, m);
                if let Some((s, _)) = ix.rank(&sb, &sh, Color::Second) {
                    reach[s as usize] |= next;
                    // This class also stands for the mirror image of the
                    // stored position, whose moves are the mirror images
                    // of these. They reach the same classes, except those
                    // with both Kings on file b: there the mirror image is
                    // a class of its own.
                    if !own_mirror && ix.king_pair(s).1 {
                        let mb = mirror_board(&sb);
                        if let Some((ms, _)) = ix.rank(&mb, &sh, Color::Second) {
                            reach[ms as usize] |= next;
                        }
                    }
                    if !sb
                        .king(Color::First)
                        .is_some_and(|k| sb.attacked_by(Color::Second, k))
                    {
                        open += 1;
                    }
                }
            }
            if first_time {
                moves[i] = if takes {
                    TAKES_KING
                } else if ml.is_empty() {
                    NO_MOVE
                } else {
                    open
                };
            }
        }
        log(format!(
            "enumerate: sweep {sweeps}, {} expansions, {:.1} s",
            expansions - before,
            t0.elapsed().as_secs_f64()
        ));
        if expansions == before {
            break;
        }
    }
    for r in reach.iter_mut() {
        *r &= FIRST | SECOND;
    }
    Reached {
        reach,
        moves,
        placement: placement_positions(ix),
        sweeps,
        expansions,
    }
}
