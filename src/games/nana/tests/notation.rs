//! Nana Shogi rules: position strings and move texts.

use super::*;

#[test]
fn position_strings_round_trip_and_are_checked() {
    for good in [
        "3/3/3[KRBkrb] w 1",
        "3/3/K2[RBkrb] b 1",
        "2k/1B1/K2[RRb] w 17",
        "k1R/1B1/K2[] b 1",
        "V2/3/K2[B] b 1",
        "1dK/cg1/kv1[] b 3",
    ] {
        assert_eq!(text(&pos(good)), good);
        check_position(&pos(good), &NoRules);
    }
    // Optional parts: no counter means move 1, no bracket empty hands.
    assert_eq!(text(&pos("3/3/3[KRBkrb] w")), "3/3/3[KRBkrb] w 1");
    assert_eq!(text(&pos("2k/3/K2 w 4")), "2k/3/K2[] w 4");
    assert_eq!(text(&pos("2k/3/K2[-] w 4")), "2k/3/K2[] w 4");
    for bad in [
        "3/3/3[KRBkrb] w 0",
        "3/3/3[KRBkrb] w 1 2",
        "4/3/3[KRBkrb] w 1",
        "3/3[KRBkrb] w 1",
        "3/3/3 w 1",
        "3/3/3[KRBkrbR] w 1",
        "3/3/3[KKRBrb] w 1",
        "3/3/3[KVBkrb] w 1",
        "3/3/3[KRBkrbP] w 1",
        "K2/3/K1k[RBrb] w 1",
        "k2/3/P1K[] w 1",
        "k2/3/+R1K[] w 1",
        "k2/3/R1K[Bk] w 1",
        "k2/3/R2[B] b 1",
        "3/3/R1K[Bkrb] b 1",
        "3/1K1/3[RBkrb] b 1",
        "k2/RR1/R1K[] w 1",
        "k2/BB1/B1K[] w 1",
    ] {
        let refused = match crate::protocol::parse_position(bad) {
            Err(_) => true,
            Ok(t) => Nana::from_text(&t, &NoRules).is_err(),
        };
        assert!(refused, "{bad} should be refused");
    }
    // A side whose King was just taken is a finished game, and valid.
    assert!(pos("k2/3/R2[B] w 1").terminal().is_some());
}

#[test]
fn move_texts_are_checked() {
    let p = pos("2k/3/K2[R] w 1");
    assert!(is_legal(&p, "V@a3"));
    for bad in [
        "R@b2", "B@a3", "X@a3", "K@a3", "a1a2+", "a1d1", "a1a3", "pass", "V@a4",
    ] {
        assert!(!is_legal(&p, bad), "{bad}");
    }
}

#[test]
fn the_constructor_builds_what_the_string_describes() {
    let mut placement = [None; 9];
    placement[sq("a1").index()] = Some(Piece::new(Color::First, Kind::King));
    placement[sq("c3").index()] = Some(Piece::new(Color::Second, Kind::King));
    placement[sq("b2").index()] = Some(Piece::new(Color::Second, Kind::Tile));
    let p = Nana::new(
        placement,
        [Hand::new(0, 2, 0), Hand::new(0, 0, 1)],
        Color::Second,
    )
    .unwrap();
    assert_eq!(text(&p), "2k/1t1/K2[RRb] b 1");
    assert_eq!(p, pos("2k/1t1/K2[RRb] b 1"));
    assert_eq!(p.placement(), placement);
    assert_eq!(p.king_square(Color::First), Some(sq("a1")));
    assert_eq!(p.pieces(Color::Second), sq("c3").bit() | sq("b2").bit());
    assert!(Nana::new(placement, [Hand::new(0, 3, 0), Hand::EMPTY], Color::Second).is_err());
}
