//! Option values as text: `setoption` values checked against an
//! `OptionSpec`, and the `option name … type …` lines of the `uci` reply.

use crate::core::{OptionKind, OptionSpec, OptionValue};

/// Checks a raw `setoption` value against its spec.
pub fn parse_option_value(spec: &OptionSpec, raw: Option<&str>) -> Result<OptionValue, String> {
    let raw = raw.unwrap_or("").trim();
    match &spec.kind {
        OptionKind::Check { .. } => match raw.to_ascii_lowercase().as_str() {
            "true" => Ok(OptionValue::Check(true)),
            "false" => Ok(OptionValue::Check(false)),
            _ => Err(format!(
                "expected true or false for {} at {}",
                spec.name,
                shown(raw)
            )),
        },
        OptionKind::Spin { min, max, .. } => match raw.parse::<i64>() {
            Ok(v) if (*min..=*max).contains(&v) => Ok(OptionValue::Spin(v)),
            _ => Err(format!(
                "expected an integer from {min} to {max} for {} at {}",
                spec.name,
                shown(raw)
            )),
        },
        OptionKind::Combo { values, .. } => values
            .iter()
            .find(|v| v.eq_ignore_ascii_case(raw))
            .map(|v| OptionValue::Combo(v.to_string()))
            .ok_or_else(|| {
                format!(
                    "expected one of {} for {} at {}",
                    values.join(", "),
                    spec.name,
                    shown(raw)
                )
            }),
        OptionKind::Text { .. } => Ok(OptionValue::Text(if raw == "<empty>" {
            String::new()
        } else {
            raw.to_string()
        })),
        OptionKind::Button => Ok(OptionValue::Button),
    }
}

fn shown(raw: &str) -> &str {
    if raw.is_empty() { "end of line" } else { raw }
}

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
    fn values_are_checked_against_their_spec() {
        let check = OptionSpec::check("HasamiLines", true);
        assert_eq!(
            parse_option_value(&check, Some("FALSE")),
            Ok(OptionValue::Check(false))
        );
        assert!(parse_option_value(&check, Some("no")).is_err());
        let spin = OptionSpec::spin("NegaeriChainLimit", 5, 1, 5);
        assert_eq!(
            parse_option_value(&spin, Some("3")),
            Ok(OptionValue::Spin(3))
        );
        assert!(parse_option_value(&spin, Some("0")).is_err());
        assert!(parse_option_value(&spin, Some("6")).is_err());
        assert!(parse_option_value(&spin, Some("x")).is_err());
        assert!(parse_option_value(&spin, None).is_err());
        let combo = OptionSpec::combo("HasamiWin", "five", &["five", "all", "lead3"]);
        assert_eq!(
            parse_option_value(&combo, Some("ALL")),
            Ok(OptionValue::Combo("all".into()))
        );
        assert!(parse_option_value(&combo, Some("four")).is_err());
        let text = OptionSpec::text("NanaTable", "");
        assert_eq!(
            parse_option_value(&text, Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
    }

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
