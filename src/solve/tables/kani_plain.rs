//! Every position of the Kani Nari Ebi signature CSSvCSS (each side a Crab
//! and two Shrimps), both sides to move, every board as it stands (no
//! symmetry), solved by a deliberately plain forward solver on the rules'
//! own `generate` and `play`, and compared with the generated table. The
//! signature is closed: every capture or promotion in it ends the game
//! (two pieces left, or three Shrimps), so it needs no other table.

use super::{Dtz, Tables};
use crate::core::{Color, Game, Outcome, Searchable};
use crate::games::kaninariebi::endgame::Bare;
use crate::games::kaninariebi::{KaniNariEbi, KaniRules};

/// C(25, 6) occupancy sets, 6!/(1! 2! 1! 2!) arrangements, 2 sides.
const ARRANGEMENTS: usize = 180;

struct Plain {
    /// Every 6-square set, in increasing order (its place is its rank).
    sets: Vec<u32>,
    binomial: [[u32; 7]; 26],
    /// Arrangement id of each code (a base-4 digit per occupied square,
    /// lowest square first: 0/1 a first-player Crab/Shrimp, 2/3 the
    /// second's), `u16::MAX` for codes of another material.
    id: Vec<u16>,
    code: Vec<u16>,
}

impl Plain {
    fn new() -> Plain {
        let mut binomial = [[0u32; 7]; 26];
        for n in 0..26 {
            binomial[n][0] = 1;
            for k in 1..7.min(n + 1) {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let sets: Vec<u32> = (0u32..1 << 25).filter(|s| s.count_ones() == 6).collect();
        let (mut id, mut code) = (vec![u16::MAX; 4096], Vec::new());
        for c in 0..4096u16 {
            let mut count = [0; 4];
            for j in 0..6 {
                count[(c >> (2 * j) & 3) as usize] += 1;
            }
            if count == [1, 2, 1, 2] {
                id[c as usize] = code.len() as u16;
                code.push(c);
            }
        }
        assert_eq!(code.len(), ARRANGEMENTS);
        Plain {
            sets,
            binomial,
            id,
            code,
        }
    }

    fn len(&self) -> usize {
        self.sets.len() * ARRANGEMENTS * 2
    }

    fn index(&self, pos: &KaniNariEbi) -> usize {
        let (first, second) = (pos.pieces(Color::First), pos.pieces(Color::Second));
        let shrimps = pos.shrimps(Color::First) | pos.shrimps(Color::Second);
        let occ = first | second;
        assert_eq!(occ.count_ones(), 6, "{}", pos.to_text());
        let (mut rank, mut code, mut k, mut rest) = (0usize, 0u16, 0, occ);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            rank += self.binomial[sq as usize][k + 1] as usize;
            let t = u16::from(second & 1 << sq != 0) * 2 + u16::from(shrimps & 1 << sq != 0);
            code |= t << (2 * k);
            k += 1;
        }
        let a = self.id[code as usize];
        assert_ne!(a, u16::MAX, "{}", pos.to_text());
        (rank * ARRANGEMENTS + a as usize) * 2 + pos.side_to_move().index()
    }

    fn position(&self, i: usize, rules: &KaniRules) -> KaniNariEbi {
        let side = i % 2;
        let code = self.code[i / 2 % ARRANGEMENTS];
        let occ = self.sets[i / 2 / ARRANGEMENTS];
        let (mut own, mut other, mut shrimps) = (0, 0, 0);
        let (mut k, mut rest) = (0, occ);
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let t = code >> (2 * k) & 3;
            if t >= 2 {
                other |= bit;
            } else {
                own |= bit;
            }
            if t % 2 == 1 {
                shrimps |= bit;
            }
            k += 1;
        }
        let pos = Bare {
            own,
            other,
            shrimps,
        }
        .position(rules);
        if side == 1 {
            pos.play_null().expect("a pass to set the side to move")
        } else {
            pos
        }
    }

    /// Sweep `k` over `range` of the entries: what `old` (the values
    /// before the sweep) decides at distance `k`, written into `out`.
    fn sweep(&self, old: &[u8], out: &mut [u8], start: usize, k: u32, rules: &KaniRules) -> u64 {
        let mut decided = 0;
        for (j, slot) in out.iter_mut().enumerate() {
            let i = start + j;
            if old[i] != 0 {
                continue;
            }
            let pos = self.position(i, rules);
            let mut ml = <KaniNariEbi as Game>::MoveList::default();
            pos.generate(&mut ml);
            let v = if ml.is_empty() {
                (k == 0).then_some(Dtz::Loss(0))
            } else if k == 0 {
                None
            } else {
                let (mut win, mut all_lose, mut latest) = (false, true, 0);
                for &m in ml.iter() {
                    let child = pos.play(m);
                    if let Some(end) = child.terminal() {
                        assert_eq!(end.outcome, Outcome::Win(pos.side_to_move()));
                        win |= k == 1;
                        all_lose = false;
                        continue;
                    }
                    match Dtz::decode(old[self.index(&child)]) {
                        Dtz::Loss(d) => {
                            win |= d + 1 == k;
                            all_lose = false;
                        }
                        Dtz::Win(d) => latest = latest.max(d + 1),
                        Dtz::Draw => all_lose = false,
                    }
                }
                if win {
                    Some(Dtz::Win(k))
                } else if all_lose && latest == k {
                    Some(Dtz::Loss(k))
                } else {
                    None
                }
            };
            if let Some(v) = v {
                *slot = v.encode();
                decided += 1;
            }
        }
        decided
    }
}

/// Needs the generated table of CSSvCSS under `KOMA_TABLES` (a root
/// folder, as `koma solve --out`): about 10 minutes of CPU on two threads.
#[test]
#[ignore = "needs the generated CSSvCSS table: KOMA_TABLES=<root> cargo test --lib kani_plain -- --ignored"]
fn a_plain_solver_agrees_on_every_position_of_cssvcss() {
    let Some(root) = std::env::var_os("KOMA_TABLES") else {
        eprintln!("skipped: KOMA_TABLES names no folder of tables");
        return;
    };
    let rules = KaniRules::default();
    let tables = Tables::<KaniNariEbi>::open(std::path::Path::new(&root), &rules);
    let plain = Plain::new();
    let n = plain.len();
    let mut values = vec![0u8; n];
    for k in 0u32.. {
        let old = values.clone();
        let half = n / 2;
        let (a, b) = values.split_at_mut(half);
        let (p, o, r) = (&plain, &old, &rules);
        let decided = std::thread::scope(|s| {
            let x = s.spawn(move || p.sweep(o, a, 0, k, r));
            let y = s.spawn(move || p.sweep(o, b, half, k, r));
            x.join().expect("a thread") + y.join().expect("a thread")
        });
        eprintln!("plain sweep {k}: {decided} decided");
        if k >= 1 && decided == 0 {
            break;
        }
    }
    let mut faults = 0;
    for (i, &v) in values.iter().enumerate() {
        let pos = plain.position(i, &rules);
        let t = tables.probe(&pos).expect("the table holds CSSvCSS");
        if t != Dtz::decode(v) {
            faults += 1;
            if faults <= 10 {
                eprintln!("{}: table {t}, plain {}", pos.to_text(), Dtz::decode(v));
            }
        }
    }
    assert_eq!(faults, 0, "of {n} positions");
    eprintln!("all {n} positions agree");
}
