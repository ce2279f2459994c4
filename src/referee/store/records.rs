//! A match's records on disk: the provenance tags of a shard's records, the
//! referee's command line as a tag, and each record appended whole and
//! flushed to every record file as a game ends (the `--pgnout` file, then
//! the state file, which is the commit point of a resumable match). The
//! record itself is built by `record::build`.

use super::files::{FileError, RECORD};
use crate::protocol::record::Record;
use crate::record::tags;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What makes a record of a shard self-describing: which shard, the host
/// that played it, the engines' `id name` by colour (absent for an engine
/// that never sent one), and the referee's command line.
pub struct Provenance<'a> {
    pub shard: Option<crate::record::shard::Shard>,
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

/// A record file the system refused to write to (a full disk, a file
/// made read-only since it was opened).
#[derive(Debug)]
pub struct WriteFailed {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl std::fmt::Display for WriteFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write to {}: {}",
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for WriteFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
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
    pub fn append(&mut self, r: &Record) -> Result<(), WriteFailed> {
        let text = r.to_string();
        for (p, f) in &mut self.files {
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|source| WriteFailed {
                    path: p.clone(),
                    source,
                })?;
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
