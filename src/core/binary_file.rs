//! Reading Koma's binary files (a table of solved positions, a weights
//! file) from a
//! path that comes from outside: a FIFO or a device must neither hang the
//! engine nor fill its memory, so only a regular file of exactly the size
//! its header announces is read, and at most one header of anything else.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why a binary file was not read; `H` is what its header's check says.
/// The words describe the file without naming it.
#[derive(Debug)]
pub enum FileError<H> {
    Unreadable(std::io::Error),
    NotRegular,
    /// The header is not one of this kind of file.
    Header(H),
    Size(SizeMismatch),
    NoMemory {
        want: u64,
    },
    /// A file that cannot be mapped into memory.
    Unmappable(std::io::Error),
}

impl<H: fmt::Display> fmt::Display for FileError<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Unreadable(e) => write!(f, "cannot read it: {e}"),
            FileError::NotRegular => f.write_str("not a regular file"),
            FileError::Header(h) => h.fmt(f),
            FileError::Size(s) => s.fmt(f),
            FileError::NoMemory { want } => write!(f, "no memory for its {want} bytes"),
            FileError::Unmappable(e) => write!(f, "cannot map it: {e}"),
        }
    }
}

impl<H: fmt::Display + fmt::Debug> std::error::Error for FileError<H> {}

/// For callers that still pass errors on as text.
impl<H: fmt::Display> From<FileError<H>> for String {
    fn from(e: FileError<H>) -> String {
        e.to_string()
    }
}

/// A file of `len` bytes where its header announces `want`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeMismatch {
    pub len: u64,
    pub want: u64,
}

impl fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SizeMismatch { len, want } = *self;
        let what = if len < want {
            "truncated"
        } else {
            "longer than its header says"
        };
        write!(f, "{len} bytes, expected {want}: the file is {what}")
    }
}

/// The bytes of the file at `path`, whose first `header` bytes `announced`
/// checks and turns into the whole file's size.
pub fn read_announced<H>(
    path: &Path,
    header: usize,
    announced: impl FnOnce(&[u8]) -> Result<u64, H>,
) -> Result<Vec<u8>, FileError<H>> {
    let regular = |m: &std::fs::Metadata| {
        if m.is_file() {
            Ok(m.len())
        } else {
            Err(FileError::NotRegular)
        }
    };
    regular(&std::fs::metadata(path).map_err(FileError::Unreadable)?)?;
    let mut file = open_without_blocking(path).map_err(FileError::Unreadable)?;
    // Again on the open file: the path may have changed since.
    let len = regular(&file.metadata().map_err(FileError::Unreadable)?)?;
    let mut bytes = Vec::with_capacity(header);
    (&mut file)
        .take(header as u64)
        .read_to_end(&mut bytes)
        .map_err(FileError::Unreadable)?;
    let want = announced(&bytes).map_err(FileError::Header)?;
    if len != want {
        return Err(FileError::Size(SizeMismatch { len, want }));
    }
    bytes
        .try_reserve_exact((want - bytes.len() as u64) as usize)
        .map_err(|_| FileError::NoMemory { want })?;
    file.take(want - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(FileError::Unreadable)?;
    Ok(bytes)
}

/// The file at `path` mapped into memory, as `read_announced` reads it:
/// only a regular file, its first `header` bytes checked by `announced`,
/// its size equal to the announced one; nothing past the header is read
/// here (the pages come in when touched). A mapped file must not be
/// truncated or rewritten in place while mapped: touching a page past
/// its new end kills the process (SIGBUS). Replacing it by a rename, as
/// Koma's writers do, is safe: the map keeps the old file.
pub fn map_announced<H>(
    path: &Path,
    header: usize,
    announced: impl FnOnce(&[u8]) -> Result<u64, H>,
) -> Result<memmap2::Mmap, FileError<H>> {
    if !std::fs::metadata(path)
        .map_err(FileError::Unreadable)?
        .is_file()
    {
        return Err(FileError::NotRegular);
    }
    let file = open_without_blocking(path).map_err(FileError::Unreadable)?;
    let meta = file.metadata().map_err(FileError::Unreadable)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular);
    }
    let mut head = Vec::with_capacity(header);
    (&file)
        .take(header as u64)
        .read_to_end(&mut head)
        .map_err(FileError::Unreadable)?;
    let want = announced(&head).map_err(FileError::Header)?;
    let size = |len| FileError::Size(SizeMismatch { len, want });
    if meta.len() != want {
        return Err(size(meta.len()));
    }
    // SAFETY: the map is read-only and the file a regular one of the size
    // checked above; the callers' files are written whole and renamed into
    // place, never changed in place (the contract above).
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(FileError::Unmappable)?;
    if map.len() as u64 != want {
        return Err(size(map.len() as u64));
    }
    Ok(map)
}

/// Why a file of `len` bytes is not the `want` bytes its header announces.
pub fn size_error(len: u64, want: u64) -> String {
    SizeMismatch { len, want }.to_string()
}

/// Opens for reading without waiting for a writer, should the path be a
/// FIFO after all (opening one blocks until the other end opens).
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NONBLOCK);
    o.open(path)
}
