//! Kani Nari Ebi rules: the Bond, a second movement in the same turn.

use super::*;

#[test]
fn the_bond_lets_any_member_of_the_moved_pieces_group_step_one_square_diagonally() {
    let p = diagram(BOND_POSITION, Color::First);
    // a2b2 joins b3 and b4: the group {b2, b3, b4} (a1 only touches b2
    // diagonally). Each member, Crabs too, steps diagonally onto an empty
    // square; steps into the River are swept (up to c5 or down to c1).
    assert_eq!(
        bonds_after(&p, "a2b2"),
        strings(&[
            "b2a3", "b2c1", "b2c5", "b3a2", "b3a4", "b3c1", "b3c5", "b4a3", "b4a5", "b4c1", "b4c5"
        ])
    );
    let q = play(&p, "a2b2,b4a5");
    assert_board(
        &q,
        "C . . . c
         . . . . c
         . C . . c
         . C . . .
         C . . . .",
    );
}

#[test]
fn the_turn_without_the_bond_is_its_own_move() {
    let p = diagram(BOND_POSITION, Color::First);
    assert!(is_legal(&p, "a2b2"));
    assert!(is_legal(&p, "a2b2,b3a4"));
    assert_ne!(play(&p, "a2b2"), play(&p, "a2b2,b3a4"));
}

#[test]
fn diagonal_contact_does_not_bond() {
    let p = diagram(BOND_POSITION, Color::First);
    // b1 touches a2 only diagonally.
    assert_eq!(bonds_after(&p, "a1b1"), Vec::<String>::new());
}

#[test]
fn a_group_without_the_moved_piece_gives_no_bond() {
    let p = diagram(
        ". . . . c
         . C . . c
         . C . . c
         . . . . .
         C . . . .",
        Color::First,
    );
    // b3-b4 is a group, but the moved Crab on b1 is not in it.
    assert_eq!(bonds_after(&p, "a1b1"), Vec::<String>::new());
    assert_eq!(
        bonds_after(&p, "a1c5"),
        Vec::<String>::new(),
        "c5 touches b4 diagonally"
    );
}

#[test]
fn the_group_is_of_the_moved_pieces_type() {
    let d = ". . . . c
             . C . . c
             . S . . c
             C . . . .
             C . . . .";
    // The Crab arriving on b2 touches the Shrimp on b3, which touches the
    // Crab on b4: no Crab group, no Bond.
    let p = diagram(d, Color::First);
    assert_eq!(bonds_after(&p, "a2b2"), Vec::<String>::new());
    // With KaniBondAnyType the three form one group.
    let p = diagram_with(d, Color::First, &any_type());
    let bonds = bonds_after(&p, "a2b2");
    for m in ["b2a3", "b3a4", "b4a5"] {
        assert!(bonds.contains(&m.to_string()), "{m} in {bonds:?}");
    }
}

#[test]
fn a_bond_step_into_the_river_is_swept_with_the_owners_choice() {
    let p = diagram(
        ". . c . c
         . . . . .
         . C . . c
         C . . . .
         C . . . .",
        Color::First,
    );
    // b3 steps to c4 (up: stays under c5; down: to c1) or to c2 (up: to c4;
    // down: to c1): resting squares c4 and c1, one move each.
    let b3: Vec<String> = bonds_after(&p, "a2b2")
        .into_iter()
        .filter(|m| m.starts_with("b3"))
        .collect();
    assert_eq!(b3, strings(&["b3a2", "b3a4", "b3c1", "b3c4"]));
}

#[test]
fn a_crab_can_promote_by_a_bond_step() {
    let p = diagram(
        ". c . . .
         . . . C .
         C . . . .
         . . . . c
         C . . . c",
        Color::First,
    );
    let bonds = bonds_after(&p, "a3d3");
    assert_eq!(
        bonds,
        strings(&[
            "d3c1", "d3c5", "d3e4", "d3e4+", "d4c1", "d4c5", "d4e3", "d4e3+", "d4e5", "d4e5+"
        ])
    );
    let q = play(&p, "a3d3,d4e5+");
    assert_eq!(q.shrimps(Color::First), Square::new(4, 4).bit());
}

#[test]
fn the_bond_movement_captures_with_the_bond_piece() {
    let p = diagram(
        "C . . . c
         c . . . c
         . . . . .
         . C . . .
         C . . . c",
        Color::First,
    );
    // a1b1 bonds with b2; b2 steps to a3 and closes a4 against a5.
    assert_eq!(
        play(&p, "a1b1").pieces(Color::Second),
        p.pieces(Color::Second)
    );
    let q = play(&p, "a1b1,b2a3");
    assert_eq!(q.pieces(Color::Second).count_ones(), 3);
    assert_eq!(q.pieces(Color::Second) & Square::new(0, 3).bit(), 0);
}

#[test]
fn capture_happens_before_the_bond_so_freed_squares_are_bond_destinations() {
    let p = diagram(
        ". . . . c
         . . . . c
         C . . . C
         . . . c .
         . . . C c",
        Color::First,
    );
    // a3d3 captures d2 (against d1) and bonds with e3, which may then step
    // onto d2, the square the capture freed.
    assert!(is_legal(&p, "a3d3,e3d2"));
    let q = play(&p, "a3d3,e3d2");
    assert_board(
        &q,
        ". . . . c
         . . . . c
         . . . C .
         . . . C .
         . . . C c",
    );
}

#[test]
fn the_current_of_a_bond_step_runs_through_squares_the_first_capture_freed() {
    let p = diagram(
        ". . . . c
         . . . C .
         . C c . C
         . . . . c
         . . . . c",
        Color::First,
    );
    // e3d3 takes the Crab resting on c3 (against b3); d4 then steps into
    // the River on c5 and the current down runs through c3 to c1.
    assert!(bonds_after(&p, "e3d3").contains(&"d4c1".to_string()));
    let q = play(&p, "e3d3,d4c1");
    assert_board(
        &q,
        ". . . . c
         . . . . .
         . C . C .
         . . . . c
         . . C . c",
    );
}

#[test]
fn a_winning_movement_ends_the_turn_no_bond() {
    let p = diagram(
        ". . . . .
         . . . . c
         C . . . C
         . . . c .
         . . . C c",
        Color::First,
    );
    // The capture of d2 leaves the second player two pieces: the game is
    // over, the group d3-e3 gives no Bond.
    assert!(is_legal(&p, "a3d3"));
    assert_eq!(bonds_after(&p, "a3d3"), Vec::<String>::new());
    assert_eq!(
        play(&p, "a3d3").terminal(),
        Some(End::win(Color::First, endings::CAPTURES))
    );
    // The third Shrimp wins as well, even joined to the Shrimp on e4.
    let p = diagram(
        ". . . . c
         . . . . S
         . . . C .
         S . . . c
         C . . . c",
        Color::First,
    );
    assert_eq!(bonds_after(&p, "d3e3+"), Vec::<String>::new());
    assert_eq!(
        play(&p, "d3e3+").terminal(),
        Some(End::win(Color::First, SHRIMPS))
    );
}

#[test]
fn a_promoted_crab_joins_shrimp_groups_for_the_bond() {
    let p = diagram(
        ". c . . c
         . . . . S
         . . . C .
         . . . . C
         C . . . c",
        Color::First,
    );
    // Promoted on e3, it is a Shrimp: it bonds with the Shrimp on e4 ...
    assert_eq!(
        bonds_after(&p, "d3e3+"),
        strings(&["e3d2", "e3d4", "e4d3", "e4d5"])
    );
    // ... and left a Crab, with the Crab on e2.
    assert_eq!(
        bonds_after(&p, "d3e3"),
        strings(&["e2d1", "e2d3", "e3d2", "e3d4"])
    );
}

#[test]
fn there_is_never_a_second_bond() {
    let p = diagram(BOND_POSITION, Color::First);
    // After a2b2,b4a3 the Crab on a3 touches b3, but the turn is over: no
    // move has more than one Bond, and the Bond movers are the group's.
    for m in move_strings(&p) {
        assert!(m.matches(',').count() <= 1, "{m}");
    }
    let movers: std::collections::BTreeSet<String> = bonds_after(&p, "a2b2")
        .iter()
        .map(|m| m[..2].to_string())
        .collect();
    assert_eq!(
        movers.into_iter().collect::<Vec<_>>(),
        strings(&["b2", "b3", "b4"])
    );
    let q = play(&p, "a2b2,b4a3");
    assert_eq!(q.side_to_move(), Color::Second);
}
