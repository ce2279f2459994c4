//! The match schedule: each game's number, round, pairing, colours, pair
//! and opening slot, fixed by the command line and `--seed` alone, so a
//! resumed run and every shard agree on it.

use crate::core::zobrist::splitmix;

/// One scheduled game. Engines are indices into the engine list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// 1-based, unique in the match.
    pub number: u64,
    /// 1-based.
    pub round: u32,
    /// The colour-swapped pair this game belongs to (1-based), if any.
    pub pair: Option<u64>,
    /// The engine that moves first.
    pub first: usize,
    pub second: usize,
    /// Which opening: both games of a pair share a slot, and every
    /// encounter of a round plays the same slots.
    pub slot: u64,
}

/// The most games a match schedules: its schedule is built in memory (a
/// few dozen bytes a game), and a count from a typo (`--rounds
/// 4000000000`) would exhaust it rather than start. Ten million games
/// are 70 days at a hundred games a minute.
pub const MAX_GAMES: u64 = 10_000_000;

/// How many games `build` schedules (saturating: the count is checked
/// against `MAX_GAMES` before anything is built).
pub fn count(engines: usize, games: u32, rounds: u32, seeds: Option<usize>) -> u64 {
    let n = engines as u64;
    let encounters: u64 = (0..seeds.unwrap_or(engines).min(engines) as u64)
        .map(|i| n - i - 1)
        .sum();
    encounters
        .saturating_mul(u64::from(games))
        .saturating_mul(u64::from(rounds))
}

/// Every game of a round robin between `engines` engines: each round,
/// each encounter `(i, j)`, `i < j`, plays `games` games with colours
/// alternating (`i` first in the first game), consecutive games forming
/// pairs on one opening. A gauntlet (`seeds`: `Some(n)`) keeps only the
/// encounters of the first `n` engines (with each other too).
pub fn build(engines: usize, games: u32, rounds: u32, seeds: Option<usize>) -> Vec<GameSpec> {
    let slots_per_round = u64::from(games.div_ceil(2));
    let mut out = Vec::new();
    let mut number = 0;
    let mut pair = 0;
    for r in 0..rounds {
        for i in 0..seeds.unwrap_or(engines).min(engines) {
            for j in i + 1..engines {
                for g in 0..games {
                    let k = g / 2;
                    let paired = 2 * k + 1 < games;
                    if paired && g % 2 == 0 {
                        pair += 1;
                    }
                    number += 1;
                    let (first, second) = if g % 2 == 0 { (i, j) } else { (j, i) };
                    out.push(GameSpec {
                        number,
                        round: r + 1,
                        pair: paired.then_some(pair),
                        first,
                        second,
                        slot: u64::from(r) * slots_per_round + u64::from(k),
                    });
                }
            }
        }
    }
    out
}

/// The games of shard `index` (1-based) of `count`: pairs are dealt out
/// whole, in turn, so every shard has complete pairs.
pub fn shard(specs: Vec<GameSpec>, index: u32, count: u32) -> Vec<GameSpec> {
    let mut unit = 0u64;
    let mut last_pair = None;
    let mut out = Vec::new();
    for (k, s) in specs.into_iter().enumerate() {
        let continues_pair = s.pair.is_some() && s.pair == last_pair;
        if k > 0 && !continues_pair {
            unit += 1;
        }
        last_pair = s.pair;
        if unit % u64::from(count) == u64::from(index - 1) {
            out.push(s);
        }
    }
    out
}

/// SplitMix64: small, fast, and the same on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of one opening slot: independent of play order.
    pub fn for_slot(seed: u64, slot: u64) -> Rng {
        Rng(splitmix(seed ^ slot.wrapping_mul(0xD1B5_4A32_D192_ED03)).1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (s, v) = splitmix(self.0);
        self.0 = s;
        v
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-high.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The order in which book lines are used: as in the file, or shuffled
/// once from the seed.
pub fn book_order(len: usize, random: bool, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    if random {
        let mut rng = Rng::new(seed ^ 0x0B00_C0DE);
        for i in (1..len).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_play_pairs_with_colours_swapped() {
        let s = build(2, 4, 2, None);
        assert_eq!(s.len(), 8);
        let firsts: Vec<usize> = s.iter().map(|g| g.first).collect();
        assert_eq!(firsts, [0, 1, 0, 1, 0, 1, 0, 1]);
        let pairs: Vec<Option<u64>> = s.iter().map(|g| g.pair).collect();
        assert_eq!(
            pairs,
            [
                Some(1),
                Some(1),
                Some(2),
                Some(2),
                Some(3),
                Some(3),
                Some(4),
                Some(4)
            ]
        );
        let slots: Vec<u64> = s.iter().map(|g| g.slot).collect();
        assert_eq!(slots, [0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(
            s.iter().map(|g| g.number).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_count_is_what_build_schedules_and_saturates() {
        for (engines, games, rounds, seeds) in [
            (2, 4, 2, None),
            (3, 1, 3, None),
            (5, 2, 2, Some(2)),
            (4, 3, 1, Some(9)),
        ] {
            let n = build(engines, games, rounds, seeds).len() as u64;
            assert_eq!(count(engines, games, rounds, seeds), n);
        }
        assert_eq!(count(200, u32::MAX, u32::MAX, None), u64::MAX);
    }

    #[test]
    fn an_odd_game_count_leaves_the_last_game_unpaired() {
        let s = build(2, 3, 1, None);
        assert_eq!(
            s.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [Some(1), Some(1), None]
        );
        assert_eq!(s[2].slot, 1);
    }

    #[test]
    fn a_round_robin_meets_every_pairing_on_the_same_openings() {
        let s = build(3, 2, 1, None);
        let pairings: Vec<(usize, usize)> = s.iter().map(|g| (g.first, g.second)).collect();
        assert_eq!(pairings, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
        assert!(s.iter().all(|g| g.slot == 0));
    }

    #[test]
    fn shards_partition_the_schedule_and_keep_pairs_whole() {
        let all = build(2, 2, 5, None);
        let mut seen: Vec<u64> = Vec::new();
        for i in 1..=3 {
            let part = shard(all.clone(), i, 3);
            for w in part.chunks(2) {
                assert_eq!(w[0].pair, w[1].pair);
            }
            seen.extend(part.iter().map(|g| g.number));
        }
        seen.sort();
        assert_eq!(seen, (1..=10).collect::<Vec<_>>());
        let odd = build(2, 3, 2, None);
        let n: usize = (1..=2).map(|i| shard(odd.clone(), i, 2).len()).sum();
        assert_eq!(n, 6);
    }

    #[test]
    fn random_numbers_depend_on_the_seed_only() {
        let a: Vec<u64> = (0..4).map(|s| Rng::for_slot(7, s).next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|s| Rng::for_slot(7, s).next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(
            Rng::for_slot(7, 0).next_u64(),
            Rng::for_slot(8, 0).next_u64()
        );
        let mut r = Rng::new(1);
        assert!((0..1000).all(|_| r.below(7) < 7));
        let o = book_order(10, true, 3);
        let mut sorted = o.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_ne!(o, (0..10).collect::<Vec<_>>());
        assert_eq!(book_order(3, false, 3), [0, 1, 2]);
    }

    #[test]
    fn a_gauntlet_keeps_the_seeds_encounters() {
        let pairs = |s: &[GameSpec]| -> Vec<(usize, usize)> {
            let mut p: Vec<_> = s
                .iter()
                .map(|g| (g.first.min(g.second), g.first.max(g.second)))
                .collect();
            p.dedup();
            p
        };
        assert_eq!(pairs(&build(4, 2, 1, Some(1))), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            pairs(&build(4, 2, 1, Some(2))),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
        );
        let g = build(4, 2, 3, Some(1));
        assert_eq!(g.len(), 3 * 3 * 2);
        assert!(g.iter().enumerate().all(|(k, s)| s.number == k as u64 + 1));
    }
}
