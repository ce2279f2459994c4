//! Nana Shogi rules: perft from the start and from hand-counted positions.

use super::*;

#[test]
fn perft_from_the_start_matches_the_spec() {
    let p = Nana::start(&NoRules);
    assert_eq!(perft(&p, 1), 8);
    assert_eq!(perft(&p, 2), 32);
    assert_eq!(perft(&p, 3), 1_356);
}

#[test]
fn perft_hand_counted_small_positions() {
    // Kings alone: the King on c1 has b1 b2 c2; then the King on a3 has
    // a2 b2 b3 each time (taking the King on b2 is one of them).
    let p = pos("k2/3/2K[] w 1");
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 9);
    // With an orthogonal cube in hand, free squares a1 a2 b1 b3 c2 c3 and
    // the enemy King on a3: R is barred from a2 b3, V from a2 and a1 (the
    // slide through a2), W from b3, G from a2: 4 + 4 + 5 + 5 drops, plus
    // three King steps.
    let p = pos("k2/3/2K[R] w 1");
    assert_eq!(perft(&p, 1), 21);
    // After the King drop on a1 the second player has five King drops
    // (not a2 b1 b2).
    let p = pos("3/3/K2[RBkrb] b 1");
    assert_eq!(perft(&p, 1), 5);
}
