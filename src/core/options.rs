//! Option declarations shared by engine options and per-game rule options.
//! The protocol layer turns `setoption` text into an `OptionValue` checked
//! against the `OptionSpec`; games and the engine only see typed values.

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
}

impl OptionSpec {
    pub const fn check(name: &'static str, default: bool) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Check { default },
        }
    }

    pub const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
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
        }
    }

    pub const fn text(name: &'static str, default: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Text { default },
        }
    }

    pub const fn button(name: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Button,
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
