//! The engine's options: its own (variant, overhead) and every game's rule
//! options and table files, of the games of its registry, each with its
//! current value.

use super::registry::{EngineGame, Registry};
use crate::core::{OptionError, OptionSpec, OptionValue};
use crate::search::Skill;
use std::fmt;

pub const VARIANT: &str = "UCI_Variant";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const HASH: &str = "Hash";
pub const CLEAR_HASH: &str = "Clear Hash";
pub const THREADS: &str = "Threads";
pub const MULTIPV: &str = "MultiPV";
pub const SKILL: &str = "Skill";
pub const EVAL_FILE: &str = "EvalFile";
/// The folder of the endgame tables (`koma solve --pieces`); empty: the
/// default per-user folder, `solve::tables::probe::default_root`.
pub const TABLE_PATH: &str = "TablePath";

/// Threads beyond this are refused: more than any machine here has.
pub const MAX_THREADS: i64 = 256;

pub struct OptionStore {
    entries: Vec<(OptionSpec, OptionValue)>,
}

impl OptionStore {
    pub fn new(registry: &'static Registry) -> OptionStore {
        let default = registry.default_game().name;
        let mut specs = vec![
            OptionSpec::combo(VARIANT, default, registry.names()),
            OptionSpec::spin(MOVE_OVERHEAD, 30, 0, 5000),
            OptionSpec::spin(HASH, 16, 1, 65536),
            OptionSpec::button(CLEAR_HASH),
            OptionSpec::spin(THREADS, 1, 1, MAX_THREADS),
            OptionSpec::spin(MULTIPV, 1, 1, 256),
            OptionSpec::combo(SKILL, "hard", Skill::NAMES),
            OptionSpec::text(EVAL_FILE, ""),
        ];
        if registry.games().iter().any(|g| g.endgame_tables) {
            specs.push(OptionSpec::text(TABLE_PATH, ""));
        }
        for g in registry.games() {
            if let Some(name) = g.table_option() {
                specs.push(OptionSpec::text(name, ""));
            }
        }
        for g in registry.games() {
            for s in g.rule_specs {
                if !specs.iter().any(|x| x.name == s.name) {
                    specs.push(s.clone());
                }
            }
        }
        OptionStore {
            entries: specs
                .into_iter()
                .map(|s| {
                    let v = s.default_value();
                    (s, v)
                })
                .collect(),
        }
    }

    pub fn specs(&self) -> impl Iterator<Item = &OptionSpec> {
        self.entries.iter().map(|(s, _)| s)
    }

    pub fn values(&self) -> impl Iterator<Item = (&'static str, &OptionValue)> {
        self.entries.iter().map(|(s, v)| (s.name, v))
    }

    /// The spec of an option; names match without regard to case, as UCI
    /// asks.
    pub fn spec(&self, name: &str) -> Option<&OptionSpec> {
        self.entries
            .iter()
            .map(|(s, _)| s)
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Checks a raw value; does not store it.
    pub fn check(
        &self,
        name: &str,
        raw: Option<&str>,
    ) -> Result<(&'static str, OptionValue), OptionUnread> {
        let spec = self
            .spec(name)
            .ok_or_else(|| OptionUnread::Unknown(name.to_string()))?;
        Ok((
            spec.name,
            spec.parse_value(raw).map_err(OptionUnread::Value)?,
        ))
    }

    pub fn set(&mut self, name: &str, value: OptionValue) {
        if let Some(e) = self.entries.iter_mut().find(|(s, _)| s.name == name) {
            e.1 = value;
        }
    }

    pub fn get(&self, name: &str) -> Option<&OptionValue> {
        self.entries
            .iter()
            .find(|(s, _)| s.name == name)
            .map(|(_, v)| v)
    }

    pub fn text(&self, name: &str) -> &str {
        self.get(name).and_then(OptionValue::as_str).unwrap_or("")
    }

    pub fn int(&self, name: &str) -> i64 {
        self.get(name).and_then(OptionValue::as_int).unwrap_or(0)
    }

    /// The current values of `game`'s rule options.
    pub fn rule_values(&self, game: &EngineGame) -> Vec<(&'static str, OptionValue)> {
        (game.rule_specs.iter())
            .filter_map(|s| self.get(s.name).map(|v| (s.name, v.clone())))
            .collect()
    }
}

/// Why `setoption` names no option or a value its spec does not read.
#[derive(Debug)]
pub enum OptionUnread {
    /// No option of this name.
    Unknown(String),
    Value(OptionError),
}

impl fmt::Display for OptionUnread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionUnread::Unknown(name) => write!(f, "unknown option at {name}"),
            OptionUnread::Value(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OptionUnread {}
