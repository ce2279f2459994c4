//! Negaeri Shogi rules: the conformance checks every game passes.

use super::*;

#[test]
fn conformance_random_playouts() {
    let sets = [
        rules(),
        no_edge(),
        limit(1),
        limit(3),
        with("NegaeriEqualHands", OptionValue::Check(true)),
    ];
    let mut finished = 0;
    for (i, r) in sets.iter().enumerate() {
        finished += random_playouts::<Negaeri>(r, 20, 300, 11 + i as u64);
    }
    assert!(finished > 0, "some playouts should end");
}
