//! Kani Nari Ebi rules, one test per clause of `docs/rules/kaninariebi.md`
//! and per point it settles, each from a small position drawn as a diagram
//! (rank 5 on top, file a on the left, `.` empty, `C`/`S` the first
//! player's Crab/Shrimp, `c`/`s` the second player's); then perft from the
//! start and other positions, checked against a naive second implementation
//! written rule by rule on a plain 5x5 array.

use super::*;
use crate::core::{Game, OptionValue, Rules, game_status, perft};
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};
use std::collections::BTreeMap;

mod against_naive;
mod bond;
mod conformance;
mod end;
mod movement;
mod naive;
mod node_counts;
mod notation;
mod promotion;
mod repetition;
mod river;
mod sandwich;
mod search_parts;
mod start;

fn rules() -> KaniRules {
    KaniRules::default()
}

fn any_type() -> KaniRules {
    let mut r = rules();
    r.set("KaniBondAnyType", &OptionValue::Check(true)).unwrap();
    r
}

/// The rows of a diagram, cells separated by single spaces.
fn rows(d: &str) -> Vec<String> {
    d.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The board field of a position string for a diagram.
fn board_field(d: &str) -> String {
    let rows = rows(d);
    assert_eq!(rows.len(), 5, "a diagram has five ranks");
    rows.iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for cell in row.split(' ') {
                if cell == "." {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out += cell;
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A position from a diagram and the side to move, under rules `r`.
fn diagram_with(d: &str, side: Color, r: &KaniRules) -> KaniNariEbi {
    position(&format!("{} {} 1", board_field(d), side.fen_char()), r)
}

fn diagram(d: &str, side: Color) -> KaniNariEbi {
    diagram_with(d, side, &rules())
}

/// The board of a position drawn as a diagram.
fn draw(p: &KaniNariEbi) -> Vec<String> {
    (0..5u8)
        .rev()
        .map(|r| {
            (0..5u8)
                .map(|f| {
                    let sq = Square::new(f, r);
                    let shrimp = p.shrimps(Color::First) | p.shrimps(Color::Second);
                    let letter = if shrimp & sq.bit() != 0 { 's' } else { 'c' };
                    if p.pieces(Color::First) & sq.bit() != 0 {
                        letter.to_ascii_uppercase().to_string()
                    } else if p.pieces(Color::Second) & sq.bit() != 0 {
                        letter.to_string()
                    } else {
                        ".".to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[track_caller]
fn assert_board(p: &KaniNariEbi, d: &str) {
    assert_eq!(draw(p), rows(d));
}

/// The normal movements (turns without a Bond) of the piece on `sq`.
fn moves_from(p: &KaniNariEbi, sq: &str) -> Vec<String> {
    move_strings(p)
        .into_iter()
        .filter(|m| m.starts_with(sq) && !m.contains(','))
        .collect()
}

/// The Bond movements that may follow the normal movement `first`.
fn bonds_after(p: &KaniNariEbi, first: &str) -> Vec<String> {
    let prefix = format!("{first},");
    move_strings(p)
        .into_iter()
        .filter_map(|m| m.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A random valid position: three to five pieces a side anywhere, some
/// Shrimps, either side to move.
fn random_position(rng: &mut Lcg, r: &KaniRules) -> Option<KaniNariEbi> {
    let mut cells = ['.'; 25];
    for letters in [['C', 'S'], ['c', 's']] {
        let n = 3 + rng.below(3);
        let mut placed = 0;
        while placed < n {
            let sq = rng.below(25);
            if cells[sq] == '.' {
                cells[sq] = letters[usize::from(rng.below(4) == 0)];
                placed += 1;
            }
        }
    }
    let d: String = (0..5)
        .rev()
        .map(|rank| {
            (0..5)
                .map(|f| cells[rank * 5 + f].to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let side = if rng.below(2) == 0 {
        Color::First
    } else {
        Color::Second
    };
    let text =
        crate::protocol::parse_position(&format!("{} {} 1", board_field(&d), side.fen_char()))
            .ok()?;
    KaniNariEbi::from_text(&text, r).ok()
}

fn no_repetition() -> KaniRules {
    let mut r = rules();
    r.set("KaniRepetition", &OptionValue::Check(false)).unwrap();
    r
}

fn side_sign(p: &KaniNariEbi) -> i8 {
    if p.side_to_move() == Color::First {
        1
    } else {
        -1
    }
}

const BOND_POSITION: &str = "
    . . . . c
    . C . . c
    . C . . c
    C . . . .
    C . . . .";
