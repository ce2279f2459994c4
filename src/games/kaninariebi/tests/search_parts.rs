//! Kani Nari Ebi rules: what the search reads from a position: tactical moves, move keys, the evaluation.

use super::*;

#[test]
fn is_tactical_means_a_capture_or_a_promotion() {
    let p = diagram(
        ". . . . c
         . . . . c
         . . . C .
         C . . . .
         C . . . c",
        Color::First,
    );
    let mv = |s: &str| {
        p.find_move(&crate::protocol::parse_move(s).unwrap())
            .unwrap()
    };
    assert!(p.is_tactical(mv("d3e3+")));
    assert!(!p.is_tactical(mv("d3e3")));
    let q = diagram(
        "C . . . c
         . . . . c
         . . . . c
         . . . . .
         C c c . C",
        Color::First,
    );
    let mv = q
        .find_move(&crate::protocol::parse_move("e1d1").unwrap())
        .unwrap();
    assert!(q.is_tactical(mv));
}

#[test]
fn move_keys_are_dense_and_in_range() {
    let p = diagram(BOND_POSITION, Color::First);
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    for &m in moves.iter() {
        assert!(p.move_key(m) < KaniNariEbi::MOVE_KEYS);
    }
}

#[test]
fn the_evaluation_favours_material_and_shrimps() {
    // The start is symmetric: only having the move counts.
    let tempo = crate::eval::tempo_weight::<KaniNariEbi>();
    assert_eq!(KaniNariEbi::start(&rules()).evaluate(), tempo);
    // A piece up.
    let up = position::<KaniNariEbi>("C3c/C3c/C4/C3c/C3c w 3", &rules());
    assert!(up.evaluate() > 50, "{}", up.evaluate());
    // Two Shrimps against two Crabs on the same squares.
    let crabs = position::<KaniNariEbi>("C3c/C3c/4c/1C2c/1C2c w 3", &rules());
    let shrimps = position::<KaniNariEbi>("C3c/C3c/4c/1S2c/1S2c w 3", &rules());
    assert!(
        shrimps.evaluate() > crabs.evaluate() + 20,
        "{} {}",
        shrimps.evaluate(),
        crabs.evaluate()
    );
    // From the side to move's view: the other side sees the negation, but
    // for having the move.
    let other = position::<KaniNariEbi>("C3c/C3c/4c/1S2c/1S2c b 3", &rules());
    assert_eq!(other.evaluate(), 2 * tempo - shrimps.evaluate());
}
