//! Nana Shogi's table of solved positions (written by `solve`): the file,
//! loading it, and probing it.
//!
//! File layout, little-endian, a 64-byte header then one value byte per
//! index (0 not reached, 255 draw, `1 + d` decided in `d` plies, won for
//! the side to move when `d` is odd; `decode`):
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `KOMANANA` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | material: orthogonal cubes of each side, then diagonal |
//! | 16 | 8 | entries (the index's size) |
//! | 24 | 8 | classes reached |
//! | 32 | 8 | of which won (side to move) |
//! | 40 | 8 | lost |
//! | 48 | 8 | drawn |
//! | 56 | 4 | longest distance, plies |
//! | 60 | 4 | CRC-32 (IEEE) of bytes 0..60 and of the entries |
//!
//! Loading checks everything: size, magic, version, material (a table of
//! a sub-game is refused), checksum, and the counts against the entries.
//! Every byte is a value, so nothing else can be wrong.

use super::Nana;
use super::board::Family;
use super::index::{Index, Material};
use crate::core::binary_file::{FileError, SizeMismatch, read_announced};
use crate::core::{Color, Game, TableValue, Tablebase};
use std::path::Path;

pub const UNKNOWN: u8 = 0;
pub const DRAW: u8 = 255;
/// Longest distance a byte holds.
pub const MAX_DISTANCE: u32 = 253;

/// The decoded value of a byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Unknown,
    Draw,
    /// The side to move wins in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies (even).
    Loss(u32),
}

pub fn decode(v: u8) -> Value {
    match v {
        UNKNOWN => Value::Unknown,
        DRAW => Value::Draw,
        _ => {
            let d = u32::from(v) - 1;
            if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            }
        }
    }
}

pub fn encode(v: Value) -> u8 {
    match v {
        Value::Unknown => UNKNOWN,
        Value::Draw => DRAW,
        Value::Win(d) | Value::Loss(d) => (d.min(MAX_DISTANCE) + 1) as u8,
    }
}

pub const MAGIC: &[u8; 8] = b"KOMANANA";
pub const VERSION: u32 = 1;
pub const HEADER: usize = 64;

/// Counts of classes by value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub reached: u64,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    pub longest: u32,
}

impl Counts {
    pub fn of(values: &[u8]) -> Counts {
        let mut c = Counts::default();
        for &v in values {
            match decode(v) {
                Value::Unknown => continue,
                Value::Draw => c.drawn += 1,
                Value::Win(d) => {
                    c.won += 1;
                    c.longest = c.longest.max(d);
                }
                Value::Loss(d) => {
                    c.lost += 1;
                    c.longest = c.longest.max(d);
                }
            }
            c.reached += 1;
        }
        c
    }
}

pub use crate::core::crc32::crc32;

/// A solved game in memory: the index and one value byte per index.
pub struct NanaTable {
    ix: &'static Index,
    values: Vec<u8>,
}

fn u32_at(bytes: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
}

fn u64_at(bytes: &[u8], o: usize) -> u64 {
    u64::from(u32_at(bytes, o)) | (u64::from(u32_at(bytes, o + 4)) << 32)
}

fn material_bytes(m: Material) -> [u8; 4] {
    [m.orth[0], m.orth[1], m.diag[0], m.diag[1]]
}

impl NanaTable {
    pub fn new(ix: &'static Index, values: Vec<u8>) -> NanaTable {
        NanaTable { ix, values }
    }

    pub fn index(&self) -> &'static Index {
        self.ix
    }

    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let c = Counts::of(&self.values);
        let mut out = Vec::with_capacity(HEADER + self.values.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&material_bytes(self.ix.material()));
        for n in [self.values.len() as u64, c.reached, c.won, c.lost, c.drawn] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&c.longest.to_le_bytes());
        let crc = crc32(crc32(0, &out), &self.values);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&self.values);
        out
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// Checks a file's 64-byte header against the game of `ix`; returns
    /// the file size it announces.
    fn check_header(ix: &'static Index, bytes: &[u8]) -> Result<u64, TableFileError> {
        if bytes.len() < HEADER {
            return Err(TableFileError::NoHeader { len: bytes.len() });
        }
        if &bytes[..8] != MAGIC {
            return Err(TableFileError::NotTable);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(TableFileError::Version(version));
        }
        let want = material_bytes(ix.material());
        if bytes[12..16] != want {
            let mut found = [0; 4];
            found.copy_from_slice(&bytes[12..16]);
            return Err(TableFileError::OtherGame { found, want });
        }
        let entries = u64_at(bytes, 16);
        if entries != ix.len() as u64 {
            let want = ix.len() as u64;
            return Err(TableFileError::Entries { entries, want });
        }
        Ok(HEADER as u64 + entries)
    }

    /// The table of the game of `ix` from a file's bytes, checked whole.
    pub fn from_bytes(ix: &'static Index, bytes: &[u8]) -> Result<NanaTable, TableFileError> {
        let want = Self::check_header(ix, bytes)?;
        if bytes.len() as u64 != want {
            let len = bytes.len() as u64;
            return Err(TableFileError::Size(SizeMismatch { len, want }));
        }
        let values = &bytes[HEADER..];
        let stored = u32_at(bytes, 60);
        let crc = crc32(crc32(0, &bytes[..60]), values);
        if crc != stored {
            let computed = crc;
            return Err(TableFileError::Checksum { stored, computed });
        }
        let c = Counts::of(values);
        let header = Counts {
            reached: u64_at(bytes, 24),
            won: u64_at(bytes, 32),
            lost: u64_at(bytes, 40),
            drawn: u64_at(bytes, 48),
            longest: u32_at(bytes, 56),
        };
        if c != header {
            let entries = c;
            return Err(TableFileError::Counts { header, entries });
        }
        Ok(NanaTable::new(ix, values.to_vec()))
    }

    /// Loads a table file. Only a regular file of exactly the size its
    /// header announces is read (at most one header from anything else):
    /// the path comes from outside, and a FIFO or a device must neither
    /// hang the engine nor fill its memory. The error describes the file
    /// without naming it.
    pub fn load(ix: &'static Index, path: &Path) -> Result<NanaTable, TableFileError> {
        let bytes =
            read_announced(path, HEADER, |h| Self::check_header(ix, h)).map_err(|e| match e {
                FileError::Header(h) => h,
                e => TableFileError::File(Box::new(e)),
            })?;
        NanaTable::from_bytes(ix, &bytes)
    }

    /// The raw value of a position: the end, the placement phase by looking
    /// at the children, the main phase from the table.
    pub fn value(&self, pos: &Nana) -> Option<TableValue> {
        if pos.terminal().is_some() {
            return Some(TableValue::Loss(0));
        }
        let placing = Color::BOTH
            .iter()
            .any(|&c| pos.hand(c).count(Family::King) > 0);
        if placing {
            // At most two plies to the main phase.
            let mut ml = <Nana as Game>::MoveList::default();
            pos.generate(&mut ml);
            let mut best: Option<TableValue> = None;
            for &m in ml.iter() {
                let v = self.value(&pos.play(m))?.before();
                if best.is_none_or(|b| v.rank() > b.rank()) {
                    best = Some(v);
                }
            }
            return Some(best.unwrap_or(TableValue::Loss(0)));
        }
        if !self.ix.fits(pos) {
            return None;
        }
        let i = self.ix.of(pos)?;
        match decode(*self.values.get(i as usize)?) {
            Value::Unknown => None,
            Value::Draw => Some(TableValue::Draw),
            Value::Win(d) => Some(TableValue::Win(d)),
            Value::Loss(d) => Some(TableValue::Loss(d)),
        }
    }
}

impl Tablebase<Nana> for NanaTable {
    fn probe(&self, pos: &Nana) -> Option<TableValue> {
        self.value(pos)
    }
}
/// What is wrong with a Nana table file (the words describe the file
/// without naming it).
#[derive(Debug)]
pub enum TableFileError {
    NoHeader {
        len: usize,
    },
    /// It does not start with `KOMANANA`.
    NotTable,
    Version(u32),
    /// Another game's: its cubes in hand at the start.
    OtherGame {
        found: [u8; 4],
        want: [u8; 4],
    },
    Entries {
        entries: u64,
        want: u64,
    },
    Size(SizeMismatch),
    Checksum {
        stored: u32,
        computed: u32,
    },
    Counts {
        header: Counts,
        entries: Counts,
    },
    /// Not read at all (no such file, not a regular file...).
    File(Box<FileError<TableFileError>>),
}

impl std::fmt::Display for TableFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableFileError::NoHeader { len } => {
                write!(
                    f,
                    "truncated: {len} bytes, less than the {HEADER}-byte header"
                )
            }
            TableFileError::NotTable => {
                f.write_str("not a Koma Nana table (the file does not start with KOMANANA)")
            }
            TableFileError::Version(v) => {
                write!(f, "table version {v}, this Koma reads version {VERSION}")
            }
            TableFileError::OtherGame { found, want } => write!(
                f,
                "table of another game: cubes {found:?} in hand at the start, expected {want:?}"
            ),
            TableFileError::Entries { entries, want } => {
                write!(f, "the header says {entries} entries, the index has {want}")
            }
            TableFileError::Size(s) => s.fmt(f),
            TableFileError::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt"
            ),
            TableFileError::Counts { header, entries } => write!(
                f,
                "the header's counts {header:?} do not match the entries {entries:?}"
            ),
            TableFileError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TableFileError {}
