//! Negaeri Shogi rules: flips: sandwiches and what stops a run.

use super::*;

#[test]
fn a_drop_flips_a_sandwiched_run_which_promotes_but_the_dropped_piece_does_not() {
    let p = game("Pe3 pc3 rd3 Kf1 ka6", "R", 'w');
    let q = play(&p, "R@b3");
    assert_eq!(levels(&p, "R@b3"), ["c3 d3"]);
    assert_eq!(at(&q, "b3"), "R");
    assert_eq!(at(&q, "c3"), "+P");
    assert_eq!(at(&q, "d3"), "+R");
    assert_eq!(q.in_hand(Color::First, Kind::Rook), 0);
    // The same for the second player.
    let p = game("pe3 Pc3 Bd3 kf1 Ka6", "r", 'b');
    let q = play(&p, "R@b3");
    assert_eq!(
        (
            at(&q, "b3").as_str(),
            at(&q, "c3").as_str(),
            at(&q, "d3").as_str()
        ),
        ("r", "+p", "+b")
    );
}

#[test]
fn a_promoted_piece_flips_and_stays_promoted() {
    let p = game("Pe3 +pc3 +bd3 Kf1 ka6", "P", 'w');
    let q = play(&p, "P@b3");
    assert_eq!((at(&q, "c3").as_str(), at(&q, "d3").as_str()), ("+P", "+B"));
    // Captured back later, a flipped piece goes to hand unpromoted.
    let p = game("Pe3 +pc3 +bd3 Kf1 ka6 rd6", "P", 'w');
    let q = play(&play(&p, "P@b3"), "d6d3");
    assert_eq!(q.in_hand(Color::Second, Kind::Bishop), 1);
    assert_eq!(at(&q, "d3"), "r");
}

#[test]
fn run_stops_at_an_empty_square() {
    // b3 c3 enemy, then d3 empty, e3 own: not a sandwich.
    let p = game("Pe3 pb3 pc3 Kf1 ka6", "P", 'w');
    assert!(levels(&p, "P@a3").is_empty());
    // Nothing next to the drop at all.
    let p = game("Pc3 pd3 Kf1 ka6", "P", 'w');
    assert!(levels(&p, "P@a3").is_empty());
}

#[test]
fn run_needs_an_enemy_piece_next_to_the_drop() {
    // An own piece next to the drop: the enemy piece behind it is not
    // sandwiched by this drop, although it stands between two own pieces.
    let p = game("Pb3 pc3 Pd3 Kf1 ka6", "P", 'w');
    assert!(levels(&p, "P@a3").is_empty());
    assert_eq!(at(&play(&p, "P@a3"), "c3"), "p");
}

#[test]
fn run_is_closed_by_an_own_piece() {
    let p = game("Pd3 pb3 pc3 Kf1 ka6", "P", 'w');
    assert_eq!(levels(&p, "P@a3"), ["b3 c3"]);
}

#[test]
fn run_is_closed_by_the_own_king() {
    let p = game("Kd3 pb3 pc3 ka6", "P", 'w');
    assert_eq!(levels(&p, "P@a3"), ["b3 c3"]);
}

#[test]
fn run_is_closed_by_the_board_edge() {
    let p = game("pd3 pe3 pf3 Ka1 ka6", "P", 'w');
    assert_eq!(levels(&p, "P@c3"), ["d3 e3 f3"]);
    // A single piece against the edge too.
    let p = game("pf3 Ka1 ka6", "P", 'w');
    assert_eq!(levels(&p, "P@e3"), ["f3"]);
}

#[test]
fn with_edge_off_the_edge_closes_nothing() {
    let p = game_with("pd3 pe3 pf3 Ka1 ka6", "P", 'w', &no_edge());
    assert!(levels(&p, "P@c3").is_empty());
    // An own piece still closes.
    let p = game_with("pd3 pe3 Pf3 Ka1 ka6", "P", 'w', &no_edge());
    assert_eq!(levels(&p, "P@c3"), ["d3 e3"]);
}

#[test]
fn run_stops_at_the_enemy_king_which_never_flips() {
    // The enemy King between the drop on b3 and d3: it is not flipped.
    let p = game("Pd3 kc3 Kf1", "P", 'w');
    assert!(levels(&p, "P@b3").is_empty());
    // The enemy King against the edge.
    let p = game("kf3 Ka1", "P", 'w');
    assert!(levels(&p, "P@e3").is_empty());
    let q = play(&p, "P@e3");
    assert_eq!(at(&q, "f3"), "k");
}

#[test]
fn a_piece_next_to_its_own_king_never_flips() {
    // c3 stands next to the second King on c4: sandwiched between the drop
    // on b3 and d3, it stays.
    let p = game("Pd3 pc3 kc4 Kf1", "P", 'w');
    assert!(levels(&p, "P@b3").is_empty());
    assert_eq!(at(&play(&p, "P@b3"), "c3"), "p");
    // Diagonally next to it too: d4 beside the King on c5, between the
    // drop on c3 and e5.
    let p = game("Pe5 pd4 kc5 Kf1", "P", 'w');
    assert!(levels(&p, "P@c3").is_empty());
    // The same pieces with the King away from d4: it flips.
    let p = game("Pe5 pd4 ka6 Kf1", "P", 'w');
    assert_eq!(levels(&p, "P@c3"), ["d4"]);
}

#[test]
fn a_run_reaching_a_loyal_piece_flips_nothing_in_that_direction() {
    // b1 could flip, but c1 beside the second King on d2 is loyal: the run
    // b1-c1 reaches it before the own piece on e1 closes it.
    let p = game("Pd1 pb1 pc1 kd2 Kf6", "P", 'w');
    assert!(levels(&p, "P@a1").is_empty());
    assert_eq!(at(&play(&p, "P@a1"), "b1"), "p");
    // With the King elsewhere both flip: the loyal piece is what stops it.
    let p = game("Pd1 pb1 pc1 kd4 Kf6", "P", 'w');
    assert_eq!(levels(&p, "P@a1"), ["b1 c1"]);
    // A loyal piece before the edge stops an edge sandwich the same way:
    // b1 c1 d1 e1 f1 run to the edge, d1 e1 f1 beside the King on e2.
    let p = game("pb1 pc1 pd1 pe1 pf1 ke2 Ka6", "P", 'w');
    assert!(levels(&p, "P@a1").is_empty());
    let p = game("pb1 pc1 pd1 pe1 pf1 ke4 Ka6", "P", 'w');
    assert_eq!(levels(&p, "P@a1"), ["b1 c1 d1 e1 f1"]);
    // Loyalty blocks flips, not captures.
    let p = game("Rc6 pc1 kd2 Kf6", "", 'w');
    assert!(is_legal(&p, "c6c1"));
}

#[test]
fn loyalty_is_to_the_own_king_only() {
    // c3 is next to the first player's King on c4, but it is the second
    // player's piece: that King does not protect it.
    let p = game("Pd3 pc3 Kc4 kf6", "P", 'w');
    assert_eq!(levels(&p, "P@b3"), ["c3"]);
}

#[test]
fn runs_in_several_directions_flip_together() {
    // A drop on c3 closes b3 (against a3), d4 (against e5) and c2
    // (against c1) at once.
    let p = game("Pa3 pb3 Pe5 pd4 pc2 Pc1 Kf1 ka6", "P", 'w');
    assert_eq!(levels(&p, "P@c3"), ["c2 b3 d4"]);
}

/// Squares as (file, rank) pairs for building the direction test.
fn square_name(f: i8, r: i8) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

#[test]
fn edge_sandwiches_in_all_eight_directions_for_both_sides() {
    for side in Color::BOTH {
        for (d, &(df, dr)) in board::DIRS.iter().enumerate() {
            // From c3 every direction has 2 or 3 squares to the edge; fill
            // them with enemy pawns.
            let mut run = vec![];
            let (mut f, mut r) = (2 + df, 2 + dr);
            while (0..6).contains(&f) && (0..6).contains(&r) {
                run.push((f, r));
                f += df;
                r += dr;
            }
            // The enemy King away from the run (no loyalty) and the own
            // King anywhere else.
            let near = |a: (i8, i8), b: (i8, i8)| (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1;
            let all: Vec<(i8, i8)> = (0..36).map(|i| (i % 6, i / 6)).collect();
            let enemy_king = *all
                .iter()
                .find(|&&s| s != (2, 2) && !run.iter().any(|&x| near(x, s)))
                .unwrap();
            let own_king = *all
                .iter()
                .find(|&&s| s != (2, 2) && s != enemy_king && !run.contains(&s))
                .unwrap();
            let (own, enemy) = match side {
                Color::First => ('K', 'p'),
                Color::Second => ('k', 'P'),
            };
            let other = if side == Color::First { 'k' } else { 'K' };
            let mut pieces = format!(
                "{own}{} {other}{}",
                square_name(own_king.0, own_king.1),
                square_name(enemy_king.0, enemy_king.1)
            );
            for &(f, r) in &run {
                pieces += &format!(" {enemy}{}", square_name(f, r));
            }
            let hand = if side == Color::First { "P" } else { "p" };
            let side_char = side.fen_char();
            let expected: Vec<String> = {
                let mut v: Vec<Square> = run
                    .iter()
                    .map(|&(f, r)| Square::new(f as u8, r as u8))
                    .collect();
                v.sort();
                vec![
                    v.iter()
                        .map(|s| s.coord().to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                ]
            };
            let p = game(&pieces, hand, side_char);
            assert_eq!(
                levels(&p, "P@c3"),
                expected,
                "direction {d} for the {side}: {pieces}"
            );
            let q = play(&p, "P@c3");
            for &(f, r) in &run {
                assert_eq!(
                    q.piece_at(Square::new(f as u8, r as u8)),
                    Some((side, Kind::Tokin))
                );
            }
            let p = game_with(&pieces, hand, side_char, &no_edge());
            assert!(
                levels(&p, "P@c3").is_empty(),
                "edge off, direction {d} for the {side}"
            );
        }
    }
}
