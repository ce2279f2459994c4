//! A naive second implementation: a 9x9 array, every (from, to) pair tried,
//! captures found by walking the array. Each move's result must match.

use super::*;

pub type Grid = [[i8; 9]; 9]; // [rank][file]: 1 first, -1 second, 0 empty

pub fn grid(p: &Hasami) -> Grid {
    let mut g = [[0; 9]; 9];
    for (c, v) in [(Color::First, 1), (Color::Second, -1)] {
        for sq in board::squares(p.men(c)) {
            g[sq.rank() as usize][sq.file() as usize] = v;
        }
    }
    g
}

/// (from, to, board after) for every legal move, as (rank, file).
pub type Moves = Vec<((usize, usize), (usize, usize), Grid)>;

pub fn moves(g: &Grid, me: i8, r: &HasamiRules) -> Moves {
    let mut out = Vec::new();
    for fr in 0..9 {
        for ff in 0..9 {
            if g[fr][ff] != me {
                continue;
            }
            for tr in 0..9 {
                for tf in 0..9 {
                    if (tr != fr) == (tf != ff) {
                        continue; // not on a line, or no move
                    }
                    let path_clear = (1..=fr.abs_diff(tr).max(ff.abs_diff(tf))).all(|k| {
                        let rr = if tr > fr {
                            fr + k
                        } else if tr < fr {
                            fr - k
                        } else {
                            fr
                        };
                        let f2 = if tf > ff {
                            ff + k
                        } else if tf < ff {
                            ff - k
                        } else {
                            ff
                        };
                        g[rr][f2] == 0
                    });
                    if path_clear {
                        let mut n = *g;
                        n[fr][ff] = 0;
                        n[tr][tf] = me;
                        capture(&mut n, tr, tf, me, r);
                        out.push(((fr, ff), (tr, tf), n));
                    }
                }
            }
        }
    }
    out
}

fn capture(n: &mut Grid, r0: usize, f0: usize, me: i8, rules: &HasamiRules) {
    let mut taken = vec![];
    for (dr, df) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
        let mut run = vec![];
        let (mut r, mut f) = (r0 as i32 + dr, f0 as i32 + df);
        while (0..9).contains(&r) && (0..9).contains(&f) && n[r as usize][f as usize] == -me {
            run.push((r as usize, f as usize));
            r += dr;
            f += df;
        }
        let closed = (0..9).contains(&r) && (0..9).contains(&f) && n[r as usize][f as usize] == me;
        if closed && !run.is_empty() && (rules.lines || run.len() == 1) {
            taken.extend(run);
        }
    }
    if rules.corners {
        for (cr, cf) in [(0usize, 0usize), (0, 8), (8, 0), (8, 8)] {
            let a = (cr, if cf == 0 { 1 } else { 7 });
            let b = (if cr == 0 { 1 } else { 7 }, cf);
            if n[cr][cf] == -me
                && n[a.0][a.1] == me
                && n[b.0][b.1] == me
                && ((r0, f0) == a || (r0, f0) == b)
            {
                taken.push((cr, cf));
            }
        }
    }
    for (r, f) in taken {
        n[r][f] = 0;
    }
}
