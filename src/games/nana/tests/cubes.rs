//! Nana Shogi rules: how each state of a cube moves, the cycle of states, captures.

use super::*;

/// (position, square, expected destinations of the piece there), hands
/// empty so that rule 5 does not apply.
const MOVES_OF_EACH_STATE: &[(&str, &str, &str)] = &[
    // First player, forward = towards rank 3.
    ("2k/1R1/K2[] w 1", "b2", "a2 b1 b3 c2"),
    ("2k/1V1/K2[] w 1", "b2", "b1 b3"),
    ("2k/1W1/K2[] w 1", "b2", "a2 c2"),
    ("2k/1G1/K2[] w 1", "b2", "b1 b3"),
    ("2k/KB1/3[] w 1", "b2", "a1 a3 c1 c3"),
    ("3/1T1/K1k[] w 1", "b2", "a3 b1 c3"),
    ("2k/KC1/3[] w 1", "b2", "a1 a3 c1 c3"),
    ("2k/KD1/3[] w 1", "b2", "a1 b3 c1"),
    ("3/1K1/k2[] w 1", "b2", "a1 a2 a3 b1 b3 c1 c2 c3"),
    // Second player, forward = towards rank 1.
    ("2K/1r1/k2[] b 1", "b2", "a2 b1 b3 c2"),
    ("2K/1v1/k2[] b 1", "b2", "b1 b3"),
    ("2K/1w1/k2[] b 1", "b2", "a2 c2"),
    ("2K/1g1/k2[] b 1", "b2", "b1 b3"),
    ("2K/kb1/3[] b 1", "b2", "a1 a3 c1 c3"),
    ("k1K/1t1/3[] b 1", "b2", "a1 b3 c1"),
    ("2K/kc1/3[] b 1", "b2", "a1 a3 c1 c3"),
    ("3/1d1/k1K[] b 1", "b2", "a3 b1 c3"),
    ("3/1k1/K2[] b 1", "b2", "a1 a2 a3 b1 b3 c1 c2 c3"),
    // The two-square slides, and a piece in the way stopping them.
    ("2k/3/V1K[] w 1", "a1", "a2 a3"),
    ("2k/r2/V1K[] w 1", "a1", "a2"),
    ("2k/V2/R1K[] w 1", "a1", "b1"),
    ("v1K/3/2k[] b 1", "a3", "a1 a2"),
    ("2k/3/B1K[] w 1", "a1", "b2 c3"),
    ("2k/1r1/B1K[] w 1", "a1", "b2"),
    ("2b/3/K1k[] b 1", "c3", "a1 b2"),
];

#[test]
fn each_state_moves_as_the_table_says_for_both_players() {
    for &(fen, from, expected) in MOVES_OF_EACH_STATE {
        assert_eq!(targets(&pos(fen), from), expected, "{fen}, piece on {from}");
    }
}

#[test]
fn a_cube_turns_to_the_next_state_after_every_board_move_and_a_king_never_does() {
    // (piece letter, move): the cube stands on b1 (b3 for the second player).
    let first = [
        ('R', "b1b2", 'V'),
        ('V', "b1b2", 'W'),
        ('W', "b1c1", 'G'),
        ('G', "b1b2", 'R'),
        ('B', "b1c2", 'T'),
        ('T', "b1c2", 'C'),
        ('C', "b1c2", 'D'),
        ('D', "b1b2", 'B'),
    ];
    for (x, mv, next) in first {
        let p = pos(&format!("2k/3/K{x}1[] w 1"));
        let q = play(&p, mv);
        let to = sq(&mv[2..]);
        assert_eq!(
            q.piece_at(to).map(|p| p.kind.letter()),
            Some(next),
            "{x} {mv}"
        );
        let q = play(&p, "a1a2");
        assert_eq!(
            q.piece_at(sq("a2")),
            Some(Piece::new(Color::First, Kind::King))
        );
    }
    let second = [
        ('r', "b3b2", 'V'),
        ('v', "b3b2", 'W'),
        ('w', "b3a3", 'G'),
        ('g', "b3b2", 'R'),
        ('b', "b3a2", 'T'),
        ('t', "b3a2", 'C'),
        ('c', "b3a2", 'D'),
        ('d', "b3b2", 'B'),
    ];
    for (x, mv, next) in second {
        let p = pos(&format!("1{x}k/3/K2[] b 1"));
        let q = play(&p, mv);
        assert_eq!(
            q.piece_at(sq(&mv[2..])),
            Some(Piece::new(Color::Second, Kind::from_letter(next).unwrap())),
            "{x} {mv}"
        );
    }
}

#[test]
fn four_board_moves_bring_a_cube_round_its_cycle() {
    let mut p = pos("2k/3/R1K[] w 1");
    for (mv, reply, letter) in [
        ("a1b1", "c3b3", 'V'),
        ("b1b2", "b3c3", 'W'),
        ("b2a2", "c3b3", 'G'),
        ("a2a1", "b3c3", 'R'),
    ] {
        p = play(&p, mv);
        assert_eq!(p.piece_at(sq(&mv[2..])).unwrap().kind.letter(), letter);
        p = play(&p, reply);
    }
    assert_eq!(text(&p), "2k/3/R1K[] w 5");
}

#[test]
fn the_cycle_advances_after_a_capture_too_and_the_captive_goes_to_hand_without_state() {
    let q = play(&pos("2k/1d1/KG1[] w 1"), "b1b2");
    assert_eq!(text(&q), "2k/1R1/K2[B] b 1");
    let q = play(&pos("2k/1v1/KD1[] w 1"), "b1b2");
    assert_eq!(text(&q), "2k/1B1/K2[R] b 1");
    // The second player's Tile on b1 steps straight back (up) onto b2.
    let q = play(&pos("2K/1V1/kt1[] b 1"), "b1b2");
    assert_eq!(text(&q), "2K/1c1/k2[r] w 2");
}

#[test]
fn captures_are_the_tactical_moves() {
    let p = pos("2k/1d1/KG1[B] w 1");
    assert!(p.is_tactical(Move::Step {
        from: sq("b1"),
        to: sq("b2")
    }));
    assert!(!p.is_tactical(Move::Step {
        from: sq("a1"),
        to: sq("a2")
    }));
    assert!(!p.is_tactical(Move::Drop {
        kind: Kind::Bishop,
        to: sq("a3")
    }));
}
