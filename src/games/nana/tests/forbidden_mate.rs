//! Nana Shogi rules: rule 5, no checkmate by a board move while holding a piece.

use super::*;

// Rule 5. In "k1R/3/KD1": the Dog b1b2 turns into a Bishop on b2 and
// checks a3; the King's squares a2 and b2 are covered by the King on a1
// (b2 by capture, too), b3 by the Rook on c3; the second player has nothing
// else. That is checkmate.

#[test]
fn a_checkmating_board_move_is_illegal_while_holding_a_piece() {
    let p = pos("k1R/3/KD1[B] w 1");
    assert!(!is_legal(&p, "b1b2"));
    // The other moves stay legal, the checks that do not mate included.
    assert!(is_legal(&p, "a1a2") && is_legal(&p, "c3c2") && is_legal(&p, "B@c2"));
    // (B@c1 would attack a3 through b2: rule 4.)
    assert!(!is_legal(&p, "B@c1"));
}

#[test]
fn the_same_checkmate_is_legal_with_an_empty_hand() {
    let p = pos("k1R/3/KD1[] w 1");
    let q = play(&p, "b1b2");
    assert_eq!(text(&q), "k1R/1B1/K2[] b 1");
    // Mate here is no end in itself: the King may only step into capture.
    assert_eq!(move_strings(&q), ["a3a2", "a3b2", "a3b3"]);
    assert_eq!(game_status(&play(&q, "a3b3")), None);
}

#[test]
fn a_capturing_mate_counts_the_hand_before_the_move() {
    // The Dog takes the Rook on b2: with an empty hand it is legal though
    // the capture fills the hand; holding a Bishop it is not.
    let q = play(&pos("k1R/1r1/KD1[] w 1"), "b1b2");
    assert_eq!(text(&q), "k1R/1B1/K2[R] b 1");
    assert!(!is_legal(&pos("k1R/1r1/KD1[B] w 1"), "b1b2"));
}

#[test]
fn a_reply_that_takes_the_checking_sides_king_is_an_escape() {
    // As before, but the second player's Go-between on a2 attacks a1: the
    // check can be answered by taking the King, so it is no checkmate.
    let p = pos("k1R/g2/KD1[B] w 1");
    assert!(is_legal(&p, "b1b2"));
    // With a Tile there instead (it cannot reach a1 or b2), it is mate.
    assert!(!is_legal(&pos("k1R/t2/KD1[R] w 1"), "b1b2"));
}

#[test]
fn a_drop_that_blocks_a_slide_is_an_escape_but_never_on_b2() {
    // The Rook b1a1 becomes a Chariot checking a3 through a2; the King on
    // c2 covers b3 and b2. With an empty hand the second player is mated;
    // holding a cube, it drops it on a2 (no state attacks c2 from there).
    assert!(!is_legal(&pos("k2/2K/1R1[B] w 1"), "b1a1"));
    assert!(is_legal(&pos("k2/2K/1R1[Br] w 1"), "b1a1"));
    // The Dog b2a1 becomes a Bishop checking c3 through b2; the King on a3
    // covers b3 and b2, the Rook on c1 covers c2. The only block is on b2,
    // where nothing may be dropped: mate, although the second player
    // holds a cube.
    assert!(!is_legal(&pos("K1k/1D1/2R[Br] w 1"), "b2a1"));
}

#[test]
fn a_discovered_check_can_be_a_forbidden_mate() {
    // The Wings a2b2 (turning Go-between) uncovers the Chariot on a1
    // against a3; the King on c2 covers b3 and b2.
    let p = pos("k2/W1K/V2[B] w 1");
    assert!(!is_legal(&p, "a2b2"));
    assert!(is_legal(&pos("k2/W1K/V2[] w 1"), "a2b2"));
}
