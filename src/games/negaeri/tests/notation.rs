//! Negaeri Shogi rules: position strings and move texts.

use super::*;

#[test]
fn position_strings_round_trip_and_are_canonical() {
    for s in [
        "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1",
        "2bkr1/2ppp1/2R3/R+P+P3/1PPP2/1RKB2[bp] b 0 1",
        "KP4/PP4/6/6/6/5k[] b 1 7",
        "KP4/PP4/6/6/4pp/4pk[] w 2 12",
        "6/6/6/3k2/6/6[RRBBPPrb] w 0 2",
        "+R+B+P3/6/6/6/6/k4K[] b 0 40",
    ] {
        let p = pos(s);
        assert_eq!(p.to_text().to_string(), s);
        check_position(&p, &rules());
    }
    // Hands in any order, `[-]`, and missing counters are read.
    assert_eq!(
        pos("2bkr1/2ppp1/6/6/1PPP2/1RKB2[pPpBRPrPbPp] w")
            .to_text()
            .to_string(),
        "2bkr1/2ppp1/6/6/1PPP2/1RKB2[RBPPPPrbppp] w 0 1"
    );
    assert_eq!(
        pos("k5/6/6/6/6/5K[-] w").to_text().to_string(),
        "k5/6/6/6/6/5K[] w 0 1"
    );
    assert_eq!(
        pos("k5/6/6/6/6/5K w").to_text().to_string(),
        "k5/6/6/6/6/5K[] w 0 1"
    );
}

#[test]
fn position_strings_are_checked() {
    let refused = |s: &str| -> String {
        match crate::protocol::parse_position(s) {
            Err(e) => format!("parse: {e}"),
            Ok(t) => match Negaeri::from_text(&t, &rules()) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{s} should be refused"),
            },
        }
    };
    for (bad, says) in [
        ("k5/6/6/6/6/5K[] w 0", "two counters"),
        ("k5/6/6/6/6/5K[] w 0 1 2", "two counters"),
        ("k5/6/6/6/6/5K[] w 3 1", "passes"),
        ("k5/6/6/6/6/5K[] w 0 0", "move number"),
        ("k5/6/6/6/6/K[] w 0 1", "files"),
        ("k5/6/6/6/5K[] w 0 1", "ranks"),
        ("k5/6/6/6/6/4GK[] w 0 1", "G on e1"),
        ("k5/6/6/6/6/4+KK[] w 0 1", "+K on e1"),
        ("k5/6/6/6/6/4KK[] w 0 1", "second King"),
        ("k5/6/6/6/6/5K[K] w 0 1", "King is never held"),
        ("k5/6/6/6/6/5K[N] w 0 1", "unknown piece N in hand"),
        ("k5/6/6/6/6/6[] b 0 1", "first player has no King"),
        ("6/6/6/6/6/5K[] w 0 1", "second player has no King"),
        ("k5/6/6/6/PPPPPP/5K[PPPPPPPP] w 0 1", "too many P"),
        ("k5/6/6/6/R+R4/5K[Rrr] w 0 1", "too many R"),
        ("k5/6/6/6/B+B4/5K[BBb] w 0 1", "too many B"),
    ] {
        let msg = refused(bad);
        assert!(msg.contains(says), "{bad}: {msg:?} should mention {says:?}");
    }
    // The side to move may have lost its King: the game is over.
    let p = pos("k5/6/6/6/6/6[] w 0 3");
    assert_eq!(
        game_status(&p),
        Some(End::win(Color::Second, endings::KING_CAPTURED))
    );
}

#[test]
fn move_texts_are_board_moves_drops_and_pass() {
    let p = Negaeri::start(&rules());
    for m in ["b1a1", "d1f3", "P@c4", "R@a6", "B@f4"] {
        assert!(is_legal(&p, m), "{m}");
    }
    for m in [
        "b1a1+",
        "K@c4",
        "p@c4",
        "P@c1",
        "a1a2",
        "c1c2",
        "pass",
        "b1a1,a1b1",
        "g1g2",
    ] {
        assert!(!is_legal(&p, m), "{m}");
    }
}
