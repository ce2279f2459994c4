//! The solver's pieces on small inputs: the index bijection and its
//! symmetries, moves and unmoves against the Nana move generator, labels of
//! positions a few plies from the end, a complete solve of small
//! sub-games, and the table file's checks.

use super::unmove::{apply, predecessors};
use crate::core::NoRules;
use crate::core::{Color, Game, perft};
use crate::games::conformance::{Lcg, position};
use crate::games::nana::Nana;
use crate::games::nana::index::*;

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
        assert_eq!(
            ix.rank(p.board(), p.hands(), p.side_to_move()),
            Some((i, false)),
            "{i}"
        );
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
    for s in [
        "k2/1R1/2K[Bb] w 1",
        "1k1/3/K2[RBrb] b 1",
        "c1k/1W1/K1g[b] w 1",
    ] {
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
            let (b, h) = apply(p.board(), p.hands(), p.side_to_move(), m);
            assert_eq!(&b, q.board(), "{}", p.to_text());
            assert_eq!(&h, q.hands(), "{}", p.to_text());
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

/// The whole game: about 40 s and 180 MB in release, so not in CI (run
/// `cargo test --release --lib full_solve -- --ignored --nocapture`).
#[test]
#[ignore = "the full solve: ~40 s in release"]
fn full_solve() {
    let ix = Index::get();
    let sol = solve(ix, &mut |l| eprintln!("{l}")).expect("solves");
    let table = NanaTable::new(ix, sol.values.clone());
    let start = Material::FULL.start();
    assert_eq!(table.value(&start), Some(TableValue::Win(127)));
    let c = census(ix, &sol, &table);
    assert_eq!(c.positions, 156_280_657);
    assert_eq!((c.won, c.lost, c.drawn), (136_974_974, 18_369_044, 936_639));
    assert_eq!(sol.longest, 183);
    assert!(consistency::consistency(&table, &mut |l| eprintln!("{l}")).is_ok());
}

// ---------------------------------------------------------------------
// Sub-games solved whole, and a naive solver beside them.

use super::{Solution, census, consistency, solve};
use crate::core::TableValue;
use crate::core::tablebase::principal_line;
use crate::games::nana::index::Material;
use crate::games::nana::tablebase::{self, DRAW, NanaTable, UNKNOWN};
use std::collections::HashMap;

/// Solves the game with this material; the index is leaked (tests only).
fn solved(m: Material) -> (NanaTable, Solution) {
    let ix: &'static Index = Box::leak(Box::new(Index::new(m)));
    let sol = solve(ix, &mut |_| {}).expect("the sub-game solves");
    (NanaTable::new(ix, sol.values.clone()), sol)
}

/// Positions are told apart by their Zobrist key (64 bits, checked
/// against the position by the conformance suite; a collision among half a
/// million positions is beyond belief), hashed as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

fn key(p: &Nana) -> u64 {
    p.hash()
}

/// Every position reachable from the start by `Nana::generate` and
/// `Nana::play` alone, valued by synchronous rounds: in round `r` a
/// position is decided from its children decided in earlier rounds, so
/// the positions decided in round `r` are exactly those `r - 1` plies from
/// the end (a King-less position or one without moves is lost in 0).
/// Returns each position with its value, `None` for a draw.
fn naive(m: Material) -> Vec<(Nana, Option<TableValue>)> {
    let start = m.start();
    let mut ids: HashMap<u64, usize, std::hash::BuildHasherDefault<KeyHasher>> = HashMap::default();
    let mut nodes = vec![start.clone()];
    let mut children: Vec<Vec<usize>> = Vec::new();
    ids.insert(key(&start), 0);
    let mut k = 0;
    while k < nodes.len() {
        let p = nodes[k].clone();
        let mut kids = Vec::new();
        if p.terminal().is_none() {
            for mv in moves(&p) {
                let q = p.play(mv);
                let n = nodes.len();
                let id = *ids.entry(key(&q)).or_insert(n);
                if id == n {
                    nodes.push(q);
                }
                kids.push(id);
            }
        }
        children.push(kids);
        k += 1;
    }
    let mut val: Vec<Option<TableValue>> = vec![None; nodes.len()];
    let mut open: Vec<usize> = (0..nodes.len()).collect();
    loop {
        let mut decided = Vec::new();
        for &i in &open {
            let kids = &children[i];
            let mut shortest_loss = None;
            let mut longest_win = Some(0);
            for &c in kids {
                match val[c] {
                    Some(TableValue::Loss(e)) => {
                        shortest_loss = Some(shortest_loss.map_or(e, |s: u32| s.min(e)))
                    }
                    Some(TableValue::Win(e)) => longest_win = longest_win.map(|l: u32| l.max(e)),
                    _ => longest_win = None,
                }
            }
            let v = if kids.is_empty() {
                Some(TableValue::Loss(0))
            } else if let Some(e) = shortest_loss {
                Some(TableValue::Win(e + 1))
            } else {
                longest_win.map(|e| TableValue::Loss(e + 1))
            };
            if let Some(v) = v {
                decided.push((i, v));
            }
        }
        if decided.is_empty() {
            break;
        }
        for &(i, v) in &decided {
            val[i] = Some(v);
        }
        open.retain(|&i| val[i].is_none());
    }
    nodes.into_iter().zip(val).collect()
}

/// The naive solver and the retrograde table agree on every reachable
/// position, and the census counts exactly the naive reachable positions.
fn compare_with_naive(m: Material) {
    let (table, sol) = solved(m);
    let all = naive(m);
    let mut live = 0u64;
    for (p, v) in &all {
        let want = v.unwrap_or(TableValue::Draw);
        assert_eq!(table.value(p), Some(want), "{}", p.to_text());
        live += u64::from(p.terminal().is_none());
    }
    let c = census(table.index(), &sol, &table);
    assert_eq!(c.positions, live, "{m:?}");
    assert!(
        consistency::consistency(&table, &mut |_| {}).is_ok(),
        "{m:?} consistent"
    );
}

#[test]
fn kings_alone_draw_and_take_each_other_when_adjacent() {
    let m = Material {
        orth: [0, 0],
        diag: [0, 0],
    };
    let (t, _) = solved(m);
    let v = |s: &str| t.value(&position(s, &NoRules));
    assert_eq!(v("3/3/3[Kk] w 1"), Some(TableValue::Draw));
    assert_eq!(v("K2/3/2k[] w 1"), Some(TableValue::Draw));
    assert_eq!(v("Kk1/3/3[] b 1"), Some(TableValue::Win(1)));
    compare_with_naive(m);
}

#[test]
fn positions_a_few_plies_from_the_end_by_hand() {
    // The first player starts with the orthogonal cube, the second with
    // the diagonal one.
    let (t, _) = solved(Material {
        orth: [1, 0],
        diag: [0, 1],
    });
    let v = |s: &str| t.value(&position(s, &NoRules));
    // Win in 1: the King next to the enemy King takes it.
    assert_eq!(v("kK1/3/2r[b] w 1"), Some(TableValue::Win(1)));
    // Loss in 2: the lone King on a1 has a2 and b1 (covered by the Rook
    // on b2) and b2 (taking the Rook, next to the King on c3).
    assert_eq!(v("2k/1r1/K2[b] w 1"), Some(TableValue::Loss(2)));
    // Win in 3: the Go-between steps b3-b2 and turns Rook (no check, so
    // rule 5 allows it with b in hand), reaching the loss in 2 above; no
    // move takes the King at once.
    assert_eq!(v("1gk/3/K2[b] b 1"), Some(TableValue::Win(3)));
    // Not a position of this sub-game (two orthogonal cubes): no value.
    assert_eq!(v("1gk/3/K1R[b] b 1"), None);
    // The King taken: lost, over.
    assert_eq!(v("1gk/3/2r[b] w 1"), Some(TableValue::Loss(0)));
}

#[test]
fn small_sub_games_agree_with_a_naive_solver() {
    compare_with_naive(Material {
        orth: [1, 0],
        diag: [0, 1],
    });
    compare_with_naive(Material {
        orth: [1, 1],
        diag: [0, 0],
    });
}

#[test]
fn a_perfect_line_ends_as_its_value_says() {
    let (t, _) = solved(Material {
        orth: [1, 0],
        diag: [0, 1],
    });
    let start = t.index().material().start();
    let value = t.value(&start);
    let line = principal_line(&t, &start, 500);
    match value {
        Some(TableValue::Win(d)) | Some(TableValue::Loss(d)) => {
            assert_eq!(line.len() as u32, d, "{line:?}")
        }
        other => assert!(matches!(other, Some(TableValue::Draw)), "{other:?}"),
    }
}

// ---------------------------------------------------------------------
// The table file.

fn small_table() -> NanaTable {
    solved(Material {
        orth: [1, 0],
        diag: [0, 1],
    })
    .0
}

#[test]
fn a_table_file_round_trips() {
    let t = small_table();
    let bytes = t.to_bytes();
    let u = NanaTable::from_bytes(t.index(), &bytes).expect("loads");
    assert_eq!(u.values(), t.values());
    assert!(t.values().iter().any(|&v| v == DRAW || v == UNKNOWN) || !t.values().is_empty());
}

#[test]
fn corrupt_truncated_and_mismatched_table_files_are_refused() {
    let t = small_table();
    let good = t.to_bytes();
    let ix = t.index();
    let err = |b: &[u8]| {
        NanaTable::from_bytes(ix, b)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(
        err(&good[..10]).contains("truncated"),
        "{}",
        err(&good[..10])
    );
    assert!(err(&good[..good.len() - 1]).contains("truncated"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(err(&longer).contains("longer"));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(err(&magic).contains("not a Koma Nana table"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(err(&version).contains("version 9"));
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    assert!(err(&flipped).contains("checksum"), "{}", err(&flipped));
    let mut header = good.clone();
    header[30] ^= 1;
    assert!(err(&header).contains("checksum"));
    // The table of another game (the full game's index).
    assert!(
        NanaTable::from_bytes(Index::get(), &good)
            .is_err_and(|e| e.to_string().contains("another game"))
    );
    // Counts that do not match, with a checksum made to match.
    let mut counts = good.clone();
    counts[24] ^= 1;
    let crc = tablebase::crc32(
        tablebase::crc32(0, &counts[..60]),
        &counts[tablebase::HEADER..],
    );
    counts[60..64].copy_from_slice(&crc.to_le_bytes());
    assert!(err(&counts).contains("counts"), "{}", err(&counts));
    // Missing file.
    assert!(NanaTable::load(ix, std::path::Path::new("/nonexistent/nana.table")).is_err());
}

#[test]
fn crc32_is_the_ieee_one() {
    assert_eq!(tablebase::crc32(0, b"123456789"), 0xcbf4_3926);
}

/// Figures for docs/nana-solved.md from the real table (`KOMA_NANA_TABLE=FILE`).
#[test]
#[ignore = "needs the real table: KOMA_NANA_TABLE=FILE"]
fn figures_of_the_real_table() {
    let path = std::env::var("KOMA_NANA_TABLE").expect("KOMA_NANA_TABLE");
    let t = NanaTable::load(Index::get(), std::path::Path::new(&path)).expect("table");
    let start = Material::FULL.start();
    for m in moves(&start) {
        let p = start.play(m);
        let mut replies = Vec::new();
        for r in moves(&p) {
            replies.push(format!("{}:{:?}", p.move_text(r), t.value(&p.play(r))));
        }
        eprintln!(
            "{} -> {:?} | {}",
            start.move_text(m),
            t.value(&p),
            replies.join(" ")
        );
    }
    let ix = t.index();
    let (mut draws, mut longest) = (Vec::new(), Vec::new());
    let mut hist = std::collections::BTreeMap::new();
    for (i, &v) in t.values().iter().enumerate() {
        match tablebase::decode(v) {
            tablebase::Value::Draw if draws.len() < 5 && i % 9973 == 0 => {
                draws.push(ix.position(i as u32).to_text().to_string())
            }
            tablebase::Value::Win(d) | tablebase::Value::Loss(d) => {
                *hist.entry(d).or_insert(0u64) += 1;
                if d >= 182 && longest.len() < 5 {
                    longest.push(format!("{} {d}", ix.position(i as u32).to_text()));
                }
            }
            _ => {}
        }
    }
    // Hand-labelled positions of the real game: no legal move (every
    // second-player piece walled in, nothing in hand), and a King to take.
    let v = |s: &str| t.value(&position(s, &NoRules));
    assert_eq!(v("1dK/cg1/kv1[] b 1"), Some(TableValue::Loss(0)));
    assert_eq!(v("Kk1/3/3[RBrb] w 1"), Some(TableValue::Win(1)));
    assert_eq!(v("3/3/3[KRBkrb] w 1"), Some(TableValue::Win(127)));
    eprintln!("draws: {draws:?}");
    eprintln!("longest: {longest:?}");
    eprintln!("histogram: {hist:?}");
}
