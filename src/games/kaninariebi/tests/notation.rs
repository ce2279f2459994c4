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

/// Callers match on what is wrong; the words (which the protocol prints)
/// name the offending part.
#[test]
fn position_refusals_name_the_fault() {
    use crate::core::{PieceText, Place, PositionError};
    let e5 = Coord::new(4, 4);
    let piece = |letter, color, promoted| PieceText {
        letter,
        color,
        promoted,
    };
    let cases = [
        (
            "C3c/C3c/C3c/C3c w 1",
            PositionError::Ranks {
                found: 4,
                expected: 5,
            },
            "board has 4 ranks, expected 5",
        ),
        (
            "C3c/C3c/C3c/C3c/C3 w 1",
            PositionError::Files {
                rank: 1,
                found: 4,
                expected: 5,
            },
            "rank 1 has 4 files, expected 5",
        ),
        (
            "C3k/C3c/C3c/C3c/C3c w 1",
            PositionError::UnknownPiece {
                piece: piece('K', Color::Second, false),
                place: Place::Square(e5),
                known: "Kani Nari Ebi pieces are C (Crab) and S (Shrimp)",
            },
            "unknown piece k on e5: Kani Nari Ebi pieces are C (Crab) and S (Shrimp)",
        ),
        (
            "+C3c/C3c/C3c/C3c/C3c w 1",
            PositionError::Miswritten {
                piece: piece('C', Color::First, true),
                place: Place::Square(Coord::new(0, 4)),
                why: "a promoted Crab is written S (Shrimp), without +",
            },
            "+C on a5: a promoted Crab is written S (Shrimp), without +",
        ),
        (
            "C3c/C3c/C3c/C3c/C3c[C] w 1",
            PositionError::NoHand {
                game: "Kani Nari Ebi",
            },
            "Kani Nari Ebi has no pieces in hand",
        ),
        (
            "C3c/C3c/C3c/C3c/C3c w 0",
            PositionError::MoveNumber { max: None },
            "the move number starts at 1",
        ),
        (
            "C3c/C3c/C3c/C3c/C3c w 1 2",
            PositionError::Counters {
                game: "Kani Nari Ebi",
                expected: "one counter, the move number",
            },
            "Kani Nari Ebi position strings have one counter, the move number",
        ),
    ];
    for (text, fault, words) in cases {
        let t = crate::protocol::parse_position(text).unwrap();
        let e = KaniNariEbi::from_text(&t, &rules()).unwrap_err();
        assert_eq!(e, fault, "{text}");
        assert_eq!(e.to_string(), words, "{text}");
    }
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
