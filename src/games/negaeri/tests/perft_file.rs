//! Negaeri Shogi rules: the perft file's positions by both implementations.

use super::*;

#[test]
fn perft_file_positions_agree_with_the_naive_perft() {
    // Depth 2 for each position of the file (depth 3 where cheap).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/negaeri.perft");
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("position ") {
            let p = if s == "startpos" {
                Negaeri::start(&rules())
            } else {
                pos(s)
            };
            let n = naive::State::from(&p);
            for d in 1..=2 {
                assert_eq!(perft(&p, d), naive::perft(&n, d, &rules()), "{s} depth {d}");
            }
        }
    }
}
