//! The watchdog: a tiny process forked from the referee (or the board)
//! that kills every engine's whole process group when its parent dies,
//! however it dies. `PR_SET_PDEATHSIG` kills the engine itself, but not
//! what the engine started (a script's children, a wrapper's child): those
//! are reparented and would run on. Each engine runs in a process group of
//! its own; the parent tells the watchdog which groups are live through a
//! pipe, and the end of that pipe (the parent's death closes it) is the
//! watchdog's signal to kill them all.
//!
//! The watchdog runs while at least one engine does and is reaped when the
//! last one ends, so a finished match leaves no process behind. It is
//! forked without `exec` from a program with threads, so its code after
//! `fork` makes only async-signal-safe system calls and never allocates.
//! A descendant that leaves the engine's process group (`setsid`, a
//! daemon) is out of its reach. Linux only; elsewhere it does nothing.

/// Starts watching process group `pgid`.
pub fn watch(pgid: u32) {
    #[cfg(target_os = "linux")]
    imp::send(pgid, true);
    #[cfg(not(target_os = "linux"))]
    let _ = pgid;
}

/// Stops watching `pgid`; call it before the group's leader is reaped, so
/// the id cannot have been reused by then.
pub fn unwatch(pgid: u32) {
    #[cfg(target_os = "linux")]
    imp::send(pgid, false);
    #[cfg(not(target_os = "linux"))]
    let _ = pgid;
}

#[cfg(target_os = "linux")]
mod imp {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::sync::Mutex;

    /// Groups the watchdog can hold; more are not watched (engines still
    /// die with the referee through their death signal).
    const CAPACITY: usize = 4096;

    struct Running {
        pid: libc::pid_t,
        /// The write end of the pipe: closing it ends the watchdog.
        pipe: OwnedFd,
        live: usize,
    }

    static STATE: Mutex<Option<Running>> = Mutex::new(None);

    /// Tells the watchdog to watch (`add`) or forget a group, starting the
    /// watchdog for the first group and ending it after the last.
    pub fn send(pgid: u32, add: bool) {
        let Ok(pgid) = i32::try_from(pgid) else {
            return;
        };
        let mut state = STATE.lock().unwrap_or_else(|e| e.into_inner());
        if state.is_none() {
            if !add {
                return;
            }
            match start() {
                Ok(r) => *state = Some(r),
                Err(e) => {
                    ::log::warn!("no watchdog for engine process groups: {e}");
                    return;
                }
            }
        }
        let Some(run) = state.as_mut() else { return };
        let message = if add { pgid } else { -pgid };
        let bytes = message.to_ne_bytes();
        // SAFETY: writes 4 bytes from a live buffer to a descriptor this
        // struct owns; pipe writes of at most PIPE_BUF bytes are atomic.
        let n = unsafe { libc::write(run.pipe.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
        if n != 4 {
            ::log::warn!(
                "the watchdog does not listen: {}",
                std::io::Error::last_os_error()
            );
        }
        if add {
            run.live += 1;
        } else {
            run.live = run.live.saturating_sub(1);
        }
        if run.live == 0
            && let Some(run) = state.take()
        {
            // End of input: the watchdog exits (it watches nothing now).
            drop(run.pipe);
            let mut status = 0;
            // SAFETY: waits for the watchdog, a child only this module
            // knows and reaps.
            unsafe {
                while libc::waitpid(run.pid, &mut status, 0) < 0
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                {
                }
            }
        }
    }

    fn start() -> std::io::Result<Running> {
        let mut fds = [0; 2];
        // SAFETY: pipe2 fills the two descriptors; both are close-on-exec,
        // so engines never inherit the write end and the watchdog sees the
        // end of the pipe when the parent dies.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just created and are owned here.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: the child runs `watchdog_main` only, which makes
        // async-signal-safe system calls and never returns or allocates.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if pid == 0 {
            // SAFETY: see `watchdog_main`.
            unsafe { watchdog_main(read_end.as_raw_fd()) }
        }
        drop(read_end);
        Ok(Running {
            pid,
            pipe: write_end,
            live: 0,
        })
    }

    /// The watchdog's whole life: keep the live groups from the pipe, and
    /// at its end kill them all.
    ///
    /// # Safety
    /// Only in the child right after `fork`, with `input` the pipe's read
    /// end.
    unsafe fn watchdog_main(input: libc::c_int) -> ! {
        unsafe {
            // Signals meant for the referee's terminal or its process group
            // (Ctrl-C) must not end the watchdog before it has done its job.
            for sig in [
                libc::SIGINT,
                libc::SIGHUP,
                libc::SIGTERM,
                libc::SIGQUIT,
                libc::SIGPIPE,
            ] {
                libc::signal(sig, libc::SIG_IGN);
            }
            // Keep only the pipe, as descriptor 0: a copy of an engine's
            // stdin (or of anything else of the parent) held here would keep
            // it open after the parent closed it.
            if libc::dup2(input, 0) < 0 {
                libc::_exit(1);
            }
            close_from(1);
            let mut groups = [0 as libc::pid_t; CAPACITY];
            let mut count = 0usize;
            let mut buf = [0u8; 256];
            let mut have = 0usize;
            loop {
                let n = libc::read(0, buf.as_mut_ptr().add(have).cast(), buf.len() - have);
                if n < 0 {
                    if *libc::__errno_location() == libc::EINTR {
                        continue;
                    }
                    break;
                }
                if n == 0 {
                    break;
                }
                have += n as usize;
                let whole = have - have % 4;
                let mut k = 0;
                while k < whole {
                    let m = i32::from_ne_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
                    if m > 0 {
                        if count < CAPACITY {
                            groups[count] = m;
                            count += 1;
                        }
                    } else if let Some(i) = groups[..count].iter().position(|&g| g == -m) {
                        count -= 1;
                        groups[i] = groups[count];
                    }
                    k += 4;
                }
                buf.copy_within(whole..have, 0);
                have -= whole;
            }
            for &g in &groups[..count] {
                libc::kill(-g, libc::SIGKILL);
            }
            libc::_exit(0)
        }
    }

    /// Closes every descriptor from `first` up.
    unsafe fn close_from(first: libc::c_int) {
        unsafe {
            if libc::syscall(
                libc::SYS_close_range,
                first as libc::c_uint,
                libc::c_uint::MAX,
                0,
            ) == 0
            {
                return;
            }
            let mut lim: libc::rlimit = std::mem::zeroed();
            let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
                lim.rlim_cur.min(1 << 20) as libc::c_int
            } else {
                1024
            };
            for fd in first..max {
                libc::close(fd);
            }
        }
    }
}
