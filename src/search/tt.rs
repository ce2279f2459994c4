//! The transposition table, shared by all search threads without locks:
//! each entry is two atomics, the key stored XOR the data, so a torn write
//! reads as a miss. It stores move ids (`Game::move_id`), not moves, so one
//! table serves every game; a stored move is used only if it matches one of
//! the position's legal moves.

use super::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Copy, Clone, Debug)]
pub struct Hit {
    pub move_id: Option<u32>,
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

pub struct Tt {
    entries: Box<[Entry]>,
    /// Buckets of two entries: index `2 * (key & mask)`; the first keeps the
    /// deepest result, the second the latest.
    mask: u64,
    generation: AtomicU8,
}

const NO_MOVE: u64 = u32::MAX as u64;

fn pack(move_id: Option<u32>, score: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = move_id.map_or(NO_MOVE, u64::from);
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 32 | d << 48 | (bound as u64) << 56 | ((generation & 63) as u64) << 58
}

fn unpack(data: u64) -> Option<(Hit, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let m = data & NO_MOVE;
    Some((
        Hit {
            move_id: (m != NO_MOVE).then_some(m as u32),
            score: ((data >> 32) & 0xffff) as u16 as i16 as Score,
            depth: ((data >> 48) & 0xff) as i32,
            bound,
        },
        (data >> 58) as u8,
    ))
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let buckets = Self::buckets(mb);
        Tt {
            entries: (0..2 * buckets).map(|_| Entry::default()).collect(),
            mask: buckets as u64 - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// `new`, or an error instead of aborting when the memory cannot be
    /// had (the `Hash` option comes from outside).
    pub fn try_new(mb: usize) -> Result<Tt, std::collections::TryReserveError> {
        let buckets = Self::buckets(mb);
        let mut entries = Vec::new();
        entries.try_reserve_exact(2 * buckets)?;
        entries.resize_with(2 * buckets, Entry::default);
        Ok(Tt {
            entries: entries.into_boxed_slice(),
            mask: buckets as u64 - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// The bytes a table of `mb` megabytes takes.
    pub fn bytes_for(mb: usize) -> usize {
        2 * Self::buckets(mb) * std::mem::size_of::<Entry>()
    }

    /// Buckets in a table of `mb` megabytes: the largest power of two
    /// that fits (at least one).
    fn buckets(mb: usize) -> usize {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (2 * std::mem::size_of::<Entry>())).max(1);
        1usize << (usize::BITS - 1 - buckets.leading_zeros())
    }

    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        2 * (key & self.mask) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + 2] {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(h, _)| h);
            }
        }
        None
    }

    pub fn store(&self, key: u64, move_id: Option<u32>, score: Score, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let b = self.bucket(key);
        let deep = &self.entries[b];
        let old = deep.data.load(Ordering::Relaxed);
        let same_key = deep.key_xor_data.load(Ordering::Relaxed) ^ old == key;
        let replace_deep = match unpack(old) {
            None => true,
            Some((h, g)) => same_key || g != generation || depth >= h.depth,
        };
        let e = if replace_deep {
            deep
        } else {
            &self.entries[b + 1]
        };
        // Keep a known move when the new result has none.
        let move_id = move_id.or_else(|| {
            if same_key && replace_deep {
                unpack(old).and_then(|(h, _)| h.move_id)
            } else {
                None
            }
        });
        let data = pack(move_id, score, depth, bound, generation);
        e.data.store(data, Ordering::Relaxed);
        e.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                unpack(e.data.load(Ordering::Relaxed)).is_some_and(|(_, g)| g == generation)
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back_with_their_fields() {
        let tt = Tt::new(1);
        tt.store(0xdead_beef, Some(77), -1234, 9, Bound::Lower);
        let h = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (h.move_id, h.score, h.depth, h.bound),
            (Some(77), -1234, 9, Bound::Lower)
        );
        assert!(tt.probe(0xdead_beee).is_none());
    }

    #[test]
    fn a_result_without_a_move_keeps_the_known_move() {
        let tt = Tt::new(1);
        tt.store(42, Some(5), 10, 3, Bound::Exact);
        tt.store(42, None, 20, 4, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().move_id, Some(5));
    }

    #[test]
    fn mate_scores_fit() {
        let tt = Tt::new(1);
        tt.store(1, None, -29_990, 1, Bound::Exact);
        assert_eq!(tt.probe(1).unwrap().score, -29_990);
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = Tt::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 0);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
