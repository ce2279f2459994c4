//! A table checked by other means than those that built it: every
//! labelled class walked forwards with `Nana::generate` and `Nana::play`
//! (not the solver's `apply`, unmoves or counters), checking that every
//! move leads to a labelled position (the labelled set is closed, mirror
//! images included) and the defining equations of the values: a win in `d`
//! has a move to a loss in `d - 1` and none to a shorter loss; a loss in
//! `d` has only moves to wins, the longest in `d - 1` (a loss in 0 has no
//! move); a draw has no move to a loss and one to a draw. These equations
//! have exactly one solution over a finite game (the distances are the
//! least fixed point), so a table passing them is the solution.
//!
//! Also the sample of decided positions the `solve` job gives the search.

use super::super::Nana;
use super::super::index::{Index, transform};
use super::super::tablebase::{NanaTable, Value, decode};
use super::error::SolveError;
use crate::core::{Game, TableValue};
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
pub fn consistency(table: &NanaTable, log: &mut dyn FnMut(String)) -> Result<u64, SolveError> {
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
        return Err(SolveError::Inconsistent {
            count: nfaults,
            first: faults,
        });
    }
    Ok(checked)
}

/// Up to `per_distance` classes for each distance `1..=max_plies`, drawn
/// by a xorshift generator from `seed`, as positions with their values
/// (`SolvedTable::sample`).
pub fn sample(
    table: &NanaTable,
    max_plies: u32,
    per_distance: usize,
    seed: u64,
) -> Vec<Vec<(Nana, TableValue)>> {
    let ix = table.index();
    let values = table.values();
    let mut rng = seed | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut picked: Vec<Vec<(Nana, TableValue)>> = vec![Vec::new(); max_plies as usize + 1];
    let mut tries = 0;
    while picked[1..].iter().any(|v| v.len() < per_distance) && tries < 50_000_000 {
        tries += 1;
        let i = (next() % values.len() as u64) as u32;
        let (d, value) = match decode(values[i as usize]) {
            Value::Win(d) => (d, TableValue::Win(d)),
            Value::Loss(d) => (d, TableValue::Loss(d)),
            _ => continue,
        };
        if (1..=max_plies).contains(&d) && picked[d as usize].len() < per_distance {
            picked[d as usize].push((ix.position(i), value));
        }
    }
    picked
}
