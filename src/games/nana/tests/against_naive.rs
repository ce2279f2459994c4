//! Nana Shogi rules: agreement with a naive second implementation.

use super::*;

fn to_naive(p: &Nana) -> naive::P {
    let mut g = [[0i8; 3]; 3];
    for s in Square::all() {
        if let Some(pc) = p.piece_at(s) {
            let k = pc.kind.index() as i8 + 1;
            g[s.file() as usize][s.rank() as usize] = if pc.color == Color::First { k } else { -k };
        }
    }
    let h = |c: Color| {
        let h = p.hand(c);
        [
            h.count(Family::King),
            h.count(Family::Orth),
            h.count(Family::Diag),
        ]
    };
    naive::P {
        g,
        hand: [h(Color::First), h(Color::Second)],
        me: p.side_to_move().index(),
    }
}

/// A random position with both Kings on the board and the four cubes each
/// on the board (random owner, square and state) or in a random hand.
fn random_position(rng: &mut Lcg) -> Option<Nana> {
    let mut placement = [None; 9];
    let mut free: Vec<usize> = (0..9).collect();
    let mut take = |rng: &mut Lcg| free.remove(rng.below(free.len()));
    for c in Color::BOTH {
        placement[take(rng)] = Some(Piece::new(c, Kind::King));
    }
    let mut hands = [[0u8; 3]; 2];
    for fam in [Family::Orth, Family::Diag, Family::Orth, Family::Diag] {
        let c = Color::BOTH[rng.below(2)];
        if rng.below(3) == 0 {
            hands[c.index()][fam.index()] += 1;
        } else {
            let k = fam.states()[rng.below(4)];
            placement[take(rng)] = Some(Piece::new(c, k));
        }
    }
    let side = Color::BOTH[rng.below(2)];
    Nana::new(placement, hands.map(|[k, r, b]| Hand::new(k, r, b)), side).ok()
}

/// Compares one position with the naive implementation: the same legal
/// move strings, the same position after each. Returns how many board
/// moves rule 5 removed.
fn compare_with_naive(p: &Nana) -> usize {
    let n = to_naive(p);
    let legal = naive::moves(&n, true);
    let mut expected: Vec<String> = legal.iter().map(|&m| naive::text(m)).collect();
    expected.sort();
    assert_eq!(move_strings(p), expected, "{}", text(p));
    for &m in &legal {
        let q = play(p, &naive::text(m));
        assert_eq!(
            to_naive(&q),
            naive::apply(&n, m),
            "{} in {}",
            naive::text(m),
            text(p)
        );
    }
    naive::moves(&n, false).len() - legal.len()
}

#[test]
fn moves_agree_with_a_naive_implementation_on_random_playouts() {
    let mut rng = Lcg(2024);
    let mut plies = 0;
    for _ in 0..300 {
        let mut p = Nana::start(&NoRules);
        for _ in 0..150 {
            if game_status(&p).is_some() {
                break;
            }
            compare_with_naive(&p);
            let mut moves = <Nana as Game>::MoveList::default();
            p.generate(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
            plies += 1;
        }
    }
    assert!(plies > 3_000, "{plies}");
}

#[test]
fn moves_agree_with_a_naive_implementation_on_random_positions() {
    let mut rng = Lcg(77);
    let mut forbidden = 0;
    let mut positions = 0;
    while positions < 20_000 {
        let Some(p) = random_position(&mut rng) else {
            continue;
        };
        if p.terminal().is_some() {
            continue;
        }
        positions += 1;
        forbidden += compare_with_naive(&p);
        // The capacity comment of `MoveList` claims at most 76.
        assert!(p.count_moves() <= 76, "{}", text(&p));
    }
    // Rule 5 did remove moves, so it was compared too.
    assert!(forbidden > 20, "{forbidden}");
}

#[test]
fn perft_agrees_with_the_naive_implementation() {
    let p = Nana::start(&NoRules);
    for d in 1..=4 {
        assert_eq!(perft(&p, d), naive::perft(&naive::start(), d), "depth {d}");
    }
    let mut rng = Lcg(3);
    let mut done = 0;
    while done < 30 {
        let Some(p) = random_position(&mut rng) else {
            continue;
        };
        assert_eq!(perft(&p, 3), naive::perft(&to_naive(&p), 3), "{}", text(&p));
        done += 1;
    }
}

/// The naive perft of the non-start positions of `tests/data/nana.perft`
/// (slow: run with `--ignored` in release).
#[test]
#[ignore = "slow: the naive implementation at depth 5; run in release"]
fn naive_perft_of_the_file_positions() {
    for (fen, d) in [
        ("2k/3/K2[RBrb] w 2", 5),
        ("1k1/3/K2[RBrb] w 2", 5),
        ("k1R/3/KD1[B] w 1", 5),
        ("3/WW1/KBk[B] w 1", 5),
        ("2k/1r1/BK1[Rb] b 7", 5),
        ("k2/3/2K[] w 1", 2),
        ("k2/3/2K[R] w 1", 1),
        ("3/3/K2[RBkrb] b 1", 1),
    ] {
        let p = pos(fen);
        for d in 1..=d {
            let n = naive::perft(&to_naive(&p), d);
            println!("{fen} perft {d} {n}");
            assert_eq!(perft(&p, d), n);
        }
    }
}

/// The naive perft to depth 6 (slow: run with `--ignored` in release).
#[test]
#[ignore = "slow: the naive implementation at depth 6; run in release"]
fn naive_perft_depth_6() {
    let t = std::time::Instant::now();
    for d in 5..=6 {
        let n = naive::perft(&naive::start(), d);
        println!("naive perft {d}: {n} ({:.1?})", t.elapsed());
        assert_eq!(perft(&Nana::start(&NoRules), d), n);
    }
}

/// The spec's "rule 5 is not applied to the opponent's replies" never
/// changes a result: over every placement of the Kings and of at most two
/// cubes of each family (board square, owner and state, or either hand)
/// where both sides hold a cube, no legal checking board move leaves the
/// opponent only replies that rule 5 would forbid. Exhaustive; about 20 s
/// in release.
#[test]
#[ignore = "slow: exhaustive, about 20 s in release"]
fn rule_5_on_the_replies_never_changes_a_result() {
    let fams = [Family::Orth, Family::Orth, Family::Diag, Family::Diag];
    // 0, 1: in a hand; 2..74: board (square, owner, state); 74: absent.
    let opts = 75;
    let mut tried = 0u64;
    for side in Color::BOTH {
        let them = side.opponent();
        for k1 in 0..9 {
            for k2 in (0..9).filter(|&k| k != k1) {
                for a in 0..opts {
                    for b in a..opts {
                        for c in 0..opts {
                            for d in c..opts {
                                let mut hands = [[0u8; 3]; 2];
                                let mut placement = [None; 9];
                                placement[k1] = Some(Piece::new(Color::First, Kind::King));
                                placement[k2] = Some(Piece::new(Color::Second, Kind::King));
                                let mut ok = true;
                                for (i, &o) in [a, b, c, d].iter().enumerate() {
                                    match o {
                                        74 => {}
                                        0 | 1 => hands[o][fams[i].index()] += 1,
                                        _ => {
                                            let (s, owner, st) =
                                                ((o - 2) / 8, ((o - 2) / 4) % 2, (o - 2) % 4);
                                            ok &= placement[s].is_none();
                                            placement[s] = Some(Piece::new(
                                                Color::BOTH[owner],
                                                fams[i].states()[st],
                                            ));
                                        }
                                    }
                                }
                                let hands = hands.map(|[k, r, b]| Hand::new(k, r, b));
                                if !ok || hands[0].cubes() == 0 || hands[1].cubes() == 0 {
                                    continue;
                                }
                                let Ok(p) = Nana::new(placement, hands, side) else {
                                    continue;
                                };
                                tried += 1;
                                let ek = p.king_square(them).unwrap();
                                let mut moves = <Nana as Game>::MoveList::default();
                                p.generate(&mut moves);
                                for &m in moves.iter() {
                                    let Move::Step { to, .. } = m else { continue };
                                    let q = p.play(m);
                                    if to == ek || !q.board().attacked_by(side, ek) {
                                        continue;
                                    }
                                    // Legal, so some reply escapes; check one
                                    // that rule 5 allows does too.
                                    let mut replies = <Nana as Game>::MoveList::default();
                                    q.generate(&mut replies);
                                    let escapes = replies.iter().any(|&r| {
                                        let z = q.play(r);
                                        z.king_square(side).is_none()
                                            || !z.board().attacked_by(side, ek_after(&z, them))
                                    });
                                    assert!(escapes, "{} {}", text(&p), p.move_text(m));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!("{tried} positions");
}

fn ek_after(z: &Nana, c: Color) -> Square {
    z.king_square(c).unwrap()
}
