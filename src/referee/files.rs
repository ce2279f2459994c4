//! Opening the files the referee reads (record files, openings) and
//! appends to: only regular files, so a FIFO cannot hang it and a device
//! such as `/dev/zero` cannot fill its memory.

use std::fs::{File, OpenOptions};
use std::path::Path;

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
