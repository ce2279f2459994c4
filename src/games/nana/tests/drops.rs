//! Nana Shogi rules: drops: the state named, no drop that attacks the enemy King.

use super::*;

#[test]
fn a_drop_keeps_the_state_it_names_and_any_state_of_the_cube_may_be_named() {
    let p = pos("2k/3/K2[R] w 1");
    let drops = moves_from(&p, "");
    for letter in ['R', 'V', 'W', 'G'] {
        assert!(
            drops.iter().any(|m| m.starts_with(&format!("{letter}@"))),
            "{letter}"
        );
    }
    assert!(
        drops
            .iter()
            .all(|m| !m.starts_with("B@") && !m.starts_with("T@") && !m.starts_with("K@"))
    );
    assert_eq!(text(&play(&p, "V@a3")), "V1k/3/K2[] b 1");
    assert_eq!(text(&play(&p, "G@a3")), "G1k/3/K2[] b 1");
    let p = pos("2k/3/K2[B] w 1");
    for letter in ['B', 'T', 'C', 'D'] {
        assert!(moves_from(&p, &format!("{letter}@")).len() > 1, "{letter}");
    }
    assert!(moves_from(&p, "R@").is_empty());
}

#[test]
fn no_drop_may_attack_the_enemy_king_in_any_state_for_either_player() {
    // The enemy King stands on b3, our King on a1; the free squares are
    // a2 a3 b1 c1 c2 c3. Each state is barred from exactly the squares
    // from which it would attack b3 (the Chariot from b1 through empty b2).
    let all = "a2 a3 b1 c1 c2 c3";
    let first = pos("1k1/3/K2[RBrb] w 1");
    let second = pos("1K1/3/k2[RBrb] b 1");
    for (letter, first_ok, second_ok) in [
        ('R', "a2 b1 c1 c2", "a2 b1 c1 c2"),
        ('V', "a2 a3 c1 c2 c3", "a2 a3 c1 c2 c3"),
        ('W', "a2 b1 c1 c2", "a2 b1 c1 c2"),
        ('G', all, all),
        ('B', "a3 b1 c1 c3", "a3 b1 c1 c3"),
        // The Tile attacks diagonally forward: for the first player down-
        // left and down-right of b3 are a2 and c2; the second player's Tile
        // attacks b3 only from b2 (straight back, upwards).
        ('T', "a3 b1 c1 c3", all),
        ('C', "a3 b1 c1 c3", "a3 b1 c1 c3"),
        // The Dog mirrors the Tile.
        ('D', all, "a3 b1 c1 c3"),
    ] {
        assert_eq!(
            targets(&first, &format!("{letter}@")),
            first_ok,
            "first player {letter}"
        );
        assert_eq!(
            targets(&second, &format!("{letter}@")),
            second_ok,
            "second player {letter}"
        );
    }
    // A King drop next to the enemy King attacks it too.
    assert_eq!(targets(&pos("3/3/K2[RBkrb] b 1"), "K@"), "a3 b3 c1 c2 c3");
}

#[test]
fn only_the_dropped_pieces_own_attacks_count() {
    // The Rook on b2 already attacks b3 (and stops the Chariot's slide from
    // b1): quiet drops stay legal, and so does the Chariot on b1.
    let p = pos("1k1/1R1/K2[RB] w 1");
    assert!(p.board().attacked_by(Color::First, sq("b3")));
    assert!(is_legal(&p, "V@b1"));
    assert!(is_legal(&p, "G@a2"));
    assert!(!is_legal(&p, "R@a3"));
    // The same for the Bishop's slide through b2.
    let p = pos("2k/3/2K[B] w 1");
    assert!(!is_legal(&p, "B@a1"));
    let p = pos("2k/1r1/2K[B] w 1");
    assert!(is_legal(&p, "B@a1"));
}
