//! Kani Nari Ebi's rule option `KaniBondAnyType` (`docs/rules/notation.md`).

use crate::core::{OptionSpec, OptionValue, Rules};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KaniRules {
    /// The advanced variant: a Bond group is formed by own pieces of either
    /// type, not only by pieces of the moved piece's type.
    pub bond_any_type: bool,
}

static SPECS: [OptionSpec; 1] = [OptionSpec::check("KaniBondAnyType", false)];

impl Rules for KaniRules {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            ("KaniBondAnyType", OptionValue::Check(b)) => self.bond_any_type = *b,
            _ => return Err(format!("no Kani Nari Ebi option {name} with value {value}")),
        }
        Ok(())
    }
}
