//! The evaluation weights in force for one game, read by every `evaluate`
//! call without a lock: a pointer to weights that live as long as the
//! process. The engine's `EvalFile` option puts loaded weights here; a
//! process has one evaluation per game (every search thread reads it).

use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Loaded weights kept at most, per game: each is kept for the life of the
/// process (a search may still read the weights it started with), so a
/// process that loads files without end must not grow without end.
pub const MAX_LOADED: usize = 32;

pub struct Slot<P: 'static> {
    built_in: &'static P,
    active: AtomicPtr<P>,
    /// Every set of weights loaded so far; loading the same weights again
    /// takes the kept copy.
    loaded: Mutex<Vec<&'static P>>,
}

impl<P: PartialEq + Sync + 'static> Slot<P> {
    pub const fn new(built_in: &'static P) -> Slot<P> {
        Slot {
            built_in,
            active: AtomicPtr::new(built_in as *const P as *mut P),
            loaded: Mutex::new(Vec::new()),
        }
    }

    /// The weights in force.
    #[inline(always)]
    pub fn get(&self) -> &'static P {
        // SAFETY: `active` only ever holds the address of a `&'static P`
        // (`built_in`, or a leaked box kept in `loaded`), never written
        // through.
        unsafe { &*self.active.load(Ordering::Acquire) }
    }

    pub fn built_in(&self) -> &'static P {
        self.built_in
    }

    /// Puts `p` in force. Refused once `MAX_LOADED` distinct sets were
    /// loaded (the weights in force stay).
    pub fn set(&self, p: P) -> Result<(), TooManyWeights> {
        if p == *self.built_in {
            self.active
                .store(self.built_in as *const P as *mut P, Ordering::Release);
            return Ok(());
        }
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let kept = match loaded.iter().find(|&&q| *q == p) {
            Some(&q) => q,
            None => {
                if loaded.len() >= MAX_LOADED {
                    return Err(TooManyWeights);
                }
                let q: &'static P = Box::leak(Box::new(p));
                loaded.push(q);
                q
            }
        };
        self.active
            .store(kept as *const P as *mut P, Ordering::Release);
        Ok(())
    }

    /// Puts the built-in weights back in force.
    pub fn reset(&self) {
        self.active
            .store(self.built_in as *const P as *mut P, Ordering::Release);
    }
}

/// A slot refused weights: `MAX_LOADED` distinct sets were loaded already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyWeights;

impl std::fmt::Display for TooManyWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{MAX_LOADED} different weights were loaded already; restart the engine to load more"
        )
    }
}

impl std::error::Error for TooManyWeights {}

#[cfg(test)]
mod tests {
    use super::*;

    static BUILT_IN: [i32; 2] = [1, 2];

    #[test]
    fn a_slot_holds_the_built_in_until_set_and_keeps_one_copy_per_distinct_set() {
        let s = Slot::new(&BUILT_IN);
        assert_eq!(s.get(), &[1, 2]);
        s.set([3, 4]).unwrap();
        assert_eq!(s.get(), &[3, 4]);
        let first = s.get() as *const _;
        s.set([5, 6]).unwrap();
        s.set([3, 4]).unwrap();
        assert_eq!(s.get() as *const _, first);
        assert_eq!(s.loaded.lock().unwrap().len(), 2);
        s.set([1, 2]).unwrap();
        assert!(std::ptr::eq(s.get(), &BUILT_IN));
        s.set([9, 9]).unwrap();
        s.reset();
        assert!(std::ptr::eq(s.get(), &BUILT_IN));
    }

    #[test]
    fn a_slot_refuses_more_than_its_limit_and_keeps_the_weights_in_force() {
        let s = Slot::new(&BUILT_IN);
        for i in 0..MAX_LOADED as i32 {
            s.set([i + 10, 0]).unwrap();
        }
        let e = s.set([-1, -1]).unwrap_err().to_string();
        assert!(e.contains("restart"), "{e}");
        assert_eq!(s.get(), &[MAX_LOADED as i32 + 9, 0]);
    }
}
