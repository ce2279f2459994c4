//! The transposition table, shared by all search threads without locks.
//! Entries come four to a bucket of one cache line (one memory fetch per
//! probe, which the search starts early with `prefetch`). An entry is two
//! atomics: the data, and the key's upper half with the bound and the
//! generation, stored XOR the data, so that a torn write reads as a miss
//! (the bucket index checks the key's lower bits). A clear costs nothing:
//! entries also carry the table's epoch, which `clear` moves on, so that
//! older entries read as empty (an engine clears at every `ucinewgame`).
//! It stores move ids
//! (`Game::move_id`), not moves, so one table serves every game; a stored
//! move is used only if it matches one of the position's legal moves.

use super::Score;
use std::alloc::Layout;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};

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
    /// The static evaluation of the position, when it was stored.
    pub eval: Option<Score>,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; 4]);

/// Huge pages are asked for tables of at least this many bytes, aligned
/// to it.
const HUGE_PAGE: usize = 2 << 20;

/// The table's memory: zeroed buckets, aligned to `HUGE_PAGE` when the
/// table is that large, with the kernel asked for huge pages there. The
/// search reads the table at random: with small pages nearly every probe
/// would also miss the processor's cache of address translations.
struct Buckets {
    ptr: NonNull<Bucket>,
    len: usize,
    layout: Layout,
}

// SAFETY: `Buckets` owns its memory, used only as `[Bucket]`, and `Bucket`
// (atomics) is `Send` and `Sync`.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` empty buckets (at least one), or `None` when the memory cannot
    /// be had.
    fn new(len: usize) -> Option<Buckets> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let layout = Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<Bucket>())?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: advice on the allocation just made, before its pages
            // are touched; refused advice changes nothing.
            unsafe {
                libc::madvise(raw.cast(), bytes, libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: `raw` holds `bytes` writable bytes, and all zero bits
        // are an empty bucket (atomics holding 0).
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Some(Buckets { ptr, len, layout })
    }
}

impl Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `len` initialised buckets for `self`'s life.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

/// The memory of a table could not be had.
#[derive(Debug)]
pub struct NoMemory;

pub struct Tt {
    buckets: Buckets,
    mask: u64,
    generation: AtomicU8,
    /// How many times the table was cleared (modulo `EPOCHS`): entries of
    /// another epoch are empty.
    epoch: AtomicU32,
}

const KEY_BITS: u64 = 0xffff_ffff_0000_0000;
const NO_MOVE: u64 = (1 << 24) - 1;
const NO_EVAL: i16 = i16::MIN;
/// Generations wrap at 64.
const GENERATIONS: u8 = 64;
/// Epochs take the check word's bits 8 to 31; at the last one, `clear`
/// zeroes the table and starts again at 0 (a zeroed entry is empty in any
/// epoch: its bound is 0).
const EPOCH_SHIFT: u32 = 8;
const EPOCHS: u32 = 1 << 24;
const EPOCH_BITS: u64 = (EPOCHS as u64 - 1) << EPOCH_SHIFT;

/// Data word: move id (24 bits), score (16), static evaluation (16),
/// depth (8).
fn pack(move_id: Option<u32>, score: Score, eval: Option<Score>, depth: i32) -> u64 {
    let m = move_id.map_or(NO_MOVE, |m| u64::from(m).min(NO_MOVE - 1));
    let s = score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16 as u16 as u64;
    let e = eval.map_or(NO_EVAL, |e| {
        e.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
    }) as u16 as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 24 | e << 40 | d << 56
}

/// The check word's lower half: bound (2 bits), generation (6) and the
/// epoch's bits (24).
fn extra(bound: Bound, generation: u8, epoch: u64) -> u64 {
    bound as u64 | u64::from(generation % GENERATIONS) << 2 | epoch
}

/// The entry's hit and generation, if it holds `key` in this epoch
/// (`epoch`: its bits in the check word).
fn read(e: &Entry, key: u64, epoch: u64) -> Option<(Hit, u8)> {
    let data = e.data.load(Ordering::Relaxed);
    let check = e.check.load(Ordering::Relaxed) ^ data;
    if check & (KEY_BITS | EPOCH_BITS) != (key & KEY_BITS) | epoch {
        return None;
    }
    let bound = match check & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let m = data & NO_MOVE;
    let eval = (data >> 40) as u16 as i16;
    Some((
        Hit {
            move_id: (m != NO_MOVE).then_some(m as u32),
            score: ((data >> 24) as u16 as i16) as Score,
            eval: (eval != NO_EVAL).then_some(eval as Score),
            depth: (data >> 56) as i32,
            bound,
        },
        ((check >> 2) & 63) as u8,
    ))
}

/// Depth and generation of whatever the entry holds in this epoch
/// (`None`: empty).
fn occupant(e: &Entry, epoch: u64) -> Option<(i32, u8)> {
    let data = e.data.load(Ordering::Relaxed);
    let check = e.check.load(Ordering::Relaxed) ^ data;
    (check & 3 != 0 && check & EPOCH_BITS == epoch)
        .then_some(((data >> 56) as i32, ((check >> 2) & 63) as u8))
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        Self::try_new(mb)
            .unwrap_or_else(|NoMemory| std::alloc::handle_alloc_error(Layout::new::<Bucket>()))
    }

    /// `new`, or an error instead of aborting when the memory cannot be
    /// had (the `Hash` option comes from outside).
    pub fn try_new(mb: usize) -> Result<Tt, NoMemory> {
        let buckets = Self::buckets(mb);
        Ok(Tt {
            buckets: Buckets::new(buckets).ok_or(NoMemory)?,
            mask: buckets as u64 - 1,
            generation: AtomicU8::new(0),
            epoch: AtomicU32::new(0),
        })
    }

    /// The bytes a table of `mb` megabytes takes.
    pub fn bytes_for(mb: usize) -> usize {
        Self::buckets(mb) * std::mem::size_of::<Bucket>()
    }

    /// Buckets in a table of `mb` megabytes: the largest power of two
    /// that fits (at least one).
    fn buckets(mb: usize) -> usize {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        1usize << (usize::BITS - 1 - buckets.leading_zeros())
    }

    /// Empties the table: a new epoch, so every entry reads as empty,
    /// without writing the table (which, at 16 MB, took milliseconds).
    pub fn clear(&self) {
        let next = self.epoch.load(Ordering::Relaxed) + 1;
        if next == EPOCHS {
            for b in self.buckets.iter() {
                for e in &b.0 {
                    e.check.store(0, Ordering::Relaxed);
                    e.data.store(0, Ordering::Relaxed);
                }
            }
        }
        self.epoch.store(next % EPOCHS, Ordering::Relaxed);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// The epoch's bits in the check word.
    fn epoch_bits(&self) -> u64 {
        u64::from(self.epoch.load(Ordering::Relaxed)) << EPOCH_SHIFT
    }

    /// Called once per search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key & self.mask) as usize]
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe
    /// soon after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint; it never faults, even on
            // an invalid address, and `p` points into the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let epoch = self.epoch_bits();
        self.bucket(key)
            .0
            .iter()
            .find_map(|e| read(e, key, epoch))
            .map(|(h, _)| h)
    }

    /// Stores a result: over the entry of the same position (keeping its
    /// move when the new result has none, and a deeper result of the same
    /// search unless the new one is exact or nearly as deep), else over
    /// the entry worth least: empty, then old and shallow.
    pub fn store(
        &self,
        key: u64,
        move_id: Option<u32>,
        score: Score,
        eval: Option<Score>,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed) % GENERATIONS;
        let epoch = self.epoch_bits();
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        let mut move_id = move_id;
        for e in &bucket.0 {
            if let Some((old, g)) = read(e, key, epoch) {
                if bound != Bound::Exact && g == generation && depth + 4 <= old.depth {
                    return;
                }
                move_id = move_id.or(old.move_id);
                victim = e;
                break;
            }
            let worth = match occupant(e, epoch) {
                None => i32::MIN,
                Some((d, g)) => {
                    let age = (generation + GENERATIONS - g) % GENERATIONS;
                    d - 8 * i32::from(age)
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let data = pack(move_id, score, eval, depth);
        let check = (key & KEY_BITS) | extra(bound, generation, epoch);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(check ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) % GENERATIONS;
        let epoch = self.epoch_bits();
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| occupant(e, epoch).is_some_and(|(_, g)| g == generation))
            .count();
        (used * 1000 / (4 * sample).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back_with_their_fields() {
        let tt = Tt::new(1);
        tt.store(0xdead_beef, Some(77), -1234, Some(56), 9, Bound::Lower);
        let h = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (h.move_id, h.score, h.eval, h.depth, h.bound),
            (Some(77), -1234, Some(56), 9, Bound::Lower)
        );
        assert!(tt.probe(0xdead_beee).is_none());
        assert!(
            tt.probe(0xdead_beef ^ (1 << 40)).is_none(),
            "same bucket, other key"
        );
        tt.store(5, None, 0, None, 1, Bound::Exact);
        assert_eq!(tt.probe(5).unwrap().eval, None);
    }

    #[test]
    fn a_result_without_a_move_keeps_the_known_move() {
        let tt = Tt::new(1);
        tt.store(42, Some(5), 10, None, 3, Bound::Exact);
        tt.store(42, None, 20, None, 4, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().move_id, Some(5));
    }

    #[test]
    fn a_deeper_result_of_this_search_is_kept() {
        let tt = Tt::new(1);
        tt.store(42, Some(5), 10, None, 12, Bound::Lower);
        tt.store(42, Some(6), 20, None, 3, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().depth, 12);
        tt.store(42, Some(6), 20, None, 3, Bound::Exact);
        assert_eq!(tt.probe(42).unwrap().depth, 3, "exact results replace");
        tt.new_search();
        tt.store(42, Some(7), 20, None, 12, Bound::Lower);
        tt.store(42, Some(8), 20, None, 2, Bound::Lower);
        tt.new_search();
        tt.store(42, Some(9), 20, None, 1, Bound::Upper);
        assert_eq!(
            tt.probe(42).unwrap().move_id,
            Some(9),
            "older results yield"
        );
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let tt = Tt::new(1);
        let buckets = tt.mask + 1;
        // Five keys of one bucket, differing in the upper half.
        let key = |i: u64| 7 + (i << 32) * buckets.max(1);
        for (i, d) in [(0, 9), (1, 3), (2, 7), (3, 8)] {
            tt.store(key(i), None, 0, None, d, Bound::Exact);
        }
        tt.store(key(4), None, 0, None, 5, Bound::Exact);
        assert!(tt.probe(key(1)).is_none(), "the depth-3 entry went");
        for i in [0, 2, 3, 4] {
            assert!(tt.probe(key(i)).is_some(), "{i}");
        }
    }

    #[test]
    fn a_new_table_is_empty_and_large_ones_start_on_a_huge_page() {
        for mb in [1, 2, 16] {
            let tt = Tt::new(mb);
            assert_eq!(tt.buckets.len() * 64, mb << 20);
            assert!(
                tt.buckets
                    .iter()
                    .flat_map(|b| &b.0)
                    .all(|e| occupant(e, 0).is_none())
            );
            let start = tt.buckets.as_ptr() as usize;
            assert_eq!(start % if mb >= 2 { HUGE_PAGE } else { 64 }, 0, "{mb} MB");
        }
        assert!(Tt::try_new(usize::MAX >> 20).is_err());
    }

    #[test]
    fn a_cleared_table_reads_as_empty_and_is_filled_anew() {
        let tt = Tt::new(1);
        let buckets = tt.mask + 1;
        let key = |i: u64| 7 + (i << 32) * buckets;
        for i in 0..4 {
            tt.store(key(i), Some(1), 10, None, 9, Bound::Exact);
        }
        tt.new_search();
        tt.clear();
        for i in 0..4 {
            assert!(tt.probe(key(i)).is_none(), "{i}");
        }
        assert_eq!(tt.hashfull(), 0);
        // The old entries are the victims, as empty ones would be: a
        // shallow new entry does not yield to a deep old one.
        for i in 4..8 {
            tt.store(key(i), Some(2), 20, None, 1, Bound::Upper);
        }
        for i in 4..8 {
            let h = tt.probe(key(i)).unwrap();
            assert_eq!((h.move_id, h.depth), (Some(2), 1));
        }
        // A key stored before the clear is not found again, even in the
        // same slot: its entry is of another epoch.
        tt.clear();
        tt.store(key(0), None, 0, None, 3, Bound::Lower);
        assert_eq!(tt.probe(key(0)).unwrap().move_id, None);
    }

    #[test]
    fn the_last_epoch_zeroes_the_table_and_starts_again() {
        let tt = Tt::new(1);
        tt.epoch.store(EPOCHS - 1, Ordering::Relaxed);
        tt.store(42, Some(5), 10, None, 3, Bound::Exact);
        assert!(tt.probe(42).is_some());
        tt.clear();
        assert_eq!(tt.epoch.load(Ordering::Relaxed), 0);
        assert!(tt.probe(42).is_none());
        assert!(tt.buckets.iter().flat_map(|b| &b.0).all(|e| {
            e.check.load(Ordering::Relaxed) == 0 && e.data.load(Ordering::Relaxed) == 0
        }));
    }

    #[test]
    fn mate_scores_fit() {
        let tt = Tt::new(1);
        tt.store(1, None, -29_990, None, 1, Bound::Exact);
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
                None,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 0);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
