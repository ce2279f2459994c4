//! The engine log: every line to and from every engine, through the `log`
//! crate at debug level (`RUST_LOG=debug`, on stderr) and to the `--log`
//! file when there is one, stamped there with the wall-clock time (UTC,
//! microseconds), written whole and flushed at once so a killed run keeps
//! everything up to its last line. Also the UTC date of a record's `Date`
//! tag.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// Which way a logged line went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Referee to engine.
    ToEngine,
    /// Engine's stdout.
    FromEngine,
    /// Engine's stderr.
    Stderr,
    /// A note by the referee about the engine (start, exit).
    Note,
}

impl Dir {
    fn mark(self) -> char {
        match self {
            Dir::ToEngine => '>',
            Dir::FromEngine => '<',
            Dir::Stderr => '!',
            Dir::Note => '#',
        }
    }
}

/// Logs one line to or from an engine (`who` is its `name(pid)`): at
/// debug level, and to the `--log` file when there is one.
pub fn line(file: Option<&EngineLog>, who: &str, dir: Dir, text: &str) {
    log::debug!("{who} {} {text}", dir.mark());
    if let Some(f) = file {
        f.line(who, dir, text);
    }
}

/// The `--log` file.
#[derive(Clone)]
pub struct EngineLog(Arc<Mutex<LogFile>>);

struct LogFile {
    file: File,
    /// The first write error: the log is incomplete from there on.
    failed: Option<String>,
}

impl EngineLog {
    /// Opens `path` for appending.
    pub fn open(path: &Path) -> std::io::Result<EngineLog> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(EngineLog(Arc::new(Mutex::new(LogFile {
            file,
            failed: None,
        }))))
    }

    /// `2026-11-29 14:46:34.123456 koma(1234) > go depth 2`. A write error
    /// never stops a match: it is warned about once, and kept for the
    /// summary (`failure`).
    pub fn line(&self, who: &str, dir: Dir, text: &str) {
        let line = format!("{} {who} {} {text}\n", timestamp(), dir.mark());
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let r = f
            .file
            .write_all(line.as_bytes())
            .and_then(|_| f.file.flush());
        if let Err(e) = r
            && f.failed.is_none()
        {
            log::warn!("cannot write to the --log file ({e}): the log is incomplete from here on");
            f.failed = Some(e.to_string());
        }
    }

    /// The first write that failed, if one did.
    pub fn failure(&self) -> Option<String> {
        let f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.failed.clone()
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (the
/// civil-from-days algorithm of Howard Hinnant).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn now_parts() -> (i64, u32, u32, u64, u32) {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs();
    let (y, m, day) = civil_from_days((secs / 86_400) as i64);
    (y, m, day, secs % 86_400, d.subsec_micros())
}

/// `YYYY-MM-DD hh:mm:ss.uuuuuu` in UTC.
pub fn timestamp() -> String {
    let (y, m, d, s, us) = now_parts();
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{us:06}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// `YYYY.MM.DD` in UTC, as PGN writes dates.
pub fn record_date() -> String {
    let (y, m, d, _, _) = now_parts();
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_from_day_numbers() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn log_lines_are_stamped_and_marked() {
        let dir = std::env::temp_dir().join(format!("koma-log-{}", std::process::id()));
        let log = EngineLog::open(&dir).unwrap();
        log.line("A(1)", Dir::ToEngine, "uci");
        log.line("A(1)", Dir::FromEngine, "uciok");
        let text = std::fs::read_to_string(&dir).unwrap();
        let _ = std::fs::remove_file(&dir);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].ends_with(" A(1) > uci"), "{}", lines[0]);
        assert!(lines[1].ends_with(" A(1) < uciok"));
        assert_eq!(
            lines[0].len(),
            "2026-11-29 14:46:34.123456 A(1) > uci".len()
        );
    }
}
