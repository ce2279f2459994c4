//! Opening the files the referee reads (record files, openings) and
//! appends to: only regular files, so a FIFO cannot hang it and a device
//! such as `/dev/zero` cannot fill its memory; and `FileError`, why one
//! of them cannot be used.

use crate::protocol::ParseError;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// A file named on the command line that the referee cannot use, typed:
/// the binary prints it with its cause ("cannot open the state file PATH:
/// Permission denied") and exits with 2, a bad file being a bad argument.
#[derive(Debug)]
pub enum FileError {
    /// The system refused: "cannot {doing} [the {role}] {path}".
    Io {
        doing: &'static str,
        /// What the file is to the match ("state file"), or "".
        role: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// Another referee holds the lock on this record file.
    InUse(PathBuf),
    /// A line of an openings file that does not parse.
    BadLine {
        path: PathBuf,
        line: usize,
        source: ParseError,
    },
    /// A damaged record of this match before the state file's last one
    /// (only the last can be a kill's doing).
    Damaged {
        path: PathBuf,
        line: usize,
        source: ParseError,
    },
}

impl FileError {
    /// `map_err` for an I/O error while doing `doing` to the `role` `path`.
    pub fn io(
        doing: &'static str,
        role: &'static str,
        path: &Path,
    ) -> impl FnOnce(std::io::Error) -> FileError {
        let path = path.to_path_buf();
        move |source| FileError::Io {
            doing,
            role,
            path,
            source,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io {
                doing,
                role: "",
                path,
                ..
            } => write!(f, "cannot {doing} {}", path.display()),
            FileError::Io {
                doing, role, path, ..
            } => write!(f, "cannot {doing} the {role} {}", path.display()),
            FileError::InUse(path) => write!(
                f,
                "{} is in use by another koma-referee (two referees on one state file would \
                 play the same games twice): wait for it to end, or give this match its own \
                 --pgnout/--state file",
                path.display()
            ),
            FileError::BadLine { path, line, .. } => write!(f, "{} line {line}", path.display()),
            FileError::Damaged { path, line, .. } => write!(
                f,
                "{} line {line}: a damaged record of this match",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { source, .. } => Some(source),
            FileError::InUse(_) => None,
            FileError::BadLine { source, .. } | FileError::Damaged { source, .. } => Some(source),
        }
    }
}

/// What the state file and the `--pgnout` file are called in errors.
pub const STATE: &str = "state file";
pub const RECORD: &str = "record file";

/// The error `read_text` gives for bytes that are not UTF-8.
fn not_text() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, "not a text file")
}

/// The whole of a record file as text, or `None` when it does not exist.
pub fn read_text(path: &Path, role: &'static str) -> Result<Option<String>, FileError> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| FileError::io("read", role, path)(not_text())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileError::io("read", role, path)(e)),
    }
}

/// Opens `path` for reading without blocking on a FIFO (a FIFO with no
/// writer would block `open` itself) and checks that it is a regular file:
/// a FIFO, a device such as `/dev/zero` or a directory is refused before
/// anything is read from it.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    #[cfg(unix)]
    clear_nonblocking(&f)?;
    Ok(f)
}

/// Puts a file opened with `O_NONBLOCK` back to ordinary blocking reads.
#[cfg(unix)]
fn clear_nonblocking(f: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = f.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function borrows, with plain
    // integer arguments.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Whether two paths name one file: the same file on disk when both
/// exist, else the same absolute path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    match (std::path::absolute(a), std::path::absolute(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_opened_and_a_fifo_does_not_block() {
        for special in ["/dev/zero", "/dev/null", "/"] {
            let e = open_regular(Path::new(special), OpenOptions::new().read(true)).unwrap_err();
            assert!(
                e.to_string().contains("not a regular file"),
                "{special}: {e}"
            );
        }
        let fifo = std::env::temp_dir().join(format!("koma-files-{}-fifo", std::process::id()));
        let _ = std::fs::remove_file(&fifo);
        let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        let e = open_regular(&fifo, OpenOptions::new().read(true)).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let _ = std::fs::remove_file(&fifo);
    }

    #[test]
    fn two_spellings_of_one_file_are_the_same_file() {
        let dir = std::env::temp_dir();
        let a = dir.join(format!("koma-same-{}", std::process::id()));
        let b = dir
            .join(".")
            .join(format!("koma-same-{}", std::process::id()));
        assert!(same_file(&a, &b), "before it exists");
        std::fs::write(&a, "").unwrap();
        assert!(same_file(&a, &b));
        assert!(!same_file(&a, &dir.join("koma-same-other")));
        let _ = std::fs::remove_file(&a);
    }
}
