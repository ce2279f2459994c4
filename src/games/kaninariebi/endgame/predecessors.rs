//! The positions that may have a quiet turn leading to a given entry
//! (`Layered::predecessors`), found by geometry: which piece of the side
//! that just moved came from where, with the River current and the Bond's
//! second step. A superset: the generator judges each candidate forward.
//!
//! A quiet turn neither captures nor promotes, and nothing else in it
//! depends on the colours (the River is file c), so quiet turns commute
//! with both mirrors: the turns into an entry's board as reached are
//! the mirrored turns into the entry's own board.

use super::super::board::{
    Bitboard, RIVER, Square, crab_targets, north, orthogonal, south, squares,
};
use super::super::capture::captured;
use super::{Bare, Signature, mirror_files, mirror_ranks};

/// The squares a piece may have left to come to rest on `to` by one
/// movement on `occ` (the board without it): sliding along a rank as a
/// Crab's normal movement, else a diagonal step (a Shrimp's, or any Bond
/// step). A River square is reached by entering the River on its stretch
/// of empty squares and being carried to an end of it (the current goes
/// up or down to the next piece or the edge).
fn origins(to: Square, occ: Bitboard, slide: bool) -> Bitboard {
    let t = to.bit();
    let entries = if t & RIVER == 0 {
        t
    } else {
        let empty_river = RIVER & !occ;
        // Not an end of its stretch: nothing comes to rest here.
        if north(t) & empty_river != 0 && south(t) & empty_river != 0 {
            return 0;
        }
        let mut stretch = t;
        loop {
            let grown = stretch | (north(stretch) | south(stretch)) & empty_river;
            if grown == stretch {
                break stretch;
            }
            stretch = grown;
        }
    };
    let mut from = 0;
    for r in squares(entries) {
        from |= if slide {
            crab_targets(r, occ)
        } else {
            r.diagonal()
        };
    }
    // A piece entering the River never comes from it.
    let from = if t & RIVER != 0 { from & !RIVER } else { from };
    from & !occ & !t
}

/// The Bond group of a piece resting on `to` (rule 6) among `kin` (the
/// other pieces it bonds with): it and the pieces orthogonally connected
/// to it, or 0 when it has no such neighbour.
fn group(to: Square, kin: Bitboard) -> Bitboard {
    if to.neighbours() & kin == 0 {
        return 0;
    }
    let kin = kin | to.bit();
    let mut g = to.bit();
    loop {
        let grown = (g | orthogonal(g)) & kin;
        if grown == g {
            return g;
        }
        g = grown;
    }
}

/// A piece moved from `from` to `to` back: own pieces and own Shrimps.
fn moved_back(own: Bitboard, shrimps: Bitboard, to: Square, from: Square) -> (Bitboard, Bitboard) {
    let (t, f) = (to.bit(), from.bit());
    let shrimps = if shrimps & t != 0 {
        shrimps ^ t ^ f
    } else {
        shrimps
    };
    (own ^ t ^ f, shrimps)
}

/// Calls `emit(own, own Shrimps)` with the boards of the mover (`own`,
/// its Shrimps `shrimps`, who just played a quiet turn) before each quiet
/// turn that may have led here, the opponent's pieces being `other`.
fn unmoves(
    own: Bitboard,
    shrimps: Bitboard,
    other: Bitboard,
    any_type: bool,
    emit: &mut impl FnMut(Bitboard, Bitboard),
) {
    let shrimps = shrimps & own;
    // A normal movement alone.
    for to in squares(own) {
        if captured(to, own, other) != 0 {
            continue;
        }
        let crab = shrimps & to.bit() == 0;
        for from in squares(origins(to, (own | other) & !to.bit(), crab)) {
            let (o, s) = moved_back(own, shrimps, to, from);
            emit(o, s);
        }
    }
    // A normal movement, then a Bond step of a piece of its group (maybe
    // the moved piece itself).
    for bond_to in squares(own) {
        if captured(bond_to, own, other) != 0 {
            continue;
        }
        for bond_from in squares(origins(bond_to, (own | other) & !bond_to.bit(), false)) {
            let (own1, shrimps1) = moved_back(own, shrimps, bond_to, bond_from);
            for to in squares(own1) {
                let crab = shrimps1 & to.bit() == 0;
                let kin = match (any_type, crab) {
                    (true, _) => own1,
                    (false, true) => own1 & !shrimps1,
                    (false, false) => shrimps1,
                } & !to.bit();
                if group(to, kin) & bond_from.bit() == 0 || captured(to, own1, other) != 0 {
                    continue;
                }
                for from in squares(origins(to, (own1 | other) & !to.bit(), crab)) {
                    let (o, s) = moved_back(own1, shrimps1, to, from);
                    emit(o, s);
                }
            }
        }
    }
}

/// `Layered::predecessors` for Kani Nari Ebi: entries of the swapped
/// signature, some more than once.
pub fn predecessors(sig: Signature, i: u64, any_type: bool, mark: &mut impl FnMut(u64)) {
    let b = Bare::unrank(sig, i);
    // The entry's board is the one reached, seen by the side to move after
    // the colour swap with the file mirror; the side that just moved is
    // the first player of the position before, stored as it is.
    let reached = b.map(mirror_files);
    let parent_sig = Signature {
        mover: sig.other,
        other: sig.mover,
    };
    // Reached as the rank mirror image too, unless that is the same entry.
    let occ = b.own | b.other;
    let both_images = mirror_ranks(occ) != occ;
    unmoves(
        reached.other,
        reached.shrimps,
        reached.own,
        any_type,
        &mut |own, shrimps| {
            let p = Bare {
                own,
                other: reached.own,
                shrimps: shrimps | (reached.shrimps & reached.own),
            };
            mark(p.rank(parent_sig));
            let pocc = p.own | p.other;
            if both_images && mirror_ranks(pocc) == pocc {
                mark(p.map(mirror_ranks).rank(parent_sig));
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::super::entries;
    use crate::core::Game;
    use crate::core::endgame::Layered;
    use crate::games::conformance::Lcg;
    use crate::games::kaninariebi::{KaniNariEbi, KaniRules};

    /// For entry `i` of `sig`: every quiet turn's result names `i` among
    /// its predecessors. Returns the quiet turns seen.
    fn listed_by_each_child(sig: super::Signature, i: u64, rules: &KaniRules) -> usize {
        let pos = KaniNariEbi::unrank(sig, i, rules);
        let mut ml = <KaniNariEbi as Game>::MoveList::default();
        pos.generate(&mut ml);
        let mut quiet = 0;
        for &m in ml.iter() {
            if pos.is_exit(m) {
                continue;
            }
            let (csig, ci) = pos.play(m).locate().expect("a quiet turn stays live");
            let mut found = false;
            KaniNariEbi::predecessors(csig, ci, rules, &mut |j| found |= j == i);
            assert!(
                found,
                "{sig} entry {i} ({}): {} leads to {csig} entry {ci}, which does not list it (KaniBondAnyType {})",
                pos.to_text(),
                pos.move_text(m),
                rules.bond_any_type
            );
            quiet += 1;
        }
        quiet
    }

    fn rules(any_type: bool) -> KaniRules {
        KaniRules {
            bond_any_type: any_type,
            ..KaniRules::default()
        }
    }

    /// Sampled entries of every signature up to 8 pieces, in both rule
    /// variants (`every_entry_is_listed_by_its_children` takes them all).
    #[test]
    fn an_entry_is_listed_among_the_predecessors_of_each_quiet_turns_result() {
        let mut rng = Lcg(23);
        for any_type in [false, true] {
            let rules = rules(any_type);
            let mut quiet = 0;
            for sig in KaniNariEbi::signatures(8) {
                for _ in 0..150 {
                    let i = (rng.next() << 31 | rng.next()) % entries(sig);
                    quiet += listed_by_each_child(sig, i, &rules);
                }
            }
            assert!(quiet > 100_000, "{quiet} quiet turns");
        }
    }

    /// Every entry of the unit `CSSvCCS` + `CCSvCSS` (32M entries, its
    /// Bonds of Crabs and of Shrimps), or one in `KOMA_PRED_STRIDE`, in
    /// both rule variants: minutes in a release build.
    #[test]
    #[ignore = "every entry of a 6-piece unit: run by hand"]
    fn every_entry_is_listed_by_its_children() {
        let stride: u64 = std::env::var("KOMA_PRED_STRIDE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        for any_type in [false, true] {
            let rules = rules(any_type);
            for name in ["CSSvCCS", "CCSvCSS"] {
                let sig = KaniNariEbi::parse_sig(name).expect("a signature");
                let mut i = 0;
                while i < entries(sig) {
                    listed_by_each_child(sig, i, &rules);
                    i += stride;
                }
            }
        }
    }
}
