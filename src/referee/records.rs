//! Game records: built from a finished game, appended whole and flushed to
//! every record file as the game ends (the `--pgnout` file, then the state
//! file, which is the commit point of a resumable match).

use super::clock::Limits;
use super::game::GameEnd;
use super::reason::Reason;
use super::schedule::GameSpec;
use crate::core::{OptionValue, PositionText};
use crate::protocol::record::Record;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Tag names the referee writes (rule options use their own names).
pub mod tags {
    pub const MATCH: &str = "Match";
    pub const GAME: &str = "Game";
    pub const PAIR: &str = "Pair";
    pub const FIRST: &str = "First";
    pub const SECOND: &str = "Second";
    pub const RESULT: &str = "Result";
    pub const VARIANT: &str = "Variant";
    pub const FEN: &str = "FEN";
    pub const TERMINATION: &str = "Termination";
    pub const DETAILS: &str = "TerminationDetails";
    pub const PLY_COUNT: &str = "PlyCount";
    pub const OPENING_PLIES: &str = "OpeningPlies";
    pub const MAX_PLIES: &str = "MaxPlies";
    pub const OPENING_SUITE: &str = "OpeningSuite";
    pub const OPENING_SUITE_SIZE: &str = "OpeningSuiteSize";
}

/// The fixed facts of a record besides the game itself.
pub struct RecordContext<'a> {
    pub fingerprint: &'a str,
    pub event: &'a str,
    pub date: &'a str,
    pub variant: &'a str,
    /// Every rule option of the game with its value in this match.
    pub rules: &'a [(&'static str, OptionValue)],
    pub max_plies: Option<u32>,
    /// The shipped opening suite the match plays (`variant/name`) and how
    /// many openings it holds.
    pub suite: Option<(&'a str, usize)>,
}

/// The record of one game; `names` and `limits` by colour.
pub fn build(
    ctx: &RecordContext<'_>,
    spec: &GameSpec,
    names: [&str; 2],
    limits: [&Limits; 2],
    start: Option<&PositionText>,
    opening_plies: usize,
    end: &GameEnd,
) -> Record {
    let mut r = Record::default();
    let mut tag = |n: &str, v: String| r.tags.push((n.to_string(), v));
    // The Match tag comes first: a record cut short by a kill still shows
    // whose it was (see `state::load`).
    tag(tags::MATCH, ctx.fingerprint.to_string());
    tag("Event", ctx.event.to_string());
    tag("Date", ctx.date.to_string());
    tag("Round", spec.round.to_string());
    tag(tags::GAME, spec.number.to_string());
    if let Some(p) = spec.pair {
        tag(tags::PAIR, p.to_string());
    }
    tag(tags::FIRST, names[0].to_string());
    tag(tags::SECOND, names[1].to_string());
    tag(tags::RESULT, end.outcome.score_text().to_string());
    tag(tags::VARIANT, ctx.variant.to_string());
    for (name, value) in ctx.rules {
        tag(name, value.to_string());
    }
    if let Some(s) = start {
        tag("SetUp", "1".to_string());
        tag(tags::FEN, s.to_string());
    }
    let (a, b) = (limits[0].to_string(), limits[1].to_string());
    if a == b {
        tag("TimeControl", a);
    } else {
        tag("FirstTimeControl", a);
        tag("SecondTimeControl", b);
    }
    if let Some(m) = ctx.max_plies {
        tag(tags::MAX_PLIES, m.to_string());
    }
    tag(tags::TERMINATION, end.reason.message().to_string());
    if let Some(d) = &end.detail {
        tag(tags::DETAILS, d.clone());
    }
    tag(tags::PLY_COUNT, end.moves.len().to_string());
    tag(tags::OPENING_PLIES, opening_plies.to_string());
    if let Some((title, size)) = ctx.suite {
        tag(tags::OPENING_SUITE, title.to_string());
        tag(tags::OPENING_SUITE_SIZE, size.to_string());
    }
    r.moves = end.moves.clone();
    r.result = end.outcome.score_text().to_string();
    r
}

/// The sentence of a record's end, from its tags: `B loses on time`.
pub fn sentence(r: &Record) -> Option<String> {
    let reason = Reason::from_message(r.tag(tags::TERMINATION)?)?;
    let outcome = super::report::outcome_of(r.tag(tags::RESULT)?)?;
    let names = [r.tag(tags::FIRST)?, r.tag(tags::SECOND)?];
    Some(reason.sentence(outcome, names))
}

/// The files each record is appended to, in order; the last is the commit
/// point.
pub struct RecordSink {
    files: Vec<(PathBuf, File)>,
}

impl RecordSink {
    /// Opens (creating) each distinct path for appending.
    pub fn open(paths: &[&Path]) -> Result<RecordSink, String> {
        let mut files: Vec<(PathBuf, File)> = Vec::new();
        for &p in paths {
            if files.iter().any(|(q, _)| q == p) {
                continue;
            }
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {}: {e}", p.display()))?;
            files.push((p.to_path_buf(), f));
        }
        Ok(RecordSink { files })
    }

    /// Writes the record to every file in one write each, flushed.
    pub fn append(&mut self, r: &Record) -> Result<(), String> {
        let text = r.to_string();
        for (p, f) in &mut self.files {
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| format!("cannot write to {}: {e}", p.display()))?;
        }
        Ok(())
    }
}
