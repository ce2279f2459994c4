//! The check of a folder of tables by the local equations, forward with the
//! game's own moves: each entry's value must be the best of its moves'
//! values (a win in d has a move to a loss in d - 1 or a winning exit, and
//! none quicker; a loss has only moves to wins, d the latest; a draw has no
//! move to a loss and some move not to a win), the exits read from the
//! lower tables. With distances these equations have one solution (a win's
//! distance strictly falls along its line down to an exit or the end), so
//! a folder that passes holds exactly the retrograde values.

use super::probe::Tables;
use super::value::Dtz;
use crate::core::endgame::Layered;

/// What a position's value must be by its moves' values.
pub fn expected<G: Layered>(tables: &Tables<G>, pos: &G) -> Result<Dtz, String> {
    let mut ml = G::MoveList::default();
    pos.generate(&mut ml);
    let mut best: Option<Dtz> = None;
    for &m in ml.iter() {
        let v = tables.move_value(pos, m).ok_or_else(|| {
            format!(
                "{}: the move {} leads where no table holds",
                pos.to_text(),
                pos.move_text(m)
            )
        })?;
        if best.is_none_or(|b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    Ok(best.unwrap_or(Dtz::Loss(0)))
}

/// Checks every entry of every signature up to `max_pieces`: how many, or
/// the first faults found.
pub fn check<G: Layered>(
    tables: &Tables<G>,
    max_pieces: u32,
    log: &mut dyn FnMut(String),
) -> Result<u64, String> {
    let mut checked = 0u64;
    let mut faults = Vec::new();
    for sig in G::signatures(max_pieces) {
        let values = tables.values(sig)?;
        let t0 = std::time::Instant::now();
        for (i, &b) in values.iter().enumerate() {
            let pos = G::unrank(sig, i as u64, tables.rules());
            let want = expected(tables, &pos)?;
            if want.encode() != b {
                faults.push(format!(
                    "{sig} entry {i} ({}): the table says {}, its moves {want}",
                    pos.to_text(),
                    Dtz::decode(b)
                ));
                if faults.len() >= 10 {
                    break;
                }
            }
        }
        checked += values.len() as u64;
        log(format!(
            "{sig}: {} entries checked in {:.1} s",
            values.len(),
            t0.elapsed().as_secs_f64()
        ));
        if faults.len() >= 10 {
            break;
        }
    }
    if faults.is_empty() {
        Ok(checked)
    } else {
        Err(format!("inconsistent entries:\n{}", faults.join("\n")))
    }
}
