//! Fixed-capacity move buffers: move generation writes into a caller's buffer
//! and never allocates. `MoveSink` lets perft count moves without storing them.

use std::mem::MaybeUninit;
use std::ops::Deref;

/// Where move generation puts its moves.
pub trait MoveSink<M> {
    fn push(&mut self, mv: M);
}

/// A stack-allocated list of at most `N` moves. Each game proves its own
/// capacity bound; exceeding it is a bug and panics on the bounds check.
pub struct MoveList<M: Copy, const N: usize> {
    len: usize,
    items: [MaybeUninit<M>; N],
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; N],
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: the first `len` items were written by `push` and `M: Copy`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const M, self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut M, self.len) }
    }

    pub const fn capacity() -> usize {
        N
    }
}

impl<M: Copy, const N: usize> MoveSink<M> for MoveList<M, N> {
    #[inline]
    fn push(&mut self, mv: M) {
        self.items[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }
}

impl<M: Copy, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy, const N: usize> std::ops::DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

impl<M: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Counts moves without storing them (perft's bulk counting).
#[derive(Default)]
pub struct MoveCounter(pub usize);

impl<M> MoveSink<M> for MoveCounter {
    #[inline]
    fn push(&mut self, _mv: M) {
        self.0 += 1;
    }
}

impl<M> MoveSink<M> for Vec<M> {
    fn push(&mut self, mv: M) {
        Vec::push(self, mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_are_kept_in_order() {
        let mut l: MoveList<u16, 4> = MoveList::new();
        l.push(3);
        l.push(1);
        assert_eq!(&*l, &[3, 1]);
        l.clear();
        assert!(l.is_empty());
    }

    #[test]
    #[should_panic]
    fn overflow_is_a_bug_not_silent_loss() {
        let mut l: MoveList<u8, 1> = MoveList::new();
        l.push(1);
        l.push(2);
    }
}
