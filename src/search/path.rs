//! The repetition keys of the game so far and of the current search path,
//! with a small counting filter so that the common case (a position seen
//! nowhere before) is answered without scanning the whole path.

/// Filter slots: a power of two, indexed by the low bits of the key.
const SLOTS: usize = 1 << 14;

pub struct Path {
    keys: Vec<u64>,
    counts: Box<[u16; SLOTS]>,
}

fn slot(key: u64) -> usize {
    (key as usize) & (SLOTS - 1)
}

impl Path {
    pub fn new(history: &[u64]) -> Path {
        let mut p = Path {
            keys: Vec::with_capacity(history.len() + super::MAX_PLY + 1),
            counts: Box::new([0; SLOTS]),
        };
        for &k in history {
            p.push(k);
        }
        p
    }

    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        let c = &mut self.counts[slot(key)];
        *c = c.saturating_add(1);
    }

    pub fn pop(&mut self) {
        if let Some(k) = self.keys.pop() {
            let c = &mut self.counts[slot(k)];
            *c = c.saturating_sub(1);
        }
    }

    /// Whether the last position occurred earlier in the game or the path.
    pub fn last_repeats(&self) -> bool {
        let Some((&last, rest)) = self.keys.split_last() else {
            return false;
        };
        self.counts[slot(last)] > 1 && rest.contains(&last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_found_and_forgotten_on_pop() {
        let mut p = Path::new(&[1, 2, 3]);
        assert!(!p.last_repeats());
        p.push(2);
        assert!(p.last_repeats());
        p.pop();
        p.push(2 + SLOTS as u64);
        assert!(!p.last_repeats(), "same slot, other key");
        p.pop();
        p.push(4);
        assert!(!p.last_repeats());
    }
}
