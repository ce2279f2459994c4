//! Hasami Shogi rules: how a man moves.

use super::*;

#[test]
fn a_man_slides_along_rank_and_file_but_never_jumps_or_moves_diagonally() {
    let p = game("e3 e7", "a9");
    let moves = move_strings(&p);
    for m in ["e3e6", "e3a3", "e3i3", "e3e1"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert!(!moves.contains(&"e3e7".to_string()), "onto a man");
    assert!(!moves.contains(&"e3e8".to_string()), "jumping");
    assert!(!moves.contains(&"e3f4".to_string()), "diagonal");
}
