//! Why the engine refuses a `setoption`, by kind. Each `Display` is the
//! protocol's reply (`info string error: …`) word for word, ending with
//! the token it is about; a refused option changes nothing.

use crate::core::{FileFault, OptionValue};
use std::fmt;

#[derive(Debug)]
pub enum OptionRefused {
    /// Not an option, or a value its spec does not read (the option
    /// store's words).
    Value(String),
    /// `Hash`: no table of the size asked; the one in use stays.
    Hash {
        why: HashRefused,
        kept_mb: i64,
        value: OptionValue,
    },
    /// `EvalFile`: the file cannot be used for `game`.
    EvalFile {
        path: String,
        game: &'static str,
        why: FileRefused,
    },
    /// A game's table option: the file cannot be used; `kept`: a table
    /// loaded before stays.
    Table {
        name: &'static str,
        path: String,
        why: FileRefused,
        kept: bool,
    },
    /// `UCI_Variant`: not a game of the engine's registry.
    UnknownVariant(OptionValue),
    /// The game cannot be made under these rule values (the rules' words);
    /// `option`: the rule option whose new value it was.
    Rules {
        why: String,
        option: Option<&'static str>,
    },
}

/// Why a game's file (its table, its weights) cannot be used.
#[derive(Debug)]
pub enum FileRefused {
    /// The game has no table of solved positions.
    NoTable(&'static str),
    /// The game has no weights file.
    NoWeights(&'static str),
    /// What is wrong with the file, in the game's words.
    Bad(FileFault),
}

impl fmt::Display for FileRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileRefused::NoTable(game) => write!(f, "{game} has no table of solved positions"),
            FileRefused::NoWeights(game) => write!(f, "{game} has no weights file"),
            FileRefused::Bad(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FileRefused {}

/// Why a transposition table of `mb` MB is not made.
#[derive(Debug, PartialEq, Eq)]
pub enum HashRefused {
    /// More than the memory available now.
    TooBig { mb: usize, free_mb: u64 },
    /// The allocation failed.
    NoMemory { mb: usize },
}

impl fmt::Display for HashRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashRefused::TooBig { mb, free_mb } => write!(
                f,
                "a table of {mb} MB does not fit in the {free_mb} MB of memory available"
            ),
            HashRefused::NoMemory { mb } => write!(f, "cannot allocate a table of {mb} MB"),
        }
    }
}

impl fmt::Display for OptionRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionRefused::Value(words) => f.write_str(words),
            OptionRefused::Hash {
                why,
                kept_mb,
                value,
            } => write!(f, "{why}; the table stays at {kept_mb} MB at {value}"),
            OptionRefused::EvalFile { path, game, why } => write!(
                f,
                "cannot use {path} as EvalFile: {why}; {game} keeps the evaluation it had"
            ),
            OptionRefused::Table {
                name,
                path,
                why,
                kept,
            } => {
                let kept = if *kept {
                    "the table loaded before stays"
                } else {
                    "the game goes on without a table"
                };
                write!(f, "cannot use {path} as {name}: {why}; {kept} at {path}")
            }
            OptionRefused::UnknownVariant(value) => write!(f, "unknown variant at {value}"),
            OptionRefused::Rules { why, option: None } => f.write_str(why),
            OptionRefused::Rules {
                why,
                option: Some(name),
            } => write!(f, "{why} at {name}"),
        }
    }
}

impl std::error::Error for HashRefused {}
impl std::error::Error for OptionRefused {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_reads_as_the_protocol_reply_ending_with_its_token() {
        let text = |s: &str| OptionValue::Text(s.into());
        let cases = [
            (
                OptionRefused::Hash {
                    why: HashRefused::TooBig {
                        mb: 4096,
                        free_mb: 1000,
                    },
                    kept_mb: 16,
                    value: OptionValue::Spin(4096),
                },
                "a table of 4096 MB does not fit in the 1000 MB of memory available; \
                 the table stays at 16 MB at 4096",
            ),
            (
                OptionRefused::Hash {
                    why: HashRefused::NoMemory { mb: 64 },
                    kept_mb: 16,
                    value: OptionValue::Spin(64),
                },
                "cannot allocate a table of 64 MB; the table stays at 16 MB at 64",
            ),
            (
                OptionRefused::EvalFile {
                    path: "w.txt".into(),
                    game: "g",
                    why: FileRefused::Bad("no such file".into()),
                },
                "cannot use w.txt as EvalFile: no such file; g keeps the evaluation it had",
            ),
            (
                OptionRefused::Table {
                    name: "T",
                    path: "t.bin".into(),
                    why: FileRefused::Bad("bad".into()),
                    kept: true,
                },
                "cannot use t.bin as T: bad; the table loaded before stays at t.bin",
            ),
            (
                OptionRefused::Table {
                    name: "T",
                    path: "t.bin".into(),
                    why: FileRefused::Bad("bad".into()),
                    kept: false,
                },
                "cannot use t.bin as T: bad; the game goes on without a table at t.bin",
            ),
            (
                OptionRefused::UnknownVariant(text("chess")),
                "unknown variant at chess",
            ),
            (
                OptionRefused::Rules {
                    why: "no such rule".into(),
                    option: Some("R"),
                },
                "no such rule at R",
            ),
            (
                OptionRefused::Value("unknown option at X".into()),
                "unknown option at X",
            ),
        ];
        for (refused, words) in cases {
            assert_eq!(refused.to_string(), words, "{refused:?}");
        }
    }
}
