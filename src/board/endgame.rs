//! The endgame tables' verdict for the page (`POST /api/endgame`): the
//! shown position's value and each legal move's, read from the tables of a
//! game solved by material (a `BoardGame`'s `tables`) under the board's
//! tables folder, as lichess's tablebase panel. Distances count plies to
//! the next exit (a capture or promotion) or end.

use crate::core::endgame::Layered;
use crate::core::{GameLine, MoveText, PositionText, RuleValues, Rules};
use crate::games::GameId;
use crate::solve::tables::{Dtz, Tables};
use serde::Serialize;
use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The tables the board reads, opened once per rule options (a file is
/// read whole the first time a position of its signature is shown, and
/// kept).
pub struct Endgames {
    root: Option<PathBuf>,
    /// Per game and rule options' tag: an `Arc<Tables<G>>` of that game.
    open: Mutex<HashMap<(GameId, String), Arc<dyn Any + Send + Sync>>>,
}

/// A value as the page shows it, for the side it is given for.
#[derive(Serialize, Debug, PartialEq)]
pub struct Verdict {
    /// `win`, `draw` or `loss`.
    pub result: &'static str,
    /// Plies to the next exit (capture or promotion) or end; none for a draw.
    pub plies: Option<u32>,
}

impl From<Dtz> for Verdict {
    fn from(v: Dtz) -> Verdict {
        match v {
            Dtz::Win(d) => Verdict {
                result: "win",
                plies: Some(d),
            },
            Dtz::Loss(d) => Verdict {
                result: "loss",
                plies: Some(d),
            },
            Dtz::Draw => Verdict {
                result: "draw",
                plies: None,
            },
        }
    }
}

#[derive(Serialize)]
pub struct MoveVerdict {
    #[serde(rename = "move")]
    pub mv: String,
    /// For the side making the move; none when no table holds its result.
    pub verdict: Option<Verdict>,
}

/// The answer: `verdict` none (with `note` saying why) when the position is
/// not in the tables.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// Whether this game has tables at all (the page shows no panel else).
    pub game_has_tables: bool,
    pub signature: Option<String>,
    /// For the side to move.
    pub verdict: Option<Verdict>,
    /// Best first for the side to move.
    pub moves: Vec<MoveVerdict>,
    pub note: Option<String>,
}

impl Answer {
    pub fn none(game_has_tables: bool, note: impl Into<String>) -> Answer {
        Answer {
            game_has_tables,
            signature: None,
            verdict: None,
            moves: Vec::new(),
            note: Some(note.into()),
        }
    }
}

impl Endgames {
    /// The tables under `root` (none: the board has no tables folder).
    pub fn new(root: Option<PathBuf>) -> Endgames {
        Endgames {
            root,
            open: Mutex::new(HashMap::new()),
        }
    }

    fn tables<G: Layered>(&self, game: GameId, rules: &G::Rules) -> Option<Arc<Tables<G>>> {
        let root = self.root.as_ref()?;
        let mut map = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let t = map
            .entry((game, G::rules_tag(rules)))
            .or_insert_with(|| Arc::new(Tables::<G>::open(root, rules)));
        t.clone().downcast::<Tables<G>>().ok()
    }

    /// The verdict of the position after `moves` from `start` in `G`
    /// (its history counts: a move repeating a position for the last
    /// allowed time is a draw); a `BoardGame`'s `tables`.
    pub fn answer_as<G: Layered>(
        &self,
        game: GameId,
        rules: &RuleValues,
        start: Option<&PositionText>,
        moves: &[MoveText],
    ) -> Result<Answer, (u16, String)> {
        let rules = G::Rules::from_values(rules).map_err(|e| (400, e.to_string()))?;
        let line =
            GameLine::<G>::from_text(start, moves, &rules).map_err(|e| (422, e.to_string()))?;
        let Some(tables) = self.tables::<G>(game, &rules) else {
            return Ok(Answer::none(true, "the board has no tables folder"));
        };
        let pos = line.current();
        if line.status().is_some() {
            return Ok(Answer::none(true, "the game is over"));
        }
        let Some((sig, _)) = pos.locate() else {
            return Ok(Answer::none(true, "more pieces than the tables hold"));
        };
        let verdict = match tables.lookup(pos) {
            Ok(Some(v)) => v,
            Ok(None) => return Ok(Answer::none(true, "not in the tables")),
            Err(why) => {
                log::debug!("endgame tables: {why}");
                let mut a = Answer::none(true, format!("no table for {sig}"));
                a.signature = Some(sig.to_string());
                return Ok(a);
            }
        };
        let mut ml = G::MoveList::default();
        pos.generate(&mut ml);
        let moves = match tables.moves(pos, line.history()) {
            Some(all) => all
                .into_iter()
                .map(|(m, v)| MoveVerdict {
                    mv: pos.move_text(m).to_string(),
                    verdict: Some(v.into()),
                })
                .collect(),
            // Some move leads where no table is: each move as far as known.
            None => {
                let mut all: Vec<_> = ml.iter().map(|&m| (m, tables.move_value(pos, m))).collect();
                all.sort_by_key(|&(_, v)| std::cmp::Reverse(v.map_or(i64::MIN, Dtz::rank)));
                all.into_iter()
                    .map(|(m, v)| MoveVerdict {
                        mv: pos.move_text(m).to_string(),
                        verdict: v.map(Verdict::from),
                    })
                    .collect()
            }
        };
        Ok(Answer {
            game_has_tables: true,
            signature: Some(sig.to_string()),
            verdict: Some(verdict.into()),
            moves,
            note: None,
        })
    }
}
