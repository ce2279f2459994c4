//! Option declarations shared by engine options and per-game rule options,
//! and their values read from text (`setoption`, a record's tag, a
//! command-line `NAME=VALUE`) against the declaration, in one way for every
//! front end; games and the engine only see typed values.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    /// Free text (a file path, say); `<empty>` is the empty string.
    Text {
        default: &'static str,
    },
    Button,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// What the option decides, for a reader choosing it (empty: nothing
    /// said); the board's setup shows it under the option.
    pub help: &'static str,
}

impl OptionSpec {
    pub const fn check(name: &'static str, default: bool) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Check { default },
            help: "",
        }
    }

    pub const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
            help: "",
        }
    }

    pub const fn combo(
        name: &'static str,
        default: &'static str,
        values: &'static [&'static str],
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Combo { default, values },
            help: "",
        }
    }

    pub const fn text(name: &'static str, default: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Text { default },
            help: "",
        }
    }

    pub const fn button(name: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Button,
            help: "",
        }
    }

    /// The spec with `help` said of it.
    pub const fn described(self, help: &'static str) -> OptionSpec {
        OptionSpec { help, ..self }
    }

    /// Reads a value written as text against this spec.
    pub fn parse_value(&self, raw: Option<&str>) -> Result<OptionValue, OptionError> {
        let raw = raw.unwrap_or("").trim();
        let error = |expected| OptionError {
            name: self.name,
            expected,
            shown: if raw.is_empty() { "end of line" } else { raw }.to_string(),
        };
        match &self.kind {
            OptionKind::Check { .. } => match raw.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(error(Expected::Bool)),
            },
            OptionKind::Spin { min, max, .. } => match raw.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(OptionValue::Spin(v)),
                _ => Err(error(Expected::Integer {
                    min: *min,
                    max: *max,
                })),
            },
            OptionKind::Combo { values, .. } => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(raw))
                .map(|v| OptionValue::Combo(v.to_string()))
                .ok_or_else(|| error(Expected::OneOf(values))),
            OptionKind::Text { .. } => Ok(OptionValue::Text(if raw == "<empty>" {
                String::new()
            } else {
                raw.to_string()
            })),
            OptionKind::Button => Ok(OptionValue::Button),
        }
    }

    /// The value an option has before any `setoption`.
    pub fn default_value(&self) -> OptionValue {
        match &self.kind {
            OptionKind::Check { default } => OptionValue::Check(*default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(*default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default.to_string()),
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
            OptionKind::Button => OptionValue::Button,
        }
    }
}

/// A value written as text that its option's spec does not take. The
/// words end with `at <token>`, as the protocol's errors do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub name: &'static str,
    pub expected: Expected,
    /// The text given, or `end of line` for none.
    pub shown: String,
}

/// What an option's spec takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    Bool,
    Integer { min: i64, max: i64 },
    OneOf(&'static [&'static str]),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("expected ")?;
        match self.expected {
            Expected::Bool => f.write_str("true or false")?,
            Expected::Integer { min, max } => write!(f, "an integer from {min} to {max}")?,
            Expected::OneOf(values) => write!(f, "one of {}", values.join(", "))?,
        }
        write!(f, " for {} at {}", self.name, self.shown)
    }
}

impl std::error::Error for OptionError {}

/// For the front ends whose errors are still words (the engine's options).
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.to_string()
    }
}

/// A value already checked against its spec: a combo value is one of the
/// spec's values (spelled as the spec spells it), a spin is within bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    Combo(String),
    Text(String),
    Button,
}

impl OptionValue {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            OptionValue::Check(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            OptionValue::Spin(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            OptionValue::Combo(s) | OptionValue::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Check(b) => write!(f, "{b}"),
            OptionValue::Spin(v) => write!(f, "{v}"),
            OptionValue::Combo(s) => f.write_str(s),
            OptionValue::Text(s) if s.is_empty() => f.write_str("<empty>"),
            OptionValue::Text(s) => f.write_str(s),
            OptionValue::Button => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_their_spec() {
        let check = OptionSpec::check("HasamiLines", true);
        assert_eq!(
            check.parse_value(Some("FALSE")),
            Ok(OptionValue::Check(false))
        );
        assert!(check.parse_value(Some("no")).is_err());
        let spin = OptionSpec::spin("NegaeriChainLimit", 5, 1, 5);
        assert_eq!(spin.parse_value(Some("3")), Ok(OptionValue::Spin(3)));
        for bad in [Some("0"), Some("6"), Some("x"), None] {
            assert!(spin.parse_value(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            spin.parse_value(None).unwrap_err().to_string(),
            "expected an integer from 1 to 5 for NegaeriChainLimit at end of line"
        );
        assert_eq!(
            OptionSpec::check("HasamiLines", true)
                .parse_value(Some("no"))
                .unwrap_err()
                .to_string(),
            "expected true or false for HasamiLines at no"
        );
        let combo = OptionSpec::combo("HasamiWin", "five", &["five", "all", "lead3"]);
        assert_eq!(
            combo.parse_value(Some("ALL")),
            Ok(OptionValue::Combo("all".into()))
        );
        assert_eq!(
            combo.parse_value(Some("four")).unwrap_err().to_string(),
            "expected one of five, all, lead3 for HasamiWin at four"
        );
        let text = OptionSpec::text("NanaTable", "");
        assert_eq!(
            text.parse_value(Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
    }
}
