//! Position strings and move lists, one target per game. Input: a
//! position string (or `startpos`) on the first line; the rest of the
//! bytes choose the rule options and then, ply by ply, which legal move
//! to play (a random move string would almost never be legal).
//!
//! Properties: a parsed position string prints back to one that parses
//! to the same text; every accepted position and every position reached
//! by play prints to a string that parses to the same position (same
//! hash, same text, same end); every legal move's text is distinct,
//! parses back, and names that move; the game as a `position` command
//! parses back to the same command, and replays (as the referee replays
//! openings and records) to the same position.

use super::{head_and_tail, rule_values, rules_of};
use arbitrary::Unstructured;
use koma::core::{Game, GameLine, History, MoveText, game_status, status_with_history};
use koma::protocol::{
    Command, PositionCommand, PositionStart, parse_command, parse_move, parse_position,
};
use std::collections::HashSet;

pub fn positions<G: Game>(data: &[u8]) {
    let (head, tail) = head_and_tail(data);
    let Ok(text) = std::str::from_utf8(head) else {
        return;
    };
    let mut u = Unstructured::new(tail);
    let values = rule_values(&mut u, <G::Rules as koma::core::Rules>::specs());
    let Some(rules) = rules_of::<G>(&values) else {
        return;
    };
    let start_text = if text.trim() == "startpos" {
        None
    } else {
        let Ok(t) = parse_position(text) else {
            return;
        };
        let printed = t.to_string();
        let again = parse_position(&printed)
            .unwrap_or_else(|e| panic!("{text:?} parsed, its print {printed:?} does not: {e}"));
        assert_eq!(
            again, t,
            "{text:?} prints as {printed:?}, which reads differently"
        );
        Some(t)
    };
    let Ok(start) = GameLine::<G>::from_start(start_text.as_ref(), &rules) else {
        return;
    };
    let start = start.current().clone();
    same_after_print(&start, &rules);
    let mut pos = start.clone();
    let mut history = History::starting_at(&pos);
    let mut played: Vec<MoveText> = Vec::new();
    while !u.is_empty() && status_with_history(&pos, &history).is_none() {
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        assert!(!moves.is_empty(), "no legal move but the game goes on");
        let mut seen = HashSet::new();
        for &m in moves.iter() {
            let mt = pos.move_text(m);
            let s = mt.to_string();
            assert!(seen.insert(s.clone()), "two legal moves written {s}");
            assert_eq!(parse_move(&s).ok(), Some(mt), "move {s} does not read back");
            assert_eq!(pos.find_move(&mt), Some(m), "{s} names another move");
        }
        // A byte of 255 tries a move string from the input instead.
        let pick = u.arbitrary::<u8>().unwrap_or(0);
        if pick == 255 {
            let s: &str = u.arbitrary().unwrap_or("");
            if let Ok(mt) = parse_move(s)
                && let Some(m) = pos.find_move(&mt)
            {
                assert_eq!(pos.move_text(m), mt, "{s} found a move written otherwise");
            }
            continue;
        }
        let m = moves[usize::from(pick) % moves.len()];
        played.push(pos.move_text(m));
        pos = pos.play(m);
        history.push(pos.repetition_key());
        same_after_print(&pos, &rules);
    }
    let cmd = Command::Position(PositionCommand {
        start: match &start_text {
            None => PositionStart::StartPos,
            Some(_) => PositionStart::Fen(start.to_text()),
        },
        moves: played.clone(),
    });
    let line = cmd.to_string();
    assert_eq!(parse_command(&line), Ok(Some(cmd)), "{line}");
    let canonical_start = start_text.as_ref().map(|_| start.to_text());
    let again = GameLine::<G>::from_text(canonical_start.as_ref(), &played, &rules)
        .unwrap_or_else(|e| panic!("{line}: does not replay: {e}"));
    assert_eq!(again.moves(), &played[..], "{line}");
    assert_eq!(again.current().hash(), pos.hash(), "{line}");
}

/// The position prints to a string that reads back as the same position.
fn same_after_print<G: Game>(pos: &G, rules: &G::Rules) {
    let s = pos.to_text().to_string();
    let t = parse_position(&s).unwrap_or_else(|e| panic!("{s:?} does not parse: {e}"));
    let back = G::from_text(&t, rules).unwrap_or_else(|e| panic!("{s:?} is refused: {e}"));
    assert_eq!(
        back.hash(),
        pos.hash(),
        "{s:?} reads back with another hash"
    );
    assert_eq!(
        back.to_text().to_string(),
        s,
        "{s:?} prints differently read back"
    );
    assert_eq!(back.side_to_move(), pos.side_to_move(), "{s:?}");
    assert_eq!(game_status(&back), game_status(pos), "{s:?}");
}
