//! Nana Shogi rules: the conformance checks every game passes.

use super::*;

#[test]
fn conformance_random_playouts() {
    let mut finished = 0;
    for seed in 1..=6 {
        finished += random_playouts::<Nana>(&NoRules, 40, 400, seed);
    }
    assert!(finished > 100, "{finished}");
}
