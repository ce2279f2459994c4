//! Engine reply lines as the referee reads them (`parse_reply`, one line
//! at a time, as `engine_proc` splits them). Input: text.
//!
//! Properties: an accepted reply prints (as the engine prints it) to a
//! line that reads back to the same reply; the move comment the referee
//! writes from an `info` line survives a record written and read back;
//! a `bestmove` move the rules know is already in canonical form; an
//! `option` declaration the referee reads has a name.

use koma::client::turn::comment;
use koma::core::Game;
use koma::core::MoveText;
use koma::games::{GameId, GameVisitor};
use koma::protocol::record::{Record, RecordMove, parse_record};
use koma::protocol::{Reply, parse_option_decl, parse_reply};
use std::time::Duration;

pub fn replies(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.split('\n') {
        let Ok(reply) = parse_reply(line) else {
            continue;
        };
        let printed = reply.to_string();
        let again = parse_reply(&printed)
            .unwrap_or_else(|e| panic!("{line:?} read, its print {printed:?} does not: {e}"));
        assert_eq!(again, reply, "{line:?} prints as {printed:?}");
        match &reply {
            Reply::Info(info) => {
                let c = comment(Some(info), Duration::from_millis(line.len() as u64));
                let r = Record {
                    tags: vec![("Variant".into(), "negaeri".into())],
                    moves: vec![RecordMove {
                        mv: MoveText::Pass,
                        comment: Some(c.clone()),
                    }],
                    result: "*".into(),
                };
                let back = parse_record(&r.to_string()).expect("a record with a move comment");
                assert_eq!(
                    back.moves[0].comment.as_deref(),
                    Some(c.as_str()),
                    "{line:?}"
                );
            }
            Reply::Option(decl) => {
                if let Some(d) = parse_option_decl(decl) {
                    assert!(!d.name.trim().is_empty(), "{line:?}");
                }
            }
            Reply::BestMove { mv: Some(mv), .. } => {
                for &g in GameId::ALL {
                    g.visit(Canonical(mv));
                }
            }
            _ => {}
        }
    }
}

/// A move found in the start position is written as the rules write it.
struct Canonical<'a>(&'a MoveText);

impl GameVisitor for Canonical<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let pos = G::start(&Default::default());
        if let Some(m) = pos.find_move(self.0) {
            assert_eq!(pos.move_text(m), *self.0);
        }
    }
}
