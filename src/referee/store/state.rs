//! Resuming a match. The state file holds the records of the finished
//! games (it is the `--pgnout` file unless `--state` names another); each
//! carries the match's fingerprint and its game number. Running the same
//! command again reads them, drops a record cut short by a kill, and plays
//! only the games that are missing: none is lost or played twice.

use super::files::{FileError, RECORD, STATE, read_text};
use super::lock::FileLock;
use crate::protocol::record::{Record, parse_records, tag_number};
use crate::record::tags;
use crate::referee::cli::MatchConfig;
use crate::referee::matches::schedule::NewOpening;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// What decides the games of a match (not where its output goes, nor how
/// many run at once, nor the shard), hashed (FNV-1a, 64 bits).
pub fn fingerprint(cfg: &MatchConfig) -> String {
    let mut s = format!(
        "v1|{}|{:?}|{}|{}|{}|{}|{:?}|{}|{}",
        cfg.variant.name(),
        cfg.rules,
        cfg.games,
        cfg.rounds,
        cfg.random_plies,
        cfg.seed,
        cfg.max_plies,
        cfg.margin.as_millis(),
        cfg.engines.len()
    );
    for e in &cfg.engines {
        s.push_str(&format!(
            "|{}|{}|{:?}|{:?}|{:?}|{}",
            e.name,
            e.launch.cmd.display(),
            e.launch.args,
            e.launch.dir,
            e.options,
            e.limits
        ));
    }
    // Settings added since v1 join only when set, so older state files
    // still resume.
    if cfg.max_moves.is_some() || cfg.adjudication != Default::default() || cfg.seeds.is_some() {
        s.push_str(&format!(
            "|{:?}|{:?}|{:?}|{:?}",
            cfg.max_moves, cfg.adjudication.draw, cfg.adjudication.resign, cfg.seeds
        ));
    }
    // cutechess-cli's schedule (colours, openings) differs from Koma's.
    match cfg.cutechess_openings {
        Some(NewOpening::Every(n)) => s.push_str(&format!("|cutechess repeat {n}")),
        Some(p) => s.push_str(&format!("|cutechess {p:?}")),
        None => {}
    }
    for e in cfg.engines.iter().filter(|e| e.margin.is_some()) {
        s.push_str(&format!("|{} margin {:?}", e.name, e.margin));
    }
    if let Some(o) = &cfg.openings {
        s.push_str(&format!("|{}|{}", o.source, o.random));
        for (_, line) in &o.lines {
            s.push_str(&format!(
                "|{:?}|{:?}",
                line.start.as_ref().map(|p| p.to_string()),
                line.moves
            ));
        }
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The finished games of this match found in `path`, by game number. A
/// damaged last record of this match (a kill mid-write) is cut off the
/// file; records of other matches are left alone.
pub fn load(path: &Path, fp: &str) -> Result<BTreeMap<u64, Record>, FileError> {
    let mut done = BTreeMap::new();
    let Some(whole) = read_text(path, STATE)? else {
        return Ok(done);
    };
    let (text, zeros) = without_nul_tail(&whole);
    if zeros > 0 {
        note(path, &format!("dropped {zeros} NUL bytes at the end"));
    }
    let items = parse_records(text);
    let mine = format!("[{} \"{fp}\"]", tags::MATCH);
    let mut cut = None;
    for (k, item) in items.iter().enumerate() {
        match &item.record {
            Ok(r) if r.tag(tags::MATCH) == Some(fp) => {
                if let Some(n) = tag_number(r, tags::GAME) {
                    done.entry(n).or_insert_with(|| r.clone());
                }
            }
            Ok(_) => {}
            Err(e) => {
                let chunk = text[item.span.clone()].trim_end();
                let ours = chunk.contains(&mine) || mine.starts_with(chunk);
                if k + 1 == items.len() && ours {
                    note(
                        path,
                        &format!(
                            "dropped an incomplete last record at line {} ({} bytes: {e})",
                            item.line,
                            item.span.len()
                        ),
                    );
                    cut = Some(item.span.start);
                } else if ours {
                    return Err(FileError::Damaged {
                        path: path.to_path_buf(),
                        line: item.line,
                        source: e.clone(),
                    });
                }
            }
        }
    }
    if let Some(at) = cut {
        truncate(path, at)?;
    } else if zeros > 0 {
        truncate(path, text.len())?;
    }
    if cut.is_none() && !text.is_empty() && !text.ends_with('\n') {
        // Someone else's unfinished last line: start ours on a new one.
        append(path, "\n")?;
    }
    Ok(done)
}

/// Removes from the record file `path` (not the state file) this match's
/// records that the state file does not hold (written just before a kill),
/// so that replaying them does not duplicate them. `lock` is the lock held
/// on `path`: the file is rewritten into a new file that is locked before
/// it takes the old one's name, so the path is never unlocked.
pub fn reconcile(
    path: &Path,
    fp: &str,
    done: &BTreeMap<u64, Record>,
    lock: &mut FileLock,
) -> Result<(), FileError> {
    let Some(whole) = read_text(path, RECORD)? else {
        return Ok(());
    };
    let (text, zeros) = without_nul_tail(&whole);
    if zeros > 0 {
        note(path, &format!("dropped {zeros} NUL bytes at the end"));
    }
    let mine = format!("[{} \"{fp}\"]", tags::MATCH);
    let items = parse_records(text);
    let mut keep = String::with_capacity(text.len());
    let mut seen = std::collections::BTreeSet::new();
    let mut last = 0;
    let mut changed = zeros > 0;
    for (k, item) in items.iter().enumerate() {
        keep.push_str(&text[last..item.span.start]);
        last = item.span.end;
        let chunk = &text[item.span.clone()];
        let drop = match &item.record {
            Ok(r) if r.tag(tags::MATCH) == Some(fp) => match tag_number(r, tags::GAME) {
                Some(n) => !done.contains_key(&n) || !seen.insert(n),
                None => false,
            },
            Ok(_) => false,
            Err(_) => {
                k + 1 == items.len()
                    && (chunk.contains(&mine) || mine.starts_with(chunk.trim_end()))
            }
        };
        if drop {
            changed = true;
        } else {
            keep.push_str(chunk);
        }
    }
    keep.push_str(&text[last..]);
    if !keep.is_empty() && !keep.ends_with('\n') {
        keep.push('\n');
        changed = true;
    }
    if changed {
        let tmp = path.with_extension("koma-tmp");
        std::fs::write(&tmp, keep).map_err(FileError::io("rewrite", RECORD, path))?;
        let new_lock = FileLock::acquire(&tmp, RECORD)?;
        std::fs::rename(&tmp, path).map_err(FileError::io("rewrite", RECORD, path))?;
        *lock = new_lock.renamed(path);
    }
    Ok(())
}

/// The text without the NUL bytes at its end (what a crash or a full disk
/// leaves after the last byte written), and how many there were. Records
/// before them are whole and kept.
fn without_nul_tail(text: &str) -> (&str, usize) {
    let kept = text.trim_end_matches('\0');
    (kept, text.len() - kept.len())
}

/// Says on stderr what resuming dropped from a record file.
fn note(path: &Path, what: &str) {
    eprintln!("koma-referee: {}: {what}", path.display());
}

fn truncate(path: &Path, at: usize) -> Result<(), FileError> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(at as u64))
        .map_err(FileError::io("truncate", STATE, path))
}

fn append(path: &Path, s: &str) -> Result<(), FileError> {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(s.as_bytes()))
        .map_err(FileError::io("write to", STATE, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record::RecordMove;

    fn rec(fp: &str, game: u64) -> Record {
        Record {
            tags: vec![
                (tags::MATCH.into(), fp.into()),
                (tags::GAME.into(), game.to_string()),
            ],
            moves: vec![RecordMove {
                mv: crate::protocol::parse_move("a1a2").unwrap(),
                comment: None,
            }],
            result: "1-0".into(),
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("koma-state-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn a_record_cut_by_a_kill_is_dropped_and_others_kept() {
        let p = temp("cut");
        let other = rec("other", 9).to_string();
        let one = rec("fp", 1).to_string();
        let two = rec("fp", 2).to_string();
        let text = format!("{other}{one}{}", &two[..two.len() / 2]);
        std::fs::write(&p, &text).unwrap();
        let done = load(&p, "fp").unwrap();
        assert_eq!(done.keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            format!("{other}{one}")
        );
        // Even a cut inside the first tag is recognised as ours.
        std::fs::write(&p, format!("{one}[Mat")).unwrap();
        load(&p, "fp").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), one);
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn someone_elses_damaged_tail_is_left_and_we_start_a_new_line() {
        let p = temp("foreign");
        std::fs::write(&p, "[Event \"chess\"]\n\n1. e4 e5").unwrap();
        assert!(load(&p, "fp").unwrap().is_empty());
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "[Event \"chess\"]\n\n1. e4 e5\n"
        );
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_record_file_loses_games_the_state_file_does_not_hold() {
        let p = temp("pgn");
        let text = format!(
            "{}{}{}{}",
            rec("fp", 1),
            rec("x", 5),
            rec("fp", 2),
            rec("fp", 1)
        );
        std::fs::write(&p, &text).unwrap();
        let done: BTreeMap<u64, Record> = [(1, rec("fp", 1))].into_iter().collect();
        let mut lock = FileLock::acquire(&p, RECORD).unwrap();
        reconcile(&p, "fp", &done, &mut lock).unwrap();
        // The rewritten file is still locked.
        assert!(matches!(
            FileLock::acquire(&p, RECORD),
            Err(FileError::InUse(_))
        ));
        drop(lock);
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            format!("{}{}", rec("fp", 1), rec("x", 5))
        );
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_damaged_record_of_this_match_before_the_last_is_an_error_naming_its_line() {
        let p = temp("damaged");
        let one = rec("fp", 1).to_string();
        let broken = one.replace("a1a2", "a1a2 zz");
        std::fs::write(&p, format!("{one}{broken}{}", rec("fp", 2))).unwrap();
        let e = load(&p, "fp").unwrap_err();
        let FileError::Damaged { path, line, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!((path, *line), (&p, one.lines().count() + 1));
        assert!(std::error::Error::source(&e).is_some(), "{e:?}");
        std::fs::write(&p, b"\xff\xfe").unwrap();
        let e = load(&p, "fp").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot read the state file {}", p.display())
        );
        let cause = std::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("not a text file"));
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_missing_state_file_is_a_fresh_match() {
        assert!(load(&temp("none"), "fp").unwrap().is_empty());
    }
}
