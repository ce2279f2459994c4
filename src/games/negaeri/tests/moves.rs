//! Negaeri Shogi rules: how the pieces move and drop.

use super::*;

/// The board moves from `from` in `p`, sorted.
fn moves_from(p: &Negaeri, from: &str) -> Vec<String> {
    let mut v: Vec<String> = move_strings(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m.contains('@'))
        .map(|m| m[2..].to_string())
        .collect();
    v.sort();
    v
}

fn sorted(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn each_piece_moves_as_in_shogi_forward_being_towards_the_opponent() {
    // (piece on c3, side, destinations); Kings on f2 and a6, off every line
    // through c3, and empty hands.
    let cases = [
        ("P", 'w', "c4"),
        ("p", 'b', "c2"),
        ("+P", 'w', "c4 b4 d4 b3 d3 c2"),
        ("+p", 'b', "c2 b2 d2 b3 d3 c4"),
        ("R", 'w', "c4 c5 c6 c2 c1 a3 b3 d3 e3 f3"),
        ("+R", 'w', "c4 c5 c6 c2 c1 a3 b3 d3 e3 f3 b2 b4 d2 d4"),
        ("B", 'w', "d4 e5 f6 b4 a5 d2 e1 b2 a1"),
        ("+B", 'w', "d4 e5 f6 b4 a5 d2 e1 b2 a1 c4 c2 b3 d3"),
        ("K", 'w', "b2 b3 b4 c2 c4 d2 d3 d4"),
        ("r", 'b', "c4 c5 c6 c2 c1 a3 b3 d3 e3 f3"),
        ("+b", 'b', "d4 e5 f6 b4 a5 d2 e1 b2 a1 c4 c2 b3 d3"),
    ];
    for (piece, side, dests) in cases {
        let kings = if piece == "K" { "ka6" } else { "Kf2 ka6" };
        let p = game(&format!("{piece}c3 {kings}"), "", side);
        assert_eq!(moves_from(&p, "c3"), sorted(dests), "{piece} on c3");
    }
}

#[test]
fn sliders_stop_at_the_first_piece_capturing_an_enemy_one() {
    let p = game("Rc3 Pc5 be3 Kf1 ka6", "", 'w');
    assert_eq!(moves_from(&p, "c3"), sorted("c4 c2 c1 a3 b3 d3 e3"));
    let p = game("Bc3 Pb4 pe5 Kf1 ka6", "", 'w');
    assert_eq!(moves_from(&p, "c3"), sorted("d4 e5 d2 e1 b2 a1"));
}

#[test]
fn a_pawn_on_the_last_rank_cannot_move() {
    let p = game("Pc6 pc1 Kf1 ka6", "", 'w');
    assert!(moves_from(&p, "c6").is_empty());
    let p = game("Pc6 pc1 Kf1 ka6", "", 'b');
    assert!(moves_from(&p, "c1").is_empty());
}

#[test]
fn a_capture_goes_into_hand_unpromoted() {
    let p = game("Rc3 +rc5 Kf1 ka6", "", 'w');
    let q = play(&p, "c3c5");
    assert_eq!(at(&q, "c5"), "R");
    assert_eq!(q.in_hand(Color::First, Kind::Rook), 1);
    assert_eq!(q.to_text().to_string(), "k5/2R3/6/6/6/5K[R] b 0 1");
    let p = game("Kf1 +Pc4 ka6 +bb3", "", 'b');
    let q = play(&p, "b3c4");
    assert_eq!(q.in_hand(Color::Second, Kind::Pawn), 1);
    assert_eq!(at(&q, "c4"), "+b", "the capturer keeps its own promotion");
}

#[test]
fn board_moves_never_flip_or_promote() {
    // Moving the Rook to a1 would sandwich b1 against c1 if it were a drop.
    let p = game("Ra3 Pc1 pb1 Kf1 kf6", "", 'w');
    let q = play(&p, "a3a1");
    assert_eq!(at(&q, "b1"), "p");
    assert_eq!(at(&q, "a1"), "R");
    // There is no promotion zone: a pawn reaching the last rank stays one.
    let p = game("Pc5 Kf1 ka6", "", 'w');
    assert_eq!(at(&play(&p, "c5c6"), "c6"), "P");
    assert!(!is_legal(&p, "c5c6+"));
}

#[test]
fn drops_go_on_any_empty_square_without_other_restriction() {
    // Last rank, a file that already has an own pawn, next to the enemy
    // King: all allowed. Occupied squares are not.
    let p = game("Pc2 Kf1 kd5", "P", 'w');
    let drops: Vec<_> = move_strings(&p)
        .into_iter()
        .filter(|m| m.starts_with("P@"))
        .collect();
    assert_eq!(drops.len(), 33);
    for m in ["P@c6", "P@c4", "P@a6", "P@d4"] {
        assert!(is_legal(&p, m), "{m}");
    }
    for m in ["P@c2", "P@f1", "P@d5", "K@a1", "+P@a1", "R@a1"] {
        assert!(!is_legal(&p, m), "{m}");
    }
    // Drops name the unpromoted piece, whatever the piece was when taken.
    let p = game("Kf1 ka6", "B", 'w');
    assert!(is_legal(&p, "B@c3"));
    assert_eq!(at(&play(&p, "B@c3"), "c3"), "B");
}
