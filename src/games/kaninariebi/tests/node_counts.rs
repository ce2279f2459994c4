//! Kani Nari Ebi rules: perft from the start and other positions.

use super::*;

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
    assert!(hint.levels.is_empty());
    let text = |v: &Vec<crate::core::Coord>| v.iter().map(|c| c.to_string()).collect();
    hint.paths.iter().map(text).collect()
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
                        && turned
                            .play(m)
                            .terminal()
                            .is_some_and(|e| matches!(e.reason, endings::CAPTURES | SHRIMPS))
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
