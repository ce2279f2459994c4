//! The `option name … type …` lines of the `uci` reply. (Values as text
//! are read by `OptionSpec::parse_value`, which every front end shares.)

use crate::core::{OptionKind, OptionSpec};

/// The `uci` reply line declaring an option.
pub fn option_line(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", spec.name)
        }
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            spec.name
        ),
        OptionKind::Combo { default, values } => {
            let mut s = format!("option name {} type combo default {default}", spec.name);
            for v in values.iter() {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        OptionKind::Text { default } => format!(
            "option name {} type string default {}",
            spec.name,
            if default.is_empty() {
                "<empty>"
            } else {
                default
            }
        ),
        OptionKind::Button => format!("option name {} type button", spec.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_follow_uci() {
        assert_eq!(
            option_line(&OptionSpec::combo(
                "HasamiWin",
                "five",
                &["five", "all", "lead3"]
            )),
            "option name HasamiWin type combo default five var five var all var lead3"
        );
        assert_eq!(
            option_line(&OptionSpec::spin("Hash", 16, 1, 4096)),
            "option name Hash type spin default 16 min 1 max 4096"
        );
        assert_eq!(
            option_line(&OptionSpec::check("KaniBondAnyType", false)),
            "option name KaniBondAnyType type check default false"
        );
        assert_eq!(
            option_line(&OptionSpec::text("NanaTable", "")),
            "option name NanaTable type string default <empty>"
        );
    }
}
