//! Kani Nari Ebi rules, one test per clause of `docs/rules/kaninariebi.md`
//! and per point it settles, each from a small position drawn as a diagram
//! (rank 5 on top, file a on the left, `.` empty, `C`/`S` the first
//! player's Crab/Shrimp, `c`/`s` the second player's); then perft from the
//! start and other positions, checked against a naive second implementation
//! written rule by rule on a plain 5x5 array.

use super::*;
use crate::core::{Game, OptionValue, Rules, game_status, perft};
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};
use std::collections::BTreeMap;

fn rules() -> KaniRules {
    KaniRules::default()
}

fn any_type() -> KaniRules {
    let mut r = rules();
    r.set("KaniBondAnyType", &OptionValue::Check(true)).unwrap();
    r
}

/// The rows of a diagram, cells separated by single spaces.
fn rows(d: &str) -> Vec<String> {
    d.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The board field of a position string for a diagram.
fn board_field(d: &str) -> String {
    let rows = rows(d);
    assert_eq!(rows.len(), 5, "a diagram has five ranks");
    rows.iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for cell in row.split(' ') {
                if cell == "." {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out += cell;
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A position from a diagram and the side to move, under rules `r`.
fn diagram_with(d: &str, side: Color, r: &KaniRules) -> KaniNariEbi {
    position(&format!("{} {} 1", board_field(d), side.fen_char()), r)
}

fn diagram(d: &str, side: Color) -> KaniNariEbi {
    diagram_with(d, side, &rules())
}

/// The board of a position drawn as a diagram.
fn draw(p: &KaniNariEbi) -> Vec<String> {
    (0..5u8)
        .rev()
        .map(|r| {
            (0..5u8)
                .map(|f| {
                    let sq = Square::new(f, r);
                    let shrimp = p.shrimps(Color::First) | p.shrimps(Color::Second);
                    let letter = if shrimp & sq.bit() != 0 { 's' } else { 'c' };
                    if p.pieces(Color::First) & sq.bit() != 0 {
                        letter.to_ascii_uppercase().to_string()
                    } else if p.pieces(Color::Second) & sq.bit() != 0 {
                        letter.to_string()
                    } else {
                        ".".to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[track_caller]
fn assert_board(p: &KaniNariEbi, d: &str) {
    assert_eq!(draw(p), rows(d));
}

/// The normal movements (turns without a Bond) of the piece on `sq`.
fn moves_from(p: &KaniNariEbi, sq: &str) -> Vec<String> {
    move_strings(p)
        .into_iter()
        .filter(|m| m.starts_with(sq) && !m.contains(','))
        .collect()
}

/// The Bond movements that may follow the normal movement `first`.
fn bonds_after(p: &KaniNariEbi, first: &str) -> Vec<String> {
    let prefix = format!("{first},");
    move_strings(p)
        .into_iter()
        .filter_map(|m| m.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- board

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

// ---------------------------------------------------------------- movement

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

// ---------------------------------------------------------------- the River

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

// ---------------------------------------------------------------- promotion

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

// ---------------------------------------------------------------- capture

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

// ---------------------------------------------------------------- the Bond

const BOND_POSITION: &str = "
    . . . . c
    . C . . c
    . C . . c
    C . . . .
    C . . . .";

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
        Some(End::win(Color::First, EndReason::Captures))
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
        Some(End::win(Color::First, EndReason::Shrimps))
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

// ---------------------------------------------------------------- end of the game

#[test]
fn three_captures_win_the_opponent_has_two_or_fewer_left() {
    let p = diagram(
        ". . . . .
         . . . . c
         C . . . C
         . . . c .
         . . . C c",
        Color::First,
    );
    let q = play(&p, "a3d3");
    assert_eq!(q.captured_by(Color::First), 3);
    assert_eq!(
        game_status(&q),
        Some(End::win(Color::First, EndReason::Captures))
    );
    assert_eq!(move_strings(&q), Vec::<String>::new());
}

#[test]
fn captures_of_the_movement_and_of_its_bond_add_up() {
    let p = diagram(
        "C . . . c
         c . . . .
         . . . . .
         . C . . .
         C . c C c",
        Color::First,
    );
    // a1b1 takes c1 (against d1): three left, no win, so the Bond follows;
    // b2a3 takes a4 (against a5): two left, the first player wins.
    let q = play(&p, "a1b1");
    assert_eq!((q.captured_by(Color::First), q.terminal()), (2, None));
    let q = play(&p, "a1b1,b2a3");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, EndReason::Captures))
    );
}

#[test]
fn three_shrimps_on_the_board_win() {
    let p = diagram(
        ". . . . c
         . . . . .
         . . . C .
         S . S . c
         C . . . c",
        Color::First,
    );
    assert_eq!(play(&p, "d3e3").terminal(), None);
    assert_eq!(
        play(&p, "d3e3+").terminal(),
        Some(End::win(Color::First, EndReason::Shrimps))
    );
}

#[test]
fn captured_shrimps_do_not_count() {
    let p = diagram(
        ". . . . c
         . . . . .
         . c . C .
         S S . . .
         C . . . c",
        Color::Second,
    );
    // The second player takes the Shrimp on b2 (b1 against b3) ...
    let q = play(&p, "e1b1");
    assert_eq!(q.shrimps(Color::First).count_ones(), 1);
    // ... so a third promotion leaves only two Shrimps on the board.
    let r = play(&q, "d3e3+");
    assert_eq!(r.shrimps(Color::First).count_ones(), 2);
    assert_eq!(r.terminal(), None);
}

#[test]
fn a_player_with_no_legal_movement_loses() {
    let p = diagram(
        ". . . C c
         . . . C c
         . . . C c
         . . . . .
         . . . . .",
        Color::Second,
    );
    assert_eq!(p.terminal(), None);
    assert_eq!(p.count_moves(), 0);
    assert_eq!(
        game_status(&p),
        Some(End::win(Color::First, EndReason::NoLegalMove))
    );
    // Immobilised pieces are not captured: they stay on the board.
    assert_eq!(p.pieces(Color::Second).count_ones(), 3);
}

// ---------------------------------------------------------------- text

#[test]
fn position_strings_are_checked() {
    for bad in [
        "C3c/C3c/C3c/C3c w 1",
        "C3c/C3c/C3c/C3c/C3 w 1",
        "C3c/C3c/C3c/C3c/C3c w 0",
        "C3c/C3c/C3c/C3c/C3c w 1 2",
        "C3k/C3c/C3c/C3c/C3c w 1",
        "+C3c/C3c/C3c/C3c/C3c w 1",
        "CC2c/C3c/C3c/C3c/C3c w 1",
        "C3c/C3c/C3c/C3c/C3c[C] w 1",
        "5/5/5/C3c/C3c w 1",
        "S3c/S3c/S3c/C3c/C3c w 1",
    ] {
        let refused = match crate::protocol::parse_position(bad) {
            Err(_) => true,
            Ok(t) => KaniNariEbi::from_text(&t, &rules()).is_err(),
        };
        assert!(refused, "{bad} should be refused");
    }
    let t = crate::protocol::parse_position("C3k/C3c/C3c/C3c/C3c w 1").unwrap();
    let e = KaniNariEbi::from_text(&t, &rules()).unwrap_err();
    assert!(e.0.contains("e5"), "{e}");
    // Finished games are positions too: here the first player has won.
    let p = position::<KaniNariEbi>("S3c/S3c/S3c/C3c/C3c b 9", &rules());
    assert_eq!(
        p.terminal(),
        Some(End::win(Color::First, EndReason::Shrimps))
    );
    let p = position::<KaniNariEbi>("C3c/C3c/4c/4c/4c w 3", &rules());
    assert_eq!(
        p.terminal(),
        Some(End::win(Color::Second, EndReason::Captures))
    );
    // The move number is optional on input.
    let p = position::<KaniNariEbi>("C3c/C3c/C3c/C3c/C3c w", &rules());
    assert_eq!(p.to_text().to_string(), "C3c/C3c/C3c/C3c/C3c w 1");
}

#[test]
fn the_move_number_grows_after_the_second_players_turn() {
    let p = KaniNariEbi::start(&rules());
    let q = play(&p, "a3b3");
    assert_eq!(q.to_text().to_string(), "C3c/C3c/1C2c/C3c/C3c b 1");
    let r = play(&q, "e3d3");
    assert_eq!(r.to_text().to_string(), "C3c/C3c/1C1c1/C3c/C3c w 2");
}

#[test]
fn move_texts_are_refused_unless_legal() {
    let p = KaniNariEbi::start(&rules());
    for m in ["a3b3+", "a3e3", "a3b3,b3c4", "pass", "C@c3", "a3a4", "e3d3"] {
        assert!(!is_legal(&p, m), "{m}");
    }
}

#[test]
fn the_rule_options_are_kani_bond_any_type_default_false_and_kani_repetition_default_true() {
    assert_eq!(
        KaniRules::specs(),
        [
            crate::core::OptionSpec::check("KaniBondAnyType", false),
            crate::core::OptionSpec::check("KaniRepetition", true),
        ]
    );
    assert!(!rules().bond_any_type);
    assert!(any_type().bond_any_type);
    assert!(rules().repetition);
    assert!(!no_repetition().repetition);
}

fn no_repetition() -> KaniRules {
    let mut r = rules();
    r.set("KaniRepetition", &OptionValue::Check(false)).unwrap();
    r
}

/// Plays `moves` from the start under `r`, checking that the game goes on
/// before each; returns the last position and the history.
fn shuffle(r: &KaniRules, moves: &[&str]) -> (KaniNariEbi, crate::core::History) {
    let mut p = KaniNariEbi::start(r);
    let mut h = crate::core::History::starting_at(&p);
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(
            crate::core::status_with_history(&p, &h),
            None,
            "before ply {i}"
        );
        p = play(&p, mv);
        h.push(p.repetition_key());
    }
    (p, h)
}

/// Two Crabs stepping back and forth: the start position again every four
/// plies.
const SHUFFLE: [&str; 4] = ["a1b1", "e1d1", "b1a1", "d1e1"];

#[test]
fn under_kani_repetition_the_fourth_occurrence_of_a_position_is_a_draw_at_once() {
    let moves: Vec<&str> = SHUFFLE.iter().cycle().take(12).copied().collect();
    // The third occurrence (after 8 plies) does not end the game.
    let (p, h) = shuffle(&rules(), &moves[..8]);
    assert_eq!(h.occurrences_of_last(), 3);
    assert_eq!(crate::core::status_with_history(&p, &h), None);
    let (p, h) = shuffle(&rules(), &moves);
    assert_eq!(h.occurrences_of_last(), 4);
    assert_eq!(
        crate::core::status_with_history(&p, &h),
        Some(crate::core::End::new(
            crate::core::Outcome::Draw,
            EndReason::Repetition
        ))
    );
}

#[test]
fn a_position_is_the_board_and_the_side_to_move_not_the_move_number() {
    let w = position::<KaniNariEbi>("C3c/C3c/C3c/C3c/C3c w 1", &rules());
    let later = position::<KaniNariEbi>("C3c/C3c/C3c/C3c/C3c w 9", &rules());
    let b = position::<KaniNariEbi>("C3c/C3c/C3c/C3c/C3c b 1", &rules());
    assert_eq!(w.repetition_key(), later.repetition_key());
    assert_ne!(w.repetition_key(), b.repetition_key());
    // Three times with each side to move is no fourth occurrence.
    let mut h = crate::core::History::new();
    for _ in 0..3 {
        h.push(b.repetition_key());
        h.push(w.repetition_key());
    }
    assert_eq!(crate::core::status_with_history(&w, &h), None);
    h.push(b.repetition_key());
    h.push(later.repetition_key());
    assert!(crate::core::status_with_history(&later, &h).is_some());
}

#[test]
fn without_kani_repetition_the_rulebook_has_no_draw() {
    let moves: Vec<&str> = SHUFFLE.iter().cycle().take(400).copied().collect();
    let (p, h) = shuffle(&no_repetition(), &moves);
    assert_eq!(h.occurrences_of_last(), 101);
    assert_eq!(crate::core::status_with_history(&p, &h), None);
    assert_eq!(p.repetition_limit(), None);
}

#[test]
fn perft_ignores_kani_repetition() {
    let on = KaniNariEbi::start(&rules());
    let off = KaniNariEbi::start(&no_repetition());
    for d in 1..=3 {
        assert_eq!(perft(&on, d), perft(&off, d), "depth {d}");
    }
    // Perft from the fourth occurrence counts on as from the start.
    let moves: Vec<&str> = SHUFFLE.iter().cycle().take(12).copied().collect();
    let (p, _) = shuffle(&rules(), &moves);
    assert_eq!(perft(&p, 2), perft(&on, 2));
}

#[test]
fn is_tactical_means_a_capture_or_a_promotion() {
    let p = diagram(
        ". . . . c
         . . . . c
         . . . C .
         C . . . .
         C . . . c",
        Color::First,
    );
    let mv = |s: &str| {
        p.find_move(&crate::protocol::parse_move(s).unwrap())
            .unwrap()
    };
    assert!(p.is_tactical(mv("d3e3+")));
    assert!(!p.is_tactical(mv("d3e3")));
    let q = diagram(
        "C . . . c
         . . . . c
         . . . . c
         . . . . .
         C c c . C",
        Color::First,
    );
    let mv = q
        .find_move(&crate::protocol::parse_move("e1d1").unwrap())
        .unwrap();
    assert!(q.is_tactical(mv));
}

#[test]
fn move_keys_are_dense_and_in_range() {
    let p = diagram(BOND_POSITION, Color::First);
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    for &m in moves.iter() {
        assert!(p.move_key(m) < KaniNariEbi::MOVE_KEYS);
    }
}

#[test]
fn the_evaluation_favours_material_and_shrimps() {
    use crate::eval::Evaluation;
    // The terms alone (the network, where there is one, sees the two
    // sides' pieces from their own side and need not be exactly
    // antisymmetric).
    let w = KaniNariEbi::parse_weights(&KaniNariEbi::terms_file(KaniNariEbi::terms_in_force()))
        .unwrap();
    let terms = |p: &KaniNariEbi| p.evaluate_with(&w);
    // The start is symmetric: only having the move counts.
    let tempo = crate::eval::tempo_weight::<KaniNariEbi>();
    assert_eq!(terms(&KaniNariEbi::start(&rules())), tempo);
    // A piece up, by the terms and by the whole evaluation.
    let up = position::<KaniNariEbi>("C3c/C3c/C4/C3c/C3c w 3", &rules());
    assert!(terms(&up) > 50, "{}", terms(&up));
    assert!(up.evaluate() > 50, "{}", up.evaluate());
    // Two Shrimps against two Crabs on the same squares.
    let crabs = position::<KaniNariEbi>("C3c/C3c/4c/1C2c/1C2c w 3", &rules());
    let shrimps = position::<KaniNariEbi>("C3c/C3c/4c/1S2c/1S2c w 3", &rules());
    for (s, c) in [
        (terms(&shrimps), terms(&crabs)),
        (shrimps.evaluate(), crabs.evaluate()),
    ] {
        assert!(s > c + 20, "{s} {c}");
    }
    // From the side to move's view: the other side sees the negation, but
    // for having the move.
    let other = position::<KaniNariEbi>("C3c/C3c/4c/1S2c/1S2c b 3", &rules());
    assert_eq!(terms(&other), 2 * tempo - terms(&shrimps));
}

// ---------------------------------------------------------------- conformance

#[test]
fn conformance_random_playouts() {
    for (i, r) in [rules(), any_type()].iter().enumerate() {
        let finished = random_playouts::<KaniNariEbi>(r, 40, 300, 11 + i as u64);
        assert!(finished > 20, "playouts should reach ends: {finished}");
    }
}

#[test]
fn hash_and_round_trip_in_many_positions() {
    let mut rng = Lcg(5);
    for _ in 0..2000 {
        if let Some(p) = random_position(&mut rng, &rules()) {
            check_position(&p, &rules());
        }
    }
}

// ---------------------------------------------------------------- second implementation

/// A naive second implementation on a plain 5x5 array, written rule by rule
/// from `docs/rules/kaninariebi.md`: every movement tried square by square, the current
/// walked in both directions, captures found by walking lines, the Bond
/// group by a breadth-first search, every turn kept by its text.
mod naive {
    use super::*;

    /// `[rank][file]`: 1 Crab, 2 Shrimp; positive for the first player.
    pub type Grid = [[i8; 5]; 5];

    pub fn grid(p: &KaniNariEbi) -> Grid {
        let mut g = [[0; 5]; 5];
        for (r, row) in g.iter_mut().enumerate() {
            for (f, cell) in row.iter_mut().enumerate() {
                let bit = Square::new(f as u8, r as u8).bit();
                let kind = if (p.shrimps(Color::First) | p.shrimps(Color::Second)) & bit != 0 {
                    2
                } else {
                    1
                };
                if p.pieces(Color::First) & bit != 0 {
                    *cell = kind;
                } else if p.pieces(Color::Second) & bit != 0 {
                    *cell = -kind;
                }
            }
        }
        g
    }

    fn name(r: usize, f: usize) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    fn inside(r: i32, f: i32) -> bool {
        (0..5).contains(&r) && (0..5).contains(&f)
    }

    const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    /// Every movement of the piece on (r, f): its text, the board after the
    /// current, promotion and capture, and its resting square. A Bond step
    /// is one diagonal step whatever the piece. The same text may come
    /// twice (two currents to one square).
    pub fn movements(
        g: &Grid,
        r: usize,
        f: usize,
        bond_step: bool,
    ) -> Vec<(String, Grid, (usize, usize))> {
        let piece = g[r][f];
        let me = piece.signum();
        let crab = piece.abs() == 1;
        let mut board = *g;
        board[r][f] = 0;
        let mut landings = vec![];
        if crab && !bond_step {
            for df in [1, -1] {
                let mut nf = f as i32 + df;
                while inside(r as i32, nf) && board[r][nf as usize] == 0 {
                    landings.push((r, nf as usize));
                    nf += df;
                }
            }
        } else {
            for (dr, df) in DIAGONAL {
                let (nr, nf) = (r as i32 + dr, f as i32 + df);
                if inside(nr, nf) && board[nr as usize][nf as usize] == 0 {
                    landings.push((nr as usize, nf as usize));
                }
            }
        }
        let zone = if me == 1 { 4 } else { 0 };
        let mut out = vec![];
        for (lr, lf) in landings {
            let rests: Vec<(usize, usize)> = if lf == 2 {
                [1, -1]
                    .iter()
                    .map(|&dr| {
                        let mut cr = lr as i32;
                        while inside(cr + dr, 2) && board[(cr + dr) as usize][2] == 0 {
                            cr += dr;
                        }
                        (cr as usize, 2)
                    })
                    .collect()
            } else {
                vec![(lr, lf)]
            };
            for (rr, rf) in rests {
                let choices: &[bool] = if crab && rf == zone {
                    &[false, true]
                } else {
                    &[false]
                };
                for &promote in choices {
                    let mut n = board;
                    n[rr][rf] = if promote { 2 * me } else { piece };
                    capture(&mut n, rr, rf, me);
                    let text = format!(
                        "{}{}{}",
                        name(r, f),
                        name(rr, rf),
                        if promote { "+" } else { "" }
                    );
                    out.push((text, n, (rr, rf)));
                }
            }
        }
        out
    }

    fn capture(n: &mut Grid, r: usize, f: usize, me: i8) {
        let mut taken = vec![];
        for (dr, df) in ORTHOGONAL {
            let mut run = vec![];
            let (mut cr, mut cf) = (r as i32 + dr, f as i32 + df);
            while inside(cr, cf) && n[cr as usize][cf as usize] * me < 0 {
                run.push((cr as usize, cf as usize));
                cr += dr;
                cf += df;
            }
            if !run.is_empty() && inside(cr, cf) && n[cr as usize][cf as usize] * me > 0 {
                taken.extend(run);
            }
        }
        for (a, b) in taken {
            n[a][b] = 0;
        }
    }

    pub fn won(g: &Grid, me: i8) -> bool {
        let enemy = g.iter().flatten().filter(|&&v| v * me < 0).count();
        let shrimps = g.iter().flatten().filter(|&&v| v == 2 * me).count();
        enemy <= 2 || shrimps >= 3
    }

    fn add(out: &mut BTreeMap<String, Grid>, text: String, n: Grid) {
        if let Some(old) = out.insert(text.clone(), n) {
            assert_eq!(old, n, "{text}: one text, two different results");
        }
    }

    /// Every turn of `me` (1 first player, -1 second): text -> board after.
    pub fn turns(g: &Grid, me: i8, any_type: bool) -> BTreeMap<String, Grid> {
        let mut out = BTreeMap::new();
        for r in 0..5 {
            for f in 0..5 {
                if g[r][f] * me <= 0 {
                    continue;
                }
                for (t1, g1, (rr, rf)) in movements(g, r, f, false) {
                    add(&mut out, t1.clone(), g1);
                    if won(&g1, me) {
                        continue;
                    }
                    let kind = g1[rr][rf];
                    let mut group = vec![(rr, rf)];
                    let mut i = 0;
                    while i < group.len() {
                        let (a, b) = group[i];
                        i += 1;
                        for (dr, df) in ORTHOGONAL {
                            let (na, nb) = (a as i32 + dr, b as i32 + df);
                            if !inside(na, nb) {
                                continue;
                            }
                            let v = g1[na as usize][nb as usize];
                            let kin = if any_type { v * me > 0 } else { v == kind };
                            if kin && !group.contains(&(na as usize, nb as usize)) {
                                group.push((na as usize, nb as usize));
                            }
                        }
                    }
                    if group.len() < 2 {
                        continue;
                    }
                    for &(mr, mf) in &group {
                        for (t2, g2, _) in movements(&g1, mr, mf, true) {
                            add(&mut out, format!("{t1},{t2}"), g2);
                        }
                    }
                }
            }
        }
        out
    }

    pub fn perft(g: &Grid, me: i8, depth: u32, any_type: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        if won(g, -me) {
            return 0;
        }
        let turns = turns(g, me, any_type);
        if depth == 1 {
            return turns.len() as u64;
        }
        turns
            .values()
            .map(|n| perft(n, -me, depth - 1, any_type))
            .sum()
    }
}

fn side_sign(p: &KaniNariEbi) -> i8 {
    if p.side_to_move() == Color::First {
        1
    } else {
        -1
    }
}

/// Every turn of `p` and its result, against the naive implementation.
fn compare_with_naive(p: &KaniNariEbi) {
    let me = side_sign(p);
    let g = naive::grid(p);
    let s = p.to_text().to_string();
    assert_eq!(
        p.terminal().is_some(),
        naive::won(&g, -me),
        "terminal in {s}"
    );
    if p.terminal().is_some() {
        return;
    }
    let expected = naive::turns(&g, me, p.rules().bond_any_type);
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    let got: BTreeMap<String, naive::Grid> = moves
        .iter()
        .map(|&m| (p.move_text(m).to_string(), naive::grid(&p.play(m))))
        .collect();
    assert_eq!(got.len(), moves.len(), "duplicate move texts in {s}");
    assert_eq!(p.count_moves(), moves.len(), "count_moves in {s}");
    for (t, n) in &expected {
        assert_eq!(got.get(t), Some(n), "{t} in {s}");
    }
    for t in got.keys() {
        assert!(expected.contains_key(t), "{t} is not legal in {s}");
    }
}

/// A random valid position: three to five pieces a side anywhere, some
/// Shrimps, either side to move.
fn random_position(rng: &mut Lcg, r: &KaniRules) -> Option<KaniNariEbi> {
    let mut cells = ['.'; 25];
    for letters in [['C', 'S'], ['c', 's']] {
        let n = 3 + rng.below(3);
        let mut placed = 0;
        while placed < n {
            let sq = rng.below(25);
            if cells[sq] == '.' {
                cells[sq] = letters[usize::from(rng.below(4) == 0)];
                placed += 1;
            }
        }
    }
    let d: String = (0..5)
        .rev()
        .map(|rank| {
            (0..5)
                .map(|f| cells[rank * 5 + f].to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let side = if rng.below(2) == 0 {
        Color::First
    } else {
        Color::Second
    };
    let text =
        crate::protocol::parse_position(&format!("{} {} 1", board_field(&d), side.fen_char()))
            .ok()?;
    KaniNariEbi::from_text(&text, r).ok()
}

#[test]
fn turns_and_results_agree_with_a_naive_implementation_on_random_playouts() {
    let mut rng = Lcg(2024);
    for r in [rules(), any_type()] {
        for _game in 0..40 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..200 {
                compare_with_naive(&p);
                if game_status(&p).is_some() {
                    break;
                }
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn turns_and_results_agree_with_a_naive_implementation_on_random_positions() {
    let mut rng = Lcg(77);
    let mut checked = 0;
    for r in [rules(), any_type()] {
        for _ in 0..1500 {
            if let Some(p) = random_position(&mut rng, &r) {
                compare_with_naive(&p);
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// `is_tactical` (a note move generation adds) against playing the turn,
/// and `generate_tactical` against filtering `generate`, in order.
fn check_tactical(p: &KaniNariEbi) -> usize {
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut flagged = vec![];
    for &m in moves.iter() {
        let next = p.play(m);
        let real = next.pieces(them) != p.pieces(them)
            || next.shrimps(us).count_ones() > p.shrimps(us).count_ones();
        assert_eq!(p.is_tactical(m), real, "{m:?} in {}", p.to_text());
        if real {
            flagged.push(m);
        }
    }
    let mut tactical = <KaniNariEbi as Game>::MoveList::default();
    p.generate_tactical(&mut tactical);
    let got: Vec<u32> = tactical.iter().map(|&m| p.move_id(m)).collect();
    let want: Vec<u32> = flagged.iter().map(|&m| p.move_id(m)).collect();
    assert_eq!(got, want, "{}", p.to_text());
    flagged.len()
}

#[test]
fn tactical_turns_are_exactly_the_captures_and_promotions() {
    let mut rng = Lcg(31);
    let mut seen = 0;
    for r in [rules(), any_type()] {
        for _game in 0..40 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..200 {
                if game_status(&p).is_some() {
                    break;
                }
                seen += check_tactical(&p);
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
        for _ in 0..500 {
            if let Some(p) = random_position(&mut rng, &r)
                && game_status(&p).is_none()
            {
                seen += check_tactical(&p);
            }
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// The position with the other side to move, if that is a valid position.
fn other_side_to_move(p: &KaniNariEbi) -> Option<KaniNariEbi> {
    let mut t = p.to_text();
    t.side = t.side.opponent();
    KaniNariEbi::from_text(&t, p.rules()).ok()
}

/// The evaluation's sandwich exposure against playing every normal
/// movement of the other side: the pieces some movement would capture.
fn check_exposed(p: &KaniNariEbi) {
    let Some(q) = other_side_to_move(p) else {
        return;
    };
    if game_status(&q).is_some() {
        return;
    }
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    q.generate(&mut moves);
    let mut taken = 0;
    for &m in moves.iter().filter(|m| m.bond().is_none()) {
        taken |= p.pieces(us) & !q.play(m).pieces(us);
    }
    let r = eval::reach(
        p.pieces(them),
        p.shrimps(them),
        p.pieces(us),
        board::home(us),
    );
    assert_eq!(
        eval::exposed(p.pieces(us), p.pieces(them), r.squares),
        taken,
        "{}",
        p.to_text()
    );
}

#[test]
fn the_evaluation_sees_every_piece_a_movement_could_sandwich() {
    let mut rng = Lcg(5);
    for r in [rules(), any_type()] {
        for _game in 0..30 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..150 {
                if game_status(&p).is_some() {
                    break;
                }
                check_exposed(&p);
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
        for _ in 0..1000 {
            if let Some(p) = random_position(&mut rng, &r) {
                check_exposed(&p);
            }
        }
    }
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_from_the_start_matches_the_spec() {
    let p = KaniNariEbi::start(&rules());
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 361);
    assert_eq!(perft(&p, 3), 13_381);
}

#[test]
fn perft_agrees_with_the_naive_implementation() {
    for (s, r, depth) in [
        ("C3c/C3c/C3c/C3c/C3c w 1", rules(), 4),
        ("C3c/C3c/C3c/C3c/C3c w 1", any_type(), 3),
        ("1C1sc/C1S2/2cCs/C2c1/5 w 12", rules(), 3),
        ("CC1cc/C3c/5/C4/C2cc w 1", rules(), 3),
        ("2S2/1s1C1/S3c/1c1s1/C3c b 20", rules(), 3),
        ("2S2/1s1C1/S3c/1c1s1/C3c b 20", any_type(), 3),
    ] {
        let p = position::<KaniNariEbi>(s, &r);
        let g = naive::grid(&p);
        for d in 1..=depth {
            assert_eq!(
                perft(&p, d),
                naive::perft(&g, side_sign(&p), d, r.bond_any_type),
                "{s} depth {d}"
            );
        }
    }
}

#[test]
fn perft_with_kani_bond_any_type() {
    // Cross-checked with the naive implementation to these depths.
    let p = KaniNariEbi::start(&any_type());
    assert_eq!(perft(&p, 4), 472_766);
    let p = position::<KaniNariEbi>("1C1sc/C1S2/2cCs/C2c1/5 w 12", &any_type());
    assert_eq!(perft(&p, 4), 370_493);
    let p = position::<KaniNariEbi>("2S2/1s1C1/S3c/1c1s1/C3c b 20", &any_type());
    assert_eq!(perft(&p, 4), 792_215);
}

#[test]
#[ignore = "slow: the naive implementation at depth 5 from the start"]
fn perft_depth_5_agrees_with_the_naive_implementation() {
    let p = KaniNariEbi::start(&rules());
    assert_eq!(naive::perft(&naive::grid(&p), 1, 5, false), perft(&p, 5));
}

/// The River squares each movement of `mv` may have entered by, as text.
fn river_via(p: &KaniNariEbi, mv: &str) -> Vec<Vec<String>> {
    let m = p
        .find_move(&crate::protocol::parse_move(mv).unwrap())
        .unwrap_or_else(|| panic!("{mv} is not legal"));
    let hint = p.hint(m);
    assert!(hint.flips.is_empty());
    let text = |v: &Vec<crate::core::Coord>| v.iter().map(|c| c.to_string()).collect();
    hint.via.iter().map(text).collect()
}

#[test]
fn hint_a_crab_enters_the_river_on_its_rank() {
    let p = KaniNariEbi::start(&rules());
    assert_eq!(river_via(&p, "a3c5"), [["c3"]]);
    assert_eq!(river_via(&p, "a3c1"), [["c3"]]);
    assert_eq!(river_via(&p, "a3b3"), [Vec::<String>::new()]);
}

#[test]
fn hint_diagonal_steps_enter_one_rank_up_or_down_where_the_current_agrees() {
    // A Shrimp on b3, a blocker on c3: c5 is reached only through c4.
    let p = diagram(
        "C . . . c
         . . . . c
         . S c . .
         . . . . .
         C . . . c",
        Color::First,
    );
    assert_eq!(river_via(&p, "b3c5"), [["c4"]]);
    assert_eq!(river_via(&p, "b3c1"), [["c2"]]);
    // Without the blocker both entries lead up to c5, the higher first.
    let p = diagram(
        "C . . . c
         . . . . c
         . S . . .
         . . . . c
         C . . . c",
        Color::First,
    );
    assert_eq!(river_via(&p, "b3c5"), [["c4", "c2"]]);
}

/// The search's "check" in a game without a King: where `in_check` holds,
/// the opponent, were it to move, would win (third Shrimp or third capture)
/// with a turn without a Bond step (every movement is one). The converse
/// is not asked: one movement can capture whole lines, and `in_check` only
/// looks for the last capture (the count of missed wins is printed).
/// Checked on positions from random games.
#[test]
fn in_check_means_the_opponent_wins_with_its_next_movement() {
    let r = rules();
    let mut rng = Lcg(7);
    let (mut checks, mut missed) = (0, 0);
    for _ in 0..80 {
        let mut pos = KaniNariEbi::start(&r);
        for _ in 0..200 {
            if game_status(&pos).is_some() {
                break;
            }
            let mut text = pos.to_text();
            text.side = text.side.opponent();
            if let Ok(turned) = KaniNariEbi::from_text(&text, &r) {
                let mut replies = <KaniNariEbi as Game>::MoveList::default();
                turned.generate(&mut replies);
                let wins = replies.iter().any(|&m| {
                    m.bond().is_none()
                        && turned.play(m).terminal().is_some_and(|e| {
                            matches!(e.reason, EndReason::Captures | EndReason::Shrimps)
                        })
                });
                let check = pos.in_check();
                assert!(!check || wins, "{}", pos.to_text());
                checks += usize::from(check);
                missed += usize::from(wins && !check);
            }
            let mut moves = <KaniNariEbi as Game>::MoveList::default();
            pos.generate(&mut moves);
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{checks} checks, {missed} wins not seen as checks");
    assert!(checks > 20, "only {checks} checks in the sample");
}
