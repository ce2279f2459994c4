//! Retrograde analysis over the reached classes, by distance to the end.
//!
//! Values are bytes: `UNKNOWN` (0) for classes not reached, `DRAW` (255),
//! and `1 + d` for a position decided `d` plies before the end. The side
//! to move wins when `d` is odd and loses when `d` is even: a loss in 0 is
//! a position without a legal move, a win in 1 takes the enemy King (the
//! position after it, without a King, is the end), and each ply further
//! alternates. The ends come from the move generator (`enumerate` records
//! the move counts and whether the King can be taken).
//!
//! Level by level (`d = 0, 1, 2, ...`), every class decided at `d` visits
//! its predecessors (`unmove::unmoves`, both members of its class): after a
//! loss each undecided predecessor wins at `d + 1`; after a win each
//! predecessor's count of moves not yet known to lose is decreased, and at
//! zero it loses at `d + 1`. Processing in order of distance makes every
//! win the shortest and every loss the longest. What is never decided is a
//! draw: neither side can force an end, and with finitely many positions
//! endless play repeats one a fourth time.

use super::enumerate::{NO_MOVE, TAKES_KING};
use super::error::SolveError;
use super::unmove::{Hands, unmoves};
use crate::core::Color;
use crate::games::nana::Board;
use crate::games::nana::index::{Index, mirror_board};
use crate::games::nana::tablebase::{DRAW, MAX_DISTANCE, UNKNOWN, Value, encode};
use std::time::Instant;

/// Calls `f` with the index of every stored class having a legal move into
/// the class `idx`, once per such move.
#[inline]
pub fn predecessors(ix: &Index, idx: u32, mut f: impl FnMut(u32)) {
    let (b, h) = ix.unrank(idx);
    let (_, own_mirror) = ix.king_pair(idx);
    visit(ix, &b, &h, &mut f);
    if !own_mirror {
        visit(ix, &mirror_board(&b), &h, &mut f);
    }
}

/// The predecessors of one member `z` (first player to move) of a class.
/// They have the second player to move: their index is taken after the
/// colour flip, and only those stored as they are count (the mirrored
/// ones are reached from the other member). Moves other than King steps
/// keep the Kings, so whether they are stored mirrored is known at once.
#[inline]
fn visit(ix: &Index, z: &Board, h: &Hands, f: &mut impl FnMut(u32)) {
    let (Some(kf), Some(ks)) = (z.king(Color::First), z.king(Color::Second)) else {
        return;
    };
    let kings_only = ix.mirrored(8 - ks.index(), 8 - kf.index());
    unmoves(z, h, Color::First, kings_only, |pb, ph| {
        if let Some((p, false)) = ix.rank(pb, ph, Color::Second) {
            f(p);
        }
    });
}

pub struct Solved {
    pub values: Vec<u8>,
    /// The longest distance found.
    pub longest: u32,
}

/// Labels every reached class. `counters` are the move counts of
/// `enumerate` (consumed).
///
/// The classes of each distance are kept in a list, sorted before they are
/// processed (their predecessors then fall in few King pairs at a time).
/// The wins in 1 by taking the King are not listed: `enumerate` already
/// left the moves into them out of the counts, and a class all of whose
/// moves run into them starts as a loss in 2.
pub fn retro(
    ix: &Index,
    reach: &[u8],
    mut counters: Vec<u8>,
    log: &mut dyn FnMut(String),
) -> Result<Solved, SolveError> {
    let n = ix.len();
    let t0 = Instant::now();
    let mut values = vec![UNKNOWN; n];
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); 3];
    let mut longest = 0u32;
    for i in 0..n {
        if reach[i] == 0 {
            continue;
        }
        match counters[i] {
            TAKES_KING => {
                values[i] = encode(Value::Win(1));
                longest = longest.max(1);
            }
            NO_MOVE => {
                values[i] = encode(Value::Loss(0));
                lists[0].push(i as u32);
            }
            0 => {
                values[i] = encode(Value::Loss(2));
                lists[2].push(i as u32);
                longest = 2;
            }
            _ => {}
        }
    }
    let mut d = 0usize;
    let mut broken = 0u64;
    while d < lists.len() {
        if d as u32 + 1 > MAX_DISTANCE {
            return Err(SolveError::TooDeep);
        }
        let mut here = std::mem::take(&mut lists[d]);
        here.sort_unstable();
        let next = (d + 2) as u8;
        let lost = d.is_multiple_of(2);
        let mut new = Vec::new();
        for &i in &here {
            predecessors(ix, i, |p| {
                let pu = p as usize;
                if reach[pu] == 0 || values[pu] != UNKNOWN {
                    return;
                }
                if lost {
                    values[pu] = next;
                    new.push(p);
                } else if counters[pu] == 0 {
                    broken += 1;
                } else {
                    counters[pu] -= 1;
                    if counters[pu] == 0 {
                        values[pu] = next;
                        new.push(p);
                    }
                }
            });
        }
        if !new.is_empty() {
            longest = longest.max(d as u32 + 1);
            if lists.len() < d + 2 {
                lists.resize(d + 2, Vec::new());
            }
            lists[d + 1].extend_from_slice(&new);
        }
        log(format!(
            "retro: {} classes {} in {d}, {} new at {}, {:.1} s",
            here.len(),
            if lost { "lost" } else { "won" },
            new.len(),
            d + 1,
            t0.elapsed().as_secs_f64()
        ));
        d += 1;
    }
    if broken > 0 {
        return Err(SolveError::Unmoves { broken });
    }
    for i in 0..n {
        if reach[i] != 0 && values[i] == UNKNOWN {
            values[i] = DRAW;
        }
    }
    Ok(Solved { values, longest })
}
