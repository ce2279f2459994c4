//! A naive second implementation written from the rules' text alone: a
//! plain 3x3 array, piece moves from direction lists, every reply of the
//! opponent generated and tried for the mate test. No table, bitboard or
//! shortcut of the real module is used.

/// `g[file][rank]`: 0 empty, +k first player's, -k second player's,
/// k = 1 King, 2 R, 3 V, 4 W, 5 G, 6 B, 7 T, 8 C, 9 D.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct P {
    pub g: [[i8; 3]; 3],
    /// `hand[side][0 King, 1 orthogonal, 2 diagonal]`.
    pub hand: [[u8; 3]; 2],
    /// 0 first player, 1 second.
    pub me: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum M {
    Step(usize, usize, usize, usize),
    Drop(i8, usize, usize),
}

const LETTERS: &[u8] = b".KRVWGBTCD";

pub fn text(m: M) -> String {
    let sq = |f: usize, r: usize| format!("{}{}", (b'a' + f as u8) as char, r + 1);
    match m {
        M::Step(f, r, tf, tr) => format!("{}{}", sq(f, r), sq(tf, tr)),
        M::Drop(k, f, r) => format!("{}@{}", LETTERS[k as usize] as char, sq(f, r)),
    }
}

fn sign(side: usize) -> i8 {
    if side == 0 { 1 } else { -1 }
}

/// Directions (file, rank) with "forward" = +rank, and how far along
/// each the piece may go, transcribed from the table of `docs/rules/nana.md`.
fn pattern(k: i8) -> (Vec<(i32, i32)>, i32) {
    let orth = vec![(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diag = vec![(1, 1), (-1, 1), (1, -1), (-1, -1)];
    match k {
        1 => ([orth.clone(), diag].concat(), 1), // King: any of 8, one step
        2 => (orth, 1),                          // Rook: one step orthogonally
        3 => (vec![(0, 1), (0, -1)], 2),         // Chariot: 1-2 forward or back
        4 => (vec![(1, 0), (-1, 0)], 1),         // Wings: left or right
        5 => (vec![(0, 1), (0, -1)], 1),         // Go-between: forward or back
        6 => (diag, 2),                          // Bishop: 1-2 diagonally
        7 => (vec![(1, 1), (-1, 1), (0, -1)], 1), // Tile: diag forward, back
        8 => (diag, 1),                          // Cat: one diagonal step
        9 => (vec![(0, 1), (1, -1), (-1, -1)], 1), // Dog: forward, diag back
        _ => unreachable!(),
    }
}

/// The next state of the cycle R V W G R and B T C D B; the King stays.
fn next(k: i8) -> i8 {
    match k {
        1 => 1,
        5 => 2,
        9 => 6,
        k => k + 1,
    }
}

fn family(k: i8) -> usize {
    match k {
        1 => 0,
        2..=5 => 1,
        _ => 2,
    }
}

fn owner(v: i8) -> Option<usize> {
    match v {
        0 => None,
        v if v > 0 => Some(0),
        _ => Some(1),
    }
}

/// The squares the piece on (f, r) attacks (reaches).
fn reach(p: &P, f: usize, r: usize) -> Vec<(usize, usize)> {
    let v = p.g[f][r];
    let side = owner(v).unwrap();
    let fwd = if side == 0 { 1 } else { -1 };
    let (dirs, max) = pattern(v.abs());
    let mut out = vec![];
    for (df, dr) in dirs {
        for n in 1..=max {
            let (nf, nr) = (f as i32 + df * n, r as i32 + dr * fwd * n);
            if !(0..3).contains(&nf) || !(0..3).contains(&nr) {
                break;
            }
            out.push((nf as usize, nr as usize));
            if p.g[nf as usize][nr as usize] != 0 {
                break;
            }
        }
    }
    out
}

fn king(p: &P, side: usize) -> Option<(usize, usize)> {
    (0..9)
        .map(|i| (i % 3, i / 3))
        .find(|&(f, r)| p.g[f][r] == sign(side))
}

fn attacked(p: &P, by: usize, sq: (usize, usize)) -> bool {
    (0..9)
        .map(|i| (i % 3, i / 3))
        .any(|(f, r)| owner(p.g[f][r]) == Some(by) && reach(p, f, r).contains(&sq))
}

pub fn apply(p: &P, m: M) -> P {
    let mut q = p.clone();
    let s = sign(p.me);
    match m {
        M::Drop(k, f, r) => {
            q.hand[p.me][family(k)] -= 1;
            q.g[f][r] = s * k;
        }
        M::Step(f, r, tf, tr) => {
            let taken = q.g[tf][tr].abs();
            if taken > 1 {
                q.hand[p.me][family(taken)] += 1;
            }
            q.g[tf][tr] = s * next(q.g[f][r].abs());
            q.g[f][r] = 0;
        }
    }
    q.me = 1 - p.me;
    q
}

/// Legal moves; `rule5` off gives the replies the mate test looks at.
pub fn moves(p: &P, rule5: bool) -> Vec<M> {
    let me = p.me;
    let them = 1 - me;
    let enemy_king = king(p, them);
    let mut out = vec![];
    // A drop is fine on an empty square other than b2 when the dropped
    // piece does not attack the enemy King.
    let drops = |kinds: &[i8], out: &mut Vec<M>| {
        for i in 0..9 {
            let (f, r) = (i % 3, i / 3);
            if p.g[f][r] != 0 || (f, r) == (1, 1) {
                continue;
            }
            for &k in kinds {
                let mut q = p.clone();
                q.g[f][r] = sign(me) * k;
                if enemy_king.is_some_and(|ek| reach(&q, f, r).contains(&ek)) {
                    continue;
                }
                out.push(M::Drop(k, f, r));
            }
        }
    };
    if p.hand[me][0] > 0 {
        drops(&[1], &mut out);
        return out;
    }
    if king(p, me).is_none() || enemy_king.is_none() {
        return out;
    }
    if p.hand[me][1] > 0 {
        drops(&[2, 3, 4, 5], &mut out);
    }
    if p.hand[me][2] > 0 {
        drops(&[6, 7, 8, 9], &mut out);
    }
    let holding = p.hand[me][1] + p.hand[me][2] > 0;
    for i in 0..9 {
        let (f, r) = (i % 3, i / 3);
        if owner(p.g[f][r]) != Some(me) {
            continue;
        }
        for (tf, tr) in reach(p, f, r) {
            if owner(p.g[tf][tr]) == Some(me) {
                continue;
            }
            let m = M::Step(f, r, tf, tr);
            if rule5 && holding && Some((tf, tr)) != enemy_king && mates(&apply(p, m)) {
                continue;
            }
            out.push(m);
        }
    }
    out
}

/// The spec's checkmate, for the side to move in `q`.
fn mates(q: &P) -> bool {
    let def = q.me;
    let atk = 1 - def;
    let Some(k) = king(q, def) else { return false };
    if !attacked(q, atk, k) {
        return false;
    }
    for m in moves(q, false) {
        let a = apply(q, m);
        if king(&a, atk).is_none() {
            return false; // took the attacker's King
        }
        if !attacked(&a, atk, king(&a, def).unwrap()) {
            return false;
        }
    }
    true
}

pub fn over(p: &P) -> bool {
    king(p, p.me).is_none() && p.hand[p.me][0] == 0
}

pub fn perft(p: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if over(p) {
        return 0;
    }
    let ms = moves(p, true);
    if depth == 1 {
        return ms.len() as u64;
    }
    ms.iter().map(|&m| perft(&apply(p, m), depth - 1)).sum()
}

pub fn start() -> P {
    P {
        g: [[0; 3]; 3],
        hand: [[1; 3]; 2],
        me: 0,
    }
}
