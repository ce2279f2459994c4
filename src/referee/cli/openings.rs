//! `--openings`: the file (or the shipped suite) and its keys, each line
//! checked with the rules library, and the openings of a record file.

use super::config::Openings;
use super::engine::number_of;
use super::{CliError, Usage};
use crate::core::with_defaults;
use crate::games::GameId;
use crate::protocol::record::{OpeningLine, parse_openings};
use crate::record::suite;
use crate::referee::store::files::{FileError, open_regular};
use std::path::{Path, PathBuf};

pub(super) fn openings(
    keys: &[(String, String)],
    variant: GameId,
    rules: &[(&'static str, crate::core::OptionValue)],
) -> Result<Openings, CliError> {
    let Keys {
        path,
        suite_name,
        random,
        plies,
        start,
        pgn,
    } = read_keys(keys)?;
    let mut o: Openings = match (path, suite_name) {
        (Some(_), Some(_)) => Err(CliError::from(Usage::new(
            "--openings: give file= or suite=, not both",
        ))),
        (None, None) => Err(CliError::from(Usage::new(
            "--openings needs file=FILE or suite=NAME",
        ))),
        (None, Some(name)) => {
            // The suite is for the match's rules: every option, defaults
            // included.
            let all = with_defaults(variant.rule_specs(), rules);
            let s = suite::shipped(variant, &name, &all)
                .map_err(|e| Usage::new(format!("--openings suite={name}: {e}")))?;
            let title = s.header.title();
            Ok(Openings {
                source: format!("suite {title}"),
                suite: Some(title),
                random,
                lines: s.lines,
            })
        }
        (Some(path), None) => {
            let lines = file_lines(&path, pgn, plies)?;
            if lines.is_empty() {
                return Err(Usage::new(format!("{} holds no opening", path.display())).into());
            }
            Ok(Openings {
                source: path.display().to_string(),
                suite: None,
                random,
                lines,
            })
        }
    }?;
    // fastchess's start=N: the book is read from its N-th opening on (and
    // round again); plies=N: at most N of each opening's moves.
    if start > o.lines.len() {
        return Err(Usage::new(format!(
            "--openings start={start}: the book holds {} openings",
            o.lines.len()
        ))
        .into());
    }
    o.lines.rotate_left(start - 1);
    if let Some(p) = plies {
        for (_, line) in &mut o.lines {
            line.moves.truncate(p);
        }
    }
    Ok(o)
}

/// The keys of `--openings`, each checked alone.
struct Keys {
    path: Option<PathBuf>,
    suite_name: Option<String>,
    random: bool,
    plies: Option<usize>,
    start: usize,
    pgn: bool,
}

fn read_keys(keys: &[(String, String)]) -> Result<Keys, CliError> {
    let mut path = None;
    let mut suite_name = None;
    let mut random = false;
    let mut plies = None;
    let mut start = 1;
    let mut pgn = false;
    for (k, v) in keys {
        match k.as_str() {
            "file" => path = Some(PathBuf::from(v)),
            "suite" => suite_name = Some(v.clone()),
            // One opening a line is fastchess's epd (a position a line),
            // with moves allowed after it.
            "format" if v == "epd" => pgn = false,
            // Koma's own record files (--pgnout): each record's start and
            // moves, cut to plies=N.
            "format" if v == "pgn" => pgn = true,
            // cutechess-cli's: when a new opening comes (the schedule's).
            "policy" if ["default", "encounter", "round"].contains(&v.as_str()) => {}
            "policy" => {
                return Err(Usage::new(format!(
                    "--openings policy={v}: expected default, encounter or round"
                ))
                .into());
            }
            "format" => {
                return Err(Usage::new(format!(
                    "--openings format={v}: expected epd (one opening a line: a position, \
                     moves, or both) or pgn (Koma's record files)"
                ))
                .into());
            }
            "plies" => plies = Some(number_of::<usize>(v, "--openings plies")?),
            "start" => {
                start = number_of::<usize>(v, "--openings start")?;
                if start == 0 {
                    return Err(Usage::new("--openings start=0: the first opening is 1").into());
                }
            }
            "order" => {
                random = match v.as_str() {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(Usage::new(format!(
                            "--openings order={v}: expected random or sequential"
                        ))
                        .into());
                    }
                }
            }
            _ => {
                return Err(Usage::new(format!(
                    "--openings: unknown key {k} (expected file, suite, order, format, plies, start, policy)"
                ))
                .into());
            }
        }
    }
    Ok(Keys {
        path,
        suite_name,
        random,
        plies,
        start,
        pgn,
    })
}

/// The openings of `--openings file=`: one a line (epd), or each record's
/// start and moves (pgn).
fn file_lines(
    path: &Path,
    pgn: bool,
    plies: Option<usize>,
) -> Result<Vec<(usize, OpeningLine)>, CliError> {
    let text = open_regular(path, std::fs::OpenOptions::new().read(true))
        .and_then(|mut f| {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut f, &mut text).map(|_| text)
        })
        .map_err(FileError::io("read", "openings file", path))?;
    let lines = if pgn {
        let lines = record_openings(&text).map_err(|(line, source)| FileError::BadLine {
            path: path.to_path_buf(),
            line,
            source,
        })?;
        if plies.is_none() && text.contains("[Termination ") {
            return Err(Usage::new(format!(
                "--openings file={} format=pgn: its records are whole games, which \
                 cannot be openings (a finished game has no move to play); add plies=N \
                 to keep the first N moves of each",
                path.display()
            ))
            .into());
        }
        lines
    } else {
        // EPD operations after `;` (`id "x"; c0 "…"`) name or
        // comment a position; the position and moves come before.
        let text: Vec<&str> = text
            .lines()
            .map(|l| l.split_once(';').map_or(l, |(p, _)| p.trim_end()))
            .collect();
        parse_openings(&text.join("\n")).map_err(|(line, source)| FileError::BadLine {
            path: path.to_path_buf(),
            line,
            source,
        })?
    };
    Ok(lines)
}

/// The openings of a record file: each record's start position (its `FEN`
/// tag) and its moves, with the line its record starts on.
pub(super) fn record_openings(
    text: &str,
) -> Result<Vec<(usize, OpeningLine)>, (usize, crate::protocol::ParseError)> {
    let mut out = Vec::new();
    for item in crate::protocol::record::parse_records(text) {
        let r = item.record.map_err(|e| (item.line, e))?;
        let start = r
            .tag("FEN")
            .map(crate::protocol::parse_position)
            .transpose()
            .map_err(|e| (item.line, e))?;
        let moves = r.moves.iter().map(|m| m.mv).collect();
        out.push((item.line, OpeningLine { start, moves }));
    }
    Ok(out)
}
