//! A table checked by means other than those that built it.
//!
//! `consistency` walks every labelled class forwards with `Nana::generate`
//! and `Nana::play` (not the solver's `apply`, unmoves or counters) and
//! checks that every move leads to a labelled position (the labelled set
//! is closed, mirror images included) and the defining equations of the
//! values: a win in `d` has a move to
//! a loss in `d - 1` and none to a shorter loss; a loss in `d` has only
//! moves to wins, the longest in `d - 1` (a loss in 0 has no move); a draw
//! has no move to a loss and one to a draw. These equations have exactly
//! one solution over a finite game (the distances are the least fixed
//! point), so a table passing them is the solution.
//!
//! `search_agreement` asks the engine's own search (no table) for the value
//! of sampled positions decided within a few plies.

use crate::core::{Game, History};
use crate::games::nana::Nana;
use crate::games::nana::index::{Index, transform};
use crate::games::nana::tablebase::{NanaTable, Value, decode};
use crate::search::score::mate_moves;
use crate::search::{Context, Limits, MATE, Settings, Tt, search};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The value of a child position, from the child's side to move.
fn child_value(ix: &Index, values: &[u8], child: &Nana) -> Value {
    if child.terminal().is_some() {
        return Value::Loss(0);
    }
    match ix.of(child) {
        Some(j) => decode(values[j as usize]),
        None => Value::Unknown,
    }
}

/// What is wrong with class `i`, if anything.
fn check_class(ix: &Index, values: &[u8], i: u32) -> Option<String> {
    let v = decode(values[i as usize]);
    if v == Value::Unknown {
        return None;
    }
    let p = ix.position(i);
    let mut ml = <Nana as Game>::MoveList::default();
    p.generate(&mut ml);
    let mut shortest_loss: Option<u32> = None;
    let mut longest_win: Option<u32> = None;
    let mut draws = 0;
    let (_, own_mirror) = ix.king_pair(i);
    for &m in ml.iter() {
        let child = p.play(m);
        // The class also stands for the mirror image of `p`, whose children
        // are the mirror images of these: with both Kings on file b they
        // have entries of their own, which must hold the same value.
        if !own_mirror
            && let Some(j) = ix.of(&child)
            && ix.king_pair(j).1
        {
            let mirrored = transform(&child, false, true);
            let (a, b) = (
                child_value(ix, values, &child),
                child_value(ix, values, &mirrored),
            );
            if a != b {
                return Some(format!(
                    "move {} leads to {a:?}, its mirror image to {b:?}",
                    p.move_text(m)
                ));
            }
        }
        match child_value(ix, values, &child) {
            Value::Unknown => {
                return Some(format!(
                    "move {} leads to a position the table lacks",
                    p.move_text(m)
                ));
            }
            Value::Loss(e) => shortest_loss = Some(shortest_loss.map_or(e, |s| s.min(e))),
            Value::Win(e) => longest_win = Some(longest_win.map_or(e, |l| l.max(e))),
            Value::Draw => draws += 1,
        }
    }
    let ok = match v {
        Value::Win(d) => shortest_loss == Some(d - 1),
        Value::Loss(0) => ml.is_empty(),
        Value::Loss(d) => shortest_loss.is_none() && draws == 0 && longest_win == Some(d - 1),
        Value::Draw => shortest_loss.is_none() && draws > 0,
        Value::Unknown => true,
    };
    (!ok).then(|| {
        format!(
            "{v:?}, but its moves give: shortest loss {shortest_loss:?}, longest win {longest_win:?}, {draws} draws"
        )
    })
}

/// Checks every labelled class; returns how many were checked, or the
/// first faults found.
pub fn consistency(table: &NanaTable, log: &mut dyn FnMut(String)) -> Result<u64, String> {
    let ix = table.index();
    let values = table.values();
    let t0 = Instant::now();
    let mut checked = 0u64;
    let mut faults = Vec::new();
    let mut nfaults = 0u64;
    let step = (values.len() / 20).max(1);
    for i in 0..values.len() {
        if i % step == 0 && i > 0 {
            log(format!(
                "verify: {}% of the index, {checked} classes checked, {nfaults} faults, {:.1} s",
                i * 100 / values.len(),
                t0.elapsed().as_secs_f64()
            ));
        }
        if values[i] == 0 {
            continue;
        }
        checked += 1;
        if let Some(why) = check_class(ix, values, i as u32) {
            nfaults += 1;
            if faults.len() < 10 {
                faults.push(format!("{}: {why}", ix.position(i as u32).to_text()));
            }
        }
    }
    // The placement positions have their values from their children by
    // construction (`NanaTable::value`); the start must have one.
    if table.value(&ix.material().start()).is_none() {
        faults.push("the start position has no value".into());
        nfaults += 1;
    }
    if nfaults > 0 {
        return Err(format!(
            "{nfaults} inconsistent classes, first: {}",
            faults.join("; ")
        ));
    }
    Ok(checked)
}

/// Exact value of `pos` within `depth` plies by plain full-width
/// alpha-beta on the Nana rules (no pruning beyond alpha-beta, no
/// heuristics, no repetition: a line repeating is just a line): `MATE -
/// d` when the side to move wins in `d <= depth` plies, `-(MATE - d)` when
/// it loses in `d`, 0 when neither is forced within the horizon. The
/// referee for disagreements between the search and the table.
pub fn exact(pos: &Nana, depth: u32) -> i32 {
    fn ab(pos: &Nana, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        if pos.terminal().is_some() {
            return -(MATE - ply);
        }
        let mut ml = <Nana as Game>::MoveList::default();
        pos.generate(&mut ml);
        if ml.is_empty() {
            return -(MATE - ply);
        }
        // Taking the King first: it wins at once.
        if ml.iter().any(|&m| pos.play(m).terminal().is_some()) {
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

/// Samples up to `per_distance` classes for each distance `1..=max_plies`
/// and searches each (one thread, no table, a fresh hash) to the depth of
/// its distance plus two; the search should report the same mate in moves.
/// Each is also searched by `exact` to its distance, which must agree.
pub fn search_agreement(
    table: &NanaTable,
    max_plies: u32,
    per_distance: usize,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> Agreement {
    let ix = table.index();
    let values = table.values();
    let mut rng = seed | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut picked: Vec<Vec<u32>> = vec![Vec::new(); max_plies as usize + 1];
    let mut tries = 0;
    while picked[1..].iter().any(|v| v.len() < per_distance) && tries < 50_000_000 {
        tries += 1;
        let i = (next() % values.len() as u64) as u32;
        let d = match decode(values[i as usize]) {
            Value::Win(d) | Value::Loss(d) => d,
            _ => continue,
        };
        if (1..=max_plies).contains(&d) && picked[d as usize].len() < per_distance {
            picked[d as usize].push(i);
        }
    }
    let mut out = Agreement::default();
    let tt = Tt::new(16);
    let stop = AtomicBool::new(false);
    for (d, list) in picked.iter().enumerate() {
        let t0 = Instant::now();
        let before = out.agreed;
        for &i in list {
            let pos = ix.position(i);
            let want = match decode(values[i as usize]) {
                Value::Win(d) => (d as i32 + 1) / 2,
                Value::Loss(d) => -((d as i32 + 1) / 2),
                _ => continue,
            };
            tt.clear();
            let limits = Limits::depth(d as u32 + 2);
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                limits: &limits,
                settings: Settings::default(),
            };
            let r = search(&pos, &History::starting_at(&pos), &ctx, |_| {});
            out.sampled += 1;
            let got = mate_moves(r.score);
            let e = exact(&pos, d as u32);
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
