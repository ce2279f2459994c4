//! Kani Nari Ebi rules: the end of the game.

use super::*;

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
        Some(End::win(Color::First, endings::CAPTURES))
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
        Some(End::win(Color::First, endings::CAPTURES))
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
        Some(End::win(Color::First, SHRIMPS))
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
