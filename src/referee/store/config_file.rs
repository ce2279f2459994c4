//! fastchess's `-config`: a JSON file that says what a match is, so that
//! `-config file=config.json` alone runs it again. Koma writes fastchess's
//! layout (`engines`, `rounds`, `games`, `opening`, `pgn`, `stats` by
//! encounter with the pentanomial counts) with the command line itself
//! beside it (`koma_command`), and reads that command back: the record
//! file it names holds the finished games, so the match resumes there.

use crate::referee::cli::config::MatchConfig;
use crate::referee::statistics::report::{ResultRow, tally};
use crate::referee::usage::Usage;
use serde_json::{Value, json};
use std::path::Path;

/// The command line a config file written by Koma holds.
pub fn read_command(path: &Path) -> Result<Vec<String>, Usage> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Usage::new(format!("-config file={}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Usage::new(format!("-config file={}: not JSON: {e}", path.display())))?;
    let words = v["koma_command"].as_array().ok_or_else(|| {
        Usage::new(format!(
            "-config file={}: no koma_command: Koma resumes the config files it writes (they \
             hold the command line); one written by fastchess names chess engines and books",
            path.display()
        ))
    })?;
    words
        .iter()
        .map(|w| w.as_str().map(String::from))
        .collect::<Option<Vec<String>>>()
        .filter(|w| !w.is_empty())
        .ok_or_else(|| {
            Usage::new(format!(
                "-config file={}: a bad koma_command",
                path.display()
            ))
        })
}

/// Writes the match's config file: fastchess's fields that apply, its
/// `stats` by encounter, and the command line.
pub fn write(path: &Path, cfg: &MatchConfig, rows: &[ResultRow]) -> std::io::Result<()> {
    let engines: Vec<Value> = cfg
        .engines
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "cmd": e.launch.cmd.display().to_string(),
                "args": e.launch.args.join(" "),
                "dir": e.launch.dir.as_ref().map(|d| d.display().to_string()),
                "options": e.options,
                "limit": e.limits.to_string(),
            })
        })
        .collect();
    let mut stats = serde_json::Map::new();
    for (i, a) in cfg.engines.iter().enumerate() {
        for b in &cfg.engines[i + 1..] {
            let t = tally(rows, &a.name, &b.name);
            if t.games() == 0 {
                continue;
            }
            let p = t.penta;
            stats.insert(
                format!("{} vs {}", a.name, b.name),
                json!({
                    "wins": t.wins, "losses": t.losses, "draws": t.draws,
                    "penta_WW": p.ww, "penta_WD": p.wd, "penta_WL": p.wl,
                    "penta_DD": p.dd, "penta_LD": p.ld, "penta_LL": p.ll,
                }),
            );
        }
    }
    let words = crate::referee::store::records::split_shell_words(&cfg.command).unwrap_or_default();
    let v = json!({
        "koma_command": words,
        "engines": engines,
        "variant": cfg.variant.name(),
        "rounds": cfg.rounds,
        "games": cfg.games,
        "concurrency": cfg.concurrency,
        "seed": cfg.seed,
        "opening": cfg.openings.as_ref().map(|o| json!({
            "file": o.source,
            "order": if o.random { "random" } else { "sequential" },
        })),
        "pgn": { "file": cfg.pgnout.as_ref().map(|p| p.display().to_string()) },
        "config_name": path.display().to_string(),
        "stats": stats,
    });
    // Whole or not at all: a reader never sees half a file.
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, format!("{v:#}\n"))?;
    std::fs::rename(&tmp, path)
}
