//! Hasami Shogi rules: the win rules, no legal move, repetition and the 300-ply limit.

use super::*;

#[test]
fn five_captures_win_at_once() {
    // The first player has taken four (a9..d9 missing); taking a fifth wins.
    let p = setup("b1 h1 a5 b5 c5 d5 e5", "c1 e9 f9 g9 h9 i9", Color::First);
    assert_eq!(p.captured_by(Color::First), 3);
    let p = setup("b1 h1 a5 b5 c5 d5 e5", "c1 f9 g9 h9 i9", Color::First);
    assert_eq!(p.captured_by(Color::First), 4);
    assert_eq!(p.terminal(), None);
    let q = play(&p, "h1d1");
    assert_eq!(
        q.terminal(),
        Some(End::win(Color::First, endings::CAPTURES))
    );
    assert_eq!(move_strings(&q), Vec::<String>::new());
}

#[test]
fn with_win_all_five_captures_do_not_end_the_game() {
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("b1 h1", "c1 f9 g9 h9 i9", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(q.terminal(), None);
    let p = setup_with("b1 h1", "c1", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(q.terminal(), Some(End::win(Color::First, ALL_CAPTURED)));
}

#[test]
fn with_lead3_the_lead_must_survive_the_reply() {
    let r = with("HasamiWin", OptionValue::Combo("lead3".into()));
    // Nine first-player men; the second player has lost one (eight left).
    // Taking b1 and c1 makes the lead three, checked at the first player's
    // next turn only.
    let first = "a1 h1 a5 b5 c5 d5 e5 e6 e7";
    let p = setup_with(first, "b1 c1 a9 b9 c9 d9 e9 f9", Color::First, &r);
    assert_eq!(p.captured_by(Color::First), 1);
    let q = play(&p, "h1d1");
    assert_eq!(q.captured_by(Color::First), 3);
    assert_eq!(q.terminal(), None, "the opponent may reply");
    let quiet = play(&q, "f9f8");
    assert_eq!(quiet.terminal(), Some(End::win(Color::First, CAPTURE_LEAD)));
    // A reply that captures back brings the lead under three: i9i2 takes h2
    // against g2.
    let first = "a1 h1 h2 a5 b5 c5 d5 e5 e6";
    let p = setup_with(first, "b1 c1 g2 i9 a9 b9 c9 d9", Color::First, &r);
    let q = play(&p, "h1d1");
    assert_eq!(q.captured_by(Color::First), 3);
    let back = play(&q, "i9i2");
    assert_eq!(back.captured_by(Color::Second), 1);
    assert_eq!(back.terminal(), None);
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // The second player's only man, in a corner, is walled in (under
    // `all`, so that eight missing men do not already end the game).
    let r = with("HasamiWin", OptionValue::Combo("all".into()));
    let p = setup_with("b9 a8", "a9", Color::Second, &r);
    assert_eq!(
        crate::core::game_status(&p),
        Some(End::win(Color::First, EndReason::NoLegalMove))
    );
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw_counting_the_start() {
    let mut p = Hasami::start(&rules());
    let mut h = History::starting_at(&p);
    for (i, mv) in [
        "a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1", "a8a9",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(status_with_history(&p, &h), None, "before ply {i}");
        p = play(&p, mv);
        h.push(p.repetition_key());
    }
    assert_eq!(h.occurrences_of_last(), 3);
    assert_eq!(
        status_with_history(&p, &h),
        Some(End::new(Outcome::Draw, EndReason::Repetition))
    );
}

#[test]
fn after_300_plies_more_captures_win_and_equal_draws() {
    // Move 150 with the second player to move is ply 299.
    let p = pos("pppppppp1/9/9/9/9/9/9/9/PPPPPPPPP b 150");
    assert_eq!(p.ply(), 299);
    assert_eq!(crate::core::game_status(&p), None);
    let q = play(&p, "a9a8");
    assert_eq!(q.ply(), 300);
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::win(Color::First, EndReason::MoveLimit))
    );
    let p = pos("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 150");
    let q = play(&p, "a9a8");
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::new(Outcome::Draw, EndReason::MoveLimit))
    );
}

#[test]
fn a_result_on_the_300th_ply_takes_precedence() {
    // Ply 300 is the second player's capture of a fifth man.
    let p = pos("p3ppppp/9/9/9/9/9/9/9/1Pp2PPPP b 150");
    assert_eq!(p.captured_by(Color::Second), 4);
    let q = play(&p, "a9a1");
    assert_eq!(q.captured_by(Color::Second), 5);
    assert_eq!(
        crate::core::game_status(&q),
        Some(End::win(Color::Second, endings::CAPTURES))
    );
}
