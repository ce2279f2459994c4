//! Negaeri Shogi rules, one test per clause of `docs/rules/negaeri.md`,
//! each from a small position; perft from the start and against a naive
//! second implementation (`naive`, plain arrays walked square by square) on
//! random playouts and by its own perft.

use super::*;
use crate::core::{
    Game, History, OptionValue, PieceText, Rules, game_status, perft, status_with_history,
};
use crate::eval::tempo_weight;
use crate::games::conformance::{
    Lcg, check_position, is_legal, move_strings, play, position, random_playouts,
};

mod against_naive;
mod chains;
mod conformance;
mod end;
mod flips;
mod in_check;
mod moves;
pub(super) mod naive;
mod notation;
mod perft_file;
mod search_parts;
mod start;

fn rules() -> NegaeriRules {
    NegaeriRules::default()
}

fn with(name: &str, value: OptionValue) -> NegaeriRules {
    let mut r = rules();
    r.set(name, &value).unwrap();
    r
}

fn limit(n: i64) -> NegaeriRules {
    with("NegaeriChainLimit", OptionValue::Spin(n))
}

fn no_edge() -> NegaeriRules {
    with("NegaeriEdge", OptionValue::Check(false))
}

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'1')
}

/// A position string from pieces like `"Kf1 Pc3 +rb4 kf6"` (upper case the
/// first player's), a hand like `"Pr"` and the side to move (`w`/`b`).
fn setup(pieces: &str, hand: &str, side: char) -> String {
    let mut rows = vec![vec![String::new(); 6]; 6];
    for tok in pieces.split_whitespace() {
        let (piece, square) = tok.split_at(tok.len() - 2);
        let s = sq(square);
        let cell = &mut rows[5 - s.rank() as usize][s.file() as usize];
        assert!(cell.is_empty(), "{square} twice in {pieces}");
        *cell = piece.to_string();
    }
    let board: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for c in row {
                if c.is_empty() {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out += c;
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect();
    format!("{}[{hand}] {side} 0 1", board.join("/"))
}

fn pos(s: &str) -> Negaeri {
    position(s, &rules())
}

fn game(pieces: &str, hand: &str, side: char) -> Negaeri {
    pos(&setup(pieces, hand, side))
}

fn game_with(pieces: &str, hand: &str, side: char, r: &NegaeriRules) -> Negaeri {
    position(&setup(pieces, hand, side), r)
}

/// The piece on a square as written in position strings, `.` when empty.
fn at(p: &Negaeri, s: &str) -> String {
    match p.piece_at(sq(s)) {
        None => ".".into(),
        Some((c, k)) => PieceText {
            letter: k.letter(),
            color: c,
            promoted: k.is_promoted(),
        }
        .to_string(),
    }
}

fn names(b: u64) -> String {
    board::squares(b)
        .map(|s| s.coord().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a move flips, level by level, as square lists.
fn levels(p: &Negaeri, mv: &str) -> Vec<String> {
    let m = p
        .find_move(&crate::protocol::parse_move(mv).unwrap())
        .unwrap();
    let f = p.flips(m);
    f.levels[..f.depth()].iter().map(|&l| names(l)).collect()
}

/// a3 drop: b3 (level 1, closed by c3), then b4 (level 2 from b3, closed
/// by b5), then c4 (level 3 from b4, closed by d4).
const THREE_LEVELS: &str = "Pc3 Pb5 Pd4 pb3 pb4 pc4 Kf1 kf6";

/// A zigzag of six levels from a1: b1, b2, c2, c3, d3, d4.
const SIX_LEVELS: &str = "Pc1 Pb3 Pd2 Pc4 Pe3 Pd5 pb1 pb2 pc2 pc3 pd3 pd4 Kf1 ka6";

/// The simultaneous-level case, on c2: level 1 is b2 (closed by a2) and d3
/// (closed by e4). At level 2, b2 looks at c3 d4 then the empty e5 (not
/// closed) while d3 flips d4 (closed by d5). Only at level 3 does d4 close
/// c3 against b2. Had b2 looked after d3's flip, c3 would flip at level 2.
const SIMULTANEOUS: &str = "Pa2 Pe4 Pd5 pb2 pd3 pc3 pd4 Kf1 ka6";
