//! Hasami Shogi rules: agreement with a naive second implementation.

use super::*;

#[test]
fn move_generation_and_captures_agree_with_a_naive_implementation() {
    let mut rng = Lcg(99);
    for (k, r) in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ]
    .iter()
    .enumerate()
    {
        for game in 0..30 {
            let mut p = Hasami::start(r);
            for _ply in 0..120 {
                if p.terminal().is_some() {
                    break;
                }
                let me = if p.side_to_move() == Color::First {
                    1
                } else {
                    -1
                };
                let expected = naive::moves(&naive::grid(&p), me, r);
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                assert_eq!(
                    moves.len(),
                    expected.len(),
                    "rules {k} game {game}: {}",
                    p.to_text()
                );
                for &((fr, ff), (tr, tf), after) in &expected {
                    let m = Move {
                        from: Square::new(ff as u8, fr as u8),
                        to: Square::new(tf as u8, tr as u8),
                    };
                    assert!(moves.contains(&m));
                    assert_eq!(naive::grid(&p.play(m)), after, "{:?} in {}", m, p.to_text());
                }
                check_position(&p, r);
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn tactical_moves_are_exactly_the_captures_in_generation_order() {
    let mut rng = Lcg(7);
    let mut seen = 0;
    for r in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ] {
        for _game in 0..30 {
            let mut p = Hasami::start(&r);
            for _ply in 0..200 {
                if p.terminal().is_some() {
                    break;
                }
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let them = p.side_to_move().opponent();
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.play(m).men(them) != p.men(them))
                    .collect();
                let flagged: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.is_tactical(m))
                    .collect();
                let mut tactical = <Hasami as Game>::MoveList::default();
                p.generate_tactical(&mut tactical);
                assert_eq!(captures, flagged, "{}", p.to_text());
                assert_eq!(&captures[..], &tactical[..], "{}", p.to_text());
                seen += captures.len();
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(seen > 100, "the playouts should meet captures: {seen}");
}

/// The evaluation's exposure against playing every move of the other side.
fn check_exposed(p: &Hasami) {
    let mut t = p.to_text();
    t.side = t.side.opponent();
    let Ok(q) = Hasami::from_text(&t, p.rules()) else {
        return;
    };
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut moves = <Hasami as Game>::MoveList::default();
    q.generate(&mut moves);
    let mut taken = 0;
    for &m in moves.iter() {
        taken |= p.men(us) & !q.play(m).men(us);
    }
    let empty = !(p.men(us) | p.men(them)) & board::FULL;
    let (reach, mobility) = eval::reach(p.men(them), empty);
    // The mobility term counts each move of the other side once.
    assert_eq!(mobility as usize, moves.len(), "{}", p.to_text());
    let arrivals = moves.iter().fold(0, |b, m| b | m.to.bit());
    assert_eq!(reach, arrivals, "{}", p.to_text());
    assert_eq!(
        eval::exposed(p, p.men(us), p.men(them), reach),
        taken,
        "{}",
        p.to_text()
    );
}

#[test]
fn the_evaluation_sees_every_man_a_move_could_capture() {
    let mut rng = Lcg(17);
    for r in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
    ] {
        for _game in 0..20 {
            let mut p = Hasami::start(&r);
            for _ply in 0..200 {
                if p.terminal().is_some() {
                    break;
                }
                check_exposed(&p);
                let mut moves = <Hasami as Game>::MoveList::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

/// Perft by the naive implementation: every move tried on the array, the
/// game over when a side has captured five (default rules).
fn naive_perft(g: &naive::Grid, me: i8, depth: u32, r: &HasamiRules) -> u64 {
    if depth == 0 {
        return 1;
    }
    let count = |v: i8| g.iter().flatten().filter(|&&x| x == v).count() as u32;
    if MEN - count(1) >= 5 || MEN - count(-1) >= 5 {
        return 0;
    }
    let moves = naive::moves(g, me, r);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, _, after)| naive_perft(after, -me, depth - 1, r))
        .sum()
}

#[test]
fn naive_perft_agrees_on_the_file_positions() {
    for fen in [
        "ppp1ppppp/9/3p5/9/9/4P4/9/9/PPPP1PPPP w 3",
        "p1pp1p1pp/1p7/4p4/6p2/2P6/9/3P1P3/1P7/P1P1P2PP b 6",
        "2p2pp1p/p8/3p5/1P5p1/4p4/2P3P2/5P3/P8/1P1P3PP w 12",
    ] {
        let p = pos(fen);
        let me = if p.side_to_move() == Color::First {
            1
        } else {
            -1
        };
        for d in 1..=3 {
            assert_eq!(
                naive_perft(&naive::grid(&p), me, d, &rules()),
                perft(&p, d),
                "{fen} depth {d}"
            );
        }
    }
}
