//! Solving one unit: a signature whose quiet moves lead to itself (the two
//! sides' materials equal) or a pair of signatures whose quiet moves lead
//! into each other, by forward iteration over the entries. No unmoves: each
//! sweep regenerates the moves of the undecided entries it visits with the
//! game's own move generator. Sweep 0 marks the positions without a move (lost) and
//! notes, per entry, what its exits give (looked up in the lower tables,
//! read from disk); sweep `k >= 1` decides exactly the entries of distance
//! `k`, reading only values of distance below `k`, so the result does not
//! depend on the order of the entries and a sweep can stop and resume
//! anywhere. It stops at the first sweep that decides nothing; what is left
//! is a draw. Per entry two bytes in memory, the value and the exit notes,
//! and a bit, the marks (below).
//!
//! Predecessor marking: an entry decided in sweep `k >= 2` has a quiet move
//! into one decided in sweep `k - 1` (a win in `k` needs a loss in `k - 1`,
//! a loss in `k` its latest win there), so before sweep `k` the game's
//! `Layered::predecessors` of the entries of distance `k - 1` are marked
//! (one bit an entry) and the sweep visits only the marked undecided ones,
//! judging them forward as before: a superset of the true predecessors
//! gives the same values. The marks follow from the values, so they are
//! made again on resuming and a checkpoint need not hold them.
//!
//! Checkpoints (`Checkpoint`) hold both arrays and the place in the sweep,
//! written whole (a temporary file renamed) every so many seconds or
//! entries: a killed run resumes from the last one and ends with the same
//! bytes.

use super::error::TableError;
use super::probe::Tables;
use super::value::{Dtz, MAX_DISTANCE};
use crate::core::Outcome;
use crate::core::crc32::crc32;
use crate::core::endgame::Layered;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU64};
use std::time::Instant;

/// Exit notes: some exit wins, some exit does not lose, some exit exists.
const WIN_EXIT: u8 = 1;
const SAFE_EXIT: u8 = 2;
const ANY_EXIT: u8 = 4;

/// When to write a checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoints {
    /// The folder of the checkpoint files.
    pub folder: PathBuf,
    /// After this many seconds of work...
    pub secs: u64,
    /// ...or this many entries visited, whichever comes first.
    pub entries: u64,
    /// Threads sharing each sweep (the result is the same for any number).
    pub threads: usize,
    /// Visit every undecided entry in every sweep, as if the game named
    /// no predecessors (the same result, slower: a baseline).
    pub full_sweeps: bool,
}

/// A unit's name: its first signature's.
pub fn unit_name<G: Layered>(unit: &[G::Sig]) -> String {
    unit[0].to_string()
}

/// The units of the signatures up to `max_pieces`, in solving order.
pub fn units<G: Layered>(max_pieces: u32) -> Vec<Vec<G::Sig>> {
    let mut out: Vec<Vec<G::Sig>> = Vec::new();
    for s in G::signatures(max_pieces) {
        if out.iter().any(|u| u.contains(&s)) {
            continue;
        }
        let w = G::swapped(s);
        out.push(if w == s { vec![s] } else { vec![s, w] });
    }
    out
}

/// Where the solve of a unit stands.
struct State {
    sweep: u32,
    half: usize,
    next: u64,
    /// Entries decided so far in this sweep.
    decided: u64,
    values: Vec<Vec<u8>>,
    notes: Vec<Vec<u8>>,
}

/// What solving a unit found.
pub struct Solved {
    pub values: Vec<Vec<u8>>,
    pub sweeps: u32,
    /// Entries visited (an entry once per sweep it was undecided in).
    pub visits: u64,
    pub secs: f64,
    /// Whether it started from a checkpoint.
    pub resumed: bool,
}

/// A byte array seen as atomics, so that threads may share it: a sweep
/// writes only entries of its own distance, which no reader of the same
/// sweep takes into account, so relaxed loads and stores give the same
/// result in any order.
fn atomic(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and the
    // exclusive borrow lasts as long as the view.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// A hint that `a` will be read soon (a no-op where there is no such hint).
#[inline(always)]
fn prefetch(a: &AtomicU8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(a.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = a;
}

/// One sweep over a block of entries, shared by the threads.
struct Solve<'a, G: Layered> {
    unit: &'a [G::Sig],
    tables: &'a Tables<G>,
    sweep: u32,
    values: Vec<&'a [AtomicU8]>,
    notes: Vec<&'a [AtomicU8]>,
    /// The entries to visit, a bit each, per signature of the unit; `None`
    /// in a full sweep.
    marks: Option<&'a [Vec<AtomicU64>]>,
}

/// What a thread did: entries visited and decided.
#[derive(Default)]
struct Tally {
    visits: u64,
    decided: u64,
}

impl<G: Layered> Solve<'_, G> {
    fn half_of(&self, sig: G::Sig) -> Option<usize> {
        self.unit.iter().position(|&s| s == sig)
    }

    fn value(&self, h: usize, i: u64) -> u8 {
        self.values[h][i as usize].load(Relaxed)
    }

    fn decide(&self, h: usize, i: u64, v: Dtz, t: &mut Tally) {
        self.values[h][i as usize].store(v.encode(), Relaxed);
        t.decided += 1;
    }

    /// Sweep 0 on one entry: a loss with no move, else the exit notes.
    fn first_look(&self, h: usize, i: u64, pos: &G, t: &mut Tally) -> Result<(), TableError> {
        let mut ml = G::MoveList::default();
        pos.generate(&mut ml);
        if ml.is_empty() {
            self.decide(h, i, Dtz::Loss(0), t);
            return Ok(());
        }
        let us = pos.side_to_move();
        let mut notes = 0;
        for &m in ml.iter() {
            if !pos.is_exit(m) {
                continue;
            }
            notes |= ANY_EXIT;
            let child = pos.play(m);
            let v = match child.terminal() {
                Some(end) => match end.outcome {
                    Outcome::Win(c) if c == us => Dtz::Loss(0),
                    Outcome::Win(_) => Dtz::Win(1),
                    Outcome::Draw => Dtz::Draw,
                },
                None => match self.tables.lookup(&child).map_err(TableError::looked_up)? {
                    Some(v) => v,
                    None => {
                        return Err(TableError::Solve(format!(
                            "an exit of {} leads to {}, which no table holds",
                            pos.to_text(),
                            child.to_text()
                        )));
                    }
                },
            };
            notes |= match v {
                Dtz::Loss(_) => WIN_EXIT,
                Dtz::Draw => SAFE_EXIT,
                Dtz::Win(_) => 0,
            };
        }
        self.notes[h][i as usize].store(notes, Relaxed);
        Ok(())
    }

    /// Sweep `k >= 1` on one undecided entry.
    fn look(&self, h: usize, i: u64, pos: &G, k: u32, t: &mut Tally) -> Result<(), TableError> {
        let notes = self.notes[h][i as usize].load(Relaxed);
        if notes & WIN_EXIT != 0 {
            // Only in sweep 1: later the entry is decided.
            self.decide(h, i, Dtz::Win(1), t);
            return Ok(());
        }
        let mut ml = G::MoveList::default();
        pos.generate(&mut ml);
        let mut all_win = notes & SAFE_EXIT == 0;
        let mut longest = u32::from(notes & ANY_EXIT != 0);
        // Each child's value is read `LAG` quiet moves after its place is
        // known and its load announced: in a large unit each value is a
        // cache miss, and announced loads overlap. The values are read in
        // the order of the moves as before, and a win that stops the loop
        // leaves at most `LAG` places computed in vain.
        const LAG: usize = 4;
        let mut ring = [(0usize, 0u64); LAG];
        let (mut pushed, mut read) = (0usize, 0usize);
        let mut wins = |(ch, j): (usize, u64)| match Dtz::decode(self.value(ch, j)) {
            Dtz::Loss(d) if d < k => true,
            Dtz::Win(d) if d < k => {
                longest = longest.max(d + 1);
                false
            }
            _ => {
                all_win = false;
                false
            }
        };
        for &m in ml.iter() {
            if pos.is_exit(m) {
                continue;
            }
            let child = pos.play(m);
            let place = child
                .locate()
                .and_then(|(sig, j)| Some((self.half_of(sig)?, j)));
            let Some((ch, j)) = place else {
                return Err(TableError::Solve(format!(
                    "the quiet move {} of {} leaves the unit",
                    pos.move_text(m),
                    pos.to_text()
                )));
            };
            prefetch(&self.values[ch][j as usize]);
            if pushed - read == LAG {
                if wins(ring[read % LAG]) {
                    self.decide(h, i, Dtz::Win(k), t);
                    return Ok(());
                }
                read += 1;
            }
            ring[pushed % LAG] = (ch, j);
            pushed += 1;
        }
        while read < pushed {
            if wins(ring[read % LAG]) {
                self.decide(h, i, Dtz::Win(k), t);
                return Ok(());
            }
            read += 1;
        }
        if all_win {
            if longest != k {
                return Err(TableError::Solve(format!(
                    "{}: a loss in {longest} found in sweep {k}",
                    pos.to_text()
                )));
            }
            self.decide(h, i, Dtz::Loss(k), t);
        }
        Ok(())
    }

    fn visit(&self, h: usize, i: u64, rules: &G::Rules, t: &mut Tally) -> Result<(), TableError> {
        if self.value(h, i) != 0 {
            return Ok(());
        }
        t.visits += 1;
        let pos = G::unrank(self.unit[h], i, rules);
        match self.sweep {
            0 => self.first_look(h, i, &pos, t),
            k => self.look(h, i, &pos, k, t),
        }
    }

    /// Visits the entries `from..to` of half `h`, split among `threads`.
    fn block(
        &self,
        h: usize,
        from: u64,
        to: u64,
        threads: usize,
        rules: &G::Rules,
    ) -> Result<Tally, TableError> {
        let run = |a: u64, b: u64| {
            let mut t = Tally::default();
            let mut i = a;
            while i < b {
                if let Some(marks) = self.marks {
                    // The next marked entry: whole empty words skipped.
                    let w = marks[h][(i / 64) as usize].load(Relaxed) >> (i % 64);
                    if w == 0 {
                        i = (i / 64 + 1) * 64;
                        continue;
                    }
                    i += u64::from(w.trailing_zeros());
                    if i >= b {
                        break;
                    }
                }
                self.visit(h, i, rules, &mut t)?;
                i += 1;
            }
            Ok::<Tally, TableError>(t)
        };
        if threads <= 1 {
            return run(from, to);
        }
        let step = (to - from).div_ceil(threads as u64);
        let results: Vec<Result<Tally, TableError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads as u64)
                .map(|k| {
                    let a = (from + k * step).min(to);
                    let b = (a + step).min(to);
                    sc.spawn(move || run(a, b))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(TableError::Solve("a solver thread panicked".into()))
                    })
                })
                .collect()
        });
        let mut total = Tally::default();
        for r in results {
            let t = r?;
            total.visits += t.visits;
            total.decided += t.decided;
        }
        Ok(total)
    }
}

/// Whether marking the predecessors before sweep `k` costs less than
/// visiting every undecided entry. Measured on `CSSvCSS`: marking an
/// entry's predecessors costs about 1.2 visits, and about 3 entries are
/// marked for each entry of distance `k - 1`, so marking pays when those
/// entries are fewer than a quarter of the undecided ones (the early
/// sweeps decide too many). Either way the values are the same.
fn worth_marking(values: &[Vec<u8>], k: u32) -> bool {
    let (win, loss) = (Dtz::Win(k - 1).encode(), Dtz::Loss(k - 1).encode());
    let (mut last, mut undecided) = (0u64, 0u64);
    for &b in values.iter().flatten() {
        last += u64::from(b == win || b == loss);
        undecided += u64::from(b == 0);
    }
    4 * last < undecided
}

/// The marks of sweep `k >= 2`: the predecessors of the entries of
/// distance `k - 1`, per signature of the unit, the threads sharing the
/// work; `None` when the game cannot name them (every entry is visited).
fn mark<G: Layered>(
    unit: &[G::Sig],
    values: &[Vec<u8>],
    k: u32,
    threads: usize,
    rules: &G::Rules,
) -> Option<Vec<Vec<AtomicU64>>> {
    let marks: Vec<Vec<AtomicU64>> = values
        .iter()
        .map(|v| {
            (0..v.len().div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect()
        })
        .collect();
    let (win, loss) = (Dtz::Win(k - 1).encode(), Dtz::Loss(k - 1).encode());
    let run = |h: usize, a: usize, b: usize| {
        let target = &marks[unit.iter().position(|&s| s == G::swapped(unit[h]))?];
        let set = &mut |j: u64| {
            target[(j / 64) as usize].fetch_or(1 << (j % 64), Relaxed);
        };
        for (i, &v) in values[h][a..b].iter().enumerate() {
            if (v == win || v == loss) && !G::predecessors(unit[h], (a + i) as u64, rules, set) {
                return None;
            }
        }
        Some(())
    };
    for (h, v) in values.iter().enumerate() {
        let step = v.len().div_ceil(threads.max(1)).max(1);
        let all = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..v.len())
                .step_by(step)
                .map(|a| sc.spawn(move || run(h, a, (a + step).min(v.len()))))
                .collect();
            handles
                .into_iter()
                .all(|t| matches!(t.join(), Ok(Some(()))))
        });
        if !all {
            return None;
        }
    }
    Some(marks)
}

/// The checkpoint file of a unit.
pub fn checkpoint_path<G: Layered>(tables: &Tables<G>, folder: &Path, unit: &[G::Sig]) -> PathBuf {
    let tag = G::rules_tag(tables.rules());
    folder.join(format!(
        "{}{}{}-{}.ckpt",
        G::NAME,
        if tag.is_empty() { "" } else { "-" },
        tag,
        unit_name::<G>(unit)
    ))
}

const CKPT_MAGIC: &[u8; 8] = b"KOMACKPT";
const CKPT_HEADER: usize = 128;

fn identity<G: Layered>(tables: &Tables<G>, unit: &[G::Sig]) -> String {
    format!(
        "{}|{}|{}",
        G::NAME,
        G::rules_tag(tables.rules()),
        unit.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
}

fn save_checkpoint(path: &Path, id: &str, s: &State) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(CKPT_HEADER);
    head.extend_from_slice(CKPT_MAGIC);
    let mut idb = id.as_bytes().to_vec();
    idb.resize(64, 0);
    head.extend_from_slice(&idb[..64]);
    head.extend_from_slice(&s.sweep.to_le_bytes());
    head.extend_from_slice(&(s.half as u32).to_le_bytes());
    head.extend_from_slice(&s.next.to_le_bytes());
    head.extend_from_slice(&s.decided.to_le_bytes());
    let mut crc = crc32(0, &head);
    for a in s.values.iter().chain(&s.notes) {
        crc = crc32(crc, a);
    }
    head.extend_from_slice(&crc.to_le_bytes());
    head.resize(CKPT_HEADER, 0);
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    f.write_all(&head)?;
    for a in s.values.iter().chain(&s.notes) {
        f.write_all(a)?;
    }
    let f = f.into_inner().map_err(|e| e.into_error())?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// The state in a checkpoint of this unit, checked whole.
fn load_checkpoint(path: &Path, id: &str, sizes: &[u64]) -> Result<State, TableError> {
    let unreadable = |e: std::io::Error| TableError::Io(format!("cannot read it: {e}"));
    let mut f = std::fs::File::open(path).map_err(unreadable)?;
    let total: u64 = sizes.iter().sum::<u64>() * 2 + CKPT_HEADER as u64;
    let len = f.metadata().map_err(unreadable)?.len();
    if len != total {
        return Err(TableError::Refused(crate::core::binary_file::size_error(
            len, total,
        )));
    }
    let mut head = vec![0; CKPT_HEADER];
    f.read_exact(&mut head).map_err(unreadable)?;
    if &head[..8] != CKPT_MAGIC {
        return Err(TableError::Refused("not a Koma table checkpoint".into()));
    }
    let mut idb = id.as_bytes().to_vec();
    idb.resize(64, 0);
    if head[8..72] != idb[..64] {
        return Err(TableError::Refused(format!(
            "a checkpoint of another unit or rules: {:?}, expected {id:?}",
            String::from_utf8_lossy(&head[8..72]).trim_end_matches('\0')
        )));
    }
    let u32_at = |o: usize| u32::from_le_bytes([head[o], head[o + 1], head[o + 2], head[o + 3]]);
    let u64_at = |o: usize| u64::from(u32_at(o)) | u64::from(u32_at(o + 4)) << 32;
    let mut s = State {
        sweep: u32_at(72),
        half: u32_at(76) as usize,
        next: u64_at(80),
        decided: u64_at(88),
        values: Vec::new(),
        notes: Vec::new(),
    };
    let stored = u32_at(96);
    let mut crc = crc32(0, &head[..96]);
    for (k, &n) in sizes.iter().chain(sizes).enumerate() {
        let mut a = vec![0u8; n as usize];
        f.read_exact(&mut a).map_err(unreadable)?;
        crc = crc32(crc, &a);
        if k < sizes.len() {
            s.values.push(a);
        } else {
            s.notes.push(a);
        }
    }
    if crc != stored {
        return Err(TableError::Refused(
            "checksum mismatch: the checkpoint is corrupt".into(),
        ));
    }
    if s.half >= sizes.len() || s.next > sizes[s.half] {
        return Err(TableError::Refused(
            "the checkpoint's place is outside the unit".into(),
        ));
    }
    Ok(s)
}

/// The state a unit's solving starts from: its checkpoint when `resumed`
/// (said in the log), else nothing decided.
fn first_state<G: Layered>(
    resumed: bool,
    unit: &[G::Sig],
    sizes: &[u64],
    path: &Path,
    id: &str,
    log: &mut dyn FnMut(String),
) -> Result<State, TableError> {
    Ok(if resumed {
        let s = load_checkpoint(path, id, sizes)
            .map_err(|e| e.about(format_args!("checkpoint {}", path.display())))?;
        log(format!(
            "{}: resumed from {} at sweep {}, entry {} of {}",
            unit_name::<G>(unit),
            path.display(),
            s.sweep,
            s.next,
            unit[s.half]
        ));
        s
    } else {
        State {
            sweep: 0,
            half: 0,
            next: 0,
            decided: 0,
            values: sizes.iter().map(|&n| vec![0; n as usize]).collect(),
            notes: sizes.iter().map(|&n| vec![0; n as usize]).collect(),
        }
    })
}

/// The marks of this sweep's entries (see `mark`), with how many and how
/// long they took in the log.
fn marks_logged<G: Layered>(
    unit: &[G::Sig],
    state: &State,
    threads: usize,
    rules: &G::Rules,
    log: &mut dyn FnMut(String),
) -> Option<Vec<Vec<AtomicU64>>> {
    let t = Instant::now();
    let marks = mark::<G>(unit, &state.values, state.sweep, threads, rules);
    if let Some(m) = &marks {
        let marked: u64 = m
            .iter()
            .flatten()
            .map(|w| u64::from(w.load(Relaxed).count_ones()))
            .sum();
        log(format!(
            "{}: sweep {} marked {marked} entries in {:.1} s",
            unit_name::<G>(unit),
            state.sweep,
            t.elapsed().as_secs_f64()
        ));
    }
    marks
}

/// The sweep's progress in the log: how far, how fast since
/// `sweep_start` (when, and the place it started from), and the time left.
fn log_progress<G: Layered>(
    unit: &[G::Sig],
    state: &State,
    sizes: &[u64],
    sweep_start: (Instant, usize, u64),
    log: &mut dyn FnMut(String),
) {
    let total: u64 = sizes.iter().sum();
    let done: u64 = sizes[..state.half].iter().sum::<u64>() + state.next;
    let from: u64 = sizes[..sweep_start.1].iter().sum::<u64>() + sweep_start.2;
    let rate = (done - from) as f64 / sweep_start.0.elapsed().as_secs_f64();
    log(format!(
        "{}: sweep {} at {:.1}%, {} decided, {:.0} entries/s, sweep ETA {:.0} s",
        unit_name::<G>(unit),
        state.sweep,
        100.0 * done as f64 / total as f64,
        state.decided,
        rate,
        (total - done) as f64 / rate.max(1.0)
    ));
}

/// Solves one unit whose exits' tables are in `tables`, resuming from its
/// checkpoint if there is one: the values of each signature of the unit.
pub fn solve_unit<G: Layered>(
    tables: &Tables<G>,
    unit: &[G::Sig],
    ck: &Checkpoints,
    log: &mut dyn FnMut(String),
) -> Result<Solved, TableError> {
    let t0 = Instant::now();
    let sizes: Vec<u64> = unit.iter().map(|&s| G::entries(s)).collect();
    let id = identity(tables, unit);
    let path = checkpoint_path(tables, &ck.folder, unit);
    let resumed = path.exists();
    let mut state = first_state::<G>(resumed, unit, &sizes, &path, &id, log)?;
    let mut visits = 0u64;
    let rules = tables.rules().clone();
    let mut since_ckpt = (Instant::now(), 0u64);
    let mut last_log = Instant::now();
    let mut sweep_start = (Instant::now(), state.half, state.next);
    let threads = ck.threads.max(1);
    let mut marks = None;
    loop {
        if state.sweep >= 2
            && marks.is_none()
            && !ck.full_sweeps
            && worth_marking(&state.values, state.sweep)
        {
            marks = marks_logged::<G>(unit, &state, threads, &rules, log);
        }
        // Marked sweeps visit few entries: larger blocks, fewer thread starts.
        let chunk: u64 = if marks.is_some() {
            (65536 * threads as u64).min(ck.entries.max(4096))
        } else {
            4096 * threads as u64
        };
        while state.half < unit.len() {
            let h = state.half;
            while state.next < sizes[h] {
                let end = (state.next + chunk).min(sizes[h]);
                let solve = Solve {
                    unit,
                    tables,
                    sweep: state.sweep,
                    values: state.values.iter_mut().map(|v| atomic(v)).collect(),
                    notes: state.notes.iter_mut().map(|v| atomic(v)).collect(),
                    marks: marks.as_deref(),
                };
                let t = solve.block(h, state.next, end, threads, &rules)?;
                visits += t.visits;
                state.decided += t.decided;
                since_ckpt.1 += end - state.next;
                state.next = end;
                if since_ckpt.1 >= ck.entries || since_ckpt.0.elapsed().as_secs() >= ck.secs {
                    std::fs::create_dir_all(&ck.folder).map_err(|e| {
                        TableError::Io(format!("cannot create {}: {e}", ck.folder.display()))
                    })?;
                    save_checkpoint(&path, &id, &state).map_err(|e| {
                        TableError::Io(format!("cannot write {}: {e}", path.display()))
                    })?;
                    since_ckpt = (Instant::now(), 0);
                    log(format!(
                        "{}: checkpoint at sweep {}, {} entry {}",
                        unit_name::<G>(unit),
                        state.sweep,
                        unit[h],
                        state.next
                    ));
                }
                if last_log.elapsed().as_secs() >= 30 {
                    last_log = Instant::now();
                    log_progress::<G>(unit, &state, &sizes, sweep_start, log);
                }
            }
            state.half += 1;
            state.next = 0;
        }
        let undecided: u64 = state.values.iter().flatten().filter(|&&v| v == 0).count() as u64;
        log(format!(
            "{}: sweep {} decided {}, {} undecided, {:.1} s",
            unit_name::<G>(unit),
            state.sweep,
            state.decided,
            undecided,
            t0.elapsed().as_secs_f64()
        ));
        if state.sweep >= 1 && state.decided == 0 {
            break;
        }
        if state.sweep >= MAX_DISTANCE {
            return Err(TableError::Solve(format!(
                "distances beyond {MAX_DISTANCE} plies do not fit a byte"
            )));
        }
        state.sweep += 1;
        state.half = 0;
        state.next = 0;
        state.decided = 0;
        marks = None;
        sweep_start = (Instant::now(), 0, 0);
    }
    Ok(Solved {
        sweeps: state.sweep + 1,
        values: state.values,
        visits,
        secs: t0.elapsed().as_secs_f64(),
        resumed,
    })
}
