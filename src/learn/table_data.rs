//! Training data from a game's table instead of from self-play: the
//! positions of random games, each labelled with its exact value for the
//! side to move, written in `sample`'s format so that `koma tune` reads it.
//! One position in `judging` (by key) is left out, so that the evaluation
//! learned from the rest can be judged on positions it never saw.

use super::sample::{Sample, end_line};
use crate::core::zobrist::splitmix;
use crate::core::{Color, Outcome, Searchable, TableValue, game_status, mirror};
use std::collections::HashSet;
use std::io::Write;

/// A position and its mirror image are one position to the search: one key
/// for both.
pub fn canonical_key<G: Searchable>(pos: &G) -> u64 {
    let mirrored = mirror(pos, &G::Rules::default()).map(|m| m.hash());
    mirrored.map_or(pos.hash(), |m| m.min(pos.hash()))
}

/// Whether the position of `key` is one of those kept out of the data to
/// judge with: one in `every` (1: all; 0: none).
pub fn judging(key: u64, every: u64) -> bool {
    every != 0 && (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32).is_multiple_of(every)
}

#[derive(Clone, Debug)]
pub struct TableDataSettings {
    /// Random games to take positions from.
    pub games: u64,
    pub seed: u64,
    /// One position in this many (by key) is left out (0: none).
    pub judging: u64,
}

/// Positions written and positions left out to judge with.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Written {
    pub positions: u64,
    pub left_out: u64,
}

/// The result that a position's value means, first player first.
fn outcome(value: TableValue, side: Color) -> Outcome {
    match value {
        TableValue::Win(_) => Outcome::Win(side),
        TableValue::Loss(_) => Outcome::Win(side.opponent()),
        TableValue::Draw => Outcome::Draw,
    }
}

/// Writes the data of `s` to `out`: a header, then every distinct position
/// of the random games (a position and its mirror image once, positions in
/// check left out: the evaluation judges quiet ones) with its value, each
/// as a game of its own so that `koma tune --holdout` splits positions. The
/// file holds no search score (0): train with `--lambda 1`.
pub fn write<G: Searchable>(
    value: impl Fn(&G) -> Option<TableValue>,
    s: &TableDataSettings,
    out: &mut impl Write,
) -> std::io::Result<Written> {
    // `koma tune` checks the game by `variant=<name> ` in the header.
    writeln!(
        out,
        "{}variant={} source=table games={} seed={} judging={} ",
        super::sample::HEADER_TAG,
        G::NAME,
        s.games,
        s.seed,
        s.judging
    )?;
    let rules = G::Rules::default();
    let mut rng = s.seed;
    let mut below = |n: usize| {
        let (state, k) = splitmix(rng);
        rng = state;
        (k % n as u64) as usize
    };
    let mut seen = HashSet::new();
    let mut w = Written::default();
    for _ in 0..s.games {
        let mut pos = G::start(&rules);
        for _ in 0..400 {
            if game_status(&pos).is_some() {
                break;
            }
            let key = canonical_key(&pos);
            if !pos.in_check() && seen.insert(key) {
                if judging(key, s.judging) {
                    w.left_out += 1;
                } else if let Some(v) = value(&pos) {
                    let result = outcome(v, pos.side_to_move());
                    let r = Sample {
                        game: w.positions,
                        position: pos.to_text().to_string(),
                        score: 0,
                        result,
                    };
                    writeln!(out, "{}", r.to_line())?;
                    writeln!(out, "{}", end_line(w.positions, result))?;
                    w.positions += 1;
                }
            }
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            pos = pos.play(moves[below(moves.len())]);
        }
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::nana::Nana;
    use crate::learn::sample::{Line, parse_line};
    use crate::protocol::parse_position;

    /// A stand-in for the table: a value from the position's key, so that
    /// every kind of value occurs.
    fn value(pos: &Nana) -> Option<TableValue> {
        Some(match pos.hash() % 3 {
            0 => TableValue::Win(7),
            1 => TableValue::Loss(4),
            _ => TableValue::Draw,
        })
    }

    fn settings(seed: u64, judging: u64) -> TableDataSettings {
        TableDataSettings {
            games: 40,
            seed,
            judging,
        }
    }

    fn data(s: &TableDataSettings) -> (String, Written) {
        let mut out = Vec::new();
        let w = write(value, s, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), w)
    }

    /// The positions of the file, read back as `koma tune` reads them.
    fn positions(text: &str) -> Vec<(Nana, Outcome)> {
        let mut out = vec![];
        for line in text.lines() {
            if let Line::Position(r) = parse_line(line).unwrap() {
                let t = parse_position(&r.position).unwrap();
                out.push((Nana::from_text(&t, &Default::default()).unwrap(), r.result));
            }
        }
        out
    }

    #[test]
    fn each_position_is_labelled_with_its_table_value_for_the_side_to_move() {
        let (text, w) = data(&settings(1, 10));
        assert!(text.starts_with("#koma-datagen variant=nana "));
        let read = positions(&text);
        assert_eq!(read.len() as u64, w.positions);
        assert!(w.positions > 100);
        let mut kinds = HashSet::new();
        for (pos, result) in &read {
            let side = pos.side_to_move();
            let expected = match value(pos).unwrap() {
                TableValue::Win(_) => Outcome::Win(side),
                TableValue::Loss(_) => Outcome::Win(side.opponent()),
                TableValue::Draw => Outcome::Draw,
            };
            assert_eq!(*result, expected, "{}", pos.to_text());
            kinds.insert(pos.hash() % 3);
        }
        assert_eq!(kinds.len(), 3, "wins, losses and draws all occur");
    }

    #[test]
    fn the_positions_kept_to_judge_with_are_left_out() {
        let (text, w) = data(&settings(1, 10));
        assert!(w.left_out > 0);
        for (pos, _) in positions(&text) {
            assert!(!judging(canonical_key(&pos), 10), "{}", pos.to_text());
        }
        let (_, all) = data(&settings(1, 0));
        assert_eq!(all.left_out, 0);
        assert_eq!(all.positions, w.positions + w.left_out);
    }

    #[test]
    fn a_position_and_its_mirror_image_appear_once_and_none_is_in_check() {
        let (text, _) = data(&settings(2, 0));
        let mut keys = HashSet::new();
        for (pos, _) in positions(&text) {
            assert!(keys.insert(canonical_key(&pos)), "{} twice", pos.to_text());
            assert!(!pos.in_check(), "{}", pos.to_text());
        }
        let p = Nana::from_text(
            &parse_position("1k1/3/K2[RBrb] w 2").unwrap(),
            &Default::default(),
        )
        .unwrap();
        let m = mirror(&p, &Default::default()).unwrap();
        assert_ne!(p.hash(), m.hash());
        assert_eq!(canonical_key(&p), canonical_key(&m));
    }

    #[test]
    fn the_data_is_the_same_for_a_seed() {
        assert_eq!(data(&settings(3, 10)).0, data(&settings(3, 10)).0);
        assert_ne!(data(&settings(3, 10)).0, data(&settings(4, 10)).0);
    }

    #[test]
    fn judging_keeps_one_position_in_every_and_all_or_none_at_the_ends() {
        let keys = (0..10_000u64).map(|i| splitmix(i).1);
        let kept = keys.clone().filter(|&k| judging(k, 10)).count();
        assert!((800..1200).contains(&kept), "{kept} of 10000");
        assert!(keys.clone().all(|k| judging(k, 1)));
        assert!(!keys.into_iter().any(|k| judging(k, 0)));
    }
}
