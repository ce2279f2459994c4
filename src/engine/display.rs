//! The `d` command's picture of a position: the board with coordinates,
//! pieces in hand, the position string and the state of the game.

use crate::core::{Color, End, PositionText};
use std::fmt::Write;

pub fn render(t: &PositionText, files: u8, ranks: u8, status: Option<End>) -> String {
    let mut s = String::new();
    for (row, rank) in t.ranks.iter().enumerate() {
        let _ = write!(s, "{:>3} ", ranks as usize - row);
        for cell in rank {
            match cell {
                Some(p) => {
                    let _ = write!(s, "{:>3}", p.to_string());
                }
                None => s.push_str("  ."),
            }
        }
        s.push('\n');
    }
    s.push_str("    ");
    for f in 0..files {
        let _ = write!(s, "  {}", (b'a' + f) as char);
    }
    s.push('\n');
    if let Some(hand) = &t.hand {
        for c in Color::BOTH {
            let pieces: Vec<String> = hand
                .iter()
                .filter(|p| p.color == c)
                .map(|p| p.letter.to_string())
                .collect();
            let shown = if pieces.is_empty() {
                "-".to_string()
            } else {
                pieces.join(" ")
            };
            let _ = writeln!(s, "In hand, {c}: {shown}");
        }
    }
    let _ = writeln!(s, "Position: {t}");
    let _ = writeln!(s, "To move: {}", t.side);
    match status {
        None => s.push_str("Game: in progress"),
        Some(end) => {
            let _ = write!(s, "Game: over, {end}");
        }
    }
    s
}
