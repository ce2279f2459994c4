//! Every position of one Kani Nari Ebi unit, both sides to move, every board
//! as it stands (no symmetry), solved by a deliberately plain forward solver
//! on the rules' own `generate`, `play` and `terminal`, and compared with the
//! generated table. An exit (a move out of the unit: a capture or a
//! promotion) reads the lower tables, which their own run checked; a move
//! that ends the game is judged by the rules. The plain solver shares with
//! the generator only the lower tables' values: its own index, no exit
//! notes, no marks, every undecided position recomputed in every sweep from
//! a copy of the values before it.

use super::{Dtz, Tables};
use crate::core::endgame::Layered;
use crate::core::{Color, Game, Outcome, Searchable};
use crate::games::kaninariebi::endgame::{Bare, Material, Signature};
use crate::games::kaninariebi::{KaniNariEbi, KaniRules};

struct Plain {
    pieces: u32,
    /// Every set of `pieces` squares, in increasing order (its place is
    /// its rank).
    sets: Vec<u32>,
    binomial: [[u32; 11]; 26],
    /// Arrangement id of each code (a base-4 digit per occupied square,
    /// lowest square first: 0/1 a first-player Crab/Shrimp, 2/3 the
    /// second's), `u16::MAX` for codes of a material outside the unit.
    id: Vec<u16>,
    code: Vec<u16>,
}

impl Plain {
    /// The positions of the unit of `sig`: the first player with the
    /// mover's material and the second with the other's, or the reverse.
    fn new(sig: Signature) -> Plain {
        let pieces = sig.pieces();
        let mut binomial = [[0u32; 11]; 26];
        for n in 0..26 {
            binomial[n][0] = 1;
            for k in 1..11.min(n + 1) {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let sets: Vec<u32> = (0u32..1 << 25)
            .filter(|s| s.count_ones() == pieces)
            .collect();
        let counts = |first: Material, second: Material| {
            [first.crabs, first.shrimps, second.crabs, second.shrimps]
        };
        let wanted = [counts(sig.mover, sig.other), counts(sig.other, sig.mover)];
        let (mut id, mut code) = (vec![u16::MAX; 1 << (2 * pieces)], Vec::new());
        for c in 0..1u32 << (2 * pieces) {
            let mut count = [0u8; 4];
            for j in 0..pieces {
                count[(c >> (2 * j) & 3) as usize] += 1;
            }
            if wanted.contains(&count) {
                id[c as usize] = code.len() as u16;
                code.push(c as u16);
            }
        }
        Plain {
            pieces,
            sets,
            binomial,
            id,
            code,
        }
    }

    fn len(&self) -> usize {
        self.sets.len() * self.code.len() * 2
    }

    /// The position's place, `None` when it is not of the unit.
    fn index(&self, pos: &KaniNariEbi) -> Option<usize> {
        let (first, second) = (pos.pieces(Color::First), pos.pieces(Color::Second));
        let shrimps = pos.shrimps(Color::First) | pos.shrimps(Color::Second);
        let occ = first | second;
        if occ.count_ones() != self.pieces {
            return None;
        }
        let (mut rank, mut code, mut k, mut rest) = (0usize, 0usize, 0, occ);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            rank += self.binomial[sq as usize][k + 1] as usize;
            let t = usize::from(second & 1 << sq != 0) * 2 + usize::from(shrimps & 1 << sq != 0);
            code |= t << (2 * k);
            k += 1;
        }
        let a = self.id[code];
        (a != u16::MAX)
            .then(|| (rank * self.code.len() + a as usize) * 2 + pos.side_to_move().index())
    }

    fn position(&self, i: usize, rules: &KaniRules) -> KaniNariEbi {
        let side = i % 2;
        let code = self.code[i / 2 % self.code.len()];
        let occ = self.sets[i / 2 / self.code.len()];
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

    /// A child's value for the side to move in it, with the distance
    /// restarting at an exit or an end: a position of the unit from `old`,
    /// an end from the rules, any other from the lower tables.
    fn child(&self, old: &[u8], child: &KaniNariEbi, lower: &Tables<KaniNariEbi>) -> Dtz {
        if let Some(end) = child.terminal() {
            return match end.outcome {
                Outcome::Win(c) if c == child.side_to_move() => Dtz::Win(0),
                Outcome::Win(_) => Dtz::Loss(0),
                Outcome::Draw => Dtz::Draw,
            };
        }
        if let Some(j) = self.index(child) {
            return Dtz::decode(old[j]);
        }
        match lower.probe(child) {
            Some(Dtz::Win(_)) => Dtz::Win(0),
            Some(Dtz::Loss(_)) => Dtz::Loss(0),
            Some(Dtz::Draw) => Dtz::Draw,
            None => panic!("no table holds {}", child.to_text()),
        }
    }

    /// Sweep `k` over `range` of the entries: what `old` (the values
    /// before the sweep) decides at distance `k`, written into `out`.
    fn sweep(
        &self,
        old: &[u8],
        out: &mut [u8],
        start: usize,
        k: u32,
        rules: &KaniRules,
        lower: &Tables<KaniNariEbi>,
    ) -> u64 {
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
                    match self.child(old, &pos.play(m), lower) {
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

/// Needs the generated tables under `KOMA_TABLES` (a root folder, as
/// `koma solve --out`): the unit's own and those its exits lead to.
/// `KOMA_PLAIN_UNIT` names the unit (default `CSSvCSS`, the one closed unit:
/// every exit there ends the game). `CSSvCSS` takes about 10 minutes of CPU
/// on two threads; a unit's cost grows with its positions and sweeps.
#[test]
#[ignore = "needs the generated tables: KOMA_TABLES=<root> [KOMA_PLAIN_UNIT=CCCvCCC] cargo test --lib kani_plain -- --ignored"]
fn a_plain_solver_agrees_on_every_position_of_a_unit() {
    let Some(root) = std::env::var_os("KOMA_TABLES") else {
        eprintln!("skipped: KOMA_TABLES names no folder of tables");
        return;
    };
    let name = std::env::var("KOMA_PLAIN_UNIT").unwrap_or_else(|_| "CSSvCSS".into());
    let sig = KaniNariEbi::parse_sig(&name).expect("KOMA_PLAIN_UNIT: a signature");
    let rules = KaniRules::default();
    let tables = Tables::<KaniNariEbi>::open(std::path::Path::new(&root), &rules);
    let plain = Plain::new(sig);
    let n = plain.len();
    let mut values = vec![0u8; n];
    let mut sweeps = 0;
    for k in 0u32.. {
        let old = values.clone();
        let half = n / 2;
        let (a, b) = values.split_at_mut(half);
        let (p, o, r, t) = (&plain, &old, &rules, &tables);
        let decided = std::thread::scope(|s| {
            let x = s.spawn(move || p.sweep(o, a, 0, k, r, t));
            let y = s.spawn(move || p.sweep(o, b, half, k, r, t));
            x.join().expect("a thread") + y.join().expect("a thread")
        });
        eprintln!("plain {name} sweep {k}: {decided} decided");
        sweeps = k + 1;
        if k >= 1 && decided == 0 {
            break;
        }
    }
    let (mut faults, mut wdl) = (0, [0u64; 3]);
    for (i, &v) in values.iter().enumerate() {
        let pos = plain.position(i, &rules);
        let t = tables.probe(&pos).expect("the tables hold the unit");
        wdl[(1 - t.wdl()) as usize] += 1;
        if t != Dtz::decode(v) {
            faults += 1;
            if faults <= 10 {
                eprintln!("{}: table {t}, plain {}", pos.to_text(), Dtz::decode(v));
            }
        }
    }
    assert_eq!(faults, 0, "of {n} positions of {name}");
    eprintln!(
        "{name}: all {n} positions agree ({} won, {} drawn, {} lost; {sweeps} sweeps)",
        wdl[0], wdl[1], wdl[2]
    );
}
