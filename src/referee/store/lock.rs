//! One referee per record file: an exclusive advisory lock (`flock`) on the
//! state file and the `--pgnout` file, held for the whole match. Two
//! referees on one state file would each play the missing games and write
//! every record twice; the second one refuses to start instead. The kernel
//! drops the lock when its holder dies, however it dies, so a killed
//! referee never leaves a stale lock behind.

use super::files::{FileError, open_regular};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// An exclusive lock on one file, released on drop.
#[derive(Debug)]
pub struct FileLock {
    path: PathBuf,
    /// The open file the lock belongs to: closing it releases the lock.
    file: File,
}

impl FileLock {
    /// Locks the `role` (such as "state file") `path`, creating it empty
    /// if it does not exist, or says why not: another referee holds it, or
    /// it is not a regular file.
    pub fn acquire(path: &Path, role: &'static str) -> Result<FileLock, FileError> {
        let file = open_regular(
            path,
            OpenOptions::new().read(true).append(true).create(true),
        )
        .map_err(FileError::io("open", role, path))?;
        lock_exclusive(&file).map_err(|e| match e {
            LockError::Held => FileError::InUse(path.to_path_buf()),
            LockError::Io(e) => FileError::io("lock", role, path)(e),
        })?;
        Ok(FileLock {
            path: path.to_path_buf(),
            file,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same lock, after its file was renamed to `path`.
    pub fn renamed(self, path: &Path) -> FileLock {
        FileLock {
            path: path.to_path_buf(),
            file: self.file,
        }
    }
}

enum LockError {
    Held,
    Io(std::io::Error),
}

#[cfg(unix)]
fn lock_exclusive(f: &File) -> Result<(), LockError> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: flock on a descriptor the caller keeps open.
        let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => return Err(LockError::Held),
            _ => return Err(LockError::Io(e)),
        }
    }
}

#[cfg(not(unix))]
fn lock_exclusive(_f: &File) -> Result<(), LockError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("koma-lock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn a_second_lock_on_one_file_is_refused_until_the_first_is_dropped() {
        let p = temp("twice");
        let first = FileLock::acquire(&p, "state file").unwrap();
        let e = FileLock::acquire(&p, "state file").unwrap_err();
        assert!(matches!(&e, FileError::InUse(q) if *q == p), "{e:?}");
        assert!(
            e.to_string().contains("in use by another koma-referee"),
            "{e}"
        );
        drop(first);
        FileLock::acquire(&p, "state file").unwrap();
        let _ = std::fs::remove_file(&p);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_not_locked() {
        let fifo = temp("fifo");
        let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = FileLock::acquire(&fifo, "record file").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot open the record file {}", fifo.display())
        );
        let _ = std::fs::remove_file(&fifo);
    }
}
