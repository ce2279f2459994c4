//! Negaeri Shogi rules: passes and the end of the game.

use super::*;

/// The first player walled in on a6 (King, a5 b5 b6 pawns that cannot move)
/// with nothing in hand; the second likewise on f1.
const FIRST_WALLED: &str = "Ka6 Pa5 Pb5 Pb6";
const SECOND_WALLED: &str = "kf1 pf2 pe2 pe1";

#[test]
fn pass_is_the_only_move_when_there_is_no_board_move_and_no_drop() {
    let p = game(&format!("{FIRST_WALLED} kf1"), "", 'w');
    assert_eq!(move_strings(&p), ["pass"]);
    let q = play(&p, "pass");
    assert_eq!(q.side_to_move(), Color::Second);
    assert_eq!(q.passes(), 1);
    assert_eq!(game_status(&q), None);
    assert_eq!(q.to_text().to_string(), "KP4/PP4/6/6/6/5k[] b 1 1");
    check_position(&q, &rules());
    // A piece in hand means a drop, so no pass.
    let p = game(&format!("{FIRST_WALLED} kf1"), "P", 'w');
    assert!(!is_legal(&p, "pass"));
    // Nor with a board move.
    assert!(!is_legal(&Negaeri::start(&rules()), "pass"));
}

#[test]
fn a_move_after_a_pass_resets_the_count() {
    let p = game(&format!("{FIRST_WALLED} kf1"), "", 'w');
    let q = play(&play(&p, "pass"), "f1e1");
    assert_eq!(q.passes(), 0);
    let r = play(&q, "pass");
    assert_eq!(r.passes(), 1);
    assert_eq!(game_status(&r), None);
}

#[test]
fn the_double_pass_ends_the_game_by_pieces_on_the_board() {
    let p = game(&format!("{FIRST_WALLED} {SECOND_WALLED}"), "", 'w');
    let q = play(&play(&p, "pass"), "pass");
    assert_eq!(q.passes(), 2);
    check_position(&play(&p, "pass"), &rules());
    check_position(&q, &rules());
    assert_eq!(game_status(&q), Some(End::new(Outcome::Draw, DOUBLE_PASS)));
    assert!(move_strings(&q).is_empty());
    // One more first-player pawn (stuck on c6): the first player wins.
    let p = game(&format!("{FIRST_WALLED} Pc6 {SECOND_WALLED}"), "", 'w');
    let q = play(&play(&p, "pass"), "pass");
    assert_eq!(game_status(&q), Some(End::win(Color::First, DOUBLE_PASS)));
    // One more second-player pawn (stuck on c1): the second player wins.
    let p = game(&format!("{FIRST_WALLED} pc1 {SECOND_WALLED}"), "", 'w');
    let q = play(&play(&p, "pass"), "pass");
    assert_eq!(game_status(&q), Some(End::win(Color::Second, DOUBLE_PASS)));
}

#[test]
fn capturing_the_king_wins_at_once_and_moving_into_attack_is_legal() {
    // The first King steps next to the second King: legal.
    let p = game("Kc3 ke5", "", 'w');
    assert!(is_legal(&p, "c3d4"));
    let q = play(&p, "c3d4");
    assert_eq!(game_status(&q), None);
    let r = play(&q, "e5d4");
    assert_eq!(
        game_status(&r),
        Some(End::win(Color::Second, endings::KING_CAPTURED))
    );
    assert!(move_strings(&r).is_empty());
    assert_eq!(
        r.in_hand(Color::Second, Kind::King),
        0,
        "a captured King is not held"
    );
    assert_eq!(r.to_text().to_string(), "6/6/3k2/6/6/6[] w 0 2");
    // A King capture decides the game even when the captor has fewer pieces.
    let p = game("Kc3 Pa1 Pa2 Pa3 kd4", "", 'b');
    assert_eq!(
        game_status(&play(&p, "d4c3")),
        Some(End::win(Color::Second, endings::KING_CAPTURED))
    );
}

/// Plays `moves` from `p` with a history, checking the game is not over
/// before the last one; returns the final status.
fn play_line(p: &Negaeri, moves: &[&str]) -> Option<End> {
    let mut p = p.clone();
    let mut h = History::starting_at(&p);
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(status_with_history(&p, &h), None, "over before ply {i}");
        p = play(&p, mv);
        h.push(p.repetition_key());
    }
    status_with_history(&p, &h)
}

#[test]
fn the_fourth_occurrence_of_a_position_ends_the_game_by_pieces_on_the_board() {
    let shuffle = ["b1a1", "e6f6", "a1b1", "f6e6"];
    let line: Vec<&str> = shuffle.iter().cycle().take(12).copied().collect();
    // From the start: 6 pieces each on the board: a draw on the fourth
    // occurrence (start, after 4, 8 and 12 plies), not the third.
    let start = Negaeri::start(&rules());
    assert_eq!(play_line(&start, &line[..8]), None, "third occurrence");
    assert_eq!(
        play_line(&start, &line),
        Some(End::new(Outcome::Draw, EndReason::Repetition))
    );
    // One more piece on the board for the second player: it wins by the
    // count, although the first player holds four pieces in hand.
    let p = game("Rb1 Kc1 Pa6 ke6 pf1 pf2 pf3", "RBPP", 'w');
    let line = ["b1a1", "e6e5", "a1b1", "e5e6"]
        .iter()
        .cycle()
        .take(12)
        .copied()
        .collect::<Vec<_>>();
    assert_eq!(
        play_line(&p, &line),
        Some(End::win(Color::Second, EndReason::Repetition))
    );
}

#[test]
fn a_pass_counter_the_hands_or_the_board_contradict_is_refused() {
    let refusal = |s: &str| match Negaeri::from_text(
        &crate::protocol::parse_position(s).unwrap(),
        &rules(),
    ) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{s} should be refused"),
    };
    for (bad, says) in [
        // The second player "passed" with its whole hand.
        (
            "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 1 1",
            "the second player passed with pieces in hand",
        ),
        (
            "KP4/PP4/6/6/6/5k[P] b 1 7",
            "the first player passed with pieces in hand",
        ),
        // The King a6 could step to b6.
        (
            "KP4/P5/6/6/6/5k[] b 1 7",
            "the first player passed with a board move",
        ),
        // Two passes: the King f1 could move.
        (
            "KP4/PP4/6/6/6/5k[] w 2 8",
            "the second player passed with a board move",
        ),
        (
            "KP4/PP4/6/6/6/6[] b 1 7",
            "captured by the last move, which cannot have been a pass",
        ),
    ] {
        let e = refusal(bad);
        assert!(e.contains(says), "{bad}: {e}");
    }
    // Passes that happen: both boxed in with empty hands.
    let p = pos("KP4/PP4/6/6/4pp/4pk[] w 2 12");
    assert!(crate::core::game_status(&p).is_some());
    pos("KP4/PP4/6/6/6/5k[p] b 1 7");
}

#[test]
fn repetition_compares_board_hands_and_side_not_the_move_number() {
    let p = Negaeri::start(&rules());
    let q = play(&play(&play(&play(&p, "b1a1"), "e6f6"), "a1b1"), "f6e6");
    assert_eq!(q.repetition_key(), p.repetition_key());
    assert_ne!(
        q.to_text().to_string(),
        p.to_text().to_string(),
        "the move number differs"
    );
    // Same board, different hands: different positions.
    let a = pos("2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1");
    let b = pos("2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPrbpppp] w 0 1");
    assert_ne!(a.repetition_key(), b.repetition_key());
    // Same board and hands, other side to move: different.
    let c = pos("2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] b 0 1");
    assert_ne!(a.repetition_key(), c.repetition_key());
    // The pass counter is not part of it (but is part of the hash): the
    // first player, boxed in and with an empty hand, passed or made the
    // move that boxed it in.
    let a = pos("KP4/PP4/6/6/6/5k[p] b 0 7");
    let d = pos("KP4/PP4/6/6/6/5k[p] b 1 7");
    assert_eq!(a.repetition_key(), d.repetition_key());
    assert_ne!(a.hash(), d.hash());
}
