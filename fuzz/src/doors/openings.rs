//! Opening files as the referee reads them (`--openings file=…`): every
//! line checked for each game with its default rules, as start-up does,
//! then random plies added as the referee adds them. Input: the file's
//! text.
//!
//! Properties: a line a game accepts, written back canonically
//! (`startpos`/`fen <position>` and `moves …`), reads and checks to the
//! same opening; random plies added to it keep it legal and the game
//! going.

use koma::core::Game;
use koma::games::{GameId, GameVisitor};
use koma::protocol::record::{OpeningLine, parse_opening, parse_openings};
use koma::referee::opening::{Opening, add_random_plies, check};
use koma::referee::schedule::Rng;

pub fn openings(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
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
