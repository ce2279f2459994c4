//! Hasami Shogi rules: the conformance checks every game passes.

use super::*;

#[test]
fn conformance_random_playouts() {
    for (i, r) in [
        rules(),
        with("HasamiLines", OptionValue::Check(false)),
        with("HasamiCorners", OptionValue::Check(false)),
        with("HasamiWin", OptionValue::Combo("lead3".into())),
    ]
    .iter()
    .enumerate()
    {
        random_playouts::<Hasami>(r, 20, 400, 7 + i as u64);
    }
}
