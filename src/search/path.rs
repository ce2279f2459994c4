//! The repetition keys of the game so far and of the current search path,
//! with a small counting filter so that the common case (a position seen
//! nowhere before) is answered without scanning the whole path.
//!
//! A count saturates at its top and then stays there: the filter may then
//! say "maybe" too often (a scan follows) but never "no" wrongly. One byte
//! a slot keeps what a search zeroes at its start small.

/// Filter slots: a power of two, indexed by the low bits of the key.
const SLOTS: usize = 1 << 14;

pub struct Path {
    keys: Vec<u64>,
    counts: Box<[u8; SLOTS]>,
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
            if *c != u8::MAX {
                *c -= 1;
            }
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

    #[test]
    fn a_slot_counted_past_its_top_still_finds_a_repeat() {
        let same_slot = |k: u64| 5 + k * SLOTS as u64;
        let mut p = Path::new(&[]);
        for k in 0..300 {
            p.push(same_slot(k));
        }
        for _ in 1..300 {
            p.pop();
        }
        p.push(same_slot(0));
        assert!(p.last_repeats(), "the first key is still on the path");
        p.pop();
        p.push(same_slot(1));
        assert!(!p.last_repeats(), "a key popped earlier is no repeat");
    }
}
