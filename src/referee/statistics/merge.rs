//! `--report FILE...`: the pooled summary of one match's record files (its
//! shards), once or, with `--follow`, again as the files grow; with
//! `--sprt` the test's state, and its verdict as the exit status, so a job
//! waiting on it can cancel the shards as soon as a bound is crossed.

use super::pool::{Pool, PoolError};
use super::report::{self, ResultRow};
use super::sprt::{Decision, Sprt};
use super::what_if;
use crate::record::adjudicate::Adjudication;
use crate::referee::RunError;
use crate::referee::cli::ReportConfig;
use std::io::Write;
use std::process::ExitCode;

/// The exit status of `--report`.
pub mod status {
    /// The report is printed; with `--sprt`: H1 accepted (elo1 holds).
    pub const DONE_OR_H1: u8 = 0;
    /// A usage error, a file that cannot be read, records of two matches.
    pub const USAGE: u8 = 2;
    /// `--sprt`: H0 accepted (elo0 holds).
    pub const H0: u8 = 3;
    /// `--sprt`: no bound crossed (with `--follow`: and every game is in).
    pub const OPEN: u8 = 4;
}

/// Prints to stdout; a closed stdout must not stop a follower.
fn out(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}

pub fn run_report(cfg: &ReportConfig) -> Result<ExitCode, RunError> {
    let mut pool = Pool::new(&cfg.files);
    let mut header_printed = false;
    let mut shown: Option<usize> = None;
    loop {
        (pool.read(cfg.follow.is_some())).map_err(|e| match e {
            PoolError::Unreadable(f) => RunError::File(f),
            PoolError::Mismatch(why) => RunError::Report(why),
        })?;
        let rows = pool.rows();
        let players = players(&pool, &rows, cfg.sprt.as_ref()).map_err(RunError::Report)?;
        let total = pool.recorded().map(|m| m.total_games);
        let complete = total.is_some_and(|t| rows.len() as u64 >= t);
        let verdict = cfg.sprt.as_ref().and_then(|s| decision(s, &rows, &players));
        // A follower says nothing until the first game is in.
        let news = shown != Some(rows.len()) && !(rows.is_empty() && cfg.follow.is_some());
        if cfg.json && (news || cfg.follow.is_none()) {
            // One JSON object a line, and nothing else on stdout.
            shown = Some(rows.len());
            let thinking = pool.thinking(&players);
            let mut v = super::json::summary(&rows, &players, cfg.sprt.as_ref(), Some(&thinking));
            v["total_games"] = serde_json::json!(total);
            v["files"] = serde_json::json!(cfg.files);
            if let Some(c) = what_if(cfg, &players)? {
                v["adjudication_check"] = c.json();
            }
            out(&format!("{v}\n"));
        } else if news || cfg.follow.is_none() {
            if !header_printed && let Some(h) = header(&pool, &players) {
                out(&h);
                header_printed = true;
            }
            shown = Some(rows.len());
            out(&format!(
                "{}{}",
                counts(&pool, rows.len(), cfg.files.len(), total),
                report::summary(
                    &rows,
                    &players,
                    &context(&pool, &players),
                    cfg.sprt.as_ref()
                )
            ));
            if let Some(seeds) = gauntlet_seeds(&pool) {
                out(&report::gauntlet(&rows, &players, seeds));
            }
            if let Some(c) = what_if(cfg, &players)? {
                out(&c.text());
            }
        }
        if let (Some(sprt), Some((d, llr))) = (&cfg.sprt, verdict) {
            let out = |s: &str| {
                if !cfg.json {
                    out(s)
                }
            };
            out(&format!(
                "SPRT: {d:?} accepted (LLR {llr:.2}, bounds {:.2} and {:.2}) after {} games\n",
                sprt.lower,
                sprt.upper,
                rows.len()
            ));
            return Ok(ExitCode::from(match d {
                Decision::H1 => status::DONE_OR_H1,
                Decision::H0 => status::H0,
            }));
        }
        let out = |s: &str| {
            if !cfg.json {
                out(s)
            }
        };
        let Some(every) = cfg.follow.filter(|_| !complete) else {
            if cfg.follow.is_some() {
                out(&format!(
                    "All {} games of the match are in\n",
                    total.unwrap_or_default()
                ));
            }
            if pool.skipped > 0 {
                eprintln!("{} record(s) skipped", pool.skipped);
            }
            return Ok(match &cfg.sprt {
                Some(_) => {
                    out("SPRT: no bound crossed: the test is still open\n");
                    ExitCode::from(status::OPEN)
                }
                None => ExitCode::from(status::DONE_OR_H1),
            });
        };
        std::thread::sleep(every);
    }
}

/// The adjudication check `--draw`/`--resign` asked for, if they did.
fn what_if(cfg: &ReportConfig, players: &[String]) -> Result<Option<what_if::Check>, RunError> {
    if cfg.adjudication == Adjudication::default() {
        return Ok(None);
    }
    what_if::check(&cfg.files, cfg.adjudication, players)
        .map(Some)
        .map_err(|e| RunError::Report(e.to_string()))
}

/// The seeds of a gauntlet, from the recorded command line.
fn gauntlet_seeds(pool: &Pool) -> Option<usize> {
    let m = pool.recorded()?;
    let get = |k: &str| {
        m.settings
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    (get("--tournament")? == "gauntlet")
        .then(|| get("--seeds").and_then(|v| v.parse().ok()).unwrap_or(1))
}

/// The players in the order the match gave them (the recorded command
/// line), else in order of first appearance. An SPRT needs two.
fn players(pool: &Pool, rows: &[ResultRow], sprt: Option<&Sprt>) -> Result<Vec<String>, String> {
    let from_rows = report::players_of(rows);
    let players = match pool.recorded() {
        Some(m) if from_rows.iter().all(|p| m.engines.contains(p)) => m.engines.clone(),
        _ => from_rows,
    };
    if sprt.is_some() && players.len() > 2 {
        return Err(format!(
            "--sprt needs a match of two engines; these records have {}: {}",
            players.len(),
            players.join(", ")
        ));
    }
    Ok(players)
}

/// The SPRT's verdict on the first player against the second, if a bound
/// is crossed.
fn decision(sprt: &Sprt, rows: &[ResultRow], players: &[String]) -> Option<(Decision, f64)> {
    let [a, b] = players else { return None };
    let t = report::tally(rows, a, b);
    if t.games() == 0 {
        return None;
    }
    let llr = sprt.llr(&t);
    sprt.decision(llr).map(|d| (d, llr))
}

/// `N games from K file(s), shards 1-4 of 4; the match has T`.
fn counts(pool: &Pool, n: usize, files: usize, total: Option<u64>) -> String {
    let shards = pool.shards_text();
    format!(
        "{n} games from {files} file(s){}{}\n",
        if shards.is_empty() {
            String::new()
        } else {
            format!(", {shards}")
        },
        total.map_or(String::new(), |t| format!("; the match has {t}"))
    )
}

/// What was played, from the records: the engines as they named
/// themselves and the referee's command line.
fn header(pool: &Pool, players: &[String]) -> Option<String> {
    let ids: Vec<(&str, &str)> = pool.engines().collect();
    let mut s = String::new();
    if !ids.is_empty() {
        let each: Vec<String> = players
            .iter()
            .filter_map(|p| {
                ids.iter()
                    .find(|(n, _)| n == p)
                    .map(|(n, id)| format!("{n} = {id}"))
            })
            .collect();
        s.push_str(&format!("Engines: {}\n", each.join(", ")));
    }
    if let Some(c) = pool.command() {
        s.push_str(&format!("Command: {c}\n"));
    }
    (!s.is_empty()).then_some(s)
}

/// `variant, limits` for the summary.
fn context(pool: &Pool, players: &[String]) -> String {
    let mut limits = pool.limits().to_vec();
    limits.sort_by_key(|(n, _)| players.iter().position(|p| p == n));
    let mut s = report::context_line(pool.variant().unwrap_or("?"), &limits);
    if let Some((title, size)) = pool.suite() {
        s.push_str(&report::suite_words(title, size));
    }
    s
}
