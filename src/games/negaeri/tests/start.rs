//! Negaeri Shogi rules: the start position, the rule options and perft.

use super::*;

#[test]
fn start_position_is_the_one_of_notation_md() {
    let p = Negaeri::start(&rules());
    assert_eq!(
        p.to_text().to_string(),
        "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1"
    );
    assert_eq!(p.side_to_move(), Color::First);
    assert_eq!(at(&p, "b1"), "R");
    assert_eq!(at(&p, "c1"), "K");
    assert_eq!(at(&p, "d1"), "B");
    assert_eq!(at(&p, "c6"), "b");
    assert_eq!(at(&p, "d6"), "k");
    assert_eq!(at(&p, "e6"), "r");
    assert_eq!(p.in_hand(Color::First, Kind::Pawn), 4);
    assert_eq!(p.in_hand(Color::Second, Kind::Pawn), 3);
}

#[test]
fn equal_hands_option_gives_the_first_player_three_pawns() {
    let r = with("NegaeriEqualHands", OptionValue::Check(true));
    let p = Negaeri::start(&r);
    assert_eq!(
        p.to_text().to_string(),
        "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPrbppp] w 0 1"
    );
    assert_eq!(p.in_hand(Color::First, Kind::Pawn), 3);
    // Only the start changes: a string read under the option keeps its hand.
    let q = position::<Negaeri>("2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1", &r);
    assert_eq!(q.in_hand(Color::First, Kind::Pawn), 4);
}

#[test]
fn options_are_declared_with_the_spec_names_and_defaults() {
    let specs = NegaeriRules::specs();
    let names: Vec<_> = specs.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        ["NegaeriEdge", "NegaeriEqualHands", "NegaeriChainLimit"]
    );
    assert_eq!(specs[0].default_value(), OptionValue::Check(true));
    assert_eq!(specs[1].default_value(), OptionValue::Check(false));
    assert_eq!(specs[2].default_value(), OptionValue::Spin(5));
    assert!(
        rules()
            .clone()
            .set("NegaeriChainLimit", &OptionValue::Spin(0))
            .is_err()
    );
    assert!(
        rules()
            .clone()
            .set("NegaeriChainLimit", &OptionValue::Spin(6))
            .is_err()
    );
    // Another game's option is named as what is wrong, in the words an
    // engine's `info string` carries.
    let e = rules()
        .clone()
        .set("HasamiLines", &OptionValue::Check(true))
        .unwrap_err();
    assert_eq!(
        e,
        crate::core::SetError::NoOption {
            game: "Negaeri",
            name: "HasamiLines".into(),
            value: OptionValue::Check(true),
        }
    );
    assert_eq!(
        e.to_string(),
        "no Negaeri option HasamiLines with value true"
    );
}

#[test]
fn perft_from_the_start_matches_the_spec_readme() {
    let p = Negaeri::start(&rules());
    assert_eq!(perft(&p, 1), 78);
    assert_eq!(perft(&p, 2), 5_865);
    assert_eq!(perft(&p, 3), 364_453);
}

#[test]
fn perft_from_the_start_depth_4() {
    // Not in the README; cross-checked by `naive::perft` (ignored test
    // `naive_perft_depth_4_from_the_start`, run for the report).
    assert_eq!(perft(&Negaeri::start(&rules()), 4), 21_974_089);
}

#[test]
fn perft_depth_1_by_hand_from_the_start() {
    // Board moves: Rook b1a1; King none (all 5 neighbours are own
    // pieces); Bishop d1e2, d1f3; pawns b3, c3, d3: 6. Drops: P, R, B on
    // each of the 24 empty squares: 72. Total 78.
    let p = Negaeri::start(&rules());
    let moves = move_strings(&p);
    let board: Vec<_> = moves.iter().filter(|m| !m.contains('@')).cloned().collect();
    assert_eq!(board, ["b1a1", "b2b3", "c2c3", "d1e2", "d1f3", "d2d3"]);
    assert_eq!(moves.len(), 78);
}

#[test]
fn perft_hand_counted_kings_and_one_pawn() {
    // Kings on a1 and f6, the first player holds one pawn. Depth 1: 3 King
    // moves + a pawn drop on each of 34 empty squares = 37. Depth 2: after
    // each of them the second King has its 3 moves (a pawn next to it is
    // captured, not a wall): 37 * 3 = 111.
    let p = game("Ka1 kf6", "P", 'w');
    assert_eq!(perft(&p, 1), 37);
    assert_eq!(perft(&p, 2), 111);
    // Depth 3, by the naive implementation (pawn pushes and captures of the
    // dropped pawn make it tedious by hand).
    assert_eq!(
        perft(&p, 3),
        naive::perft(&naive::State::from(&p), 3, &rules())
    );
}

#[test]
fn perft_hand_counted_passes() {
    // Both sides walled in (see `the_double_pass_...`): pass, pass, and the
    // game is over, so depth 3 has nothing.
    let p = game("Ka6 Pa5 Pb5 Pb6 kf1 pf2 pe2 pe1", "", 'w');
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(perft(&p, 2), 1);
    assert_eq!(perft(&p, 3), 0);
    // The second player free: its King on f1 has e1, e2 and f2 after the
    // first player's pass.
    let p = game("Ka6 Pa5 Pb5 Pb6 kf1", "", 'w');
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(perft(&p, 2), 3);
    // Then the first player passes again (a single pass each time).
    assert_eq!(perft(&p, 3), 3);
    // The second player with a pawn in hand. Depth 2: 3 King moves + 31
    // drops. Depth 3: a pass after each. Depth 4: after the King moves to
    // e1, e2, f2: (5 + 31) + (8 + 31) + (5 + 31) = 111; after a drop, the
    // King has 3 moves, 2 when the pawn stands on e1, e2 or f2 (28 * 3 +
    // 3 * 2 = 90), and the pawn steps down from the 26 empty squares off
    // rank 1 except f2 (onto its own King): 25. 111 + 115 = 226.
    let p = game("Ka6 Pa5 Pb5 Pb6 kf1", "p", 'w');
    assert_eq!(perft(&p, 2), 34);
    assert_eq!(perft(&p, 3), 34);
    assert_eq!(perft(&p, 4), 226);
}
