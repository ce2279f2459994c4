//! Nana Shogi rules: the empty start, the Kings placed first, nothing on b2.

use super::*;

#[test]
fn the_board_starts_empty_with_king_and_both_cubes_in_each_hand() {
    let p = Nana::start(&NoRules);
    assert_eq!(text(&p), "3/3/3[KRBkrb] w 1");
    assert_eq!(p.side_to_move(), Color::First);
    assert_eq!(p.hand(Color::First), Hand::new(1, 1, 1));
    assert_eq!(p.hand(Color::Second), Hand::new(1, 1, 1));
}

#[test]
fn kings_are_placed_first_by_the_first_player_then_the_second() {
    let p = Nana::start(&NoRules);
    assert_eq!(
        move_strings(&p),
        [
            "K@a1", "K@a2", "K@a3", "K@b1", "K@b3", "K@c1", "K@c2", "K@c3"
        ]
    );
    let p = play(&p, "K@a1");
    assert_eq!(text(&p), "3/3/K2[RBkrb] b 1");
    // Only the King, never next to the enemy King (rule 4) nor on b2.
    assert_eq!(move_strings(&p), ["K@a3", "K@b3", "K@c1", "K@c2", "K@c3"]);
    let p = play(&p, "K@c3");
    assert_eq!(text(&p), "2k/3/K2[RBrb] w 2");
    // Now drops of the cubes and board moves exist.
    let m = move_strings(&p);
    assert!(
        m.contains(&"a1a2".to_string())
            && m.contains(&"R@a3".to_string())
            && m.contains(&"D@c1".to_string())
    );
    // While the second King is in hand, it is the second player's turn.
    for bad in [
        "3/3/K2[RBkrb] w 1",
        "3/3/3[KRBkrb] b 1",
        "3/3/k2[KRBrb] w 1",
    ] {
        let t = crate::protocol::parse_position(bad).unwrap();
        assert!(Nana::from_text(&t, &NoRules).is_err(), "{bad}");
    }
}

#[test]
fn nothing_is_dropped_on_b2_kings_included() {
    for p in [
        Nana::start(&NoRules),
        pos("3/3/K2[RBkrb] b 1"),
        pos("k2/3/2K[RBrb] w 2"),
        pos("k2/3/2K[RBrb] b 2"),
    ] {
        let m = move_strings(&p);
        assert!(!m.is_empty());
        assert!(m.iter().all(|m| !m.ends_with("@b2")), "{}: {m:?}", text(&p));
        assert!(m.iter().any(|m| m.contains('@')));
    }
    // A board move may go there.
    assert!(is_legal(&pos("k2/3/2K[RBrb] w 2"), "c1b2"));
}
