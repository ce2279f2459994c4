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

/// The search's history tables key a move by its origin and where it goes
/// on its rank or file: distinct for every move a man can make, and in
/// range.
#[test]
fn every_move_a_man_can_make_has_a_key_of_its_own() {
    let p = game("e5", "a9");
    let mut keys = std::collections::HashSet::new();
    for from in 0..board::SQUARES {
        for to in 0..board::SQUARES {
            let (f, t) = (
                board::Square::from_index(from),
                board::Square::from_index(to),
            );
            let files = board::FILES as usize;
            if from == to || (from / files != to / files && from % files != to % files) {
                continue;
            }
            let k = p.move_key(Move { from: f, to: t });
            assert!(k < Hasami::MOVE_KEYS, "{from} {to}");
            assert!(keys.insert(k), "{from} {to} shares its key");
        }
    }
    assert_eq!(keys.len(), board::SQUARES * 16);
}
