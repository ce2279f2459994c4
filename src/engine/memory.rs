//! How much memory the machine can give now, so that a `Hash` the machine
//! cannot hold is refused before it is allocated (a table that only fits in
//! the address space would be filled page by page until the system kills
//! the engine).

/// Bytes that can be allocated without swapping, as far as the system
/// says: Linux's `MemAvailable`, lowered by a cgroup (v2) memory limit
/// when the engine runs under one. `None` where neither can be read.
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| mem_available(&s));
    let cgroup = cgroup_room(
        std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok(),
        std::fs::read_to_string("/sys/fs/cgroup/memory.current").ok(),
    );
    match (meminfo, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        _ => None,
    }
}

/// Room left under a cgroup v2 limit (`memory.max` minus
/// `memory.current`); `None` without a limit (`max`) or a readable pair.
fn cgroup_room(max: Option<String>, current: Option<String>) -> Option<u64> {
    let max: u64 = max?.trim().parse().ok()?;
    let current: u64 = current?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_in_bytes() {
        let text = "MemTotal:       24684084 kB\nMemFree:  100 kB\nMemAvailable:   22846304 kB\n";
        assert_eq!(mem_available(text), Some(22846304 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn a_cgroup_limit_leaves_its_room_and_max_means_none() {
        assert_eq!(
            cgroup_room(Some("1000\n".into()), Some("300\n".into())),
            Some(700)
        );
        assert_eq!(
            cgroup_room(Some("max\n".into()), Some("300\n".into())),
            None
        );
        assert_eq!(cgroup_room(None, Some("300".into())), None);
    }
}
