//! Kani Nari Ebi rules: the conformance checks every game passes.

use super::*;

#[test]
fn conformance_random_playouts() {
    for (i, r) in [rules(), any_type()].iter().enumerate() {
        let finished = random_playouts::<KaniNariEbi>(r, 40, 300, 11 + i as u64);
        assert!(finished > 20, "playouts should reach ends: {finished}");
    }
}

#[test]
fn hash_and_round_trip_in_many_positions() {
    let mut rng = Lcg(5);
    for _ in 0..2000 {
        if let Some(p) = random_position(&mut rng, &rules()) {
            check_position(&p, &rules());
        }
    }
}
