//! The `solve` job on a small sub-game of a game with a solver: the table
//! it samples, and the check by the search that a good table passes and a
//! wrong one fails.

use super::run_verify;
use crate::core::{SolvedTable, TableValue};
use crate::games::nana::index::{Index, Material};
use crate::games::nana::solver::solve;
use crate::games::nana::tablebase::{NanaTable, Value, decode, encode};

/// A sub-game's values, solved; the index is leaked (tests only).
fn sub_game() -> (&'static Index, Vec<u8>) {
    let m = Material {
        orth: [1, 0],
        diag: [0, 1],
    };
    let ix: &'static Index = Box::leak(Box::new(Index::new(m)));
    let values = solve(ix, &mut |_| {}).expect("the sub-game solves").values;
    (ix, values)
}

#[test]
fn the_sample_holds_positions_of_each_distance_with_their_values() {
    let (ix, values) = sub_game();
    let t = NanaTable::new(ix, values);
    let picked = t.sample(5, 4, 7);
    assert_eq!(picked.len(), 6);
    assert!(picked[0].is_empty());
    for (d, list) in picked.iter().enumerate().skip(1) {
        assert_eq!(list.len(), 4, "distance {d}");
        for (pos, v) in list {
            assert!(
                matches!(v, TableValue::Win(e) | TableValue::Loss(e) if *e as usize == d),
                "distance {d}: {v:?}"
            );
            assert_eq!(t.value(pos), Some(*v));
        }
    }
    assert_eq!(t.sample(5, 4, 7), picked, "the same seed, the same sample");
}

#[test]
fn a_solved_table_agrees_with_the_search_and_the_exact_search() {
    let (ix, values) = sub_game();
    let report = run_verify(&NanaTable::new(ix, values), 5, 4, &mut |_| {});
    let report = report.expect("the table agrees");
    assert!(
        report.contains("exact full-width alpha-beta: 20/20 sampled positions"),
        "{report}"
    );
}

#[test]
fn a_table_with_one_wrong_distance_fails_the_check() {
    let (ix, mut values) = sub_game();
    let i = values
        .iter()
        .position(|&v| decode(v) == Value::Win(3))
        .expect("a win in 3");
    values[i] = encode(Value::Win(5));
    let err = run_verify(&NanaTable::new(ix, values), 5, 4, &mut |_| {}).unwrap_err();
    use crate::games::nana::solver::SolveError;
    assert!(
        matches!(
            err,
            super::VerifyError::Check(SolveError::Inconsistent { .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("inconsistent classes"), "{err}");
}
