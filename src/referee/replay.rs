//! `--replay FILE`: re-validates every record of a record file with the
//! record's replay check (`record::replay`), which the referee gives the
//! reader of its own command lines (a record's `RefereeCommand` tag says
//! how many games its match has).

use super::RunError;
use super::cli::recorded_match;
use super::store::files::{FileError, open_regular};
use super::store::records;
use crate::protocol::record::{Record, RecordChunks, parse_record};
use crate::record::replay::check;
use crate::record::tags;
use std::path::Path;
use std::process::ExitCode;

/// Games in the match a record's `RefereeCommand` describes (`None`
/// without a readable one). The records of a file mostly share one
/// command: the last is remembered, so a file is not parsed once per record.
pub fn match_games(r: &Record) -> Option<u64> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, Option<u64>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let command = r.tag(tags::COMMAND)?;
    LAST.with_borrow_mut(|last| {
        if let Some((c, total)) = last.as_ref()
            && c == command
        {
            return *total;
        }
        let total = records::split_shell_words(command)
            .and_then(|w| recorded_match(&w))
            .map(|m| m.total_games)
            .filter(|&t| t > 0);
        *last = Some((command.to_string(), total));
        total
    })
}

/// Checks every record of `path`, printing each problem; exit 0 when all
/// are valid, 1 when some are not (a record that cannot even be read, such
/// as one with a byte that is not UTF-8, is one invalid record); an error
/// when the file cannot be read (missing, not a regular file, an I/O
/// error: the binary exits with 2). The file is read one record at a time.
pub fn run_replay(path: &Path) -> Result<ExitCode, RunError> {
    let unreadable = |e| RunError::File(FileError::io("read", "", path)(e));
    let file = open_regular(path, std::fs::OpenOptions::new().read(true)).map_err(unreadable)?;
    let mut total = 0;
    let mut bad = 0;
    for chunk in RecordChunks::new(std::io::BufReader::new(file)) {
        let chunk = chunk.map_err(unreadable)?;
        total += 1;
        let verdict = chunk.text.and_then(|text| {
            let r = parse_record(&text).map_err(|e| e.to_string())?;
            check(&r, Some(match_games)).map_err(|e| match r.tag(tags::GAME) {
                Some(g) => format!("game {g}: {e}"),
                None => e.to_string(),
            })
        });
        if let Err(e) = verdict {
            bad += 1;
            println!("{} line {}: {e}", path.display(), chunk.line);
        }
    }
    if bad == 0 {
        println!("{}: {total} records, all valid", path.display());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{}: {total} records, {bad} invalid", path.display());
        Ok(ExitCode::from(1))
    }
}
