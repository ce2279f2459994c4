//! `koma solve <game> --pieces N`: the units of every signature up to N
//! pieces, bottom-up, each skipped when its files are there and sound,
//! else solved (resuming from its checkpoint) and written; or one unit
//! alone (`--unit`), so that a layer's units can run as separate
//! processes (a Slurm array: units of one layer never exit into each
//! other).

use super::error::TableError;
use super::file::{self, Counts};
use super::probe::Tables;
use super::unit::{Checkpoints, solve_unit, unit_name, units};
use crate::core::endgame::Layered;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct JobSettings {
    /// The tables' root folder (`probe::default_root`).
    pub root: PathBuf,
    pub max_pieces: u32,
    /// Only the unit of this signature.
    pub unit: Option<String>,
    pub checkpoints: Checkpoints,
}

/// The units to run, each with its layer (units of one layer are
/// independent), entries, and name, one line each.
pub fn list_units<G: Layered>(max_pieces: u32) -> String {
    let mut out = String::new();
    for u in units::<G>(max_pieces) {
        let n: u64 = u.iter().map(|&s| G::entries(s)).sum();
        let _ = writeln!(
            out,
            "{} layer {} pieces {} entries {n}",
            unit_name::<G>(&u),
            G::layer(u[0]),
            G::pieces(u[0])
        );
    }
    out
}

/// A figure line for one signature's table.
pub fn figures<G: Layered>(sig: G::Sig, c: &Counts, rules: &G::Rules) -> String {
    let at = |i: u64| G::unrank(sig, i, rules).to_text().to_string();
    format!(
        "{sig}: {} entries, won {} drawn {} lost {}; longest win {} ({}), longest loss {} ({})",
        c.won + c.drawn + c.lost,
        c.won,
        c.drawn,
        c.lost,
        c.longest_win,
        at(c.longest_win_at),
        c.longest_loss,
        at(c.longest_loss_at)
    )
}

/// Runs the job: the report, one line per signature and per unit solved.
pub fn run_job<G: Layered>(
    rules: &G::Rules,
    s: &JobSettings,
    log: &mut dyn FnMut(String),
) -> Result<String, TableError> {
    let tables = Tables::<G>::open(&s.root, rules);
    let mut todo = units::<G>(s.max_pieces);
    if let Some(name) = &s.unit {
        let sig = G::parse_sig(name)
            .ok_or_else(|| TableError::Request(format!("no signature {name}")))?;
        todo.retain(|u| u.contains(&sig));
        if todo.is_empty() {
            return Err(TableError::Request(format!(
                "{name} has more than {} pieces (--pieces)",
                s.max_pieces
            )));
        }
    }
    let folder = Tables::<G>::folder(&s.root, rules);
    std::fs::create_dir_all(&folder)
        .map_err(|e| TableError::Io(format!("cannot create {}: {e}", folder.display())))?;
    let mut report = String::new();
    let all: u64 = todo.iter().flatten().map(|&g| G::entries(g)).sum();
    let (mut done_entries, t0) = (0u64, Instant::now());
    for unit in &todo {
        let name = unit_name::<G>(unit);
        let entries: u64 = unit.iter().map(|&g| G::entries(g)).sum();
        let present: Option<Vec<Counts>> = unit
            .iter()
            .map(|&g| {
                file::read(&tables.path(g), &tables.identity(g))
                    .ok()
                    .map(|r| r.1)
            })
            .collect();
        if let Some(counts) = present {
            log(format!("{name}: tables present, skipped"));
            let ck = super::unit::checkpoint_path(&tables, &s.checkpoints.folder, unit);
            let _ = std::fs::remove_file(ck);
            for (&g, c) in unit.iter().zip(&counts) {
                let _ = writeln!(report, "{}", figures::<G>(g, c, rules));
            }
            continue;
        }
        log(format!(
            "{name}: {entries} entries, {} MiB for the unit's values, notes and marks, plus the lower tables it exits into (read as needed, {} MiB so far)",
            (2 * entries + entries.div_ceil(8)) >> 20,
            tables.loaded_bytes() >> 20
        ));
        let solved = solve_unit(&tables, unit, &s.checkpoints, log)?;
        for (&g, v) in unit.iter().zip(&solved.values) {
            let path = tables.path(g);
            file::write(&path, &tables.identity(g), v)
                .map_err(|e| TableError::Io(format!("cannot write {}: {e}", path.display())))?;
            let _ = writeln!(report, "{}", figures::<G>(g, &Counts::of(v), rules));
        }
        let ck = super::unit::checkpoint_path(&tables, &s.checkpoints.folder, unit);
        let _ = std::fs::remove_file(ck);
        let _ = writeln!(
            report,
            "unit {name}: {entries} entries, {} sweeps, {} visits in {:.1} s ({:.0} visits/s, {:.0} entries/s){}",
            solved.sweeps,
            solved.visits,
            solved.secs,
            solved.visits as f64 / solved.secs.max(1e-9),
            entries as f64 / solved.secs.max(1e-9),
            if solved.resumed { ", resumed" } else { "" }
        );
        done_entries += entries;
        let rate = done_entries as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        log(format!(
            "{name}: written in {:.1} s; {} of {all} entries done, ETA {:.0} s at {rate:.0} entries/s",
            solved.secs,
            done_entries,
            (all - done_entries) as f64 / rate.max(1.0)
        ));
    }
    Ok(report)
}
