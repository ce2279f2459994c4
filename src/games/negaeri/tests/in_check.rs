//! Negaeri Shogi rules: what in check means.

use super::*;

#[test]
fn in_check_means_the_opponent_could_take_the_king() {
    let checks = crate::games::conformance::check_in_check::<Negaeri>(&Default::default(), 60, 11);
    assert!(checks > 100, "only {checks} checks in the sample");
}

#[test]
fn attacked_means_some_piece_reaches_the_square() {
    // `board::attacked` (which looks along the lines only with a slider on
    // them) against every piece's own attacks.
    let mut rng = Lcg(23);
    let mut hits = 0;
    for _ in 0..40 {
        let mut p = Negaeri::start(&rules());
        for _ in 0..100 {
            if game_status(&p).is_some() {
                break;
            }
            let occupied = p.pieces(Color::First) | p.pieces(Color::Second);
            for c in Color::BOTH {
                let them = c.opponent();
                for s in 0..36 {
                    let expected = Kind::ALL.into_iter().any(|k| {
                        board::squares(p.pieces_of(them, k)).any(|from| {
                            board::attacks(k, them, from.index(), occupied) & (1 << s) != 0
                        })
                    });
                    let got = board::attacked(s, c, occupied, |k| p.pieces_of(them, k));
                    assert_eq!(got, expected, "{s} by the {them} in {}", p.to_text());
                    hits += usize::from(got);
                }
            }
            let mut moves = <Negaeri as Game>::MoveList::default();
            p.generate(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(hits > 1000);
}
