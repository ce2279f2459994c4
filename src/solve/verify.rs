//! A solved table checked by a second method: the engine's own search
//! (no table) and a plain full-width alpha-beta (`exact`) asked for the
//! value of sampled positions decided within a few plies. Generic over the
//! game: the game's table gives the sample (`SolvedTable::sample`).

use crate::core::{Game, History, Outcome, Searchable, SolvedTable, TableValue, game_status};
use crate::search::score::mate_moves;
use crate::search::{Context, Limits, MATE, Settings, Tt, search};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The score of a finished game for its side to move, `ply` plies from
/// the root.
fn end_score<G: Game>(pos: &G, outcome: Outcome, ply: i32) -> i32 {
    match outcome {
        Outcome::Win(c) if c == pos.side_to_move() => MATE - ply,
        Outcome::Win(_) => -(MATE - ply),
        Outcome::Draw => 0,
    }
}

/// Exact value of `pos` within `depth` plies by plain full-width
/// alpha-beta on the game's rules (no pruning beyond alpha-beta, no
/// heuristics, no repetition and no move-count limit: a line repeating is
/// just a line): `MATE - d` when the side to move wins in `d <= depth`
/// plies, `-(MATE - d)` when it loses in `d`, 0 when neither is forced
/// within the horizon. The referee for disagreements between the search
/// and the table.
pub fn exact<G: Game>(pos: &G, depth: u32) -> i32 {
    fn ab<G: Game>(pos: &G, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(end) = pos.terminal() {
            return end_score(pos, end.outcome, ply);
        }
        let mut ml = G::MoveList::default();
        pos.generate(&mut ml);
        if ml.is_empty() {
            let end = game_status(pos).expect("no legal move ends the game");
            return end_score(pos, end.outcome, ply);
        }
        // A move that ends the game in the mover's favour wins at once.
        let us = pos.side_to_move();
        if ml.iter().any(|&m| {
            pos.play(m)
                .terminal()
                .is_some_and(|e| e.outcome == Outcome::Win(us))
        }) {
            return MATE - ply - 1;
        }
        if depth == 0 {
            return 0;
        }
        let mut best = -MATE;
        for &m in ml.iter() {
            let v = -ab(&pos.play(m), depth - 1, ply + 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
    ab(pos, depth, 0, -MATE - 1, MATE + 1)
}

/// The result of comparing the search with the table.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    pub sampled: u64,
    pub agreed: u64,
    /// The disagreements: position, table value, search score in moves,
    /// and the exact full-width answer.
    pub disagreements: Vec<String>,
    /// Disagreements where the exact full-width search sides with the
    /// table.
    pub table_confirmed: u64,
    /// Sampled positions where the exact full-width search (`exact`, to
    /// the table's distance) gives the table's value.
    pub exact_agreed: u64,
}

/// Takes up to `per_distance` positions for each distance `1..=max_plies`
/// from the table and searches each (one thread, no table, a fresh hash)
/// to the depth of its distance plus two; the search should report the
/// same mate in moves. Each is also searched by `exact` to its distance,
/// which must agree.
pub fn search_agreement<G: Searchable>(
    table: &impl SolvedTable<G>,
    max_plies: u32,
    per_distance: usize,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> Agreement {
    let picked = table.sample(max_plies, per_distance, seed);
    let mut out = Agreement::default();
    let tt = Tt::new(16);
    let stop = AtomicBool::new(false);
    for (d, list) in picked.iter().enumerate() {
        let t0 = Instant::now();
        let before = out.agreed;
        for (pos, value) in list {
            let want = match *value {
                TableValue::Win(d) => (d as i32 + 1) / 2,
                TableValue::Loss(d) => -((d as i32 + 1) / 2),
                TableValue::Draw => continue,
            };
            tt.clear();
            let limits = Limits::depth(d as u32 + 2);
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                limits: &limits,
                settings: Settings::default(),
                poll: None,
            };
            let r = search(pos, &History::starting_at(pos), &ctx, |_| {});
            out.sampled += 1;
            let got = mate_moves(r.score);
            let e = exact(pos, d as u32);
            let confirmed = mate_moves(e) == Some(want);
            out.exact_agreed += u64::from(confirmed);
            if got == Some(want) {
                out.agreed += 1;
            } else {
                out.table_confirmed += u64::from(confirmed);
                out.disagreements.push(format!(
                    "{}: table mate {want}, search {}, exact full-width search to depth {d}: {}",
                    pos.to_text(),
                    got.map_or(format!("cp {}", r.score), |m| format!("mate {m}")),
                    mate_moves(e).map_or("no mate".into(), |m| format!("mate {m}"))
                ));
            }
        }
        if !list.is_empty() {
            log(format!(
                "search: distance {d}: {}/{} agree, {:.1} s",
                out.agreed - before,
                list.len(),
                t0.elapsed().as_secs_f64()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::conformance::position;
    use crate::games::nana::Nana;

    /// The engine's search, one thread and a fresh hash, to `depth`.
    fn searched(pos: &Nana, depth: u32) -> i32 {
        let tt = Tt::new(4);
        let stop = AtomicBool::new(false);
        let limits = Limits::depth(depth);
        let ctx = Context {
            tt: &tt,
            stop: &stop,
            limits: &limits,
            settings: Settings::default(),
            poll: None,
        };
        search(pos, &History::starting_at(pos), &ctx, |_| {}).score
    }

    /// Positions where the table and the search disagreed before the
    /// search stopped pruning and standing pat with the King attacked:
    /// a loss in 7 plies the search thought took 9, and a win in 9 plies
    /// it saw only as material. The exact full-width search is the judge:
    /// from 4 plies beyond the mate the search finds it, and at no depth
    /// does it report another distance. (The margin of 4 plies is what the
    /// reductions of the search leave with the table-trained evaluation;
    /// with the hand-made one it was 2.)
    #[test]
    fn the_search_does_not_prune_away_mates_when_the_king_is_attacked() {
        for (text, plies) in [("K2/g1b/1vk[b] w 1", 8), ("wwk/K2/bD1[] w 1", 9)] {
            let pos: Nana = position(text, &Default::default());
            let want = mate_moves(exact(&pos, plies));
            assert!(want.is_some(), "{text}: the exact search finds no mate");
            for depth in plies..=plies + 8 {
                let got = mate_moves(searched(&pos, depth));
                if depth >= plies + 4 {
                    assert_eq!(got, want, "{text} depth {depth}");
                } else {
                    assert!(
                        got.is_none() || got == want,
                        "{text} depth {depth}: {got:?}"
                    );
                }
            }
        }
    }

    /// With a mate in 5 in hand, the search kept reporting it at every
    /// depth up to 21 plies where a mate in 4 starts with a late quiet
    /// move: futility pruning (a static margin against a mate score) and
    /// the singular extension's test at half depth (cutting a node whose
    /// window is a mate score) both cut the quicker line; with the
    /// table-trained evaluation, so did late move reductions (a reduced
    /// search cannot show a quicker mate than the one in alpha).
    #[test]
    fn the_search_finds_the_quicker_mate_with_a_slower_one_in_hand() {
        let text = "3/K1b/1vk[Rb] b 1";
        let pos: Nana = position(text, &Default::default());
        assert_eq!(mate_moves(exact(&pos, 7)), Some(4), "{text}");
        for depth in [9, 13, 17] {
            assert_eq!(
                mate_moves(searched(&pos, depth)),
                Some(4),
                "{text} depth {depth}"
            );
        }
    }
}
