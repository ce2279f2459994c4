//! Nana Shogi rules: King capture, no legal move, repetition.

use super::*;

#[test]
fn capturing_the_king_is_always_legal_and_wins_at_once() {
    let p = pos("kR1/3/K2[B] w 1");
    let q = play(&p, "b3a3");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, endings::KING_CAPTURED))
    );
    assert_eq!(
        game_status(&q),
        Some(End::win(Color::First, endings::KING_CAPTURED))
    );
    // The King goes nowhere: it is not in the captor's hand.
    assert_eq!(text(&q), "V2/3/K2[B] b 1");
    assert_eq!(move_strings(&q), Vec::<String>::new());
    check_position(&q, &NoRules);
    assert_eq!(perft(&q, 1), 0);
    let mut h = History::starting_at(&q);
    h.push(q.hash());
    assert_eq!(
        status_with_history(&q, &h).map(|e| e.reason),
        Some(endings::KING_CAPTURED)
    );
}

#[test]
fn moving_into_check_and_leaving_the_king_attacked_are_legal() {
    // c1b2 steps next to the enemy King.
    assert!(is_legal(&pos("k2/3/2K[] w 1"), "c1b2"));
    // The Rook on a2 attacks the King on a1; the Go-between moves anyway.
    let p = pos("k2/r2/K1G[] w 1");
    assert!(p.board().attacked_by(Color::Second, sq("a1")));
    assert!(is_legal(&p, "c1c2"));
}

#[test]
fn a_side_holding_a_cube_always_has_a_drop_so_forbidden_mates_never_leave_it_without_moves() {
    // Why "a position whose only moves are forbidden mates"
    // cannot exist: a side holding a cube leaves at most five pieces on
    // the board, so at least three squares other than b2 are empty; and on
    // every square one state of each cube attacks nothing the other does
    // (Wings sideways, Go-between straight; Tile diagonally forward and
    // straight back, Dog straight forward and diagonally back), so some
    // state never attacks the enemy King.
    for c in Color::BOTH {
        for s in Square::all() {
            for occ in [0, ALL] {
                assert_eq!(
                    attacks(c, Kind::Wings, s, occ) & attacks(c, Kind::GoBetween, s, occ),
                    0
                );
                assert_eq!(
                    attacks(c, Kind::Tile, s, occ) & attacks(c, Kind::Dog, s, occ),
                    0
                );
            }
        }
    }
    // Here every board move is a forbidden mate: b1c2 (Bishop to Tile)
    // and b2c2 (Wings to Go-between) both check c1 with b1, b2 and c2
    // covered. Only the drops remain.
    let p = pos("3/WW1/KBk[B] w 1");
    let m = move_strings(&p);
    assert!(!m.is_empty() && m.iter().all(|m| m.contains('@')), "{m:?}");
    let p = pos("3/WW1/KBk[] w 1");
    assert_eq!(move_strings(&p), ["b1c2", "b2c2"]);
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // Every second-player piece is walled in by its own pieces or the edge
    // and the hand is empty.
    let p = pos("1dK/cg1/kv1[] b 1");
    assert_eq!(p.terminal(), None);
    assert_eq!(move_strings(&p), Vec::<String>::new());
    assert_eq!(
        game_status(&p),
        Some(End::win(Color::First, EndReason::NoLegalMove))
    );
}

#[test]
fn the_fourth_occurrence_of_a_position_is_a_draw() {
    // The Rook goes round a square and its cycle (R V W G) in four moves
    // while the second King steps back and forth: every eight plies the
    // start position recurs, and the positions in between differ in the
    // cube's state.
    let start = pos("2k/3/R1K[] w 1");
    let mut p = start.clone();
    let mut h = History::starting_at(&p);
    let cycle = [
        "a1b1", "c3b3", "b1b2", "b3c3", "b2a2", "c3b3", "a2a1", "b3c3",
    ];
    for round in 1..=3 {
        for (i, mv) in cycle.iter().enumerate() {
            assert_eq!(status_with_history(&p, &h), None, "round {round} ply {i}");
            p = play(&p, mv);
            h.push(p.repetition_key());
            if i < 7 {
                assert!(h.occurrences_of_last() == round, "round {round} ply {i}");
            }
        }
        assert_eq!(p.hash(), start.hash());
        assert_eq!(h.occurrences_of_last(), round + 1);
    }
    assert_eq!(
        status_with_history(&p, &h),
        Some(End::new(Outcome::Draw, EndReason::Repetition))
    );
    // Hands are part of the position: the same board with a cube in hand
    // is another position.
    assert_ne!(pos("2k/3/R1K[] w 1").hash(), pos("2k/3/R1K[b] w 1").hash());
    assert_ne!(pos("2k/3/R1K[] w 1").hash(), pos("2k/3/R1K[] b 1").hash());
    assert_eq!(pos("2k/3/R1K[] w 1").hash(), pos("2k/3/R1K[] w 9").hash());
}
