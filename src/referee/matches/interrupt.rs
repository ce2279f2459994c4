//! Ctrl-C (SIGINT) and SIGTERM during a match: the first asks the runner to
//! print the results so far and the command that resumes, then exit; a
//! second ends the referee at once. The handler only counts and writes a
//! byte to a pipe; the runner's main thread sleeps on that pipe (no
//! polling), woken by a signal or by the last worker when the games are
//! done.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The write end of the current match's pipe, for the handler; -1: none.
static PIPE: AtomicI32 = AtomicI32::new(-1);

/// The exit status of a match ended by a signal (128 + SIGINT, as shells
/// report a Ctrl-C).
pub const STATUS: i32 = 130;

const SIGNALLED: u8 = b's';
const DONE: u8 = b'd';

extern "C" fn on_signal(_: libc::c_int) {
    // Only async-signal-safe calls here: atomics, write and _exit.
    if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 {
        // SAFETY: _exit is async-signal-safe and ends the process.
        unsafe { libc::_exit(STATUS) }
    }
    let fd = PIPE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: writing one byte from a static to a descriptor we own.
        unsafe {
            libc::write(fd, [SIGNALLED].as_ptr().cast(), 1);
        }
    }
}

/// What woke the runner's main thread.
#[derive(Debug, PartialEq, Eq)]
pub enum Woken {
    Signalled,
    Done,
}

/// The pipe the main thread sleeps on while the workers play.
pub struct Watch {
    read: libc::c_int,
    write: libc::c_int,
}

impl Watch {
    /// Routes SIGINT and SIGTERM to the pipe; `None` when no pipe can be
    /// made (then signals keep their default: the referee ends at once).
    pub fn install() -> Option<Watch> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 fills the two descriptors; close-on-exec keeps
        // them out of the engines.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return None;
        }
        PIPE.store(fds[1], Ordering::SeqCst);
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed sigaction with a plain handler, an empty
            // mask and SA_RESTART is valid; the handler is async-signal-safe.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                    log::warn!(
                        "cannot handle signal {sig}: {}",
                        std::io::Error::last_os_error()
                    );
                }
            }
        }
        Some(Watch {
            read: fds[0],
            write: fds[1],
        })
    }

    /// Wakes the main thread: the games are done.
    pub fn done(&self) {
        // SAFETY: one byte to our own pipe.
        unsafe {
            libc::write(self.write, [DONE].as_ptr().cast(), 1);
        }
    }

    /// Sleeps until a signal or the end of the games.
    pub fn wait(&self) -> Woken {
        if SIGNALS.load(Ordering::SeqCst) > 0 {
            return Woken::Signalled;
        }
        let mut byte = 0u8;
        loop {
            // SAFETY: reads one byte into a local.
            let n = unsafe { libc::read(self.read, (&mut byte as *mut u8).cast(), 1) };
            if n == 1 {
                return if byte == SIGNALLED {
                    Woken::Signalled
                } else {
                    Woken::Done
                };
            }
            let interrupted =
                n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
            if !interrupted {
                // The pipe failed: nothing more to wait for.
                return Woken::Done;
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        PIPE.store(-1, Ordering::SeqCst);
        // SAFETY: closing the descriptors this watch owns.
        unsafe {
            libc::close(self.read);
            libc::close(self.write);
        }
    }
}
