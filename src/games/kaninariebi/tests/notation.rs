//! Kani Nari Ebi rules: position strings, move texts and the rule options.

use super::*;

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
    assert_eq!(p.terminal(), Some(End::win(Color::First, SHRIMPS)));
    let p = position::<KaniNariEbi>("C3c/C3c/4c/4c/4c w 3", &rules());
    assert_eq!(
        p.terminal(),
        Some(End::win(Color::Second, endings::CAPTURES))
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
    let declared: Vec<_> = KaniRules::specs()
        .iter()
        .map(|s| (s.name, s.kind.clone()))
        .collect();
    let check = |default| crate::core::OptionKind::Check { default };
    assert_eq!(
        declared,
        [
            ("KaniBondAnyType", check(false)),
            ("KaniRepetition", check(true)),
        ]
    );
    assert!(!rules().bond_any_type);
    assert!(any_type().bond_any_type);
    assert!(rules().repetition);
    assert!(!no_repetition().repetition);
}
