//! The games of one match gathered from its record files (its shards),
//! which may still be growing: each reading goes on from where the last one
//! stopped, a record cut short at the end of a file (being written, or
//! killed mid-write) waits for the next reading, each game counts once, and
//! a record of another match is refused with what differs.

use super::report::{ResultRow, row_of};
use super::thinking::Thinking;
use crate::games::GameId;
use crate::protocol::record::{Record, RecordChunks, parse_record};
use crate::record::shard::Shard;
use crate::record::tags;
use crate::referee::cli::{RecordedMatch, differences, recorded_match};
use crate::referee::store::files::{FileError, open_regular};
use crate::referee::store::records::split_shell_words;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufReader, Seek, SeekFrom};
use std::path::PathBuf;

/// Where a record starts: file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: PathBuf,
    pub line: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}", self.file.display(), self.line)
    }
}

/// Why the files cannot be pooled.
#[derive(Debug)]
pub enum PoolError {
    /// A file is missing (when not following), not a regular file, or
    /// cannot be read.
    Unreadable(FileError),
    /// Records of two matches, or two programs under one player's name.
    Mismatch(String),
}

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolError::Unreadable(e) => e.fmt(f),
            PoolError::Mismatch(s) => f.write_str(s),
        }
    }
}

/// One record file and how far it has been read.
struct Source {
    path: PathBuf,
    /// Where the next reading starts: the first chunk not yet known to be
    /// final (the file's last one).
    offset: u64,
    /// The file's identity and length at the last reading: a file that is
    /// replaced or shrinks is read again from its start.
    seen: Option<(u64, u64, u64)>,
    /// Lines before `offset`, so that messages name the file's own lines.
    lines_before: usize,
    /// The bytes just before `offset` when it was set: a file rewritten in
    /// place no longer has them there.
    guard: Vec<u8>,
    /// Its games, by number, with what the move comments say by colour.
    rows: BTreeMap<u64, (ResultRow, [Thinking; 2])>,
    /// Offsets of the records already reported as skipped.
    reported: BTreeSet<u64>,
    waiting_noted: bool,
}

/// The first record read: what every other record is compared with.
struct Reference {
    place: Place,
    tags: Vec<(String, String)>,
    recorded: Option<RecordedMatch>,
}

pub struct Pool {
    sources: Vec<Source>,
    reference: Option<Reference>,
    /// Each player's engine (`id name`) and where it was first seen.
    ids: BTreeMap<String, (String, Place)>,
    /// Each player's limits, in order of first appearance.
    limits: Vec<(String, String)>,
    shards: BTreeSet<(u32, u32)>,
    /// Records that could not be counted, each reported once.
    pub skipped: u64,
}

impl Pool {
    pub fn new(files: &[PathBuf]) -> Pool {
        Pool {
            sources: files
                .iter()
                .map(|p| Source {
                    path: p.clone(),
                    offset: 0,
                    seen: None,
                    lines_before: 0,
                    guard: Vec::new(),
                    rows: BTreeMap::new(),
                    reported: BTreeSet::new(),
                    waiting_noted: false,
                })
                .collect(),
            reference: None,
            ids: BTreeMap::new(),
            limits: Vec::new(),
            shards: BTreeSet::new(),
            skipped: 0,
        }
    }

    /// Reads what is new in every file. `growing`: the files may still be
    /// written to, so a missing file is waited for and an unfinished last
    /// record is left for the next reading; otherwise both are errors
    /// (the record is skipped and counted in `skipped`).
    pub fn read(&mut self, growing: bool) -> Result<(), PoolError> {
        for k in 0..self.sources.len() {
            self.read_source(k, growing)?;
        }
        Ok(())
    }

    fn read_source(&mut self, k: usize, growing: bool) -> Result<(), PoolError> {
        let path = self.sources[k].path.clone();
        let mut file = match open_regular(&path, std::fs::OpenOptions::new().read(true)) {
            Ok(f) => f,
            Err(e) if growing && e.kind() == std::io::ErrorKind::NotFound => {
                let src = &mut self.sources[k];
                if !src.waiting_noted {
                    src.waiting_noted = true;
                    eprintln!("koma-referee: waiting for {}", path.display());
                }
                return Ok(());
            }
            Err(e) => return Err(PoolError::Unreadable(FileError::io("read", "", &path)(e))),
        };
        let unreadable = |e| PoolError::Unreadable(FileError::io("read", "", &path)(e));
        let meta = file.metadata().map_err(unreadable)?;
        let identity = identity(&meta);
        let src = &mut self.sources[k];
        match src.seen {
            Some(seen) if seen == identity => return Ok(()),
            // Another file under the name, or cut shorter than what was
            // read (a resumed shard drops its own unfinished last record,
            // which is never counted): start again.
            Some((dev, ino, _)) if (dev, ino) != (identity.0, identity.1) => src.restart(),
            _ if identity.2 < src.offset => src.restart(),
            _ if src.offset > 0 && tail(&file, src.offset).map_err(unreadable)? != src.guard => {
                src.restart()
            }
            _ => {}
        }
        src.seen = Some(identity);
        let start = src.offset;
        let lines_before = src.lines_before;
        let probe = file.try_clone().map_err(unreadable)?;
        file.seek(SeekFrom::Start(start)).map_err(unreadable)?;
        let mut chunks = RecordChunks::new(BufReader::new(file)).peekable();
        while let Some(chunk) = chunks.next() {
            let chunk = chunk.map_err(unreadable)?;
            let last = chunks.peek().is_none();
            let at = start + chunk.offset;
            let parsed = chunk
                .text
                .map_err(|e| e.to_string())
                .and_then(|t| parse_record(&t).map_err(|e| e.to_string()));
            let place = Place {
                file: path.clone(),
                line: lines_before + chunk.line,
            };
            if last {
                // Every chunk before it is final; this one may still grow
                // and is read again next time.
                let src = &mut self.sources[k];
                src.offset = at;
                src.lines_before = place.line - 1;
            }
            match parsed {
                Ok(r) => self.add(k, at, &r, place)?,
                Err(_) if last && growing => {
                    log::debug!("{place}: an unfinished record, read again later");
                }
                Err(e) => self.skip(k, at, &place, &e),
            }
        }
        let src = &mut self.sources[k];
        src.guard = tail(&probe, src.offset).map_err(unreadable)?;
        Ok(())
    }

    /// Reports a record that cannot be counted, once.
    fn skip(&mut self, k: usize, at: u64, place: &Place, why: &str) {
        if self.sources[k].reported.insert(at) {
            eprintln!("{place}: skipped, {why}");
            self.skipped += 1;
        }
    }

    /// Counts one record after checking that it belongs to the match.
    fn add(&mut self, k: usize, at: u64, r: &Record, place: Place) -> Result<(), PoolError> {
        match &self.reference {
            None => {
                let recorded = r
                    .tag(tags::COMMAND)
                    .and_then(split_shell_words)
                    .and_then(|w| recorded_match(&w));
                self.reference = Some(Reference {
                    place: place.clone(),
                    tags: r.tags.clone(),
                    recorded,
                });
            }
            Some(reference) => {
                if r.tag(tags::MATCH) != tag(&reference.tags, tags::MATCH) {
                    return Err(PoolError::Mismatch(format!(
                        "{place}: a record of another match than {}: {}; --report pools the \
                         shards of one match only",
                        reference.place,
                        describe_difference(&reference.tags, reference.recorded.as_ref(), r)
                    )));
                }
            }
        }
        for (who, engine) in [
            (tags::FIRST, tags::FIRST_ENGINE),
            (tags::SECOND, tags::SECOND_ENGINE),
        ] {
            let (Some(name), Some(id)) = (r.tag(who), r.tag(engine)) else {
                continue;
            };
            match self.ids.get(name) {
                Some((seen, first)) if seen != id => {
                    return Err(PoolError::Mismatch(format!(
                        "{place}: {name} is {id:?} here but {seen:?} in {first}: two programs \
                         under one name (another build on some hosts?)"
                    )));
                }
                Some(_) => {}
                None => {
                    self.ids
                        .insert(name.to_string(), (id.to_string(), place.clone()));
                }
            }
        }
        if let Some(s) = r.tag(tags::SHARD).and_then(|s| s.parse::<Shard>().ok()) {
            self.shards.insert((s.index, s.count));
        }
        let Some(row) = row_of(r) else {
            self.skip(k, at, &place, "no Game/First/Second tags or no result");
            return Ok(());
        };
        if let Some(total) = self.recorded().map(|m| m.total_games)
            && total > 0
            && row.game > total
        {
            let why = format!("game {} of a match of {total} games", row.game);
            self.skip(k, at, &place, &why);
            return Ok(());
        }
        for (name, limit) in limits_of(r) {
            if !self.limits.iter().any(|(n, _)| *n == name) {
                self.limits.push((name, limit));
            }
        }
        let thinking = Thinking::of_record(r);
        self.sources[k]
            .rows
            .entry(row.game)
            .or_insert((row, thinking));
        Ok(())
    }

    /// Every game read so far, each once, by number.
    pub fn rows(&self) -> Vec<ResultRow> {
        self.games().into_values().map(|(r, _)| r.clone()).collect()
    }

    /// Every game read so far, each once, by number.
    fn games(&self) -> BTreeMap<u64, &(ResultRow, [Thinking; 2])> {
        let mut all = BTreeMap::new();
        for s in &self.sources {
            for (g, r) in &s.rows {
                all.entry(*g).or_insert(r);
            }
        }
        all
    }

    /// Each player's depth and time per move, from the move comments.
    pub fn thinking(&self, players: &[String]) -> Vec<Thinking> {
        let mut out = vec![Thinking::default(); players.len()];
        for (row, t) in self.games().into_values() {
            for (name, side) in [(&row.first, &t[0]), (&row.second, &t[1])] {
                if let Some(k) = players.iter().position(|p| p == name) {
                    out[k].merge(side);
                }
            }
        }
        out
    }

    /// The match's command line as recorded, if its records carry it.
    pub fn recorded(&self) -> Option<&RecordedMatch> {
        self.reference.as_ref().and_then(|r| r.recorded.as_ref())
    }

    pub fn command(&self) -> Option<&str> {
        self.reference
            .as_ref()
            .and_then(|r| tag(&r.tags, tags::COMMAND))
    }

    pub fn variant(&self) -> Option<&str> {
        self.reference
            .as_ref()
            .and_then(|r| tag(&r.tags, tags::VARIANT))
    }

    /// The shipped opening suite the match plays (`variant/name`) and its
    /// size, from the records' tags.
    pub fn suite(&self) -> Option<(&str, usize)> {
        let seen = &self.reference.as_ref()?.tags;
        let title = tag(seen, tags::OPENING_SUITE)?;
        let size = tag(seen, tags::OPENING_SUITE_SIZE)?.parse().ok()?;
        Some((title, size))
    }

    /// Each player's limits, in order of first appearance.
    pub fn limits(&self) -> &[(String, String)] {
        &self.limits
    }

    /// Each player's engine as it named itself.
    pub fn engines(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ids
            .iter()
            .map(|(n, (id, _))| (n.as_str(), id.as_str()))
    }

    /// `shards 1-3 of 4`, from the records' `Shard` tags; empty when they
    /// have none.
    pub fn shards_text(&self) -> String {
        let counts: BTreeSet<u32> = self.shards.iter().map(|&(_, n)| n).collect();
        match counts.iter().next() {
            None => String::new(),
            Some(&n) if counts.len() == 1 => {
                let seen: Vec<u32> = self.shards.iter().map(|&(i, _)| i).collect();
                format!("shard{} {} of {n}", plural(seen.len()), ranges(&seen))
            }
            Some(_) => {
                let each: Vec<String> = self
                    .shards
                    .iter()
                    .map(|&(i, n)| format!("{i}/{n}"))
                    .collect();
                format!("shards {}", each.join(", "))
            }
        }
    }
}

impl Source {
    fn restart(&mut self) {
        self.offset = 0;
        self.lines_before = 0;
        self.rows.clear();
        self.reported.clear();
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `1-3, 5` for 1, 2, 3, 5 (sorted).
fn ranges(v: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < v.len() {
        let mut j = k;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if j > k {
            format!("{}-{}", v[k], v[j])
        } else {
            v[k].to_string()
        });
        k = j + 1;
    }
    out.join(", ")
}

/// How many bytes before the reading point `guard` keeps.
const GUARD: u64 = 256;

/// The (up to) `GUARD` bytes of `file` before `offset`.
fn tail(file: &std::fs::File, offset: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let from = offset.saturating_sub(GUARD);
    let mut f = file;
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::with_capacity(GUARD as usize);
    f.take(offset - from).read_to_end(&mut buf)?;
    Ok(buf)
}

#[cfg(unix)]
fn identity(m: &std::fs::Metadata) -> (u64, u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino(), m.len())
}

#[cfg(not(unix))]
fn identity(m: &std::fs::Metadata) -> (u64, u64, u64) {
    (0, 0, m.len())
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Each player's limits in a record: `(name, limits)` by colour.
pub fn limits_of(r: &Record) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (who, own) in [
        (tags::FIRST, "FirstTimeControl"),
        (tags::SECOND, "SecondTimeControl"),
    ] {
        if let (Some(n), Some(l)) = (r.tag(who), r.tag("TimeControl").or(r.tag(own))) {
            out.push((n.to_string(), l.to_string()));
        }
    }
    out
}

/// A player's name, limits and engine in a record.
type Player = (String, Option<String>, Option<String>);

fn players(tag_of: &dyn Fn(&str) -> Option<String>) -> Vec<Player> {
    [
        (tags::FIRST, "FirstTimeControl", tags::FIRST_ENGINE),
        (tags::SECOND, "SecondTimeControl", tags::SECOND_ENGINE),
    ]
    .iter()
    .filter_map(|&(who, own, engine)| {
        Some((
            tag_of(who)?,
            tag_of("TimeControl").or_else(|| tag_of(own)),
            tag_of(engine),
        ))
    })
    .collect()
}

/// Adds `what: a vs b` to `out` when they differ.
fn differ(out: &mut Vec<String>, what: &str, a: Option<&str>, b: Option<&str>) {
    if a != b {
        out.push(format!(
            "{what}: {} vs {}",
            a.unwrap_or("unset"),
            b.unwrap_or("unset")
        ));
    }
}

/// What makes record `r` another match than the reference: the game and its
/// rules, then the recorded command lines setting by setting (or, for
/// records without them, the players, their limits and MaxPlies), then the
/// engines' names for themselves.
fn describe_difference(
    reference: &[(String, String)],
    recorded: Option<&RecordedMatch>,
    r: &Record,
) -> String {
    let mut out = Vec::new();
    let variant = tag(reference, tags::VARIANT);
    differ(&mut out, "variant", variant, r.tag(tags::VARIANT));
    if variant == r.tag(tags::VARIANT)
        && let Some(game) = variant.and_then(GameId::from_name)
    {
        for spec in game.rule_specs() {
            let what = format!("rule {}", spec.name);
            differ(&mut out, &what, tag(reference, spec.name), r.tag(spec.name));
        }
    }
    let theirs = r
        .tag(tags::COMMAND)
        .and_then(split_shell_words)
        .and_then(|w| recorded_match(&w));
    let mine = players(&|n: &str| tag(reference, n).map(str::to_string));
    let other = players(&|n: &str| r.tag(n).map(str::to_string));
    if let (Some(a), Some(b)) = (recorded, &theirs) {
        out.extend(
            differences(a, b)
                .into_iter()
                .filter(|d| !d.starts_with("--variant:") && !d.starts_with("--rule ")),
        );
    } else {
        let names = |p: &[Player]| {
            let mut v: Vec<&str> = p.iter().map(|x| x.0.as_str()).collect();
            v.sort_unstable();
            v.join(", ")
        };
        if mine.iter().all(|m| other.iter().all(|o| o.0 != m.0)) {
            differ(
                &mut out,
                "players",
                Some(&names(&mine)),
                Some(&names(&other)),
            );
        }
        for m in &mine {
            if let Some(o) = other.iter().find(|o| o.0 == m.0) {
                let what = format!("limits of {}", m.0);
                differ(&mut out, &what, m.1.as_deref(), o.1.as_deref());
            }
        }
        differ(
            &mut out,
            "MaxPlies",
            tag(reference, tags::MAX_PLIES),
            r.tag(tags::MAX_PLIES),
        );
    }
    for m in &mine {
        if let Some(o) = other.iter().find(|o| o.0 == m.0)
            && m.2.is_some()
            && o.2.is_some()
        {
            let what = format!("engine of {}", m.0);
            differ(&mut out, &what, m.2.as_deref(), o.2.as_deref());
        }
    }
    if out.is_empty() {
        let fp = |v: Option<&str>| v.map_or("none".to_string(), str::to_string);
        out.push(format!(
            "the recorded settings agree but the Match fingerprints differ ({} vs {}): the \
             engine programs under other paths (a relative cmd= run from another directory), \
             or another openings file",
            fp(tag(reference, tags::MATCH)),
            fp(r.tag(tags::MATCH))
        ));
    }
    const SHOWN: usize = 6;
    if out.len() > SHOWN {
        let more = out.len() - SHOWN;
        out.truncate(SHOWN);
        out.push(format!("and {more} more"));
    }
    out.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record::RecordMove;

    fn rec(fp: &str, game: u64, variant: &str) -> String {
        Record {
            tags: [
                ("Match", fp.to_string()),
                ("Game", game.to_string()),
                ("Pair", game.div_ceil(2).to_string()),
                ("First", if game % 2 == 1 { "A" } else { "B" }.to_string()),
                ("Second", if game % 2 == 1 { "B" } else { "A" }.to_string()),
                ("Result", "1-0".to_string()),
                ("Variant", variant.to_string()),
                ("TimeControl", "depth=1".to_string()),
            ]
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect(),
            moves: vec![RecordMove {
                mv: crate::protocol::parse_move("a1a2").unwrap(),
                comment: Some("+0.12/5 0.105s".into()),
            }],
            result: "1-0".into(),
        }
        .to_string()
    }

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("koma-pool-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    fn games(pool: &Pool) -> Vec<u64> {
        pool.rows().iter().map(|r| r.game).collect()
    }

    #[test]
    fn a_record_cut_short_at_the_end_waits_until_it_is_whole() {
        let p = temp("growing");
        let third = rec("fp", 3, "hasami");
        for cut in [1, 10, third.len() / 2, third.len() - 3] {
            let whole = format!("{}{}", rec("fp", 1, "hasami"), rec("fp", 2, "hasami"));
            std::fs::write(&p, format!("{whole}{}", &third[..cut])).unwrap();
            let mut pool = Pool::new(std::slice::from_ref(&p));
            pool.read(true).unwrap();
            assert_eq!(games(&pool), [1, 2], "cut at {cut}");
            assert_eq!(pool.skipped, 0);
            let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
            std::io::Write::write_all(&mut f, &third.as_bytes()[cut..]).unwrap();
            pool.read(true).unwrap();
            assert_eq!(games(&pool), [1, 2, 3], "cut at {cut}");
            // Read again with nothing new, and after more: each game once.
            pool.read(true).unwrap();
            std::io::Write::write_all(&mut f, rec("fp", 4, "hasami").as_bytes()).unwrap();
            pool.read(true).unwrap();
            assert_eq!(games(&pool), [1, 2, 3, 4]);
            assert_eq!(pool.skipped, 0);
        }
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn read_once_a_cut_record_is_skipped_and_counted_as_such() {
        let p = temp("once");
        let third = rec("fp", 3, "hasami");
        std::fs::write(
            &p,
            format!("{}{}", rec("fp", 1, "hasami"), &third[..third.len() / 2]),
        )
        .unwrap();
        let mut pool = Pool::new(std::slice::from_ref(&p));
        pool.read(false).unwrap();
        assert_eq!((games(&pool), pool.skipped), (vec![1], 1));
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_file_rewritten_or_replaced_is_read_again_from_its_start() {
        let p = temp("shrinks");
        std::fs::write(
            &p,
            format!("{}{}", rec("fp", 1, "nana"), rec("fp", 2, "nana")),
        )
        .unwrap();
        let mut pool = Pool::new(std::slice::from_ref(&p));
        pool.read(true).unwrap();
        assert_eq!(games(&pool), [1, 2]);
        std::fs::write(&p, rec("fp", 5, "nana")).unwrap();
        pool.read(true).unwrap();
        assert_eq!(games(&pool), [5]);
        let q = temp("replacement");
        std::fs::write(
            &q,
            format!("{}{}", rec("fp", 7, "nana"), rec("fp", 8, "nana")),
        )
        .unwrap();
        std::fs::rename(&q, &p).unwrap();
        pool.read(true).unwrap();
        assert_eq!(games(&pool), [7, 8]);
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_game_in_two_files_counts_once_and_a_missing_file_is_waited_for() {
        let (p, q, later) = (temp("one"), temp("two"), temp("later"));
        std::fs::write(
            &p,
            format!("{}{}", rec("fp", 1, "nana"), rec("fp", 2, "nana")),
        )
        .unwrap();
        std::fs::write(
            &q,
            format!("{}{}", rec("fp", 2, "nana"), rec("fp", 3, "nana")),
        )
        .unwrap();
        let files = [p.clone(), q.clone(), later.clone()];
        let mut pool = Pool::new(&files);
        assert!(matches!(pool.read(false), Err(PoolError::Unreadable(_))));
        pool.read(true).unwrap();
        assert_eq!(games(&pool), [1, 2, 3]);
        std::fs::write(&later, rec("fp", 4, "nana")).unwrap();
        pool.read(true).unwrap();
        assert_eq!(games(&pool), [1, 2, 3, 4]);
        for f in files {
            let _ = std::fs::remove_file(f);
        }
    }

    #[test]
    fn a_record_of_another_match_is_refused_with_the_difference() {
        let p = temp("two-matches");
        std::fs::write(
            &p,
            format!("{}{}", rec("fp", 1, "nana"), rec("other", 2, "hasami")),
        )
        .unwrap();
        let mut pool = Pool::new(std::slice::from_ref(&p));
        let e = pool.read(false).unwrap_err();
        let PoolError::Mismatch(m) = e else {
            panic!("{e:?}")
        };
        assert!(m.contains("line 12: a record of another match than"), "{m}");
        assert!(m.contains("line 1: variant: nana vs hasami"), "{m}");
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn shard_numbers_are_listed_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        assert_eq!(ranges(&[4]), "4");
    }
}
