//! A game's rule options: the `Rules` trait each game implements, and the
//! one way rules are built from named values (a command line's `--rule`,
//! a record's tags, the page's choices, the engine's options), so that
//! every front end reads them, and words a mistake, alike.

use super::{OptionSpec, OptionValue};
use std::fmt::Debug;

/// Rule options with checked values, each under its spec's name, at most
/// once.
pub type RuleValues = Vec<(&'static str, OptionValue)>;

/// A game's rule options, with the spec's defaults as `Default`.
pub trait Rules: Clone + Default + Debug + PartialEq + Send + Sync + 'static {
    /// The options this game reads, as the engine lists them.
    fn specs() -> &'static [OptionSpec];
    /// Applies one option; `name` is one of `specs()`' names (exact spelling)
    /// and `value` was already checked against that spec.
    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String>;

    /// The rules with these values (read by `read_rule_values`, or kept
    /// by the engine), every other option at its default.
    fn from_values(values: &[(&'static str, OptionValue)]) -> Result<Self, String> {
        let mut rules = Self::default();
        for (name, value) in values {
            rules.set(name, value)?;
        }
        Ok(rules)
    }
}

/// Rules for a game without options.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct NoRules;

impl Rules for NoRules {
    fn specs() -> &'static [OptionSpec] {
        &[]
    }
    fn set(&mut self, name: &str, _value: &OptionValue) -> Result<(), String> {
        Err(format!("no rule option {name}"))
    }
}

/// Reads rule options given by name (in any case) with their values as
/// text, against the `specs` of `game`; a later value of an option replaces
/// an earlier one. The result names each option as its spec does.
pub fn read_rule_values<'a>(
    game: &str,
    specs: &'static [OptionSpec],
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<RuleValues, String> {
    let mut out = RuleValues::new();
    for (name, raw) in pairs {
        let name = name.trim();
        let spec = specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                if known.is_empty() {
                    format!("{game} has no rule option {name} (it has none)")
                } else {
                    let known = known.join(", ");
                    format!("{game} has no rule option {name}: expected one of {known}")
                }
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
        assert_eq!(
            read_rule_values("hasami", &SPECS, [("Nope", "1")]),
            Err("hasami has no rule option Nope: expected one of HasamiWin, HasamiLines".into())
        );
        assert_eq!(
            read_rule_values("nana", &[], [("HasamiWin", "all")]),
            Err("nana has no rule option HasamiWin (it has none)".into())
        );
        assert!(read_rule_values("hasami", &SPECS, [("HasamiLines", "maybe")]).is_err());
    }
}
