//! The solver's pieces on small inputs: the index bijection and its
//! symmetries, moves and unmoves against the Nana move generator, labels of
//! positions a few plies from the end, a complete solve of small
//! sub-games, and the table file's checks.

use super::index::*;
use super::unmove::{apply, predecessors};
use crate::core::{Color, Game, perft};
use crate::games::conformance::{Lcg, position};
use crate::core::NoRules;
use crate::games::nana::Nana;

fn same(a: &Nana, b: &Nana) -> bool {
    a.placement() == b.placement()
        && a.hand(Color::First) == b.hand(Color::First)
        && a.hand(Color::Second) == b.hand(Color::Second)
        && a.side_to_move() == b.side_to_move()
}

fn moves(p: &Nana) -> Vec<crate::games::nana::Move> {
    let mut ml = <Nana as Game>::MoveList::default();
    p.generate(&mut ml);
    ml.to_vec()
}

/// A random main-phase position: a random index under a random symmetry.
fn random(ix: &Index, rng: &mut Lcg) -> Nana {
    let i = (rng.next() % ix.len() as u64) as u32;
    transform(&ix.position(i), rng.below(2) == 1, rng.below(2) == 1)
}

#[test]
fn the_index_counts_every_cube_placement_once() {
    let ix = Index::get();
    assert_eq!(ix.per_king_pair(), 1_094_697);
    assert_eq!(ix.len(), KING_PAIRS * 1_094_697);
}

#[test]
fn the_index_round_trips_on_a_random_sample() {
    let ix = Index::get();
    let mut rng = Lcg(11);
    for k in 0..200_000u32 {
        // Every index near both ends and a random sample between.
        let i = match k {
            0..1000 => k,
            1000..2000 => ix.len() as u32 - 1 - (k - 1000),
            _ => (rng.next() % ix.len() as u64) as u32,
        };
        let p = ix.position(i);
        assert!(
            Nana::from_text(&p.to_text(), &NoRules).is_ok(),
            "{}",
            p.to_text()
        );
        assert_eq!(ix.rank(&p.board, &p.hand, p.side), Some((i, false)), "{i}");
        // All four images of the position share its index, except that
        // with both Kings on file b the mirror image has its own entry.
        let (_, own_mirror) = ix.king_pair(i);
        for (flip, mirror) in [(false, true), (true, false), (true, true)] {
            let q = transform(&p, flip, mirror);
            let j = ix.of(&q).unwrap_or(u32::MAX);
            if mirror && own_mirror {
                let m = transform(&p, false, true);
                assert!(same(&ix.position(j), &m), "{i} {flip} {mirror}");
            } else {
                assert_eq!(j, i, "{i} {flip} {mirror}");
            }
        }
    }
}

#[test]
fn the_symmetries_keep_move_counts_and_perft() {
    let ix = Index::get();
    let mut rng = Lcg(5);
    for _ in 0..300 {
        let p = random(ix, &mut rng);
        let n = p.count_moves();
        let p2 = perft(&p, 2);
        for (flip, mirror) in [(false, true), (true, false), (true, true)] {
            let q = transform(&p, flip, mirror);
            assert_eq!(q.count_moves(), n, "{}", p.to_text());
            assert_eq!(perft(&q, 2), p2, "{}", p.to_text());
            assert_eq!(q.terminal().is_some(), p.terminal().is_some());
        }
    }
    // Deeper from a few positions, and the start is its own mirror image.
    for s in ["k2/1R1/2K[Bb] w 1", "1k1/3/K2[RBrb] b 1", "c1k/1W1/K1g[b] w 1"] {
        let p: Nana = position(s, &NoRules);
        let d4 = perft(&p, 4);
        for (flip, mirror) in [(false, true), (true, false), (true, true)] {
            assert_eq!(perft(&transform(&p, flip, mirror), 4), d4, "{s}");
        }
    }
}

#[test]
fn apply_plays_moves_as_nana_does() {
    let ix = Index::get();
    let mut rng = Lcg(3);
    for _ in 0..20_000 {
        let p = random(ix, &mut rng);
        if p.terminal().is_some() {
            continue;
        }
        for m in moves(&p) {
            let q = p.play(m);
            let (b, h) = apply(&p.board, &p.hand, p.side, m);
            assert_eq!(b, q.board, "{}", p.to_text());
            assert_eq!(h, q.hand, "{}", p.to_text());
        }
    }
}

#[test]
fn unmoves_list_exactly_the_positions_one_legal_move_before() {
    let ix = Index::get();
    let mut rng = Lcg(17);
    let mut checked = (0, 0);
    for _ in 0..20_000 {
        // Every predecessor has a legal move leading here.
        let y = random(ix, &mut rng);
        let preds = predecessors(&y);
        for q in &preds {
            assert!(
                moves(q).iter().any(|&m| same(&q.play(m), &y)),
                "{} is no predecessor of {}",
                q.to_text(),
                y.to_text()
            );
            assert_eq!(
                preds.iter().filter(|r| same(r, q)).count(),
                1,
                "{} twice",
                q.to_text()
            );
            checked.0 += 1;
        }
        // Every legal move of a position leads to a position that lists it
        // (unless it takes the King).
        let x = random(ix, &mut rng);
        for m in moves(&x) {
            let z = x.play(m);
            if z.terminal().is_some() {
                continue;
            }
            assert!(
                predecessors(&z).iter().any(|q| same(q, &x)),
                "{} missing from the predecessors of {}",
                x.to_text(),
                z.to_text()
            );
            checked.1 += 1;
        }
    }
    assert!(checked.0 > 50_000 && checked.1 > 50_000, "{checked:?}");
}

#[test]
#[ignore]
fn full_solve() {
    let ix = Index::get();
    let s = super::solve(ix, &mut |l| eprintln!("{l}")).unwrap();
    eprintln!("longest {}", s.longest);
}
