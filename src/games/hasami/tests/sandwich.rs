//! Hasami Shogi rules: capture by sandwich, lines and corners.

use super::*;

#[test]
fn a_single_sandwiched_man_is_captured() {
    let p = game("a1 g1", "c1");
    let q = play(&p, "g1d1");
    assert_eq!(
        men_of(&q, Color::Second),
        "c1",
        "the far end must touch the run"
    );
    let p = game("b1 g1", "c1");
    let q = play(&p, "g1d1");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 1);
}

#[test]
fn a_whole_closed_line_is_captured_at_once() {
    let p = game("a1 i1", "b1 c1 d1");
    let q = play(&p, "i1e1");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 3);
}

#[test]
fn with_lines_off_only_a_single_man_is_captured() {
    let r = with("HasamiLines", OptionValue::Check(false));
    let (f, s) = spare("a1 h1", "b1 c1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(
        men_of(&q, Color::Second),
        "b1 c1",
        "a longer line captures nothing"
    );
    let (f, s) = spare("a1 h1", "b1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "h1c1");
    assert_eq!(men_of(&q, Color::Second), "");
}

#[test]
fn captures_in_several_directions_resolve_together() {
    // Moving e1 to e3 closes e4 (with e5), d3 (with c3) and f3 (with g3).
    let p = game("c3 g3 e5 e1", "d3 f3 e4");
    let q = play(&p, "e1e3");
    assert_eq!(men_of(&q, Color::Second), "");
    assert_eq!(q.captured_by(Color::First) - p.captured_by(Color::First), 3);
}

#[test]
fn the_board_edge_never_closes_a_sandwich() {
    let p = game("h1", "a1 b1");
    let q = play(&p, "h1c1");
    assert_eq!(men_of(&q, Color::Second), "a1 b1");
    let p = game("b9", "a9 a8");
    let q = play(&p, "b9b8");
    assert_eq!(
        men_of(&q, Color::Second),
        "a8 a9",
        "nor does a corner in a line"
    );
}

#[test]
fn moving_between_two_enemy_men_is_safe() {
    let p = game("e2", "d1 f1");
    let q = play(&p, "e2e1");
    assert_eq!(men_of(&q, Color::First), "e1");
}

#[test]
fn only_the_moved_man_captures() {
    // b1 already stands between two first-player men: moving another man
    // does not capture it.
    let p = game("a1 c1 i1", "b1");
    let q = play(&p, "i1i2");
    assert_eq!(men_of(&q, Color::Second), "b1");
}

#[test]
fn a_corner_man_is_captured_by_both_neighbours() {
    let p = game("a2 d1", "a1");
    let q = play(&p, "d1b1");
    assert_eq!(men_of(&q, Color::Second), "");
}

#[test]
fn a_corner_capture_needs_the_moved_man_as_one_neighbour() {
    let p = game("a2 b1 i1", "a1");
    let q = play(&p, "i1i2");
    assert_eq!(men_of(&q, Color::Second), "a1");
}

#[test]
fn with_corners_off_a_corner_man_is_safe() {
    let r = with("HasamiCorners", OptionValue::Check(false));
    let (f, s) = spare("a2 d1", "a1");
    let p = setup_with(&f, &s, Color::First, &r);
    let q = play(&p, "d1b1");
    assert_eq!(men_of(&q, Color::Second), "a1");
}

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'1')
}

#[test]
fn corner_captures_work_in_every_corner_for_both_sides() {
    // (corner, the neighbour already held, the move onto the other one)
    for (corner, held, mv) in [
        ("a1", "a2", "c1b1"),
        ("i1", "h1", "i3i2"),
        ("a9", "b9", "a7a8"),
        ("i9", "i8", "g9h9"),
    ] {
        for side in Color::BOTH {
            let mine = format!("{held} {}", &mv[..2]);
            let (f, s) = match side {
                Color::First => (mine, corner.to_string()),
                Color::Second => (corner.to_string(), mine),
            };
            let p = setup(
                &format!("{f} a5 b5 c5 d5"),
                &format!("{s} f5 g5 h5 i5"),
                side,
            );
            let q = play(&p, mv);
            assert_eq!(
                q.men(side.opponent()) & sq(corner).bit(),
                0,
                "{corner} for {side:?}"
            );
        }
    }
}
