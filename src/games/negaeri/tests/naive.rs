//! A naive second implementation on plain arrays: pieces as signed codes
//! (positive for the first player), every move tried square by square, flips
//! by walking the board one step at a time and collecting levels in vectors.

use super::*;
use std::collections::BTreeMap;

// 1 P, 2 R, 3 B, 4 K, 5 +P, 6 +R, 7 +B; positive first player.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct State {
    pub g: [[i8; 6]; 6], // [rank][file]
    pub hands: [[u8; 3]; 2],
    pub me: i8,
    pub passes: u8,
}

impl From<&Negaeri> for State {
    fn from(p: &Negaeri) -> State {
        let mut g = [[0; 6]; 6];
        for r in 0..6 {
            for f in 0..6 {
                if let Some((c, k)) = p.piece_at(Square::new(f, r)) {
                    let code = match k {
                        Kind::Pawn => 1,
                        Kind::Rook => 2,
                        Kind::Bishop => 3,
                        Kind::King => 4,
                        Kind::Tokin => 5,
                        Kind::Dragon => 6,
                        Kind::Horse => 7,
                    };
                    g[r as usize][f as usize] = if c == Color::First { code } else { -code };
                }
            }
        }
        let mut hands = [[0; 3]; 2];
        for c in Color::BOTH {
            for (i, k) in [Kind::Pawn, Kind::Rook, Kind::Bishop]
                .into_iter()
                .enumerate()
            {
                hands[c.index()][i] = p.in_hand(c, k);
            }
        }
        State {
            g,
            hands,
            me: if p.side_to_move() == Color::First {
                1
            } else {
                -1
            },
            passes: p.passes(),
        }
    }
}

fn on(r: i32, f: i32) -> bool {
    (0..6).contains(&r) && (0..6).contains(&f)
}

/// (rank step, file step, slides) for a piece code, `fwd` +1 or -1.
fn steps(code: i8, fwd: i32) -> Vec<(i32, i32, bool)> {
    let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut v = vec![];
    match code {
        1 => v.push((fwd, 0, false)),
        2 => v.extend(orth.iter().map(|&(a, b)| (a, b, true))),
        3 => v.extend(diag.iter().map(|&(a, b)| (a, b, true))),
        4 => v.extend(orth.iter().chain(diag.iter()).map(|&(a, b)| (a, b, false))),
        5 => v.extend(
            [(fwd, 0), (fwd, 1), (fwd, -1), (0, 1), (0, -1), (-fwd, 0)].map(|(a, b)| (a, b, false)),
        ),
        6 => {
            v.extend(orth.iter().map(|&(a, b)| (a, b, true)));
            v.extend(diag.iter().map(|&(a, b)| (a, b, false)));
        }
        7 => {
            v.extend(diag.iter().map(|&(a, b)| (a, b, true)));
            v.extend(orth.iter().map(|&(a, b)| (a, b, false)));
        }
        _ => unreachable!(),
    }
    v
}

fn name(r: usize, f: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

pub fn terminal(s: &State) -> bool {
    let kings = s.g.iter().flatten().filter(|&&c| c.abs() == 4).count();
    kings < 2 || s.passes >= 2
}

/// The levels a drop by `s.me` on (r, f) flips, applying them to `g`.
pub fn flip(
    g: &mut [[i8; 6]; 6],
    me: i8,
    r0: usize,
    f0: usize,
    rules: &NegaeriRules,
) -> Vec<Vec<(usize, usize)>> {
    let king = (0..36)
        .map(|i| (i / 6, i % 6))
        .find(|&(r, f)| g[r][f] == -4 * me);
    let loyal = |g: &[[i8; 6]; 6], r: usize, f: usize| {
        g[r][f].abs() == 4
            || king.is_some_and(|(kr, kf)| r.abs_diff(kr) <= 1 && f.abs_diff(kf) <= 1)
    };
    let mut levels = vec![];
    let mut frontier = vec![(r0, f0)];
    for _level in 1..=rules.chain_limit {
        let mut next: Vec<(usize, usize)> = vec![];
        for &(sr, sf) in &frontier {
            for dr in -1i32..=1 {
                for df in -1i32..=1 {
                    if dr == 0 && df == 0 {
                        continue;
                    }
                    let mut run = vec![];
                    let (mut r, mut f) = (sr as i32 + dr, sf as i32 + df);
                    let closed = loop {
                        if !on(r, f) {
                            break rules.edge;
                        }
                        let c = g[r as usize][f as usize];
                        if c == 0 {
                            break false;
                        }
                        if c.signum() == me {
                            break true;
                        }
                        if loyal(g, r as usize, f as usize) {
                            break false;
                        }
                        run.push((r as usize, f as usize));
                        r += dr;
                        f += df;
                    };
                    if closed {
                        for x in run {
                            if !next.contains(&x) {
                                next.push(x);
                            }
                        }
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        for &(r, f) in &next {
            let a = g[r][f].abs();
            g[r][f] = me * if a <= 3 { a + 4 } else { a };
        }
        levels.push(next.clone());
        frontier = next;
    }
    levels
}

/// Every legal move as text with the state it leads to.
pub fn moves(s: &State, rules: &NegaeriRules) -> BTreeMap<String, State> {
    let mut out = BTreeMap::new();
    let me = s.me;
    let us = if me == 1 { 0 } else { 1 };
    for r in 0..6 {
        for f in 0..6 {
            let c = s.g[r][f];
            if c == 0 || c.signum() != me {
                continue;
            }
            for (dr, df, slides) in steps(c.abs(), me as i32) {
                let (mut tr, mut tf) = (r as i32 + dr, f as i32 + df);
                while on(tr, tf) {
                    let t = s.g[tr as usize][tf as usize];
                    if t != 0 && t.signum() == me {
                        break;
                    }
                    let mut n = s.clone();
                    n.g[r][f] = 0;
                    n.g[tr as usize][tf as usize] = c;
                    if t != 0 && t.abs() != 4 {
                        let base = if t.abs() > 4 { t.abs() - 4 } else { t.abs() };
                        n.hands[us][base as usize - 1] += 1;
                    }
                    n.me = -me;
                    n.passes = 0;
                    out.insert(
                        format!("{}{}", name(r, f), name(tr as usize, tf as usize)),
                        n,
                    );
                    if t != 0 || !slides {
                        break;
                    }
                    tr += dr;
                    tf += df;
                }
            }
        }
    }
    for (i, letter) in ['P', 'R', 'B'].into_iter().enumerate() {
        if s.hands[us][i] == 0 {
            continue;
        }
        for r in 0..6 {
            for f in 0..6 {
                if s.g[r][f] != 0 {
                    continue;
                }
                let mut n = s.clone();
                n.hands[us][i] -= 1;
                n.g[r][f] = me * (i as i8 + 1);
                flip(&mut n.g, me, r, f, rules);
                n.me = -me;
                n.passes = 0;
                out.insert(format!("{letter}@{}", name(r, f)), n);
            }
        }
    }
    if out.is_empty() {
        let mut n = s.clone();
        n.me = -me;
        n.passes += 1;
        out.insert("pass".into(), n);
    }
    out
}

pub fn perft(s: &State, depth: u32, rules: &NegaeriRules) -> u64 {
    if depth == 0 {
        return 1;
    }
    if terminal(s) {
        return 0;
    }
    let moves = moves(s, rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.values().map(|n| perft(n, depth - 1, rules)).sum()
}
