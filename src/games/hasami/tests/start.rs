//! Hasami Shogi rules: the start position and perft.

use super::*;

#[test]
fn start_position_has_nine_men_each_on_the_home_ranks() {
    let p = Hasami::start(&rules());
    assert_eq!(
        p.to_text().to_string(),
        "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1"
    );
    assert_eq!(p.side_to_move(), Color::First);
}

#[test]
fn perft_from_the_start_matches_the_spec() {
    let p = Hasami::start(&rules());
    assert_eq!(perft(&p, 1), 63);
    assert_eq!(perft(&p, 2), 3_717);
    assert_eq!(perft(&p, 3), 254_219);
}

#[test]
fn perft_hand_counted_lone_men() {
    // A lone man on an empty board reaches 8 squares along its rank and 8
    // along its file. After each of the first player's 16 moves the second
    // player's man on i9 has 16 moves, except after a1a9 and a1i1, which
    // block one square of its lines: 14 * 16 + 2 * 15 = 254. (Under `all`,
    // so that eight missing men do not already end the game.)
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("a1", "i9", Color::First, &r);
    assert_eq!(perft(&p, 1), 16);
    assert_eq!(perft(&p, 2), 254);
}

#[test]
fn perft_hand_counted_capture_ends_the_branch() {
    // First: a1, c1; second: b2 (under `all`). a1 goes up 8 (a2..a9) and
    // right 1 (b1): 9; c1 goes up 8, left 1 and right 6: 15. Total 24.
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("a1 c1", "b2", Color::First, &r);
    assert_eq!(perft(&p, 1), 24);
    // With a man on a2, c1c2 captures b2, the last enemy man: the game is
    // over, so that move has no children at depth 2.
    let p = setup_with("a2 c1", "b2", Color::First, &r);
    let q = crate::games::conformance::play(&p, "c1c2");
    assert_eq!(q.terminal(), Some(End::win(Color::First, ALL_CAPTURED)));
    // So at depth 2 that move contributes nothing below it.
    let total: u64 = move_strings(&p)
        .iter()
        .map(|m| perft(&crate::games::conformance::play(&p, m), 1))
        .sum();
    assert_eq!(perft(&p, 2), total);
    assert_eq!(perft(&crate::games::conformance::play(&p, "c1c2"), 1), 0);
}
