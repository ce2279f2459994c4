//! Kani Nari Ebi's material signatures and the dense index of each, for the
//! endgame tables (`core::Layered`, `solve::tables`). A live side has 3-5
//! pieces and at most 2 Shrimps: 9 materials a side, 81 signatures.
//!
//! Symmetries (checked by the tests against the move generator): the rank
//! mirror 1<->5, and the colour swap with the file mirror a<->e, which maps a
//! second-player-to-move position onto a first-player-to-move one. An entry
//! is `((class * C(n, a) + own) * C(a, as) + own Shrimps) * C(b, bs) +
//! other Shrimps`: `class` numbers the occupancy sets of `n` squares up to
//! the rank mirror (a set and its mirror image, the one with the smaller
//! bitboard kept; a set its own mirror image is kept with all its
//! arrangements), then which of the occupied squares are the mover's (`a` of
//! them), which of those hold Shrimps, and which of the opponent's (`b`).

use super::board::{Bitboard, FULL, SQUARES};
use super::movegen::PIECES;
use super::{KaniNariEbi, KaniRules, Move};
use crate::core::Color;
use crate::core::endgame::Layered;
use std::sync::OnceLock;

mod predecessors;

/// One side's material on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material {
    pub crabs: u8,
    pub shrimps: u8,
}

impl Material {
    pub const fn pieces(self) -> u32 {
        (self.crabs + self.shrimps) as u32
    }

    /// Whether a side with it is still in the game: at least 3 pieces (three
    /// captures end it) and at most 2 Shrimps (three end it).
    pub const fn live(self) -> bool {
        self.pieces() >= PIECES - 2 && self.pieces() <= PIECES && self.shrimps <= 2
    }

    fn of(pieces: Bitboard, shrimps: Bitboard) -> Material {
        let s = (pieces & shrimps).count_ones() as u8;
        Material {
            crabs: pieces.count_ones() as u8 - s,
            shrimps: s,
        }
    }
}

/// The side to move's material against the other's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature {
    pub mover: Material,
    pub other: Material,
}

impl std::fmt::Display for Signature {
    /// `CCSvCCC`: the mover's Crabs and Shrimps, `v`, the other's.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, m) in [self.mover, self.other].into_iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            for _ in 0..m.crabs {
                f.write_str("C")?;
            }
            for _ in 0..m.shrimps {
                f.write_str("S")?;
            }
        }
        Ok(())
    }
}

impl Signature {
    pub fn pieces(self) -> u32 {
        self.mover.pieces() + self.other.pieces()
    }

    fn shrimps(self) -> u32 {
        u32::from(self.mover.shrimps + self.other.shrimps)
    }
}

/// `BINOMIAL[n][k]` for `n < 32` (32 so that `Bare::rank` can index it
/// with `& 31` and no bounds check).
static BINOMIAL: [[u64; 32]; 32] = {
    let mut t = [[0u64; 32]; 32];
    let mut n = 0;
    while n < 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// Rank of a set among the sets of its size in increasing order of their
/// bits (colexicographic); `Bare::rank` computes it in its own pass.
#[cfg(test)]
fn colex(mut set: u32) -> u64 {
    let mut r = 0;
    let mut k = 1;
    while set != 0 {
        r += binomial(set.trailing_zeros(), k);
        set &= set - 1;
        k += 1;
    }
    r
}

/// The set of `k` elements of rank `r` (inverse of `colex`).
fn uncolex(mut r: u64, k: u32) -> u32 {
    let mut set = 0;
    for k in (1..=k).rev() {
        let mut p = k - 1;
        while binomial(p + 1, k) <= r {
            p += 1;
        }
        r -= binomial(p, k);
        set |= 1 << p;
    }
    set
}

/// `sub` (a subset of `set`) as bits numbered by position within `set`.
#[cfg(test)]
fn extract(set: u32, sub: u32) -> u32 {
    let (mut set, mut out, mut j) = (set, 0, 0);
    while set != 0 {
        let low = set & set.wrapping_neg();
        if sub & low != 0 {
            out |= 1 << j;
        }
        set ^= low;
        j += 1;
    }
    out
}

/// The inverse of `extract`: bit `j` of `bits` to the `j`-th square of `set`.
fn deposit(set: u32, bits: u32) -> u32 {
    let (mut set, mut out, mut j) = (set, 0, 0);
    while set != 0 {
        let low = set & set.wrapping_neg();
        if bits & (1 << j) != 0 {
            out |= low;
        }
        set ^= low;
        j += 1;
    }
    out
}

/// Ranks 1<->5.
pub fn mirror_ranks(b: Bitboard) -> Bitboard {
    (b & 0x1f) << 20 | (b >> 5 & 0x1f) << 15 | (b & 0x1f << 10) | (b >> 15 & 0x1f) << 5 | b >> 20
}

/// Files a<->e.
pub fn mirror_files(b: Bitboard) -> Bitboard {
    static REVERSED: [u32; 32] = {
        let mut t = [0; 32];
        let mut i = 0;
        while i < 32 {
            let mut f = 0;
            while f < 5 {
                if i & (1 << f) != 0 {
                    t[i] |= 1 << (4 - f);
                }
                f += 1;
            }
            i += 1;
        }
        t
    };
    let mut out = 0;
    for r in 0..5 {
        out |= REVERSED[(b >> (5 * r) & 31) as usize] << (5 * r);
    }
    out
}

/// The occupancy sets of one size up to the rank mirror.
struct Classes {
    /// The set of each class, increasing.
    sets: Vec<u32>,
    /// The classes by `colex` rank, 64 ranks a block: the child index
    /// looks a class up for every move, and a table of 16 bytes per 64 sets
    /// (270 KB at 8 pieces) stays in cache where one of 4 bytes a set did
    /// not (4.3 MB), which made the lookup a cache miss.
    blocks: Vec<ClassBlock>,
}

/// 64 consecutive `colex` ranks: the classes of the ranks before them, and
/// which of them are kept (the smaller of a set and its mirror image).
#[derive(Copy, Clone)]
struct ClassBlock {
    kept: u64,
    before: u32,
}

impl Classes {
    /// The class of the set of `colex` rank `r`, which must be kept.
    fn class(&self, r: u64) -> u64 {
        let b = self.blocks[(r / 64) as usize];
        let below = b.kept & ((1u64 << (r % 64)) - 1);
        debug_assert!(
            b.kept >> (r % 64) & 1 == 1,
            "a set whose mirror image is kept"
        );
        u64::from(b.before) + u64::from(below.count_ones())
    }
}

fn classes(n: u32) -> &'static Classes {
    static TABLES: [OnceLock<Classes>; SQUARES + 1] = [const { OnceLock::new() }; SQUARES + 1];
    TABLES[n as usize].get_or_init(|| {
        let total = binomial(SQUARES as u32, n) as usize;
        let mut sets = Vec::new();
        let mut blocks = Vec::with_capacity(total.div_ceil(64));
        let mut set: u32 = (1u32 << n) - 1;
        for r in 0..total {
            if r % 64 == 0 {
                blocks.push(ClassBlock {
                    kept: 0,
                    before: sets.len() as u32,
                });
            }
            if set <= mirror_ranks(set) {
                blocks[r / 64].kept |= 1 << (r % 64);
                sets.push(set);
            }
            // The next set of the same size (Gosper).
            if set == 0 {
                break;
            }
            let c = set & set.wrapping_neg();
            let r = set + c;
            set = (((r ^ set) >> 2) / c) | r;
        }
        Classes { sets, blocks }
    })
}

/// The number of entries of a signature's index.
pub fn entries(sig: Signature) -> u64 {
    let (a, b) = (sig.mover.pieces(), sig.other.pieces());
    classes(a + b).sets.len() as u64
        * binomial(a + b, a)
        * binomial(a, u32::from(sig.mover.shrimps))
        * binomial(b, u32::from(sig.other.shrimps))
}

/// A board seen from the side to move: its pieces, the other's, and the
/// Shrimps of both.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bare {
    pub own: Bitboard,
    pub other: Bitboard,
    pub shrimps: Bitboard,
}

impl Bare {
    fn map(self, f: fn(Bitboard) -> Bitboard) -> Bare {
        Bare {
            own: f(self.own),
            other: f(self.other),
            shrimps: f(self.shrimps),
        }
    }

    /// The same board for the first player to move: the colour swap with
    /// the file mirror when the second player moves.
    pub fn of(pos: &KaniNariEbi) -> Bare {
        let b = Bare {
            own: pos.pieces(pos.side),
            other: pos.pieces(pos.side.opponent()),
            shrimps: pos.shrimps,
        };
        match pos.side {
            Color::First => b,
            Color::Second => b.map(mirror_files),
        }
    }

    pub fn signature(self) -> Signature {
        Signature {
            mover: Material::of(self.own, self.shrimps),
            other: Material::of(self.other, self.shrimps),
        }
    }

    /// The entry of a board of a live signature.
    pub fn rank(self, sig: Signature) -> u64 {
        let mut b = self;
        let occ = b.own | b.other;
        if mirror_ranks(occ) < occ {
            b = b.map(mirror_ranks);
        }
        // The four colex ranks in one pass over the occupied squares, lowest
        // first, without branches on the pieces: the index of every move's
        // result is the generator's largest cost, and the branches were
        // mispredicted.
        let (mut r_occ, mut r_own, mut r_os, mut r_ts) = (0, 0, 0, 0);
        let (mut k, mut ko, mut kos, mut kt, mut kts) = (0usize, 0usize, 0usize, 0usize, 0usize);
        let mut rest = b.own | b.other;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let o = (b.own >> sq & 1) as usize;
            let s = (b.shrimps >> sq & 1) as usize;
            let t = 1 - o;
            r_occ += BINOMIAL[sq as usize & 31][(k + 1) & 31];
            // The square's place among the occupied (`k`), among the
            // mover's (`ko`) or the other's (`kt`), then which of each.
            ko += o;
            r_own += o as u64 * BINOMIAL[k & 31][ko & 31];
            kos += o & s;
            r_os += (o & s) as u64 * BINOMIAL[(ko.max(1) - 1) & 31][kos & 31];
            kt += t;
            kts += t & s;
            r_ts += (t & s) as u64 * BINOMIAL[(kt.max(1) - 1) & 31][kts & 31];
            k += 1;
        }
        let (a, n) = (sig.mover.pieces(), sig.pieces());
        let class = classes(n).class(r_occ);
        ((class * binomial(n, a) + r_own) * binomial(a, u32::from(sig.mover.shrimps)) + r_os)
            * binomial(n - a, u32::from(sig.other.shrimps))
            + r_ts
    }

    /// `rank` term by term, as the index is defined: what the tests hold
    /// the one-pass `rank` to.
    #[cfg(test)]
    fn rank_by_parts(self, sig: Signature) -> u64 {
        let mut b = self;
        let occ = b.own | b.other;
        if mirror_ranks(occ) < occ {
            b = b.map(mirror_ranks);
        }
        let occ = b.own | b.other;
        let (a, n) = (sig.mover.pieces(), sig.pieces());
        let class = classes(n).class(colex(occ));
        let own = colex(extract(occ, b.own));
        let own_s = colex(extract(b.own, b.shrimps));
        let other_s = colex(extract(b.other, b.shrimps));
        ((class * binomial(n, a) + own) * binomial(a, u32::from(sig.mover.shrimps)) + own_s)
            * binomial(n - a, u32::from(sig.other.shrimps))
            + other_s
    }

    /// The board of an entry (the inverse of `rank`).
    pub fn unrank(sig: Signature, i: u64) -> Bare {
        let (a, n) = (sig.mover.pieces(), sig.pieces());
        let (os, ts) = (u32::from(sig.mover.shrimps), u32::from(sig.other.shrimps));
        let (c_ts, c_os, c_own) = (binomial(n - a, ts), binomial(a, os), binomial(n, a));
        let other_s = i % c_ts;
        let i = i / c_ts;
        let own_s = i % c_os;
        let i = i / c_os;
        let own = i % c_own;
        let class = i / c_own;
        let occ = classes(n).sets[class as usize];
        let own = deposit(occ, uncolex(own, a));
        let other = occ & !own;
        let shrimps = deposit(own, uncolex(own_s, os)) | deposit(other, uncolex(other_s, ts));
        Bare {
            own,
            other,
            shrimps,
        }
    }

    /// The position, the first player to move.
    pub fn position(self, rules: &KaniRules) -> KaniNariEbi {
        let pieces = [self.own, self.other];
        KaniNariEbi {
            pieces,
            shrimps: self.shrimps & FULL,
            side: Color::First,
            move_number: 1,
            rules: *rules,
            hash: KaniNariEbi::compute_hash(&pieces, self.shrimps, Color::First),
        }
    }
}

/// The live materials of one side.
fn materials() -> impl Iterator<Item = Material> {
    (0..=2u8).flat_map(|s| {
        (PIECES as u8 - 2..=PIECES as u8).map(move |n| Material {
            crabs: n - s,
            shrimps: s,
        })
    })
}

impl Layered for KaniNariEbi {
    type Sig = Signature;

    /// By pieces ascending, then Shrimps descending: a capture lowers the
    /// pieces, a promotion raises the Shrimps.
    fn signatures(max_pieces: u32) -> Vec<Signature> {
        let mut all: Vec<Signature> = materials()
            .flat_map(|mover| materials().map(move |other| Signature { mover, other }))
            .filter(|s| s.pieces() <= max_pieces)
            .collect();
        all.sort_by_key(|s| (s.pieces(), std::cmp::Reverse(s.shrimps()), *s));
        all
    }

    /// By pieces, then fewer Shrimps later.
    fn layer(sig: Signature) -> u32 {
        sig.pieces() * 5 + 4 - sig.shrimps()
    }

    fn pieces(sig: Signature) -> u32 {
        sig.pieces()
    }

    fn swapped(sig: Signature) -> Signature {
        Signature {
            mover: sig.other,
            other: sig.mover,
        }
    }

    fn sig_syntax() -> &'static str {
        "written like CCSvCCC: the side to move's Crabs and Shrimps, v, the other's"
    }

    fn parse_sig(text: &str) -> Option<Signature> {
        let (a, b) = text.split_once('v')?;
        let side = |t: &str| {
            let crabs = t.bytes().take_while(|&c| c == b'C').count();
            let rest = &t[crabs..];
            if !rest.bytes().all(|c| c == b'S') {
                return None;
            }
            let m = Material {
                crabs: crabs as u8,
                shrimps: rest.len() as u8,
            };
            (t.len() <= PIECES as usize && m.live()).then_some(m)
        };
        Some(Signature {
            mover: side(a)?,
            other: side(b)?,
        })
    }

    fn entries(sig: Signature) -> u64 {
        entries(sig)
    }

    fn unrank(sig: Signature, i: u64, rules: &KaniRules) -> KaniNariEbi {
        Bare::unrank(sig, i).position(rules)
    }

    fn locate(&self) -> Option<(Signature, u64)> {
        let b = Bare::of(self);
        let sig = b.signature();
        (sig.mover.live() && sig.other.live()).then(|| (sig, b.rank(sig)))
    }

    fn is_exit(&self, m: Move) -> bool {
        m.tactical()
    }

    fn predecessors(sig: Signature, i: u64, rules: &KaniRules, mark: &mut impl FnMut(u64)) -> bool {
        predecessors::predecessors(sig, i, rules.bond_any_type, mark);
        true
    }

    fn rules_tag(rules: &KaniRules) -> String {
        // Repetition does not change a value: a draw is what neither side
        // can force, with or without the fourth-occurrence rule.
        if rules.bond_any_type {
            "KaniBondAnyType".into()
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::conformance::Lcg;
    use std::collections::BTreeSet;

    fn factorial(n: u32) -> u64 {
        (1..=u64::from(n)).product()
    }

    /// The plan's formula: (C(25,n) + S(n)) / 2 occupancy classes, S(n) the
    /// sets the rank mirror fixes, times n! / (ac! as! bc! bs!).
    #[test]
    fn the_index_sizes_follow_the_plans_formula() {
        assert_eq!(KaniNariEbi::signatures(10).len(), 81);
        let fixed = |n: u32| -> u64 {
            (0..=n / 2)
                .map(|k| binomial(10, k) * binomial(5, n - 2 * k))
                .sum()
        };
        for sig in KaniNariEbi::signatures(10) {
            let n = sig.pieces();
            let m = [
                sig.mover.crabs,
                sig.mover.shrimps,
                sig.other.crabs,
                sig.other.shrimps,
            ];
            let arrangements =
                factorial(n) / m.iter().map(|&k| factorial(u32::from(k))).product::<u64>();
            assert_eq!(
                entries(sig),
                (binomial(25, n) + fixed(n)) / 2 * arrangements,
                "{sig}"
            );
        }
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        let mut rng = Lcg(5);
        for sig in KaniNariEbi::signatures(8) {
            let n = entries(sig);
            for _ in 0..200 {
                let i = (rng.next() << 31 | rng.next()) % n;
                let b = Bare::unrank(sig, i);
                assert_eq!(b.signature(), sig);
                assert_eq!(b.rank(sig), i, "{sig} {i}");
                let p = b.position(&KaniRules::default());
                assert_eq!(p.locate(), Some((sig, i)));
                assert_eq!(KaniNariEbi::parse_sig(&sig.to_string()), Some(sig));
            }
        }
    }

    /// The one-pass `rank` against the index's definition, on boards in
    /// both rank orientations (the mirror image of a board is the same
    /// entry unless its occupancy is its own mirror image), and
    /// the compact class table against the sets it numbers.
    #[test]
    fn the_one_pass_rank_is_the_index_by_its_definition() {
        let mut rng = Lcg(17);
        for sig in KaniNariEbi::signatures(10) {
            let n = entries(sig);
            for _ in 0..300 {
                let i = (rng.next() << 31 | rng.next()) % n;
                let b = Bare::unrank(sig, i);
                let m = b.map(mirror_ranks);
                assert_eq!(b.rank(sig), b.rank_by_parts(sig), "{sig} {i}");
                assert_eq!(m.rank(sig), m.rank_by_parts(sig), "{sig} {i} mirrored");
                let occ = b.own | b.other;
                if mirror_ranks(occ) != occ {
                    assert_eq!(m.rank(sig), i, "{sig} {i} mirrored");
                }
            }
        }
        for n in 6..=10 {
            let cl = classes(n);
            for (c, &set) in cl.sets.iter().enumerate() {
                assert_eq!(cl.class(colex(set)), c as u64, "{n} pieces, {set:#x}");
            }
        }
    }

    /// The boards after every turn, each with whether the turn ended the
    /// game and whether it was noted as an exit, mapped by `f`.
    fn children(
        pos: &KaniNariEbi,
        f: impl Fn([Bitboard; 2], Bitboard) -> ([Bitboard; 2], Bitboard),
    ) -> BTreeSet<([Bitboard; 2], Bitboard, bool, bool)> {
        let mut ml = <KaniNariEbi as Game>::MoveList::default();
        pos.generate(&mut ml);
        let out: BTreeSet<_> = ml
            .iter()
            .map(|&m| {
                let c = pos.play(m);
                let (p, s) = f(c.pieces, c.shrimps);
                (p, s, c.terminal().is_some(), pos.is_exit(m))
            })
            .collect();
        out
    }

    fn with(
        pos: &KaniNariEbi,
        pieces: [Bitboard; 2],
        shrimps: Bitboard,
        side: Color,
    ) -> KaniNariEbi {
        KaniNariEbi {
            pieces,
            shrimps,
            side,
            move_number: 1,
            rules: pos.rules,
            hash: KaniNariEbi::compute_hash(&pieces, shrimps, side),
        }
    }

    /// The two symmetries the index relies on, against the move generator:
    /// the turns of a mapped position are the mapped turns (same results,
    /// same ends, same exits), for both rule variants.
    #[test]
    fn the_rank_mirror_and_the_colour_swap_with_the_file_mirror_are_symmetries() {
        let mut rng = Lcg(11);
        for any_type in [false, true] {
            let rules = KaniRules {
                bond_any_type: any_type,
                ..KaniRules::default()
            };
            for sig in KaniNariEbi::signatures(10) {
                for _ in 0..40 {
                    let i = (rng.next() << 31 | rng.next()) % entries(sig);
                    let pos = Bare::unrank(sig, i).position(&rules);
                    let rm = |p: [Bitboard; 2], s| {
                        ([mirror_ranks(p[0]), mirror_ranks(p[1])], mirror_ranks(s))
                    };
                    let mirrored = with(
                        &pos,
                        rm(pos.pieces, pos.shrimps).0,
                        mirror_ranks(pos.shrimps),
                        Color::First,
                    );
                    assert_eq!(
                        children(&pos, rm),
                        children(&mirrored, |p, s| (p, s)),
                        "{sig} {i}"
                    );
                    let sw = |p: [Bitboard; 2], s| {
                        ([mirror_files(p[1]), mirror_files(p[0])], mirror_files(s))
                    };
                    let swapped = with(
                        &pos,
                        sw(pos.pieces, pos.shrimps).0,
                        mirror_files(pos.shrimps),
                        Color::Second,
                    );
                    assert_eq!(
                        children(&pos, sw),
                        children(&swapped, |p, s| (p, s)),
                        "{sig} {i}"
                    );
                    assert_eq!(swapped.locate(), pos.locate());
                    assert_eq!(mirrored.locate().map(|l| l.0), Some(sig));
                }
            }
        }
    }
}
