//! Nana Shogi rules: the evaluation.

use super::*;

#[test]
fn evaluation_counts_material_and_a_king_left_en_prise() {
    // Side to move's view: the first player to move is a cube up.
    let up = pos("2k/3/K1R[] w 1").evaluate();
    assert!(up > 50, "{up}");
    assert!(pos("2k/3/K1R[] b 1").evaluate() < -50);
    // A King the side to move can take is as good as won.
    assert!(pos("kR1/3/K2[] w 1").evaluate() >= 5_000);
    // Every position of a random game evaluates without a panic, the
    // placing of the Kings included.
    let mut rng = Lcg(8);
    for _ in 0..50 {
        let mut p = Nana::start(&NoRules);
        for _ in 0..500 {
            if game_status(&p).is_some() {
                break;
            }
            let _ = p.evaluate();
            let mut moves = <Nana as Game>::MoveList::default();
            p.generate(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
        }
        let _ = p.evaluate();
    }
}
