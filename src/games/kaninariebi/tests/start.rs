//! Kani Nari Ebi rules: the board and the start position.

use super::*;

#[test]
fn start_position_has_five_crabs_each_on_the_home_columns() {
    let p = KaniNariEbi::start(&rules());
    assert_eq!(p.to_text().to_string(), "C3c/C3c/C3c/C3c/C3c w 1");
    assert_eq!(p.side_to_move(), Color::First);
    assert_board(
        &p,
        "C . . . c
         C . . . c
         C . . . c
         C . . . c
         C . . . c",
    );
}
