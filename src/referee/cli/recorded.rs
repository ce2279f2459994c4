//! The match a recorded command line (a record's `RefereeCommand` tag)
//! describes, read back with the same parser, and where two such matches
//! differ: how a report refuses the records of another match.

use super::args::Cli;
use super::engine::split_pairs;
use super::koma_spelling;
use crate::referee::matches::schedule;
use clap::{CommandFactory, FromArgMatches};
use std::path::Path;

/// What a recorded command line (a record's `RefereeCommand` tag) says
/// about its match, read without checking files or programs: the report
/// uses it to name what differs between two matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMatch {
    /// The engines' names, in command-line order.
    pub engines: Vec<String>,
    /// The settings that decide the games, as `(name, value)`.
    pub settings: Vec<(String, String)>,
    /// Games in the whole match, every shard's.
    pub total_games: u64,
}

/// `None` when the words are not a match's command line.
pub fn recorded_match(words: &[String]) -> Option<RecordedMatch> {
    let cmd = Cli::command();
    let spoken = koma_spelling(&cmd, words, &mut |_| {}).ok()?;
    let (default_games, default_rounds) = spoken.dialect.defaults();
    let matches = cmd.try_get_matches_from(spoken.words).ok()?;
    let cli = Cli::from_arg_matches(&matches).ok()?;
    let engine_words: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    let each = split_pairs(&cli.each, "--each").ok()?;
    let mut settings = vec![("--variant".to_string(), cli.variant.clone())];
    for r in &cli.rules {
        let (n, v) = r.split_once('=')?;
        settings.push((format!("--rule {n}"), v.to_string()));
    }
    for (k, v) in [
        ("--dialect", spoken.dialect.name().to_string()),
        ("--games", cli.games.unwrap_or(default_games).to_string()),
        ("--rounds", cli.rounds.unwrap_or(default_rounds).to_string()),
        (
            "--opening-repeat",
            cli.opening_repeat
                .map(|m| m.to_string())
                .unwrap_or_default(),
        ),
        ("--openings", cli.openings.join(" ")),
        ("--random-plies", cli.random_plies.to_string()),
        ("--seed", cli.seed.to_string()),
        ("--max-plies", cli.max_plies.to_string()),
        ("--timemargin", cli.timemargin.to_string()),
        (
            "--max-moves",
            cli.max_moves.map(|m| m.to_string()).unwrap_or_default(),
        ),
        ("--draw", cli.draw.join(" ")),
        ("--resign", cli.resign.join(" ")),
        ("--tournament", cli.tournament.clone()),
        (
            "--seeds",
            cli.seeds.map(|m| m.to_string()).unwrap_or_default(),
        ),
    ] {
        settings.push((k.to_string(), v));
    }
    let mut engines = Vec::new();
    let mut engine_settings = Vec::new();
    for words in &engine_words {
        let own = split_pairs(words, "--engine").ok()?;
        let mut keys: Vec<(String, String)> = Vec::new();
        for (k, v) in each.iter().chain(&own) {
            keys.retain(|(n, _)| n != k);
            keys.push((k.clone(), v.clone()));
        }
        let get = |k: &str| keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let name = get("name").or_else(|| {
            get("cmd").map(|c| {
                Path::new(&c)
                    .file_name()
                    .map_or(c.clone(), |f| f.to_string_lossy().into_owned())
            })
        })?;
        keys.sort();
        for (k, v) in keys.into_iter().filter(|(k, _)| k != "name") {
            engine_settings.push((format!("engine {name} {k}"), v));
        }
        engines.push(name);
    }
    settings.push(("engines".to_string(), engines.join(", ")));
    settings.extend(engine_settings);
    // A record's command line is outside input: the count saturates.
    let seeds = (cli.tournament == "gauntlet").then(|| cli.seeds.unwrap_or(1));
    let total_games = schedule::count(
        engines.len(),
        cli.games.unwrap_or(default_games),
        cli.rounds.unwrap_or(default_rounds),
        seeds,
    );
    Some(RecordedMatch {
        engines,
        settings,
        total_games,
    })
}

/// Where two matches' settings differ: `name: a vs b` (`unset` where one
/// lacks it), in the order of `a`'s settings.
pub fn differences(a: &RecordedMatch, b: &RecordedMatch) -> Vec<String> {
    let mut keys: Vec<&String> = a.settings.iter().map(|(k, _)| k).collect();
    for (k, _) in &b.settings {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let value = |m: &RecordedMatch, k: &str| {
        m.settings
            .iter()
            .find(|(n, _)| n == k)
            .map_or("unset".to_string(), |(_, v)| {
                if v.is_empty() {
                    "none".into()
                } else {
                    v.clone()
                }
            })
    };
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (value(a, k), value(b, k));
            (x != y).then(|| format!("{k}: {x} vs {y}"))
        })
        .collect()
}
