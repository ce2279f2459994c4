//! Kani Nari Ebi rules: the River and its current.

use super::*;

#[test]
fn the_current_carries_the_piece_up_or_down_to_the_next_piece_or_the_edge() {
    let p = diagram(
        "C . c . c
         . . . . .
         C . . . c
         . . C . .
         C . . . c",
        Color::First,
    );
    // Entering c3: up it stops under the enemy on c5, down it cannot move
    // at all (own piece on c2). Passing through c3 to d3 is plain.
    assert_eq!(
        moves_from(&p, "a3"),
        strings(&["a3b3", "a3c3", "a3c4", "a3d3"])
    );
    for m in ["a3c5", "a3c2", "a3c1"] {
        assert!(!is_legal(&p, m), "{m}");
    }
}

#[test]
fn a_movement_into_the_river_is_written_with_its_resting_square() {
    let p = KaniNariEbi::start(&rules());
    assert!(is_legal(&p, "a3c5"));
    assert!(is_legal(&p, "a3c1"));
    assert!(
        !is_legal(&p, "a3c3"),
        "c3 is only where the Crab enters the River"
    );
    let q = play(&p, "a3c5");
    assert_board(
        &q,
        "C . C . c
         C . . . c
         . . . . c
         C . . . c
         C . . . c",
    );
}

#[test]
fn the_current_direction_is_free_also_when_entering_from_rank_1_or_5() {
    let p = KaniNariEbi::start(&rules());
    // From a5 the current up leaves the Crab on c5; down takes it to c1.
    assert_eq!(
        moves_from(&p, "a5"),
        strings(&["a5b5", "a5c1", "a5c5", "a5d5"])
    );
    assert_eq!(
        moves_from(&p, "a1"),
        strings(&["a1b1", "a1c1", "a1c5", "a1d1"])
    );
}

#[test]
fn two_current_directions_to_the_same_square_are_one_move() {
    let p = diagram(
        "C . c . c
         . . C . .
         C . . . c
         . . c . .
         C . . . c",
        Color::First,
    );
    // Blocked both ways, both choices leave the Crab on c3: one move.
    assert_eq!(moves_from(&p, "a3"), strings(&["a3b3", "a3c3", "a3d3"]));
    check_position(&p, &rules());
}

#[test]
fn a_shrimp_entering_the_river_from_either_diagonal_to_the_same_square_is_one_move() {
    let p = diagram(
        "C . . . c
         . . . . .
         . S . . c
         . . . . .
         C . . . c",
        Color::First,
    );
    // b3c4 and b3c2 both rest on c5 (up) or c1 (down): two moves, not four.
    assert_eq!(
        moves_from(&p, "b3"),
        strings(&["b3a2", "b3a4", "b3c1", "b3c5"])
    );
    check_position(&p, &rules());
}

#[test]
fn passing_through_the_river_without_stopping_there_does_nothing() {
    let q = play(&KaniNariEbi::start(&rules()), "a3d3");
    assert_board(
        &q,
        "C . . . c
         C . . . c
         . . . C c
         C . . . c
         C . . . c",
    );
}

#[test]
fn a_piece_resting_in_the_river_is_not_swept_again() {
    let p = diagram(
        "C . c . c
         . . C . .
         C . . . .
         . . . . c
         C . . . c",
        Color::Second,
    );
    // The blocker on c5 leaves: the Crab resting on c4 stays there.
    let q = play(&p, "c5d5");
    assert_board(
        &q,
        "C . . c c
         . . C . .
         C . . . .
         . . . . c
         C . . . c",
    );
}

#[test]
fn captures_are_checked_once_where_the_piece_rests() {
    let p = diagram(
        ". . . . c
         . . . . .
         C . . c C
         . . C . c
         C . . . c",
        Color::First,
    );
    // Resting on c3 the Crab closes d3 against e3 ...
    let q = play(&p, "a3c3");
    assert_eq!(q.pieces(Color::Second).count_ones(), 3);
    assert_board(
        &q,
        ". . . . c
         . . . . .
         . . C . C
         . . C . c
         C . . . c",
    );
    // ... but swept on to c5 it captures nothing on its way.
    let q = play(&p, "a3c5");
    assert_eq!(q.pieces(Color::Second).count_ones(), 4);
}
