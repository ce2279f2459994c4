//! The check of a folder of tables by the local equations, forward with the
//! game's own moves: each entry's value must be the best of its moves'
//! values (a win in d has a move to a loss in d - 1 or a winning exit, and
//! none quicker; a loss has only moves to wins, d the latest; a draw has no
//! move to a loss and some move not to a win), the exits read from the
//! lower tables. With distances these equations have one solution (a win's
//! distance strictly falls along its line down to an exit or the end), so
//! a folder that passes holds exactly the retrograde values.

use super::error::TableError;
use super::probe::Tables;
use super::value::Dtz;
use crate::core::endgame::Layered;
use crate::search::MATE;
use crate::solve::verify::exact;

/// What a position's value must be by its moves' values.
pub fn expected<G: Layered>(tables: &Tables<G>, pos: &G) -> Result<Dtz, TableError> {
    let mut ml = G::MoveList::default();
    pos.generate(&mut ml);
    let mut best: Option<Dtz> = None;
    for &m in ml.iter() {
        let v = tables.move_value(pos, m).ok_or_else(|| {
            TableError::Lookup(format!(
                "{}: the move {} leads where no table holds",
                pos.to_text(),
                pos.move_text(m)
            ))
        })?;
        if best.is_none_or(|b| v.rank() > b.rank()) {
            best = Some(v);
        }
    }
    Ok(best.unwrap_or(Dtz::Loss(0)))
}

/// Checks every entry of the signatures `sigs`: how many, or the first
/// faults found.
pub fn check<G: Layered>(
    tables: &Tables<G>,
    sigs: &[G::Sig],
    log: &mut dyn FnMut(String),
) -> Result<u64, TableError> {
    let mut checked = 0u64;
    let mut faults = Vec::new();
    for &sig in sigs {
        let values = tables.values(sig).map_err(TableError::looked_up)?;
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
        Err(TableError::Inconsistent(format!(
            "inconsistent entries:\n{}",
            faults.join("\n")
        )))
    }
}

/// What the sampled search found: positions searched, those where it
/// found a forced end, those where that end is as far as the table's
/// distance (always so where every exit ends the game), and disagreements.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    pub searched: u64,
    pub decided: u64,
    pub same_distance: u64,
    pub faults: Vec<String>,
}

/// A second method on sampled entries: the exact full-width search
/// (`verify::exact`) to `depth` plies, on up to `per` entries of each
/// distance `1..=depth` and `per` draws of each signature, taken from a
/// place given by `seed`. Where it finds a forced end in `m` plies, the
/// table must give the same side the win with a distance of at most `m`
/// (the end comes by an exit or by no move, so the next exit is no
/// further); where the table says draw, it must find none.
pub fn search_sample<G: Layered>(
    tables: &Tables<G>,
    sigs: &[G::Sig],
    per: usize,
    depth: u32,
    seed: u64,
) -> Result<Sampled, TableError> {
    let mut out = Sampled::default();
    for &sig in sigs {
        let values = tables.values(sig).map_err(TableError::looked_up)?;
        let n = values.len();
        let start = (seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize % n;
        // Wanted counts: draws at 0, distance d at d.
        let mut want = vec![per; depth as usize + 1];
        for k in 0..n {
            let i = (start + k) % n;
            let table = Dtz::decode(values[i]);
            let slot = match table {
                Dtz::Draw => 0,
                Dtz::Win(d) | Dtz::Loss(d) if (1..=depth).contains(&d) => d as usize,
                _ => continue,
            };
            if want[slot] == 0 {
                continue;
            }
            want[slot] -= 1;
            let pos = G::unrank(sig, i as u64, tables.rules());
            let e = exact(&pos, depth);
            out.searched += 1;
            let found = match e {
                e if e > 0 => Some(Dtz::Win((MATE - e) as u32)),
                e if e < 0 => Some(Dtz::Loss((MATE + e) as u32)),
                _ => None,
            };
            let fine = match (found, table) {
                (None, _) => true,
                (Some(Dtz::Win(m)), Dtz::Win(d)) | (Some(Dtz::Loss(m)), Dtz::Loss(d)) => {
                    out.same_distance += u64::from(m == d);
                    d <= m
                }
                _ => false,
            };
            out.decided += u64::from(found.is_some());
            if !fine {
                out.faults.push(format!(
                    "{sig} entry {i} ({}): the table says {table}, the exact search to {depth} plies {found:?}",
                    pos.to_text()
                ));
            }
            if want.iter().all(|&w| w == 0) {
                break;
            }
        }
    }
    Ok(out)
}
