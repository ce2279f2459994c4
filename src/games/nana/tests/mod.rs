//! Nana Shogi rules, one test per clause of `docs/rules/nana.md`, each
//! from a small position; perft from the start and from hand-counted
//! positions; a naive second implementation (`naive.rs`) compared
//! move by move on random playouts and random positions.

use super::*;
use crate::core::{EndReason, Game, History, Outcome, game_status, perft, status_with_history};
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};

mod against_naive;
mod conformance;
mod cubes;
mod drops;
mod end;
mod evaluation;
mod forbidden_mate;
mod in_check;
mod naive;
mod node_counts;
mod notation;
mod placement;

fn pos(s: &str) -> Nana {
    position(s, &NoRules)
}

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'1')
}

/// The legal moves starting with `prefix` (a square, or `X@`), sorted.
fn moves_from(p: &Nana, prefix: &str) -> Vec<String> {
    move_strings(p)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

/// The destinations of the legal moves starting with `prefix`, sorted.
fn targets(p: &Nana, prefix: &str) -> String {
    let v: Vec<String> = moves_from(p, prefix)
        .iter()
        .map(|m| m[m.len() - 2..].to_string())
        .collect();
    v.join(" ")
}

fn text(p: &Nana) -> String {
    p.to_text().to_string()
}
