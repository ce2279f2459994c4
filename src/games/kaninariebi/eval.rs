//! Kani Nari Ebi evaluation, in centipawns from the side to move's view.
//! Each term is what a strong player counts; the weights were set by
//! fixed-node self-play matches (see the commit messages).

use super::KaniNariEbi;
use super::board::{self, Bitboard, DIAGONAL, east, north, south, squares, west};
use super::movegen::{PIECES, resting};
use crate::core::sandwich::exposed_along;
use crate::core::{Color, Game};

/// The weights, by name.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Pieces on the board: three captures win, so each lost piece weighs
    /// more than the one before. By pieces left (3, 4); 5 is the zero.
    pub lost_one: i32,
    pub lost_two: i32,
    /// Own Shrimps: three win. Values of one and of two Shrimps.
    pub shrimp_one: i32,
    pub shrimp_two: i32,
    /// Per file a Crab has advanced toward the promotion column.
    pub crab_advance: i32,
    /// Crabs that can reach the promotion column with their next movement.
    pub promo_ready: i32,
    /// The same with two Shrimps already: the next movement wins.
    pub promo_wins: i32,
    /// Crabs with no enemy piece between them and the promotion column on
    /// their rank (the lane may open for them).
    pub crab_open: i32,
    /// Per normal movement.
    pub mobility: i32,
    /// Per movement short of four: close to the no-legal-movement loss.
    pub low_mobility: i32,
    /// Side to move: own pieces an enemy movement could sandwich next.
    pub hanging_us: i32,
    /// Extra for a hanging Shrimp of the side to move.
    pub hanging_shrimp: i32,
    /// Side to move: enemy pieces we can sandwich now.
    pub hanging_them: i32,
    /// The side not to move threatens to win with its next movement.
    pub threat_win: i32,
}

/// The tuned weights; a candidate set is tried by building it.
const WEIGHTS: Weights = Weights {
    lost_one: 100,
    lost_two: 280,
    shrimp_one: 45,
    shrimp_two: 150,
    crab_advance: 8,
    promo_ready: 15,
    promo_wins: 200,
    crab_open: 10,
    mobility: 4,
    low_mobility: 30,
    hanging_us: 30,
    hanging_shrimp: 30,
    hanging_them: 15,
    threat_win: 300,
};

/// `LANE[c][s]`: the squares of the rank of `s` from beside it up to and
/// including `c`'s promotion column.
static LANE: [[Bitboard; board::SQUARES]; 2] = {
    let mut t = [[0; board::SQUARES]; 2];
    let mut s = 0;
    while s < board::SQUARES {
        let (f, r) = (s % 5, s / 5);
        let mut g = f + 1;
        while g < 5 {
            t[0][s] |= 1 << (r * 5 + g);
            g += 1;
        }
        let mut g = 0;
        while g < f {
            t[1][s] |= 1 << (r * 5 + g);
            g += 1;
        }
        s += 1;
    }
    t
};

/// What one side's normal movements reach.
pub struct Reach {
    /// Every resting square of a movement.
    pub squares: Bitboard,
    /// Number of normal movements (promotion choices counted apart).
    movements: u32,
    /// Crabs with a movement into the promotion column.
    promo_ready: u32,
}

pub fn reach(own: Bitboard, shrimps: Bitboard, enemy: Bitboard, zone: Bitboard) -> Reach {
    let occupied = own | enemy;
    let mut r = Reach {
        squares: 0,
        movements: 0,
        promo_ready: 0,
    };
    for from in squares(own) {
        let crab = shrimps & from.bit() == 0;
        let to = if crab {
            board::crab_targets(from, occupied)
        } else {
            DIAGONAL[from.index()] & !occupied
        };
        let (plain, promote) = resting(to, occupied, crab, zone);
        r.squares |= plain;
        r.movements += plain.count_ones() + promote.count_ones();
        r.promo_ready += u32::from(promote != 0);
    }
    r
}

/// The pieces of `ours` that a movement of the other side onto one of
/// `their_reach` would sandwich against a piece of `theirs`.
#[inline]
pub fn exposed(ours: Bitboard, theirs: Bitboard, their_reach: Bitboard) -> Bitboard {
    let landing = !(ours | theirs) & their_reach;
    exposed_along(ours, theirs, landing, north, south)
        | exposed_along(ours, theirs, landing, south, north)
        | exposed_along(ours, theirs, landing, east, west)
        | exposed_along(ours, theirs, landing, west, east)
}

/// The terms that do not depend on who is to move, for side `c`.
fn static_side(w: &Weights, pos: &KaniNariEbi, c: Color, r: &Reach) -> i32 {
    let own = pos.pieces(c);
    let shrimps = pos.shrimps(c);
    let crabs = own & !shrimps;
    let mut s = match own.count_ones() {
        n if n >= PIECES => 0,
        4 => -w.lost_one,
        _ => -w.lost_two,
    };
    s += match shrimps.count_ones() {
        0 => 0,
        1 => w.shrimp_one,
        _ => w.shrimp_two,
    };
    let enemy = pos.pieces(c.opponent());
    for sq in squares(crabs) {
        let advanced = match c {
            Color::First => sq.file(),
            Color::Second => board::FILES - 1 - sq.file(),
        };
        s += advanced as i32 * w.crab_advance;
        if LANE[c.index()][sq.index()] & enemy == 0 {
            s += w.crab_open;
        }
    }
    s += r.promo_ready as i32 * w.promo_ready;
    s += r.movements as i32 * w.mobility;
    s -= 4u32.saturating_sub(r.movements) as i32 * w.low_mobility;
    s
}

/// Whether the side not to move wins with its next normal movement: a
/// promotion to its third Shrimp, or its third capture.
pub fn threatened(pos: &KaniNariEbi) -> bool {
    let us = pos.side_to_move();
    let them = us.opponent();
    let ours = pos.pieces(us);
    let two_shrimps = pos.shrimps(them).count_ones() == 2;
    let last_three = ours.count_ones() == PIECES - 2;
    if !two_shrimps && !last_three {
        return false;
    }
    let theirs = pos.pieces(them);
    let r = reach(theirs, pos.shrimps(them), ours, board::home(us));
    (two_shrimps && r.promo_ready > 0) || (last_three && exposed(ours, theirs, r.squares) != 0)
}

pub fn evaluate(pos: &KaniNariEbi) -> i32 {
    let w = &WEIGHTS;
    let us = pos.side_to_move();
    let them = us.opponent();
    let (ours, theirs) = (pos.pieces(us), pos.pieces(them));
    let r_us = reach(ours, pos.shrimps(us), theirs, board::home(them));
    let r_them = reach(theirs, pos.shrimps(them), ours, board::home(us));
    let mut s = static_side(w, pos, us, &r_us) - static_side(w, pos, them, &r_them);
    let hanging_us = exposed(ours, theirs, r_them.squares);
    let hanging_them = exposed(theirs, ours, r_us.squares);
    s -= hanging_us.count_ones() as i32 * w.hanging_us;
    s -= (hanging_us & pos.shrimps(us)).count_ones() as i32 * w.hanging_shrimp;
    s += hanging_them.count_ones() as i32 * w.hanging_them;
    // The side not to move wins next unless we stop it: a promotion to the
    // third Shrimp, or the third capture.
    let they_win_next = (pos.shrimps(them).count_ones() == 2 && r_them.promo_ready > 0)
        || (ours.count_ones() == 3 && hanging_us != 0);
    if they_win_next {
        s -= w.threat_win;
    }
    if pos.shrimps(them).count_ones() == 2 {
        s -= r_them.promo_ready as i32 * w.promo_wins;
    }
    if pos.shrimps(us).count_ones() == 2 {
        s += r_us.promo_ready as i32 * w.promo_wins;
    }
    s
}
