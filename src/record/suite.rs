//! The opening-suite file: the referee's openings-file format (one opening
//! per line, `#` comment lines) whose leading comments are `# key: value`
//! lines saying what the suite is for and how it was made; and finding one
//! of the suites the games ship (`GameId::suites`).

use crate::core::{MoveText, OptionValue};
use crate::games::GameId;
use crate::protocol::ParseError;
use crate::protocol::record::{OpeningLine, parse_openings};
use std::fmt;

/// What a suite's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The name the referee finds it by (`--openings suite=NAME`).
    pub name: String,
    pub variant: GameId,
    /// The rule options it was made under, `NAME=VALUE` as the engine
    /// spells them; an option missing here had its default.
    pub rules: Vec<(String, String)>,
    /// Every other `# key: value` line, in file order (`command`, `build`,
    /// `search`, ...).
    pub fields: Vec<(String, String)>,
}

impl Header {
    /// The value of another field.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `variant/name`, as summaries and records show the suite.
    pub fn title(&self) -> String {
        format!("{}/{}", self.variant, self.name)
    }

    /// Whether a match under `rules` (every rule option of the game with
    /// its value) plays the rules the suite was made for.
    pub fn fits(&self, rules: &[(&'static str, OptionValue)]) -> bool {
        let specs = self.variant.rule_specs();
        rules.iter().all(|(n, v)| {
            let made = self.rules.iter().find(|(m, _)| m == n).map_or_else(
                || {
                    specs
                        .iter()
                        .find(|s| s.name == *n)
                        .map(|s| s.default_value().to_string())
                },
                |(_, x)| Some(x.clone()),
            );
            made.as_deref() == Some(v.to_string().as_str())
        })
    }

    /// The rules as one `NAME=VALUE ...` string (`none` for a game without
    /// options).
    pub fn rules_text(&self) -> String {
        if self.rules.is_empty() {
            return "none".into();
        }
        let words: Vec<String> = self.rules.iter().map(|(n, v)| format!("{n}={v}")).collect();
        words.join(" ")
    }
}

/// A suite: its header and its openings (line number in the file, line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    pub header: Header,
    pub lines: Vec<(usize, OpeningLine)>,
}

/// The suite file: the header, then one line per opening, its moves from
/// the game's start position.
pub fn write(header: &Header, openings: &[Vec<MoveText>]) -> String {
    let mut s = format!(
        "# Koma opening suite {} for {}: {} openings, one a line, each the moves from the start position.\n",
        header.name,
        header.variant,
        openings.len()
    );
    s.push_str(&format!("# name: {}\n", header.name));
    s.push_str(&format!("# variant: {}\n", header.variant));
    s.push_str(&format!("# rules: {}\n", header.rules_text()));
    s.push_str(&format!("# positions: {}\n", openings.len()));
    for (k, v) in &header.fields {
        s.push_str(&format!("# {k}: {v}\n"));
    }
    for line in openings {
        let words: Vec<String> = line.iter().map(|m| m.to_string()).collect();
        s.push_str(&words.join(" "));
        s.push('\n');
    }
    s
}

/// Why a suite file was refused; the words name the line at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// `# variant:` names no game.
    UnknownVariant { line: usize, value: String },
    /// A word of `# rules:` is not `NAME=VALUE`.
    NotNameValue { line: usize, word: String },
    /// `# positions:` is not a number.
    NotCount { line: usize, value: String },
    /// The header lacks the `# key: ...` line `key`.
    Missing { key: &'static str },
    /// `# rules:` names an option the variant does not have.
    UnknownRule { variant: GameId, name: String },
    /// An opening line that does not read.
    Opening { line: usize, error: ParseError },
    /// `# positions:` says another number than the file holds.
    Count { said: usize, held: usize },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::UnknownVariant { line, value } => {
                write!(f, "line {line}: unknown variant {value}")
            }
            SuiteError::NotNameValue { line, word } => {
                write!(f, "line {line}: expected NAME=VALUE, got {word}")
            }
            SuiteError::NotCount { line, value } => {
                write!(f, "line {line}: positions: expected a number, got {value}")
            }
            SuiteError::Missing { key } => {
                write!(f, "the header has no {key} line (# {key}: ...)")
            }
            SuiteError::UnknownRule { variant, name } => {
                write!(f, "{variant} has no rule option {name}")
            }
            SuiteError::Opening { line, error } => write!(f, "line {line}: {error}"),
            SuiteError::Count { said, held } => {
                write!(f, "the header says {said} positions, the file holds {held}")
            }
        }
    }
}

impl std::error::Error for SuiteError {}

/// Reads a suite file; the error names the line at fault.
pub fn parse(text: &str) -> Result<Suite, SuiteError> {
    let mut name = None;
    let mut variant = None;
    let mut rules = None;
    let mut positions = None;
    let mut fields = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(comment) = line.strip_prefix('#') else {
            continue;
        };
        let Some((key, value)) = comment.trim().split_once(": ") else {
            continue;
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_lowercase()) {
            continue;
        }
        let line = i + 1;
        let value = value.trim();
        match key {
            "name" => name = Some(value.to_string()),
            "variant" => {
                variant =
                    Some(
                        GameId::from_name(value).ok_or_else(|| SuiteError::UnknownVariant {
                            line,
                            value: value.into(),
                        })?,
                    )
            }
            "rules" => {
                let mut r = Vec::new();
                if value != "none" {
                    for w in value.split_whitespace() {
                        let (n, v) = w.split_once('=').ok_or_else(|| SuiteError::NotNameValue {
                            line,
                            word: w.into(),
                        })?;
                        r.push((n.to_string(), v.to_string()));
                    }
                }
                rules = Some(r);
            }
            "positions" => {
                positions = Some(value.parse::<usize>().map_err(|_| SuiteError::NotCount {
                    line,
                    value: value.into(),
                })?)
            }
            _ => fields.push((key.to_string(), value.to_string())),
        }
    }
    let missing = |key| SuiteError::Missing { key };
    let header = Header {
        name: name.ok_or_else(|| missing("name"))?,
        variant: variant.ok_or_else(|| missing("variant"))?,
        rules: rules.ok_or_else(|| missing("rules"))?,
        fields,
    };
    let specs = header.variant.rule_specs();
    for (n, _) in &header.rules {
        if !specs.iter().any(|s| s.name == n) {
            return Err(SuiteError::UnknownRule {
                variant: header.variant,
                name: n.clone(),
            });
        }
    }
    let lines =
        parse_openings(text).map_err(|(line, error)| SuiteError::Opening { line, error })?;
    let positions = positions.ok_or_else(|| missing("positions"))?;
    if positions != lines.len() {
        return Err(SuiteError::Count {
            said: positions,
            held: lines.len(),
        });
    }
    Ok(Suite { header, lines })
}

/// Why no shipped suite fits the match.
#[derive(Debug)]
pub enum ShippedError {
    /// A shipped suite that does not read (a build's fault, not the user's).
    Broken {
        path: &'static str,
        error: SuiteError,
    },
    /// The game ships no suite.
    NoneFor(GameId),
    /// None of that name for these rules; `asked` the rule values asked,
    /// `shipped` each suite's name and rules.
    NoMatch {
        name: String,
        variant: GameId,
        asked: Vec<String>,
        shipped: Vec<String>,
    },
}

impl fmt::Display for ShippedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShippedError::Broken { path, error } => write!(f, "shipped suite {path}: {error}"),
            ShippedError::NoneFor(variant) => write!(f, "no shipped opening suite for {variant}"),
            ShippedError::NoMatch {
                name,
                variant,
                asked,
                shipped,
            } => {
                write!(f, "no shipped opening suite {name} for {variant}")?;
                if !asked.is_empty() {
                    write!(f, " with {}", asked.join(" "))?;
                }
                write!(f, "; shipped: {}", shipped.join(", "))
            }
        }
    }
}

impl std::error::Error for ShippedError {}

/// The shipped suite called `name` for `variant` under `rules` (every rule
/// option of the game with its value in the match); the error says what
/// exists instead.
pub fn shipped(
    variant: GameId,
    name: &str,
    rules: &[(&'static str, OptionValue)],
) -> Result<Suite, ShippedError> {
    let mut near = Vec::new();
    for s in variant.suites() {
        let suite = parse(s.text).map_err(|error| ShippedError::Broken {
            path: s.path,
            error,
        })?;
        let h = &suite.header;
        if h.variant != variant {
            continue;
        }
        if h.name == name && h.fits(rules) {
            return Ok(suite);
        }
        near.push(format!("{} (rules {})", h.name, h.rules_text()));
    }
    Err(if near.is_empty() {
        ShippedError::NoneFor(variant)
    } else {
        ShippedError::NoMatch {
            name: name.to_string(),
            variant,
            asked: rules.iter().map(|(n, v)| format!("{n}={v}")).collect(),
            shipped: near,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_move;

    fn header() -> Header {
        Header {
            name: "default".into(),
            variant: GameId::from_name("hasami").unwrap(),
            rules: vec![
                ("HasamiWin".into(), "five".into()),
                ("HasamiLines".into(), "true".into()),
            ],
            fields: vec![
                ("command".into(), "koma openings --variant hasami".into()),
                ("build".into(), "koma 0.1.0, bench 1".into()),
            ],
        }
    }

    fn moves(s: &str) -> Vec<MoveText> {
        s.split_whitespace()
            .map(|m| parse_move(m).unwrap())
            .collect()
    }

    #[test]
    fn a_suite_file_round_trips() {
        let openings = vec![moves("a1a2 i9i8"), moves("e1e5 e9e6 a1a4")];
        let text = write(&header(), &openings);
        let suite = parse(&text).unwrap();
        assert_eq!(suite.header, header());
        let back: Vec<Vec<MoveText>> = suite.lines.iter().map(|(_, l)| l.moves.clone()).collect();
        assert_eq!(back, openings);
        assert!(suite.lines.iter().all(|(_, l)| l.start.is_none()));
        assert_eq!(write(&suite.header, &back), text, "byte for byte");
        // The referee's plain reader sees the same openings.
        let plain = parse_openings(&text).unwrap();
        assert_eq!(plain, suite.lines);
    }

    #[test]
    fn a_bad_suite_file_is_refused_with_its_line() {
        let text = write(&header(), &[moves("a1a2")]);
        let cases = [
            (
                text.replace("# positions: 1", "# positions: 2"),
                "says 2 positions",
            ),
            (text.replace("a1a2\n", "a1a2 zz\n"), "line 8"),
            (
                text.replace("# variant: hasami", "# variant: chess"),
                "unknown variant",
            ),
            (
                text.replace("HasamiWin=five", "HasamiWin"),
                "expected NAME=VALUE",
            ),
            (text.replace("HasamiWin=", "Nope="), "no rule option Nope"),
            (text.replace("# name: default\n", ""), "no name line"),
        ];
        for (t, want) in cases {
            let e = parse(&t).unwrap_err().to_string();
            assert!(e.contains(want), "{want}: {e}");
        }
        // Callers match on what is wrong.
        let e = parse(&text.replace("# positions: 1", "# positions: 2")).unwrap_err();
        assert_eq!(e, SuiteError::Count { said: 2, held: 1 });
        let e = parse(&text.replace("# name: default\n", "")).unwrap_err();
        assert_eq!(e, SuiteError::Missing { key: "name" });
    }

    #[test]
    fn a_suite_fits_the_rules_it_was_made_for_defaults_included() {
        let h = header();
        let full = |win: &str, corners: bool| {
            vec![
                ("HasamiWin", OptionValue::Combo(win.into())),
                ("HasamiLines", OptionValue::Check(true)),
                ("HasamiCorners", OptionValue::Check(corners)),
            ]
        };
        assert!(
            h.fits(&full("five", true)),
            "HasamiCorners left at its default"
        );
        assert!(!h.fits(&full("lead3", true)));
        assert!(!h.fits(&full("five", false)));
    }
}
