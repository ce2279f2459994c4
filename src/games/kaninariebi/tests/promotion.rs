//! Kani Nari Ebi rules: promotion of Crabs.

use super::*;

#[test]
fn a_crab_arriving_in_the_opponents_home_column_may_promote_both_moves_are_legal() {
    let p = diagram(
        ". . . . c
         . . . . c
         . . . C .
         C . . . .
         C . . . c",
        Color::First,
    );
    let moves = moves_from(&p, "d3");
    assert!(moves.contains(&"d3e3".to_string()) && moves.contains(&"d3e3+".to_string()));
    assert_eq!(
        moves.iter().filter(|m| m.ends_with('+')).count(),
        1,
        "only in file e: {moves:?}"
    );
    assert_eq!(play(&p, "d3e3+").shrimps(Color::First).count_ones(), 1);
    assert_eq!(play(&p, "d3e3").shrimps(Color::First).count_ones(), 0);
    // The second player promotes in file a.
    let p = diagram(
        "c . . . C
         . . . . .
         . c . . .
         . . . . C
         c . . . C",
        Color::Second,
    );
    assert!(is_legal(&p, "b3a3") && is_legal(&p, "b3a3+"));
    assert_eq!(play(&p, "b3a3+").shrimps(Color::Second).count_ones(), 1);
}

#[test]
fn a_crab_that_declined_may_promote_on_a_later_arrival() {
    let p = diagram(
        ". . . . c
         . . . . c
         . . . C .
         C . . . .
         C . . . c",
        Color::First,
    );
    let p = play(&p, "d3e3");
    let p = play(&p, "e1d1");
    // Standing in the column gives no promotion: it has to leave ...
    assert!(moves_from(&p, "e3").iter().all(|m| !m.ends_with('+')));
    let p = play(&p, "e3d3");
    let p = play(&p, "d1e1");
    // ... and come back.
    assert!(is_legal(&p, "d3e3+"));
}

#[test]
fn shrimps_never_promote_or_turn_back() {
    let p = diagram(
        ". . . . c
         . . . . .
         . . . S c
         C . . . .
         C . . . c",
        Color::First,
    );
    assert_eq!(
        moves_from(&p, "d3"),
        strings(&["d3c1", "d3c5", "d3e2", "d3e4"])
    );
    let q = play(&p, "d3e4");
    assert_eq!(q.shrimps(Color::First), Square::new(4, 3).bit());
}

#[test]
fn a_crab_does_not_promote_in_its_own_home_column() {
    let p = diagram(
        ". . . . c
         . . . . .
         . C . . c
         C . . . .
         C . . . c",
        Color::First,
    );
    assert!(is_legal(&p, "b3a3"));
    assert!(!is_legal(&p, "b3a3+"));
}
