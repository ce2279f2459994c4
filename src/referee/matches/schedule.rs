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

/// When cutechess-cli's schedule moves on to a new opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewOpening {
    /// Its default: after `n` games on one (`-repeat n`; 1 without
    /// `-repeat`), and for each new encounter.
    Every(u32),
    /// `-openings policy=encounter`: for each new encounter only.
    Encounter,
    /// `-openings policy=round`: for each new round only, every encounter
    /// of the round on it.
    Round,
}

/// Every game of a round robin between `engines` engines: each round,
/// each encounter `(i, j)`, `i < j`, plays `games` games. A gauntlet
/// (`seeds`: `Some(n)`) keeps only the encounters of the first `n` engines
/// (with each other too).
///
/// `cutechess: None` is Koma's and fastchess's schedule: colours by the
/// game's number (odd: `i` first), as fastchess swaps them, and consecutive
/// games of an encounter's round form pairs on one opening, every encounter
/// of a round on the same ones. `Some(_)` is cutechess-cli's: colours
/// alternate within each encounter over the whole match, and a new opening
/// comes as `NewOpening` says; two games in a row of one encounter on one
/// opening are a pair.
pub fn build(
    engines: usize,
    games: u32,
    rounds: u32,
    seeds: Option<usize>,
    cutechess: Option<NewOpening>,
) -> Vec<GameSpec> {
    let slots_per_round = u64::from(games.div_ceil(2));
    let mut out: Vec<GameSpec> = Vec::new();
    // cutechess-cli: (slot, games already on it, the encounter, the
    // round), and how many games each encounter has played.
    let mut group: Option<(u64, u32, (usize, usize), u32)> = None;
    let mut played = std::collections::BTreeMap::<(usize, usize), u64>::new();
    for r in 0..rounds {
        for i in 0..seeds.unwrap_or(engines).min(engines) {
            for j in i + 1..engines {
                for g in 0..games {
                    let number = out.len() as u64 + 1;
                    let (slot, swapped) = match cutechess {
                        None => (
                            u64::from(r) * slots_per_round + u64::from(g / 2),
                            number.is_multiple_of(2),
                        ),
                        Some(policy) => {
                            let next = match (group, policy) {
                                (None, _) => (0, 0),
                                (Some((s, used, e, _)), NewOpening::Every(n))
                                    if e == (i, j) && used < n =>
                                {
                                    (s, used)
                                }
                                (Some((s, used, e, _)), NewOpening::Encounter) if e == (i, j) => {
                                    (s, used)
                                }
                                (Some((s, used, _, round)), NewOpening::Round) if round == r => {
                                    (s, used)
                                }
                                (Some((s, ..)), _) => (s + 1, 0),
                            };
                            group = Some((next.0, next.1 + 1, (i, j), r));
                            let k = played.entry((i, j)).or_default();
                            *k += 1;
                            (next.0, (*k).is_multiple_of(2))
                        }
                    };
                    let (first, second) = if swapped { (j, i) } else { (i, j) };
                    out.push(GameSpec {
                        number,
                        round: r + 1,
                        pair: None,
                        first,
                        second,
                        slot,
                    });
                }
            }
        }
    }
    pair_up(&mut out, cutechess.is_none());
    out
}

/// Numbers the pairs: two games in a row of one encounter on one opening
/// with colours swapped; in Koma's schedule only within one round's games.
fn pair_up(specs: &mut [GameSpec], by_round: bool) {
    let mut pair = 0;
    let mut k = 0;
    while k + 1 < specs.len() {
        let (a, b) = (&specs[k], &specs[k + 1]);
        let pairs = a.slot == b.slot
            && a.first == b.second
            && a.second == b.first
            && (!by_round || a.round == b.round);
        if pairs {
            pair += 1;
            specs[k].pair = Some(pair);
            specs[k + 1].pair = Some(pair);
            k += 2;
        } else {
            k += 1;
        }
    }
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
        let s = build(2, 4, 2, None, None);
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
            let n = build(engines, games, rounds, seeds, None).len() as u64;
            assert_eq!(count(engines, games, rounds, seeds), n);
        }
        assert_eq!(count(200, u32::MAX, u32::MAX, None), u64::MAX);
    }

    #[test]
    fn an_odd_game_count_leaves_the_last_game_unpaired() {
        let s = build(2, 3, 1, None, None);
        assert_eq!(
            s.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [Some(1), Some(1), None]
        );
        assert_eq!(s[2].slot, 1);
    }

    #[test]
    fn a_round_robin_meets_every_pairing_on_the_same_openings() {
        let s = build(3, 2, 1, None, None);
        let pairings: Vec<(usize, usize)> = s.iter().map(|g| (g.first, g.second)).collect();
        assert_eq!(pairings, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
        assert!(s.iter().all(|g| g.slot == 0));
    }

    #[test]
    fn shards_partition_the_schedule_and_keep_pairs_whole() {
        let all = build(2, 2, 5, None, None);
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
        let odd = build(2, 3, 2, None, None);
        let n: usize = (1..=2).map(|i| shard(odd.clone(), i, 2).len()).sum();
        assert_eq!(n, 6);
    }

    /// fastchess swaps colours by the game's number: `-games 1` alternates.
    #[test]
    fn one_game_a_round_alternates_colours_as_fastchess_does() {
        let s = build(2, 1, 4, None, None);
        let firsts: Vec<usize> = s.iter().map(|g| g.first).collect();
        assert_eq!(firsts, [0, 1, 0, 1]);
        assert!(s.iter().all(|g| g.pair.is_none()));
        assert_eq!(s.iter().map(|g| g.slot).collect::<Vec<_>>(), [0, 1, 2, 3]);
    }

    /// cutechess-cli: `-rounds 5` is five games, colours alternating, a new
    /// opening each game; `-repeat` plays each opening twice, as a pair.
    #[test]
    fn cutechess_counts_rounds_times_games_and_repeats_openings() {
        let s = build(2, 1, 5, None, Some(NewOpening::Every(1)));
        assert_eq!(s.len(), 5);
        assert_eq!(
            s.iter().map(|g| g.first).collect::<Vec<_>>(),
            [0, 1, 0, 1, 0]
        );
        assert_eq!(
            s.iter().map(|g| g.slot).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert!(s.iter().all(|g| g.pair.is_none()));
        let s = build(2, 1, 5, None, Some(NewOpening::Every(2)));
        assert_eq!(
            s.iter().map(|g| g.slot).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2]
        );
        assert_eq!(
            s.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [Some(1), Some(1), Some(2), Some(2), None]
        );
        // Three engines, -games 3 -repeat: each encounter starts a new
        // opening; colours alternate within an encounter across rounds.
        let s = build(3, 3, 2, None, Some(NewOpening::Every(2)));
        assert_eq!(s.len(), 18);
        let first_encounter: Vec<(usize, u64)> = s
            .iter()
            .filter(|g| g.first.min(g.second) == 0 && g.first.max(g.second) == 1)
            .map(|g| (g.first, g.slot))
            .collect();
        assert_eq!(
            first_encounter,
            [(0, 0), (1, 0), (0, 1), (1, 6), (0, 6), (1, 7)]
        );
    }

    /// cutechess-cli's `-openings policy=round`: one opening a round for
    /// every encounter; `policy=encounter`: one per encounter met.
    #[test]
    fn cutechess_opening_policies() {
        let s = build(3, 2, 2, None, Some(NewOpening::Round));
        let slots: Vec<u64> = s.iter().map(|g| g.slot).collect();
        assert_eq!(slots, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
        assert!(s.iter().all(|g| g.pair.is_some()));
        let s = build(2, 1, 4, None, Some(NewOpening::Encounter));
        assert!(s.iter().all(|g| g.slot == 0));
        assert_eq!(
            s.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [Some(1), Some(1), Some(2), Some(2)]
        );
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
        assert_eq!(
            pairs(&build(4, 2, 1, Some(1), None)),
            [(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            pairs(&build(4, 2, 1, Some(2), None)),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
        );
        let g = build(4, 2, 3, Some(1), None);
        assert_eq!(g.len(), 3 * 3 * 2);
        assert!(g.iter().enumerate().all(|(k, s)| s.number == k as u64 + 1));
    }
}
