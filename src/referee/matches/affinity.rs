//! `--use-affinity [CPUS]`: each worker thread (one per concurrent game) is
//! pinned to its own share of the CPUs before it starts its engines, which
//! inherit the mask, so two games do not take each other's cores.

/// The CPUs of `list` (`0,2,4-7`; empty: every CPU the referee may run
/// on), each one the referee may use.
pub fn cpus(list: &str) -> Result<Vec<usize>, String> {
    let allowed = allowed()?;
    if list.trim().is_empty() {
        return Ok(allowed);
    }
    let bad = |w: &str| format!("--use-affinity {list}: {w} is not a CPU or a range A-B");
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
                return Err(format!(
                    "--use-affinity {list}: CPU {c} is not one the referee may run on ({})",
                    allowed
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                ));
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
fn allowed() -> Result<Vec<usize>, String> {
    // SAFETY: sched_getaffinity fills the zeroed set it is given.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(format!(
                "--use-affinity: cannot read the CPUs: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed() -> Result<Vec<usize>, String> {
    Err("--use-affinity is not supported on this system (Linux only)".into())
}

/// Pins the calling thread (and what it starts from now on) to `cpus`.
#[cfg(target_os = "linux")]
pub fn pin_this_thread(cpus: &[usize]) -> Result<(), String> {
    // SAFETY: the set is zeroed, then filled with CPU numbers below
    // CPU_SETSIZE; pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn pin_this_thread(_: &[usize]) -> Result<(), String> {
    Err("not supported on this system".into())
}

/// The CPUs the calling thread may run on (for tests and the log).
pub fn this_thread() -> Result<Vec<usize>, String> {
    allowed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_shares() {
        let all = cpus("").unwrap();
        assert!(!all.is_empty());
        let first = all[0];
        assert_eq!(cpus(&format!("{first}")).unwrap(), [first]);
        assert!(cpus("x").unwrap_err().contains("x is not a CPU"));
        assert!(cpus("3-1").is_err());
        assert!(
            cpus("100000")
                .unwrap_err()
                .contains("not one the referee may run on")
        );
        assert_eq!(share(&[0, 1, 2, 3], 2, 1), [2, 3]);
        assert_eq!(share(&[0, 1], 2, 0), [0]);
        assert_eq!(share(&[0, 1], 3, 2), [0]);
        assert_eq!(share(&[5], 1, 0), [5]);
    }
}
