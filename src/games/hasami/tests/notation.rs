//! Hasami Shogi rules: position strings.

use super::*;

#[test]
fn position_strings_are_checked() {
    for bad in [
        "9/9/9/9/9/9/9/9/PPPPPPPPP",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 0",
        "9/9/9/9/9/9/9/9/PPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/9/PPPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPK w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPP+P w 1",
        "9/9/9/9/9/9/9/P8/PPPPPPPPP w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPP[P] w 1",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 1 2",
        "9/9/9/9/9/9/9/9/PPPPPPPPP w 4294967295",
    ] {
        let t = crate::protocol::parse_position(bad);
        let refused = match t {
            Err(_) => true,
            Ok(t) => Hasami::from_text(&t, &rules()).is_err(),
        };
        assert!(refused, "{bad} should be refused");
    }
    assert!(is_legal(&Hasami::start(&rules()), "a1a8"));
    assert!(!is_legal(&Hasami::start(&rules()), "a1a9"));
    assert!(!is_legal(&Hasami::start(&rules()), "a1a2+"));
}

/// Why `s` is refused under `r`.
fn refusal(s: &str, r: &HasamiRules) -> String {
    let t = crate::protocol::parse_position(s).unwrap();
    match Hasami::from_text(&t, r) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{s} should be refused"),
    }
}

#[test]
fn the_side_that_just_moved_always_has_a_man_under_every_win_rule() {
    for win in ["five", "all", "lead3"] {
        let mut r = rules();
        r.set("HasamiWin", &OptionValue::Combo(win.into())).unwrap();
        for (s, who) in [
            ("9/9/9/9/9/9/9/9/9 w 1", "second player"),
            ("9/9/9/9/9/9/9/9/9 b 1", "first player"),
            ("9/9/9/9/9/9/9/9/PPPPPPPPP w 3", "second player"),
            ("ppppp4/9/9/9/9/9/9/9/9 b 3", "first player"),
        ] {
            let e = refusal(s, &r);
            assert!(
                e.contains(&format!("the {who} has no men, but made the last move")),
                "{win} {s}: {e}"
            );
        }
        // The side to move without men has lost: a position that arises.
        let p = position::<Hasami>("ppppp4/9/9/9/9/9/9/9/9 w 3", &r);
        assert!(crate::core::game_status(&p).is_some(), "{win}");
    }
    // Endgames with a man a side load under any rule (tests/data).
    pos("8p/9/9/9/9/9/9/9/P8 w 1");
}

#[test]
fn no_position_follows_the_300_ply_limit() {
    // Move 151 with the first player to move is ply 300: over, by the limit.
    let p = pos("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 151");
    assert_eq!(
        crate::core::game_status(&p).map(|e| e.reason),
        Some(EndReason::MoveLimit)
    );
    let e = refusal("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 151", &rules());
    assert!(e.contains("ply 301 is past the 300-ply limit"), "{e}");
    let e = refusal("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1000", &rules());
    assert!(e.contains("ply 1998 is past"), "{e}");
}
