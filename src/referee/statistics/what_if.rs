//! `--report FILE... --draw ... --resign ...`: what score adjudication
//! would have done to games played without it, read from the scores their
//! records carry. Unlike a second match, the answer does not depend on the
//! machine's load: the same games, judged twice.

use super::report::{self, ResultRow};
use super::stats::{self, Tally};
use crate::client::reason::Reason;
use crate::protocol::record::{Record, parse_records};
use crate::record::adjudicate::{self, Adjudication};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

/// One game as played and the rule's call on it, if it made one.
struct Judged {
    row: ResultRow,
    plies: usize,
    /// The ply after which the rule ends the game, and its result.
    call: Option<(usize, crate::core::Outcome)>,
}

/// What one set of rules does to the games.
#[derive(Debug, PartialEq)]
pub struct Effect {
    /// The rules, as the command line gives them.
    pub rules: String,
    pub games: usize,
    /// Games the rules end early.
    pub called: usize,
    /// Of those, games whose call is not the result they reached.
    pub overturned: usize,
    pub plies_played: f64,
    /// Plies a game with the rules in force.
    pub plies_adjudicated: f64,
    /// The first two players' match as played and as adjudicated.
    pub played: Tally,
    pub adjudicated: Tally,
}

/// The report: each rule alone and, with both, together.
#[derive(Debug, PartialEq)]
pub struct Check {
    /// Games already adjudicated by score when played: left out, as their
    /// real end is unknown.
    pub left_out: usize,
    pub effects: Vec<Effect>,
    pub players: [String; 2],
}

/// Why the adjudication check cannot be made.
#[derive(Debug)]
pub enum WhatIfError {
    /// A record file that cannot be read.
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Games of other than two players.
    NotTwoPlayers,
}

impl std::fmt::Display for WhatIfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WhatIfError::Unreadable { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            WhatIfError::NotTwoPlayers => {
                f.write_str("an adjudication check needs games between two players")
            }
        }
    }
}

impl std::error::Error for WhatIfError {}

/// The games of `files` (each game number once, as `--report` pools them),
/// judged by `rules`. An unreadable file is an error naming it.
pub fn check(
    files: &[PathBuf],
    rules: Adjudication,
    players: &[String],
) -> Result<Check, WhatIfError> {
    let mut records: BTreeMap<u64, (ResultRow, Record)> = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|source| WhatIfError::Unreadable {
            path: f.clone(),
            source,
        })?;
        for item in parse_records(&text) {
            if let Ok(r) = item.record
                && let Some(row) = report::row_of(&r)
            {
                records.entry(row.game).or_insert((row, r));
            }
        }
    }
    let scored = |r: &ResultRow| matches!(r.reason, Some(Reason::ScoreDraw | Reason::ScoreResign));
    let left_out = records.values().filter(|(row, _)| scored(row)).count();
    let games: Vec<&(ResultRow, Record)> =
        records.values().filter(|(row, _)| !scored(row)).collect();
    let (a, b) = match players {
        [a, b, ..] => (a.clone(), b.clone()),
        _ => return Err(WhatIfError::NotTwoPlayers),
    };
    let mut sets = Vec::new();
    if let Some(d) = rules.draw {
        sets.push((
            format!("--draw {d}"),
            Adjudication {
                draw: Some(d),
                resign: None,
            },
        ));
    }
    if let Some(r) = rules.resign {
        sets.push((
            format!("--resign {r}"),
            Adjudication {
                draw: None,
                resign: Some(r),
            },
        ));
    }
    if rules.draw.is_some() && rules.resign.is_some() {
        sets.push(("both".to_string(), rules));
    }
    let effects = sets
        .into_iter()
        .map(|(name, set)| {
            let judged: Vec<Judged> = games
                .iter()
                .map(|(row, r)| Judged {
                    row: row.clone(),
                    plies: r.moves.len(),
                    call: adjudicate::first_call(r, set).map(|(ply, e)| (ply, e.outcome)),
                })
                .collect();
            effect(name, &judged, &a, &b)
        })
        .collect();
    Ok(Check {
        left_out,
        effects,
        players: [a, b],
    })
}

fn effect(rules: String, judged: &[Judged], a: &str, b: &str) -> Effect {
    let n = judged.len().max(1) as f64;
    let called: Vec<&Judged> = judged.iter().filter(|j| j.call.is_some()).collect();
    let overturned = called
        .iter()
        .filter(|j| j.call.is_some_and(|(_, o)| o != j.row.outcome))
        .count();
    let as_adjudicated: Vec<ResultRow> = judged
        .iter()
        .map(|j| ResultRow {
            outcome: j.call.map_or(j.row.outcome, |(_, o)| o),
            ..j.row.clone()
        })
        .collect();
    let played: Vec<ResultRow> = judged.iter().map(|j| j.row.clone()).collect();
    Effect {
        rules,
        games: judged.len(),
        called: called.len(),
        overturned,
        plies_played: judged.iter().map(|j| j.plies).sum::<usize>() as f64 / n,
        plies_adjudicated: judged
            .iter()
            .map(|j| j.call.map_or(j.plies, |(ply, _)| ply))
            .sum::<usize>() as f64
            / n,
        played: report::tally(&played, a, b),
        adjudicated: report::tally(&as_adjudicated, a, b),
    }
}

fn elo_text(t: &Tally) -> String {
    match stats::elo(t) {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!("{:+.1} +/- {:.1}", e.elo, e.error)
        }
        _ => "n/a".to_string(),
    }
}

impl Check {
    /// The text `--report` prints after its summary.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let games = self.effects.first().map_or(0, |e| e.games);
        let _ = writeln!(
            s,
            "Adjudication check: {games} games played without score adjudication{}",
            if self.left_out > 0 {
                format!(" ({} adjudicated games left out)", self.left_out)
            } else {
                String::new()
            }
        );
        let [a, b] = &self.players;
        for e in &self.effects {
            let pct = 100.0 * e.overturned as f64 / e.called.max(1) as f64;
            let _ = writeln!(
                s,
                "  {}: calls {} games, {} of them ({pct:.1} %) against the result played; \
                 {:.1} plies a game instead of {:.1}",
                e.rules, e.called, e.overturned, e.plies_adjudicated, e.plies_played
            );
            let _ = writeln!(
                s,
                "    {a} vs {b}: Elo {} as played, {} as adjudicated; Ptnml(0-2) {:?} -> {:?}",
                elo_text(&e.played),
                elo_text(&e.adjudicated),
                e.played.penta.buckets(),
                e.adjudicated.penta.buckets()
            );
        }
        s
    }

    /// The same as one JSON value (`--report --json`).
    pub fn json(&self) -> Value {
        let elo = |t: &Tally| {
            stats::elo(t)
                .filter(|e| e.elo.is_finite() && e.error.is_finite())
                .map(|e| json!({ "elo": e.elo, "error": e.error }))
        };
        json!({
            "players": self.players,
            "left_out": self.left_out,
            "rules": self.effects.iter().map(|e| json!({
                "rules": e.rules,
                "games": e.games,
                "called": e.called,
                "overturned": e.overturned,
                "plies_played": e.plies_played,
                "plies_adjudicated": e.plies_adjudicated,
                "played": { "elo": elo(&e.played), "pentanomial": e.played.penta.buckets() },
                "adjudicated": {
                    "elo": elo(&e.adjudicated),
                    "pentanomial": e.adjudicated.penta.buckets(),
                },
            })).collect::<Vec<_>>(),
        })
    }
}
