//! One signature's table file: a 160-byte header then one value byte per
//! entry (`value`), little-endian:
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `KOMAEGTB` |
//! | 8 | 4 | version (1) |
//! | 12 | 32 | game name, zero-padded |
//! | 44 | 32 | rule options that change values (`Layered::rules_tag`), zero-padded |
//! | 76 | 16 | signature (`Display`), zero-padded |
//! | 92 | 8 | entries |
//! | 100 | 8 | of which won (side to move) |
//! | 108 | 8 | lost |
//! | 116 | 8 | drawn |
//! | 124 | 4 | longest win distance |
//! | 128 | 4 | longest loss distance |
//! | 132 | 8 | an entry of the longest win |
//! | 140 | 8 | an entry of the longest loss |
//! | 148 | 4 | zero |
//! | 152 | 4 | CRC-32 (IEEE) of bytes 0..152 and of the entries |
//! | 156 | 4 | zero |
//!
//! Loading checks everything (`read`): size, magic, version, game, rule
//! options, signature, entries, checksum, and the counts against the entries.

use super::error::TableError;
use super::value::Dtz;
use crate::core::binary_file::{read_announced, size_error};
use crate::core::crc32::crc32;
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"KOMAEGTB";
pub const VERSION: u32 = 1;
pub const HEADER: usize = 160;

/// What a table file's header says besides its identity.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    pub longest_win: u32,
    pub longest_loss: u32,
    pub longest_win_at: u64,
    pub longest_loss_at: u64,
}

impl Counts {
    pub fn of(values: &[u8]) -> Counts {
        let mut c = Counts::default();
        for (i, &v) in values.iter().enumerate() {
            match Dtz::decode(v) {
                Dtz::Draw => c.drawn += 1,
                Dtz::Win(d) => {
                    c.won += 1;
                    if d > c.longest_win {
                        (c.longest_win, c.longest_win_at) = (d, i as u64);
                    }
                }
                Dtz::Loss(d) => {
                    c.lost += 1;
                    if d > c.longest_loss {
                        (c.longest_loss, c.longest_loss_at) = (d, i as u64);
                    }
                }
            }
        }
        c
    }
}

/// Who a table belongs to: the header fields a reader must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub game: String,
    pub rules: String,
    pub signature: String,
    pub entries: u64,
}

fn padded(out: &mut Vec<u8>, text: &str, len: usize) {
    let mut b = text.as_bytes().to_vec();
    b.resize(len, 0);
    out.extend_from_slice(&b[..len]);
}

fn text_at(bytes: &[u8], o: usize, len: usize) -> String {
    let field = &bytes[o..o + len];
    let end = field.iter().position(|&b| b == 0).unwrap_or(len);
    String::from_utf8_lossy(&field[..end]).into_owned()
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from(u32_at(b, o)) | u64::from(u32_at(b, o + 4)) << 32
}

/// The header of a table of `values`.
pub fn header(id: &Identity, values: &[u8]) -> Vec<u8> {
    let c = Counts::of(values);
    let mut out = Vec::with_capacity(HEADER);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    padded(&mut out, &id.game, 32);
    padded(&mut out, &id.rules, 32);
    padded(&mut out, &id.signature, 16);
    for n in [values.len() as u64, c.won, c.lost, c.drawn] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&c.longest_win.to_le_bytes());
    out.extend_from_slice(&c.longest_loss.to_le_bytes());
    out.extend_from_slice(&c.longest_win_at.to_le_bytes());
    out.extend_from_slice(&c.longest_loss_at.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let crc = crc32(crc32(0, &out), values);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// Writes the table whole or not at all (a temporary file renamed).
pub fn write(path: &Path, id: &Identity, values: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&header(id, values))?;
    f.write_all(values)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// Checks a header against the expected identity; the file size it
/// announces.
pub fn check_header(want: &Identity, bytes: &[u8]) -> Result<u64, TableError> {
    if bytes.len() < HEADER {
        return Err(TableError::Refused(format!(
            "truncated: {} bytes, less than the {HEADER}-byte header",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(TableError::Refused(
            "not a Koma endgame table (it does not start with KOMAEGTB)".into(),
        ));
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(TableError::Refused(format!(
            "table version {version}, this Koma reads version {VERSION}"
        )));
    }
    let got = Identity {
        game: text_at(bytes, 12, 32),
        rules: text_at(bytes, 44, 32),
        signature: text_at(bytes, 76, 16),
        entries: u64_at(bytes, 92),
    };
    let fields = [
        ("game", &got.game, &want.game),
        ("rule options", &got.rules, &want.rules),
        ("signature", &got.signature, &want.signature),
    ];
    for (what, g, w) in fields {
        if g != w {
            return Err(TableError::Refused(format!(
                "table of another {what}: {g:?}, expected {w:?}"
            )));
        }
    }
    if got.entries != want.entries {
        return Err(TableError::Refused(format!(
            "the header says {} entries, the index has {}",
            got.entries, want.entries
        )));
    }
    Ok(HEADER as u64 + want.entries)
}

/// Reads a table file of the expected identity, checked whole: its values
/// and counts. Errors describe the file without naming it.
pub fn read(path: &Path, want: &Identity) -> Result<(Vec<u8>, Counts), TableError> {
    let mut bytes = read_announced(path, HEADER, |h| check_header(want, h))
        .map_err(|e| TableError::Refused(e.to_string()))?;
    let c = check(&bytes, want)?;
    bytes.drain(..HEADER);
    Ok((bytes, c))
}

/// Checks a whole table file's bytes (header and values) against the
/// expected identity, as `read` does: its counts.
pub fn check(bytes: &[u8], want: &Identity) -> Result<Counts, TableError> {
    let size = check_header(want, bytes)?;
    if bytes.len() as u64 != size {
        return Err(TableError::Refused(size_error(bytes.len() as u64, size)));
    }
    let stored = u32_at(bytes, 152);
    let crc = crc32(crc32(0, &bytes[..152]), &bytes[HEADER..]);
    if crc != stored {
        return Err(TableError::Refused(format!(
            "checksum mismatch (stored {stored:08x}, computed {crc:08x}): the file is corrupt"
        )));
    }
    let c = Counts::of(&bytes[HEADER..]);
    let said = Counts {
        won: u64_at(bytes, 100),
        lost: u64_at(bytes, 108),
        drawn: u64_at(bytes, 116),
        longest_win: u32_at(bytes, 124),
        longest_loss: u32_at(bytes, 128),
        longest_win_at: u64_at(bytes, 132),
        longest_loss_at: u64_at(bytes, 140),
    };
    if c != said {
        return Err(TableError::Refused(format!(
            "the header's counts {said:?} do not match the entries {c:?}"
        )));
    }
    Ok(c)
}
