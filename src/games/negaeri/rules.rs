//! Negaeri's rule options, as the engine options of `docs/rules/notation.md`.

use crate::core::{OptionSpec, OptionValue, Rules, SetError};

/// The highest chain level the rules allow (and the default limit).
pub const MAX_CHAIN: u8 = 5;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NegaeriRules {
    /// `NegaeriEdge`: the board edge closes a sandwich.
    pub edge: bool,
    /// `NegaeriEqualHands`: the first player starts with 3 pawns in hand
    /// instead of 4.
    pub equal_hands: bool,
    /// `NegaeriChainLimit`: the highest chain level that flips (1 to 5;
    /// level 1 is what the drop itself sandwiches).
    pub chain_limit: u8,
}

impl Default for NegaeriRules {
    fn default() -> Self {
        NegaeriRules {
            edge: true,
            equal_hands: false,
            chain_limit: MAX_CHAIN,
        }
    }
}

static SPECS: [OptionSpec; 3] = [
    OptionSpec::check("NegaeriEdge", true).described("the board edge closes a sandwich"),
    OptionSpec::check("NegaeriEqualHands", false)
        .described("the first player starts with 3 pawns in hand instead of 4"),
    OptionSpec::spin("NegaeriChainLimit", MAX_CHAIN as i64, 1, MAX_CHAIN as i64)
        .described("highest chain level that flips"),
];

impl Rules for NegaeriRules {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), SetError> {
        match (name, value) {
            ("NegaeriEdge", OptionValue::Check(b)) => self.edge = *b,
            ("NegaeriEqualHands", OptionValue::Check(b)) => self.equal_hands = *b,
            ("NegaeriChainLimit", OptionValue::Spin(v)) if (1..=MAX_CHAIN as i64).contains(v) => {
                self.chain_limit = *v as u8
            }
            _ => {
                return Err(SetError::NoOption {
                    game: "Negaeri",
                    name: name.into(),
                    value: value.clone(),
                });
            }
        }
        Ok(())
    }
}
