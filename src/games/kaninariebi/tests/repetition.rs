//! Kani Nari Ebi rules: the fourth occurrence of a position under KaniRepetition.

use super::*;

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
