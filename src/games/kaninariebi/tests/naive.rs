//! A naive second implementation on a plain 5x5 array, written rule by rule
//! from `docs/rules/kaninariebi.md`: every movement tried square by square, the current
//! walked in both directions, captures found by walking lines, the Bond
//! group by a breadth-first search, every turn kept by its text.

use super::*;

/// `[rank][file]`: 1 Crab, 2 Shrimp; positive for the first player.
pub type Grid = [[i8; 5]; 5];

pub fn grid(p: &KaniNariEbi) -> Grid {
    let mut g = [[0; 5]; 5];
    for (r, row) in g.iter_mut().enumerate() {
        for (f, cell) in row.iter_mut().enumerate() {
            let bit = Square::new(f as u8, r as u8).bit();
            let kind = if (p.shrimps(Color::First) | p.shrimps(Color::Second)) & bit != 0 {
                2
            } else {
                1
            };
            if p.pieces(Color::First) & bit != 0 {
                *cell = kind;
            } else if p.pieces(Color::Second) & bit != 0 {
                *cell = -kind;
            }
        }
    }
    g
}

fn name(r: usize, f: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn inside(r: i32, f: i32) -> bool {
    (0..5).contains(&r) && (0..5).contains(&f)
}

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Every movement of the piece on (r, f): its text, the board after the
/// current, promotion and capture, and its resting square. A Bond step
/// is one diagonal step whatever the piece. The same text may come
/// twice (two currents to one square).
pub fn movements(
    g: &Grid,
    r: usize,
    f: usize,
    bond_step: bool,
) -> Vec<(String, Grid, (usize, usize))> {
    let piece = g[r][f];
    let me = piece.signum();
    let crab = piece.abs() == 1;
    let mut board = *g;
    board[r][f] = 0;
    let mut landings = vec![];
    if crab && !bond_step {
        for df in [1, -1] {
            let mut nf = f as i32 + df;
            while inside(r as i32, nf) && board[r][nf as usize] == 0 {
                landings.push((r, nf as usize));
                nf += df;
            }
        }
    } else {
        for (dr, df) in DIAGONAL {
            let (nr, nf) = (r as i32 + dr, f as i32 + df);
            if inside(nr, nf) && board[nr as usize][nf as usize] == 0 {
                landings.push((nr as usize, nf as usize));
            }
        }
    }
    let zone = if me == 1 { 4 } else { 0 };
    let mut out = vec![];
    for (lr, lf) in landings {
        let rests: Vec<(usize, usize)> = if lf == 2 {
            [1, -1]
                .iter()
                .map(|&dr| {
                    let mut cr = lr as i32;
                    while inside(cr + dr, 2) && board[(cr + dr) as usize][2] == 0 {
                        cr += dr;
                    }
                    (cr as usize, 2)
                })
                .collect()
        } else {
            vec![(lr, lf)]
        };
        for (rr, rf) in rests {
            let choices: &[bool] = if crab && rf == zone {
                &[false, true]
            } else {
                &[false]
            };
            for &promote in choices {
                let mut n = board;
                n[rr][rf] = if promote { 2 * me } else { piece };
                capture(&mut n, rr, rf, me);
                let text = format!(
                    "{}{}{}",
                    name(r, f),
                    name(rr, rf),
                    if promote { "+" } else { "" }
                );
                out.push((text, n, (rr, rf)));
            }
        }
    }
    out
}

fn capture(n: &mut Grid, r: usize, f: usize, me: i8) {
    let mut taken = vec![];
    for (dr, df) in ORTHOGONAL {
        let mut run = vec![];
        let (mut cr, mut cf) = (r as i32 + dr, f as i32 + df);
        while inside(cr, cf) && n[cr as usize][cf as usize] * me < 0 {
            run.push((cr as usize, cf as usize));
            cr += dr;
            cf += df;
        }
        if !run.is_empty() && inside(cr, cf) && n[cr as usize][cf as usize] * me > 0 {
            taken.extend(run);
        }
    }
    for (a, b) in taken {
        n[a][b] = 0;
    }
}

pub fn won(g: &Grid, me: i8) -> bool {
    let enemy = g.iter().flatten().filter(|&&v| v * me < 0).count();
    let shrimps = g.iter().flatten().filter(|&&v| v == 2 * me).count();
    enemy <= 2 || shrimps >= 3
}

fn add(out: &mut BTreeMap<String, Grid>, text: String, n: Grid) {
    if let Some(old) = out.insert(text.clone(), n) {
        assert_eq!(old, n, "{text}: one text, two different results");
    }
}

/// Every turn of `me` (1 first player, -1 second): text -> board after.
pub fn turns(g: &Grid, me: i8, any_type: bool) -> BTreeMap<String, Grid> {
    let mut out = BTreeMap::new();
    for r in 0..5 {
        for f in 0..5 {
            if g[r][f] * me <= 0 {
                continue;
            }
            for (t1, g1, (rr, rf)) in movements(g, r, f, false) {
                add(&mut out, t1.clone(), g1);
                if won(&g1, me) {
                    continue;
                }
                let kind = g1[rr][rf];
                let mut group = vec![(rr, rf)];
                let mut i = 0;
                while i < group.len() {
                    let (a, b) = group[i];
                    i += 1;
                    for (dr, df) in ORTHOGONAL {
                        let (na, nb) = (a as i32 + dr, b as i32 + df);
                        if !inside(na, nb) {
                            continue;
                        }
                        let v = g1[na as usize][nb as usize];
                        let kin = if any_type { v * me > 0 } else { v == kind };
                        if kin && !group.contains(&(na as usize, nb as usize)) {
                            group.push((na as usize, nb as usize));
                        }
                    }
                }
                if group.len() < 2 {
                    continue;
                }
                for &(mr, mf) in &group {
                    for (t2, g2, _) in movements(&g1, mr, mf, true) {
                        add(&mut out, format!("{t1},{t2}"), g2);
                    }
                }
            }
        }
    }
    out
}

pub fn perft(g: &Grid, me: i8, depth: u32, any_type: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if won(g, -me) {
        return 0;
    }
    let turns = turns(g, me, any_type);
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .values()
        .map(|n| perft(n, -me, depth - 1, any_type))
        .sum()
}
