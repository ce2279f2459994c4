//! Game records: built from a game (the referee's, or the board's), their
//! tags read back (the sentence of the end, the rule options), and appended
//! whole and flushed to every record file as a match's game ends (the
//! `--pgnout` file, then the state file, which is the commit point of a
//! resumable match).

use super::files::{FileError, RECORD};
use crate::client::clock::EngineLimits;
use crate::client::reason::{Ending, Reason};
use crate::core::{OptionValue, PositionText, RuleValues};
use crate::games::GameId;
use crate::protocol::record::{Record, RecordMove};
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
    pub const SHARD: &str = "Shard";
    pub const SITE: &str = "Site";
    pub const FIRST_ENGINE: &str = "FirstEngine";
    pub const SECOND_ENGINE: &str = "SecondEngine";
    pub const COMMAND: &str = "RefereeCommand";
    pub const DRAW_ADJUDICATION: &str = "DrawAdjudication";
    pub const RESIGN_ADJUDICATION: &str = "ResignAdjudication";
}

/// What makes a record of a shard self-describing: which shard, the host
/// that played it, the engines' `id name` by colour (absent for an engine
/// that never sent one), and the referee's command line.
pub struct Provenance<'a> {
    pub shard: Option<super::shard::Shard>,
    pub site: &'a str,
    pub ids: [Option<&'a str>; 2],
    pub command: &'a str,
}

/// Adds the provenance tags at the end of a record's tags.
pub fn add_provenance(r: &mut Record, p: &Provenance<'_>) {
    if let Some(s) = p.shard {
        r.set_tag(tags::SHARD, s.to_string());
    }
    if !p.site.is_empty() {
        r.set_tag(tags::SITE, p.site);
    }
    for (tag, id) in [tags::FIRST_ENGINE, tags::SECOND_ENGINE]
        .into_iter()
        .zip(p.ids)
    {
        if let Some(id) = id {
            r.set_tag(tag, id);
        }
    }
    r.set_tag(tags::COMMAND, p.command);
}

/// The host's name, for the `Site` tag; empty if it has none.
pub fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most buf.len() bytes into buf.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            return String::from_utf8_lossy(&buf[..end]).into_owned();
        }
    }
    String::new()
}

/// A command line as one string a POSIX shell reads back into the same
/// words: words of plain characters as they are, others in single quotes.
pub fn shell_words<S: AsRef<str>>(words: &[S]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            if !w.is_empty() && w.chars().all(plain) {
                w.to_string()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect();
    quoted.join(" ")
}

/// What a record says besides its moves and its end, whoever played the
/// game: a match of the referee, or the board.
pub struct RecordHeader<'a> {
    /// The match the game belongs to (the `Match` tag; none outside one).
    pub fingerprint: Option<&'a str>,
    pub event: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub game: u64,
    /// The colour-swapped pair of a match the game belongs to.
    pub pair: Option<u64>,
    /// By colour.
    pub names: [&'a str; 2],
    pub variant: &'a str,
    /// Every rule option of the game with its value.
    pub rules: &'a [(&'static str, OptionValue)],
    /// The start position when it is not the game's own.
    pub start: Option<&'a PositionText>,
    /// By colour; a side without any is written `-`.
    pub limits: [&'a EngineLimits; 2],
    pub max_plies: Option<u32>,
    /// The shipped opening suite the match plays (`variant/name`) and how
    /// many openings it holds.
    pub suite: Option<(&'a str, usize)>,
}

/// The record of one game: `end` is `None` while it is in progress (then
/// the result is `*`), `opening_plies` the moves that were not played by
/// the players.
pub fn build(
    h: &RecordHeader<'_>,
    end: Option<&Ending>,
    moves: &[RecordMove],
    opening_plies: usize,
) -> Record {
    let mut r = Record::default();
    let mut tag = |n: &str, v: String| r.tags.push((n.to_string(), v));
    // The Match tag comes first: a record cut short by a kill still shows
    // whose it was (see `state::load`).
    if let Some(f) = h.fingerprint {
        tag(tags::MATCH, f.to_string());
    }
    tag("Event", h.event.to_string());
    tag("Date", h.date.to_string());
    tag("Round", h.round.to_string());
    tag(tags::GAME, h.game.to_string());
    if let Some(p) = h.pair {
        tag(tags::PAIR, p.to_string());
    }
    tag(tags::FIRST, h.names[0].to_string());
    tag(tags::SECOND, h.names[1].to_string());
    let result = end.map_or("*", |e| e.outcome.score_text());
    tag(tags::RESULT, result.to_string());
    tag(tags::VARIANT, h.variant.to_string());
    for (name, value) in h.rules {
        tag(name, value.to_string());
    }
    if let Some(s) = h.start {
        tag("SetUp", "1".to_string());
        tag(tags::FEN, s.to_string());
    }
    let [a, b] = h.limits.map(|l| match l.to_string() {
        s if s.is_empty() => "-".to_string(),
        s => s,
    });
    if a == b {
        tag("TimeControl", a);
    } else {
        tag("FirstTimeControl", a);
        tag("SecondTimeControl", b);
    }
    if let Some(m) = h.max_plies {
        tag(tags::MAX_PLIES, m.to_string());
    }
    if let Some(e) = end {
        tag(tags::TERMINATION, e.reason.message().to_string());
        if let Some(d) = &e.detail {
            tag(tags::DETAILS, d.clone());
        }
    }
    tag(tags::PLY_COUNT, moves.len().to_string());
    tag(tags::OPENING_PLIES, opening_plies.to_string());
    if let Some((title, size)) = h.suite {
        tag(tags::OPENING_SUITE, title.to_string());
        tag(tags::OPENING_SUITE_SIZE, size.to_string());
    }
    r.moves = moves.to_vec();
    r.result = result.to_string();
    r
}

/// The sentence of a record's end, from its tags: `B loses on time`.
pub fn sentence(r: &Record) -> Option<String> {
    let reason = Reason::from_message(r.tag(tags::TERMINATION)?)?;
    let outcome = r.tag(tags::RESULT)?.parse().ok()?;
    let names = [r.tag(tags::FIRST)?, r.tag(tags::SECOND)?];
    Some(reason.sentence(outcome, names))
}

/// The rule options a record's tags give (tags are named as the options).
pub fn rule_values(r: &Record, game: GameId) -> Result<RuleValues, String> {
    let specs = game.rule_specs();
    game.read_rules(
        specs
            .iter()
            .filter_map(|s| r.tag(s.name).map(|v| (s.name, v))),
    )
}

/// The words of a command line written by `shell_words`: blanks separate
/// words, single quotes quote, a backslash escapes the next character
/// outside them. `None` for an unclosed quote.
pub fn split_shell_words(s: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        q => w.push(q),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// The files each record is appended to, in order; the last is the commit
/// point.
pub struct RecordSink {
    files: Vec<(PathBuf, File)>,
}

impl RecordSink {
    /// Opens (creating) each distinct path for appending.
    pub fn open(paths: &[&Path]) -> Result<RecordSink, FileError> {
        let mut files: Vec<(PathBuf, File)> = Vec::new();
        for &p in paths {
            if files.iter().any(|(q, _)| q == p) {
                continue;
            }
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(FileError::io("open", RECORD, p))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_reads_back_into_the_same_words() {
        let words = [
            "koma-referee",
            "--engine",
            "cmd=/opt/koma",
            "args=-x 'y'",
            "name=it's",
            "",
            "a\\b",
        ];
        let line = shell_words(&words);
        assert_eq!(
            line,
            "koma-referee --engine cmd=/opt/koma 'args=-x '\\''y'\\''' 'name=it'\\''s' '' 'a\\b'"
        );
        assert_eq!(
            split_shell_words(&line),
            Some(words.map(String::from).to_vec())
        );
        assert_eq!(split_shell_words("a 'b"), None);
    }
}
