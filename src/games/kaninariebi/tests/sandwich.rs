//! Kani Nari Ebi rules: capture by sandwich.

use super::*;

#[test]
fn a_run_of_enemy_pieces_closed_by_an_own_piece_is_captured_whole() {
    let p = diagram(
        "C . . . c
         . . . . c
         . . . . c
         . . . . .
         C c c . C",
        Color::First,
    );
    let q = play(&p, "e1d1");
    assert_board(
        &q,
        "C . . . c
         . . . . c
         . . . . c
         . . . . .
         C . . C .",
    );
    assert_eq!(q.captured_by(Color::First), 2);
}

#[test]
fn a_gap_breaks_the_sandwich() {
    let p = diagram(
        "C . . . c
         . . . . c
         . . . . c
         . . . . .
         C . c . C",
        Color::First,
    );
    let q = play(&p, "e1d1");
    assert_eq!(q.pieces(Color::Second), p.pieces(Color::Second));
}

#[test]
fn captures_count_in_all_four_directions_at_once() {
    let p = diagram(
        ". . C . .
         . S c . .
         C c . c C
         . . c . .
         . . C . c",
        Color::First,
    );
    // The Shrimp enters the River on c3, blocked both ways, and closes four
    // runs at once.
    let q = play(&p, "b4c3");
    assert_board(
        &q,
        ". . C . .
         . . . . .
         C . S . C
         . . . . .
         . . C . c",
    );
    assert_eq!(q.captured_by(Color::First), 4);
}

#[test]
fn any_own_piece_closes_a_sandwich_a_shrimp_too() {
    let p = diagram(
        ". S . . c
         . c . . c
         C . . . c
         . . . . .
         C . . . .",
        Color::First,
    );
    let q = play(&p, "a3b3");
    assert_eq!(q.pieces(Color::Second) & Square::new(1, 3).bit(), 0);
}

#[test]
fn only_the_moved_piece_is_an_end_of_the_sandwich() {
    let p = diagram(
        "C . . . c
         . . . . c
         C c C . .
         . . . . .
         C . . . c",
        Color::First,
    );
    // b3 already stands between a3 and c3: moving another piece leaves it.
    let q = play(&p, "a1b1");
    assert_eq!(q.pieces(Color::Second), p.pieces(Color::Second));
}

#[test]
fn a_piece_that_moves_between_two_enemy_pieces_is_safe() {
    let p = diagram(
        "C . . . c
         . c . . .
         C . . . c
         . c . . .
         C . . . c",
        Color::First,
    );
    let q = play(&p, "a3b3");
    assert_eq!(q.pieces(Color::First).count_ones(), 3);
    let r = play(&q, "e5d5");
    assert_eq!(r.pieces(Color::First), q.pieces(Color::First));
}

#[test]
fn the_board_edge_is_not_a_sandwich_end() {
    let p = diagram(
        "C . . . c
         . . . . c
         C . . . .
         . . . . .
         c . . . C",
        Color::First,
    );
    // a1 sits in the corner against the edge: closing it from b1 takes
    // nothing.
    let q = play(&p, "e1b1");
    assert_eq!(q.pieces(Color::Second), p.pieces(Color::Second));
    assert_eq!(game_status(&q), None);
}
