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
    assert_eq!(p.move_key(Move::PASS), Negaeri::MOVE_KEYS - 1);
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

/// The null move (a pass the search may assume, not a rules pass): offered
/// only to a side holding a piece in hand and not right after a pass; it
/// hands the turn over and changes nothing else, the pass count included
/// (an opponent's pass after it must not end the game).
#[test]
fn the_null_move_is_offered_only_with_a_piece_in_hand_and_no_pass_before() {
    let p = game("Kf1 ka6 Rc3", "P", 'w');
    let n = p.play_null().expect("a Pawn in hand");
    assert_eq!(n.side_to_move(), Color::Second);
    assert_eq!(n.passes(), 0);
    assert_eq!(n.hash(), n.compute_hash());
    assert_eq!(n.to_text().ranks, p.to_text().ranks);
    assert_eq!(n.to_text().hand, p.to_text().hand);
    assert!(
        game("Kf1 ka6 Rc3", "p", 'w').play_null().is_none(),
        "only the opponent holds a piece"
    );
    assert!(game("Kf1 ka6 Rc3", "", 'w').play_null().is_none());
    let after_pass = game("Kf1 ka6 Rc3", "P", 'b').play(Move::PASS);
    assert_eq!(after_pass.passes(), 1);
    assert!(after_pass.play_null().is_none(), "right after a pass");
}

/// The evaluation's count terms as each side's counts with its sign, the
/// way they read in the rules of the evaluation, against `eval::terms`
/// (which adds our count less theirs once), on random playouts; the flip
/// threats are left to their own tests.
#[test]
fn the_count_terms_are_each_sides_counts_with_its_sign() {
    use crate::eval::Evaluation;
    let at = |name: &str| eval::NAMES.iter().position(|&n| n == name).unwrap();
    let board = [
        (Kind::Pawn, "pawn"),
        (Kind::Rook, "rook"),
        (Kind::Bishop, "bishop"),
        (Kind::Tokin, "tokin"),
        (Kind::Dragon, "dragon"),
        (Kind::Horse, "horse"),
    ];
    let hand = [
        (Kind::Pawn, "pawn_in_hand"),
        (Kind::Rook, "rook_in_hand"),
        (Kind::Bishop, "bishop_in_hand"),
    ];
    let mut rng = Lcg(61);
    for _ in 0..30 {
        let mut p = Negaeri::start(&rules());
        for _ in 0..100 {
            if game_status(&p).is_some() {
                break;
            }
            let mut expected = [0f32; eval::TERMS];
            let us = p.side_to_move();
            for (c, sign) in [(us, 1.0), (us.opponent(), -1.0)] {
                for (k, name) in board {
                    expected[at(name)] += sign * p.pieces_of(c, k).count_ones() as f32;
                }
                for (k, name) in hand {
                    expected[at(name)] += sign * f32::from(p.in_hand(c, k));
                }
                let king = p.pieces_of(c, Kind::King);
                let zone = board::squares(king).fold(0, |z, s| z | board::KING[s.index()]);
                let (ours, theirs) = (p.pieces(c), p.pieces(c.opponent()));
                expected[at("guard")] += sign * (zone & ours).count_ones() as f32;
                expected[at("king_attacker")] -= sign * (zone & theirs).count_ones() as f32;
                let held = Kind::HAND.iter().any(|&k| p.in_hand(c.opponent(), k) > 0);
                if held {
                    let exposed = ours & board::EDGE & !zone & !king;
                    expected[at("edge_exposed")] -= sign * exposed.count_ones() as f32;
                }
            }
            expected[at("tempo")] += 1.0;
            let mut got = [0f32; eval::TERMS];
            p.features(&mut got);
            for name in ["threat_us", "threat_them"] {
                expected[at(name)] = got[at(name)];
            }
            assert_eq!(got, expected, "{}", p.to_text());
            let mut moves = <Negaeri as Game>::MoveList::default();
            p.generate(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
}
