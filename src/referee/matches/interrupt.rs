//! Ctrl-C (SIGINT) and SIGTERM during a match: the first asks the runner to
//! print the results so far and the command that resumes, then exit; a
//! second ends the referee at once. The handler only counts: the runner
//! polls `requested` and does the printing outside the signal.

use std::sync::atomic::{AtomicUsize, Ordering};

static SIGNALS: AtomicUsize = AtomicUsize::new(0);

/// The exit status of a match ended by a signal (128 + SIGINT, as shells
/// report a Ctrl-C).
pub const STATUS: i32 = 130;

extern "C" fn on_signal(_: libc::c_int) {
    // Only async-signal-safe calls here: an atomic add and _exit.
    if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 {
        // SAFETY: _exit is async-signal-safe and ends the process.
        unsafe { libc::_exit(STATUS) }
    }
}

/// Routes SIGINT and SIGTERM to the counter, for the rest of the process.
#[cfg(unix)]
pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with a plain handler, an empty mask
        // and SA_RESTART is valid; the handler is async-signal-safe.
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
}

#[cfg(not(unix))]
pub fn install() {}

/// Whether a signal asked the match to stop.
pub fn requested() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}
