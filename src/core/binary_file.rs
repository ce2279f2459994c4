//! Reading Koma's binary files (a table of solved positions, a weights
//! file) from a
//! path that comes from outside: a FIFO or a device must neither hang the
//! engine nor fill its memory, so only a regular file of exactly the size
//! its header announces is read, and at most one header of anything else.

use std::io::Read;
use std::path::Path;

/// The bytes of the file at `path`, whose first `header` bytes `announced`
/// checks and turns into the whole file's size. Errors describe the file
/// without naming it.
pub fn read_announced(
    path: &Path,
    header: usize,
    announced: impl FnOnce(&[u8]) -> Result<u64, String>,
) -> Result<Vec<u8>, String> {
    let unreadable = |e: std::io::Error| format!("cannot read it: {e}");
    let regular = |m: &std::fs::Metadata| {
        if m.is_file() {
            Ok(m.len())
        } else {
            Err("not a regular file".to_string())
        }
    };
    regular(&std::fs::metadata(path).map_err(unreadable)?)?;
    let mut file = open_without_blocking(path).map_err(unreadable)?;
    // Again on the open file: the path may have changed since.
    let len = regular(&file.metadata().map_err(unreadable)?)?;
    let mut bytes = Vec::with_capacity(header);
    (&mut file)
        .take(header as u64)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    let want = announced(&bytes)?;
    if len != want {
        return Err(size_error(len, want));
    }
    bytes
        .try_reserve_exact((want - bytes.len() as u64) as usize)
        .map_err(|_| format!("no memory for its {want} bytes"))?;
    file.take(want - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    Ok(bytes)
}

/// Why a file of `len` bytes is not the `want` bytes its header announces.
pub fn size_error(len: u64, want: u64) -> String {
    format!(
        "{len} bytes, expected {want}: the file is {}",
        if len < want {
            "truncated"
        } else {
            "longer than its header says"
        }
    )
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
