//! Hasami Shogi rules, one test per clause of `docs/rules/hasami.md`,
//! each from a small position; perft from the start and against a naive
//! second implementation on random positions.

use super::*;
use crate::core::{Game, History, OptionValue, Rules, perft, status_with_history};
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};

mod against_naive;
mod conformance;
mod end;
mod movement;
mod naive;
mod notation;
mod sandwich;
mod start;

fn rules() -> HasamiRules {
    HasamiRules::default()
}

fn with(name: &str, value: OptionValue) -> HasamiRules {
    let mut r = rules();
    r.set(name, &value).unwrap();
    r
}

/// A position from the squares of each side's men, e.g. `"a1 c1"`.
fn setup_with(first: &str, second: &str, side: Color, r: &HasamiRules) -> Hasami {
    let mut rows = vec![vec!['.'; 9]; 9];
    for (list, ch) in [(first, 'P'), (second, 'p')] {
        for sq in list.split_whitespace() {
            let b = sq.as_bytes();
            let (f, rank) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
            rows[8 - rank][f] = ch;
        }
    }
    let board: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for &c in row {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(c);
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect();
    let side = if side == Color::First { 'w' } else { 'b' };
    position(&format!("{} {side} 1", board.join("/")), r)
}

fn setup(first: &str, second: &str, side: Color) -> Hasami {
    setup_with(first, second, side, &rules())
}

/// Men far from the action on rank 5 so that neither side has lost five
/// (which would end the game under the default rule).
const FIRST_SPARE: &str = "a5 b5 c5 d5";
const SECOND_SPARE: &str = "f5 g5 h5 i5";

fn spare(first: &str, second: &str) -> (String, String) {
    (
        format!("{first} {FIRST_SPARE}"),
        format!("{second} {SECOND_SPARE}"),
    )
}

/// Men of one side as a sorted string, without the spares.
fn men_of(p: &Hasami, c: Color) -> String {
    let mut v: Vec<String> = board::squares(p.men(c))
        .map(|s| s.coord().to_string())
        .filter(|s| !FIRST_SPARE.contains(s.as_str()) && !SECOND_SPARE.contains(s.as_str()))
        .collect();
    v.sort();
    v.join(" ")
}

fn game(first: &str, second: &str) -> Hasami {
    let (f, s) = spare(first, second);
    setup(&f, &s, Color::First)
}

fn pos(s: &str) -> Hasami {
    position(s, &rules())
}
