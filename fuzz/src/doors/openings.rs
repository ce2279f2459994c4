//! Opening files as the referee reads them (`--openings file=…`): every
//! line checked for each game with its default rules, as start-up does,
//! then random plies added as the referee adds them; and the same text
//! read as an opening suite (`--openings suite=…`, `koma openings --check`).
//! Input: the file's text.
//!
//! Properties: a line a game accepts, written back canonically
//! (`startpos`/`fen <position>` and `moves …`), reads and checks to the
//! same opening; random plies added to it keep it legal and the game
//! going. A suite that reads, written again, reads back to the same header
//! and openings.

use koma::core::Game;
use koma::games::{GameId, GameVisitor};
use koma::protocol::record::{OpeningLine, parse_opening, parse_openings};
use koma::record::opening::{Opening, check};
use koma::record::suite;
use koma::referee::matches::opening::add_random_plies;
use koma::referee::matches::schedule::Rng;

pub fn openings(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    suite_round_trip(text);
    let Ok(lines) = parse_openings(text) else {
        return;
    };
    for (_, line) in &lines {
        for &g in GameId::ALL {
            g.visit(Book {
                line,
                seed: data.len() as u64,
            });
        }
    }
}

/// A suite file (header and move lists) written back by the generator's
/// writer reads to the same suite.
fn suite_round_trip(text: &str) {
    let Ok(s) = suite::parse(text) else {
        return;
    };
    if s.lines.iter().any(|(_, l)| l.start.is_some()) {
        // The writer writes move lists from the start position only.
        return;
    }
    let moves: Vec<_> = s.lines.iter().map(|(_, l)| l.moves.clone()).collect();
    let written = suite::write(&s.header, &moves);
    let back = suite::parse(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(back.header, s.header, "{written}");
    let back_moves: Vec<_> = back.lines.iter().map(|(_, l)| l.moves.clone()).collect();
    assert_eq!(back_moves, moves, "{written}");
}

struct Book<'a> {
    line: &'a OpeningLine,
    seed: u64,
}

impl GameVisitor for Book<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let rules = G::Rules::default();
        let Ok(opening) = check::<G>(self.line, &rules) else {
            return;
        };
        let written = write(&opening);
        let read = parse_opening(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(
            check::<G>(&read, &rules).as_ref(),
            Ok(&opening),
            "{written}"
        );
        let longer = add_random_plies::<G>(&opening, 4, &mut Rng::new(self.seed), &rules);
        assert_eq!(longer.moves[..opening.moves.len()], opening.moves[..]);
        let line = OpeningLine {
            start: longer.start.clone(),
            moves: longer.moves.clone(),
        };
        assert_eq!(
            check::<G>(&line, &rules),
            Ok(longer),
            "{written} and random plies"
        );
    }
}

/// An opening as a line of an openings file.
fn write(o: &Opening) -> String {
    let mut s = match &o.start {
        None => "startpos".to_string(),
        Some(p) => format!("fen {p}"),
    };
    if !o.moves.is_empty() {
        s.push_str(" moves");
        for m in &o.moves {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}
