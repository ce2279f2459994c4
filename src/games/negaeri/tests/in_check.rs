//! Negaeri Shogi rules: what in check means.

use super::*;

#[test]
fn in_check_means_the_opponent_could_take_the_king() {
    let checks = crate::games::conformance::check_in_check::<Negaeri>(&Default::default(), 60, 11);
    assert!(checks > 100, "only {checks} checks in the sample");
}
