//! `--use-affinity [CPUS]`: each worker thread (one per concurrent game) is
//! pinned to its own share of the CPUs before it starts its engines, which
//! inherit the mask, so two games do not take each other's cores.

/// The CPUs of `list` (`0,2,4-7`; empty: every CPU the referee may run
/// on), each one the referee may use.
pub fn cpus(list: &str) -> Result<Vec<usize>, AffinityError> {
    let allowed = allowed()?;
    if list.trim().is_empty() {
        return Ok(allowed);
    }
    let bad = |w: &str| AffinityError::NotCpu {
        list: list.to_string(),
        word: w.to_string(),
    };
    let mut out = Vec::new();
    for part in list.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a, b),
            None => (part, part),
        };
        let (a, b): (usize, usize) = match (a.trim().parse(), b.trim().parse()) {
            (Ok(a), Ok(b)) if a <= b => (a, b),
            _ => return Err(bad(part)),
        };
        for c in a..=b {
            if !allowed.contains(&c) {
                return Err(AffinityError::NotAllowed {
                    list: list.to_string(),
                    cpu: c,
                    allowed,
                });
            }
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// Worker `k`'s CPUs among `workers`: an equal share when there are CPUs
/// enough, else one CPU, shared in turn.
pub fn share(cpus: &[usize], workers: usize, k: usize) -> Vec<usize> {
    let (n, w) = (cpus.len(), workers.max(1));
    if n == 0 {
        return Vec::new();
    }
    if n < w {
        return vec![cpus[k % n]];
    }
    cpus[k * n / w..(k + 1) * n / w].to_vec()
}

#[cfg(target_os = "linux")]
fn allowed() -> Result<Vec<usize>, AffinityError> {
    // SAFETY: sched_getaffinity fills the zeroed set it is given.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(AffinityError::Unreadable(std::io::Error::last_os_error()));
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed() -> Result<Vec<usize>, AffinityError> {
    Err(AffinityError::Unsupported)
}

/// Pins the calling thread (and what it starts from now on) to `cpus`.
#[cfg(target_os = "linux")]
pub fn pin_this_thread(cpus: &[usize]) -> Result<(), AffinityError> {
    // SAFETY: the set is zeroed, then filled with CPU numbers below
    // CPU_SETSIZE; pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(AffinityError::Pin(std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn pin_this_thread(_: &[usize]) -> Result<(), AffinityError> {
    Err(AffinityError::PinUnsupported)
}

/// The CPUs the calling thread may run on (for tests and the log).
pub fn this_thread() -> Result<Vec<usize>, AffinityError> {
    allowed()
}

/// Why CPUs cannot be read, chosen or pinned.
#[derive(Debug)]
pub enum AffinityError {
    /// The CPUs the referee may run on could not be read.
    Unreadable(std::io::Error),
    /// Not Linux.
    Unsupported,
    /// A word of `--use-affinity`'s list that is not a CPU or a range.
    NotCpu {
        list: String,
        word: String,
    },
    /// A CPU the referee may not run on (`allowed` are those it may).
    NotAllowed {
        list: String,
        cpu: usize,
        allowed: Vec<usize>,
    },
    Pin(std::io::Error),
    PinUnsupported,
}

impl std::fmt::Display for AffinityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AffinityError::Unreadable(e) => write!(f, "--use-affinity: cannot read the CPUs: {e}"),
            AffinityError::Unsupported => {
                f.write_str("--use-affinity is not supported on this system (Linux only)")
            }
            AffinityError::NotCpu { list, word } => {
                write!(
                    f,
                    "--use-affinity {list}: {word} is not a CPU or a range A-B"
                )
            }
            AffinityError::NotAllowed { list, cpu, allowed } => {
                let allowed: Vec<String> = allowed.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "--use-affinity {list}: CPU {cpu} is not one the referee may run on ({})",
                    allowed.join(",")
                )
            }
            AffinityError::Pin(e) => e.fmt(f),
            AffinityError::PinUnsupported => f.write_str("not supported on this system"),
        }
    }
}

impl std::error::Error for AffinityError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_shares() {
        let all = cpus("").unwrap();
        assert!(!all.is_empty());
        let first = all[0];
        assert_eq!(cpus(&format!("{first}")).unwrap(), [first]);
        assert!(
            cpus("x")
                .unwrap_err()
                .to_string()
                .contains("x is not a CPU")
        );
        assert!(cpus("3-1").is_err());
        assert!(
            cpus("100000")
                .unwrap_err()
                .to_string()
                .contains("not one the referee may run on")
        );
        assert_eq!(share(&[0, 1, 2, 3], 2, 1), [2, 3]);
        assert_eq!(share(&[0, 1], 2, 0), [0]);
        assert_eq!(share(&[0, 1], 3, 2), [0]);
        assert_eq!(share(&[5], 1, 0), [5]);
    }
}
