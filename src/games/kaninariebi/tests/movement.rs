//! Kani Nari Ebi rules: how Crabs and Shrimps move.

use super::*;

#[test]
fn a_crab_slides_any_distance_along_its_rank_never_through_or_onto_a_piece() {
    let p = diagram(
        "C . . . c
         . . . . .
         C . . c .
         . . . . .
         C . . . c",
        Color::First,
    );
    // b3, and c3 in the River (swept to c5 or c1); d3 is occupied and e3
    // lies beyond it. Never along the file or diagonally.
    assert_eq!(moves_from(&p, "a3"), strings(&["a3b3", "a3c1", "a3c5"]));
}

#[test]
fn a_shrimp_steps_one_square_diagonally_onto_an_empty_square() {
    let p = diagram(
        "C . . . c
         . . . . .
         . S . . c
         C . c . .
         C . . . c",
        Color::First,
    );
    // a4; c4 in the River (up to c5, or down to c3 above the piece on c2);
    // a2 (own piece) and c2 (enemy piece) are occupied.
    assert_eq!(moves_from(&p, "b3"), strings(&["b3a4", "b3c3", "b3c5"]));
}
