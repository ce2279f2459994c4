//! A game's rule options: the `Rules` trait each game implements, and the
//! one way rules are built from named values (a command line's `--rule`,
//! a record's tags, the page's choices, the engine's options), so that
//! every front end reads them, and words a mistake, alike.

use super::{OptionError, OptionSpec, OptionValue};
use std::fmt::{self, Debug};

/// Rule options with checked values, each under its spec's name, at most
/// once.
pub type RuleValues = Vec<(&'static str, OptionValue)>;

/// A game's rule options, with the spec's defaults as `Default`.
pub trait Rules: Clone + Default + Debug + PartialEq + Send + Sync + 'static {
    /// The options this game reads, as the engine lists them.
    fn specs() -> &'static [OptionSpec];
    /// Applies one option; `name` is one of `specs()`' names (exact spelling)
    /// and `value` was already checked against that spec.
    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), SetError>;

    /// The rules with these values (read by `read_rule_values`, or kept
    /// by the engine), every other option at its default.
    fn from_values(values: &[(&'static str, OptionValue)]) -> Result<Self, RuleError> {
        let mut rules = Self::default();
        for (name, value) in values {
            rules.set(name, value).map_err(RuleError::Refused)?;
        }
        Ok(rules)
    }
}

/// Why a game's `Rules::set` refused an option. `set` is given only names
/// and values its specs accept, so a refusal means a caller skipped the
/// specs, or the specs and `set` disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// `game` has no option `name` that takes `value`.
    NoOption {
        game: &'static str,
        name: String,
        value: OptionValue,
    },
    /// The option `name` has no choice `value`.
    NoChoice { name: &'static str, value: String },
    /// The game has no rule options at all.
    NoOptions { name: String },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::NoOption { game, name, value } => {
                write!(f, "no {game} option {name} with value {value}")
            }
            SetError::NoChoice { name, value } => write!(f, "unknown {name} value {value}"),
            SetError::NoOptions { name } => write!(f, "no rule option {name}"),
        }
    }
}

impl std::error::Error for SetError {}

/// Why rule options given by name could not be read or applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// No option of `game` is called `name`; `specs` are the ones it has.
    Unknown {
        game: String,
        name: String,
        specs: &'static [OptionSpec],
    },
    /// A value the option's spec does not take.
    Value(OptionError),
    /// A value the game's `Rules::set` refused.
    Refused(SetError),
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Unknown {
                game,
                name,
                specs: [],
            } => {
                write!(f, "{game} has no rule option {name} (it has none)")
            }
            RuleError::Unknown { game, name, specs } => {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                let known = known.join(", ");
                write!(
                    f,
                    "{game} has no rule option {name}: expected one of {known}"
                )
            }
            RuleError::Value(e) => fmt::Display::fmt(e, f),
            RuleError::Refused(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for RuleError {}

impl From<OptionError> for RuleError {
    fn from(e: OptionError) -> RuleError {
        RuleError::Value(e)
    }
}

/// For the callers whose errors are still words (an engine session, the
/// board's play).
impl From<RuleError> for String {
    fn from(e: RuleError) -> String {
        e.to_string()
    }
}

/// Rules for a game without options.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct NoRules;

impl Rules for NoRules {
    fn specs() -> &'static [OptionSpec] {
        &[]
    }
    fn set(&mut self, name: &str, _value: &OptionValue) -> Result<(), SetError> {
        Err(SetError::NoOptions { name: name.into() })
    }
}

/// Reads rule options given by name (in any case) with their values as
/// text, against the `specs` of `game`; a later value of an option replaces
/// an earlier one. The result names each option as its spec does.
pub fn read_rule_values<'a>(
    game: &str,
    specs: &'static [OptionSpec],
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<RuleValues, RuleError> {
    let mut out = RuleValues::new();
    for (name, raw) in pairs {
        let name = name.trim();
        let spec = specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| RuleError::Unknown {
                game: game.to_string(),
                name: name.to_string(),
                specs,
            })?;
        let value = spec.parse_value(Some(raw))?;
        out.retain(|(n, _)| *n != spec.name);
        out.push((spec.name, value));
    }
    Ok(out)
}

/// Every option of `specs`, in their order, with its value in `given` or
/// else its default: the rules a game is played under, in full.
pub fn with_defaults(
    specs: &'static [OptionSpec],
    given: &[(&'static str, OptionValue)],
) -> RuleValues {
    specs
        .iter()
        .map(|s| {
            let value = given.iter().find(|(n, _)| *n == s.name);
            (
                s.name,
                value.map_or_else(|| s.default_value(), |(_, v)| v.clone()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    static SPECS: [OptionSpec; 2] = [
        OptionSpec::combo("HasamiWin", "five", &["five", "all", "lead3"]),
        OptionSpec::check("HasamiLines", true),
    ];

    #[test]
    fn named_values_are_read_in_any_case_and_the_last_one_counts() {
        let pairs = [("hasamiwin", "all"), ("HasamiWin", "LEAD3")];
        assert_eq!(
            read_rule_values("hasami", &SPECS, pairs),
            Ok(vec![("HasamiWin", OptionValue::Combo("lead3".into()))])
        );
        assert_eq!(
            with_defaults(&SPECS, &[("HasamiLines", OptionValue::Check(false))]),
            vec![
                ("HasamiWin", OptionValue::Combo("five".into())),
                ("HasamiLines", OptionValue::Check(false)),
            ]
        );
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let words = |e: RuleError| e.to_string();
        assert_eq!(
            read_rule_values("hasami", &SPECS, [("Nope", "1")]).map_err(words),
            Err("hasami has no rule option Nope: expected one of HasamiWin, HasamiLines".into())
        );
        assert_eq!(
            read_rule_values("nana", &[], [("HasamiWin", "all")]).map_err(words),
            Err("nana has no rule option HasamiWin (it has none)".into())
        );
        assert_eq!(
            read_rule_values("hasami", &SPECS, [("HasamiLines", "maybe")]).map_err(words),
            Err("expected true or false for HasamiLines at maybe".into())
        );
    }

    #[test]
    fn a_value_the_game_refuses_is_refused_in_its_words() {
        let values = [("HasamiWin", OptionValue::Combo("all".into()))];
        assert_eq!(
            NoRules::from_values(&values).map_err(|e| e.to_string()),
            Err("no rule option HasamiWin".into())
        );
    }
}
