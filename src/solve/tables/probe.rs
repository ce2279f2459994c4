//! Probing a folder of endgame tables: `Tables` maps each signature's file
//! (`Tables::map_all` every present one at once, for the engine, so that no
//! file is touched during a search; `Tables::open` each the first time a
//! position of it is asked, checked whole), and answers a position's value
//! (`probe`), each move's (`moves`) and the best move (`best_move`), which
//! keeps the value and makes progress by the distance.

use super::error::TableError;
use super::file::{self, HEADER, Identity};
use super::value::Dtz;
use crate::core::binary_file::{FileError, map_announced};
use crate::core::endgame::Layered;
use crate::core::{History, Outcome, Searchable};
use crate::search::Probe;
use memmap2::Mmap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The folder where `koma solve` writes tables unless told otherwise, and
/// where the engine looks for them: `$XDG_DATA_HOME/koma/tables`, else
/// `~/.local/share/koma/tables`.
pub fn default_root() -> Option<PathBuf> {
    let data = match std::env::var_os("XDG_DATA_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".local/share"),
    };
    Some(data.join("koma").join("tables"))
}

/// The tables of one game under one set of rule options, in the folder
/// `root/<game>` (or `root/<game>-<rules_tag>`), one file per signature
/// named `<signature>.ktb`.
///
/// The files are mapped, not read: a table must not be rewritten in place
/// while mapped (`koma solve` writes a new file and renames it, which is
/// safe; truncating a mapped file kills the process).
pub struct Tables<G: Layered> {
    folder: PathBuf,
    rules: G::Rules,
    slot: HashMap<G::Sig, usize>,
    /// Each signature's mapped file (its header first), or why not.
    loaded: Vec<OnceLock<Result<Mmap, TableError>>>,
    /// Files opened so far: after `map_all`, none more.
    opened: AtomicUsize,
}

impl<G: Layered> Tables<G> {
    /// The folder of the game's tables under `root`.
    pub fn folder(root: &Path, rules: &G::Rules) -> PathBuf {
        let tag = G::rules_tag(rules);
        root.join(if tag.is_empty() {
            G::NAME.to_string()
        } else {
            format!("{}-{tag}", G::NAME)
        })
    }

    /// The tables under `root`, each file opened, mapped and checked whole
    /// (checksum and counts) the first time a position of its signature
    /// asks: for a folder still being written (the generator reads its
    /// lower tables so), or a program that probes a few positions.
    pub fn open(root: &Path, rules: &G::Rules) -> Tables<G> {
        let sigs = G::signatures(u32::MAX);
        Tables {
            folder: Self::folder(root, rules),
            rules: rules.clone(),
            slot: sigs.iter().enumerate().map(|(i, &s)| (s, i)).collect(),
            loaded: sigs.iter().map(|_| OnceLock::new()).collect(),
            opened: AtomicUsize::new(0),
        }
    }

    /// The tables under `root` with every present file mapped now and its
    /// header and size checked (its checksum is not: that would read every
    /// byte; `koma solve --stats` does), so that probing never opens a file
    /// (the engine's search must not wait on one). With the message of each
    /// present file refused, naming it; a missing file is no error.
    pub fn map_all(root: &Path, rules: &G::Rules) -> (Tables<G>, Vec<String>) {
        let tables = Self::open(root, rules);
        let mut refused = Vec::new();
        for (&sig, &i) in &tables.slot {
            let path = tables.path(sig);
            let r = if std::fs::symlink_metadata(&path).is_err() {
                Err(TableError::Io("no such file".into()).about(Self::named(&path)))
            } else {
                tables.opened.fetch_add(1, Ordering::Relaxed);
                let id = tables.identity(sig);
                map_announced(&path, HEADER, |h| file::check_header(&id, h))
                    .map_err(|e| Self::refused(e).about(Self::named(&path)))
                    .inspect_err(|e| refused.push(e.to_string()))
            };
            let _ = tables.loaded[i].set(r);
        }
        refused.sort();
        (tables, refused)
    }

    /// How a table file is named in its errors.
    fn named(path: &Path) -> String {
        format!("table {}", path.display())
    }

    /// A file that could not be mapped, as a table's error: one that cannot
    /// be read, or one refused (the header's own kind kept).
    fn refused(e: FileError<TableError>) -> TableError {
        match e {
            FileError::Header(e) => e,
            FileError::Unreadable(_) | FileError::Unmappable(_) => TableError::Io(e.to_string()),
            FileError::NotRegular | FileError::Size(_) | FileError::NoMemory { .. } => {
                TableError::Refused(e.to_string())
            }
        }
    }

    /// How many files these tables have opened.
    pub fn files_opened(&self) -> usize {
        self.opened.load(Ordering::Relaxed)
    }

    /// How many signatures have a usable file (after `map_all`: every one
    /// present and sound; after `open`: those probed so far).
    pub fn usable(&self) -> usize {
        self.loaded
            .iter()
            .filter(|l| l.get().is_some_and(Result::is_ok))
            .count()
    }

    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The file of a signature.
    pub fn path(&self, sig: G::Sig) -> PathBuf {
        self.folder.join(format!("{sig}.ktb"))
    }

    /// What a signature's file must say it is.
    pub fn identity(&self, sig: G::Sig) -> Identity {
        Identity {
            game: G::NAME.to_string(),
            rules: G::rules_tag(&self.rules),
            signature: sig.to_string(),
            entries: G::entries(sig),
        }
    }

    /// Whether the signature's file exists (it is not read).
    pub fn has_file(&self, sig: G::Sig) -> bool {
        self.path(sig).is_file()
    }

    /// The values of a signature, its file mapped and checked whole on the
    /// first call (unless `map_all` did it); the error (also kept) names the
    /// file and says what is wrong with it.
    pub fn values(&self, sig: G::Sig) -> Result<&[u8], TableError> {
        let Some(&i) = self.slot.get(&sig) else {
            return Err(TableError::Request(format!("no signature {sig}")));
        };
        let r = self.loaded[i].get_or_init(|| {
            self.opened.fetch_add(1, Ordering::Relaxed);
            let path = self.path(sig);
            let id = self.identity(sig);
            map_announced(&path, HEADER, |h| file::check_header(&id, h))
                .map_err(Self::refused)
                .and_then(|m| file::check(&m, &id).map(|_| m))
                .map_err(|e| e.about(Self::named(&path)))
        });
        match r {
            Ok(m) => Ok(&m[HEADER..]),
            Err(e) => Err(e.clone()),
        }
    }

    /// Bytes of the tables mapped so far (their values).
    pub fn loaded_bytes(&self) -> u64 {
        self.loaded
            .iter()
            .filter_map(|l| l.get()?.as_ref().ok())
            .map(|m| (m.len() - HEADER) as u64)
            .sum()
    }

    /// The value of a position not over for its side to move, `None` when
    /// no table holds it (too many pieces, or its file missing or bad).
    pub fn probe(&self, pos: &G) -> Option<Dtz> {
        self.lookup(pos).ok().flatten()
    }

    /// As `probe`, with the reason a table could not be read; `Ok(None)`
    /// for a position no signature holds.
    pub fn lookup(&self, pos: &G) -> Result<Option<Dtz>, TableError> {
        if pos.terminal().is_some() {
            return Ok(None);
        }
        let Some((sig, i)) = pos.locate() else {
            return Ok(None);
        };
        let v = self.values(sig)?;
        Ok(v.get(i as usize).map(|&b| Dtz::decode(b)))
    }

    /// The value of move `m` of `pos` for the side making it (a win by the
    /// move itself is a win in 1), or `None` when a table lacks it.
    pub fn move_value(&self, pos: &G, m: G::Move) -> Option<Dtz> {
        let child = pos.play(m);
        if let Some(end) = child.terminal() {
            return Some(match end.outcome {
                Outcome::Win(c) if c == pos.side_to_move() => Dtz::Win(1),
                Outcome::Win(_) => Dtz::Loss(1),
                Outcome::Draw => Dtz::Draw,
            });
        }
        Some(self.probe(&child)?.before(pos.is_exit(m)))
    }

    /// Every move of `pos` with its value for the side to move, best first
    /// (ties in the order generated), when the tables hold them all.
    /// `history` is the game so far, ending with `pos`: a move that repeats
    /// a position for the last allowed time is a draw whatever the table
    /// says (a win can turn into a draw so when every winning line passes a
    /// position already seen; the shortest distance never repeats one).
    pub fn moves(&self, pos: &G, history: &History) -> Option<Vec<(G::Move, Dtz)>> {
        let mut ml = G::MoveList::default();
        pos.generate(&mut ml);
        let mut out = Vec::with_capacity(ml.len());
        for &m in ml.iter() {
            let repeats = pos.repetition_limit().is_some_and(|limit| {
                let key = pos.play(m).repetition_key();
                history.keys().iter().filter(|&&k| k == key).count() + 1 >= limit
            });
            let v = self.move_value(pos, m)?;
            let v = if repeats && pos.play(m).terminal().is_none() {
                Dtz::Draw
            } else {
                v
            };
            out.push((m, v));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank()));
        Some(out)
    }

    /// The move keeping the position's value with the best distance (the
    /// quickest exit when winning, the latest when losing), with its value.
    pub fn best_move(&self, pos: &G, history: &History) -> Option<(G::Move, Dtz)> {
        self.moves(pos, history)?.into_iter().next()
    }
}

/// The engine's use of a game's tables, for code generic over `Searchable`
/// games that cannot name `Layered`: the move to play at the root.
pub trait RootProbe<G: Searchable>: Probe<G> {
    /// `Tables::best_move`.
    fn best_move(&self, pos: &G, history: &History) -> Option<(G::Move, Dtz)>;
}

impl<G: Layered + Searchable> Probe<G> for Tables<G> {
    fn is_exit(&self, pos: &G, m: G::Move) -> bool {
        Layered::is_exit(pos, m)
    }

    fn wdl(&self, pos: &G) -> Option<i8> {
        self.probe(pos).map(Dtz::wdl)
    }
}

impl<G: Layered + Searchable> RootProbe<G> for Tables<G> {
    fn best_move(&self, pos: &G, history: &History) -> Option<(G::Move, Dtz)> {
        Tables::best_move(self, pos, history)
    }
}
