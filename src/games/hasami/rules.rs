//! Hasami's table options, as the engine options of `docs/rules/notation.md`.

use crate::core::{OptionSpec, OptionValue, Rules, SetError};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// First to capture five men.
    #[default]
    Five,
    /// Capture every enemy man.
    All,
    /// A lead of three captures at the start of the own turn.
    Lead3,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HasamiRules {
    pub win: WinRule,
    /// Whole closed lines are captured, not only single men.
    pub lines: bool,
    /// Corner men are captured by the two squares next to them.
    pub corners: bool,
}

impl Default for HasamiRules {
    fn default() -> Self {
        HasamiRules {
            win: WinRule::Five,
            lines: true,
            corners: true,
        }
    }
}

static SPECS: [OptionSpec; 3] = [
    OptionSpec::combo("HasamiWin", "five", &["five", "all", "lead3"]).described(
        "five: first to 5 captures · all: capture every enemy man · lead3: a lead of 3 captures at the start of your turn",
    ),
    OptionSpec::check("HasamiLines", true).described(
        "a whole line of enemy men closed at both ends is captured (off: only a single man)",
    ),
    OptionSpec::check("HasamiCorners", true)
        .described("a man in a corner is captured when both neighbours are enemy men"),
];

impl Rules for HasamiRules {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), SetError> {
        match (name, value) {
            ("HasamiWin", OptionValue::Combo(v)) => {
                self.win = match v.as_str() {
                    "five" => WinRule::Five,
                    "all" => WinRule::All,
                    "lead3" => WinRule::Lead3,
                    _ => {
                        return Err(SetError::NoChoice {
                            name: "HasamiWin",
                            value: v.clone(),
                        });
                    }
                }
            }
            ("HasamiLines", OptionValue::Check(b)) => self.lines = *b,
            ("HasamiCorners", OptionValue::Check(b)) => self.corners = *b,
            _ => {
                return Err(SetError::NoOption {
                    game: "Hasami",
                    name: name.into(),
                    value: value.clone(),
                });
            }
        }
        Ok(())
    }
}
