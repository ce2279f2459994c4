//! Kani Nari Ebi's rule options (`docs/rules/notation.md`): `KaniBondAnyType`,
//! and `KaniRepetition`, Koma's draw by the fourth occurrence of a position.

use crate::core::{OptionSpec, OptionValue, Rules, SetError};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct KaniRules {
    /// The advanced variant: a Bond group is formed by own pieces of either
    /// type, not only by pieces of the moved piece's type.
    pub bond_any_type: bool,
    /// The fourth occurrence of a position is a draw. The rulebook has no
    /// draw at all, so two players could otherwise shuffle for ever.
    pub repetition: bool,
}

impl Default for KaniRules {
    fn default() -> Self {
        KaniRules {
            bond_any_type: false,
            repetition: true,
        }
    }
}

static SPECS: [OptionSpec; 2] = [
    OptionSpec::check("KaniBondAnyType", false)
        .described("advanced: Crabs and Shrimps bond with each other"),
    OptionSpec::check("KaniRepetition", true).described(
        "the fourth occurrence of the same position (board and side to move) is a draw (off: the rulebook alone, no draw)",
    ),
];

impl Rules for KaniRules {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), SetError> {
        match (name, value) {
            ("KaniBondAnyType", OptionValue::Check(b)) => self.bond_any_type = *b,
            ("KaniRepetition", OptionValue::Check(b)) => self.repetition = *b,
            _ => {
                return Err(SetError::NoOption {
                    game: "Kani Nari Ebi",
                    name: name.into(),
                    value: value.clone(),
                });
            }
        }
        Ok(())
    }
}
