//! Negaeri Shogi rules: what the search reads from a position: the move list bound, move keys, tactical moves, the evaluation.

use super::*;

#[test]
fn the_move_list_bound_holds_for_each_kind() {
    // The bound on `MoveList` assumes at most 8 King, 14 rook-kind, 13
    // bishop-kind and 6 pawn-kind moves per piece on the empty board.
    let most = [6, 14, 13, 8, 6, 14, 13];
    for k in Kind::ALL {
        for c in Color::BOTH {
            let reach = (0..36u8)
                .map(|i| board::attacks(k, c, i as usize, 0).count_ones())
                .max()
                .unwrap();
            assert!(reach <= most[k.index()], "{k:?}: {reach}");
        }
    }
    assert_eq!(
        board::attacks(Kind::Bishop, Color::First, sq("c3").index(), 0).count_ones(),
        9
    );
    assert_eq!(
        board::attacks(Kind::Dragon, Color::First, sq("c3").index(), 0).count_ones(),
        14
    );
}

#[test]
fn move_keys_are_dense_and_distinct() {
    let mut seen = std::collections::HashSet::new();
    let p = game("Kf1 ka6 Rc3", "RBP", 'w');
    let mut moves = <Negaeri as Game>::MoveList::default();
    p.generate(&mut moves);
    for &m in moves.iter() {
        let k = p.move_key(m);
        assert!(k < Negaeri::MOVE_KEYS);
        assert!(seen.insert(k), "{m:?}");
    }
    assert_eq!(p.move_key(Move::Pass), Negaeri::MOVE_KEYS - 1);
}

#[test]
fn tactical_moves_are_captures_and_flipping_drops() {
    let p = game("Pe3 pc3 pd3 Rc5 Kf1 ka6", "P", 'w');
    let find = |m: &str| {
        p.find_move(&crate::protocol::parse_move(m).unwrap())
            .unwrap()
    };
    assert!(p.is_tactical(find("P@b3")));
    assert!(!p.is_tactical(find("P@b4")));
    assert!(p.is_tactical(find("c5c3")));
    assert!(!p.is_tactical(find("c5c4")));
}

#[test]
fn evaluation_counts_material_and_is_from_the_side_to_moves_view() {
    let p = Negaeri::start(&rules());
    // The first player holds one more pawn.
    assert!(p.evaluate() > 0);
    // The same position with the second player to move holding the
    // first's pieces: the negation, but for having the move.
    let q = pos("2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] b 0 1");
    let tempo = tempo_weight::<Negaeri>();
    assert_eq!(q.evaluate(), 2 * tempo - p.evaluate());
    // A flip is worth more than the pawn it costs.
    let p = game("Pe3 pc3 pd3 Kf1 ka6", "P", 'w');
    let good = play(&p, "P@b3");
    let quiet = play(&p, "P@b5");
    assert!(-good.evaluate() > -quiet.evaluate());
}
