//! Game review: an engine run over every position of a table's game at a
//! fixed depth, node count or time per position, each search through
//! `client::turn` as the referee plays a move. The scores (first player's
//! view) and the engine's preferred moves go into the table as they come;
//! marks are the moves whose score drop for the mover passes a threshold.
//! A review is saved into the record as three tags (`Analysis`,
//! `AnalysisEngine`, `AnalysisLimit`, see protocol.md) and read back from
//! them when the record is loaded. The engine's run over the game is
//! `review_run`'s.

use super::accuracy::{PlayerSummary, accuracies, win_percent, win_scale};
use super::eval::{CLAMP, Eval};
use crate::client::clock::EngineLimits;
use crate::core::{Color, MoveText};
use crate::games::GameId;
use crate::protocol::parse_move;
use crate::protocol::record::Record;
use serde::{Serialize, Serializer};
use std::fmt;
use std::time::Duration;

/// The record tags of a review.
pub const TAG: &str = "Analysis";
pub const TAG_ENGINE: &str = "AnalysisEngine";
pub const TAG_LIMIT: &str = "AnalysisLimit";

/// Score drops (centipawns, for the side that moved) from which a move is
/// marked; scores are clamped to `CLAMP` first (see `Eval::clamped`).
pub const INACCURACY: i32 = 50;
pub const MISTAKE: i32 = 100;
pub const BLUNDER: i32 = 300;

/// What bounds each search of a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    Movetime(Duration),
}

impl Limit {
    pub(super) fn engine_limits(self) -> EngineLimits {
        let mut l = EngineLimits::default();
        match self {
            Limit::Depth(d) => l.depth = Some(d),
            Limit::Nodes(n) => l.nodes = Some(n),
            Limit::Movetime(t) => l.movetime = Some(t),
        }
        l
    }

    fn parse(s: &str) -> Option<Limit> {
        let (kind, n) = s.split_once(' ')?;
        match kind {
            "depth" => n.parse().ok().map(Limit::Depth),
            "nodes" => n.parse().ok().map(Limit::Nodes),
            "movetime" => n
                .parse()
                .ok()
                .map(|ms| Limit::Movetime(Duration::from_millis(ms))),
            _ => None,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Movetime(t) => write!(f, "movetime {}", t.as_millis()),
        }
    }
}

/// One position of the game as the engine saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Point {
    pub eval: Option<Eval>,
    #[serde(serialize_with = "opt_move")]
    pub best: Option<MoveText>,
}

fn opt_move<S: Serializer>(m: &Option<MoveText>, s: S) -> Result<S::Ok, S::Error> {
    m.map(|m| m.to_string()).serialize(s)
}

/// A table's review, running or done.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub engine: String,
    pub limit: Limit,
    /// One per position, the start position first: `plies + 1` of them,
    /// `None` while not yet searched.
    pub points: Vec<Option<Point>>,
    /// The side to move in each position.
    pub movers: Vec<Color>,
    pub running: bool,
    /// Asked to stop (the page's Stop, or a new review).
    pub stop: bool,
    /// Grows with every review of the table: an old worker's results are
    /// thrown away.
    pub generation: u64,
    pub error: Option<String>,
}

/// A marked move: `ply` is the move's number (the position after it).
#[derive(Serialize)]
pub struct Mark {
    ply: usize,
    kind: &'static str,
    /// How much the move lost, centipawns for the side that moved.
    drop: i32,
    #[serde(serialize_with = "super::play::shown")]
    played: MoveText,
    #[serde(serialize_with = "opt_move")]
    best: Option<MoveText>,
}

#[derive(Serialize)]
pub struct AnalysisView<'a> {
    engine: &'a str,
    limit: String,
    points: &'a [Option<Point>],
    done: usize,
    total: usize,
    running: bool,
    error: Option<&'a str>,
    marks: Vec<Mark>,
    thresholds: Thresholds,
    /// Per player, the first player's first: the marks counted and an
    /// accuracy figure.
    summary: [PlayerSummary; 2],
    /// The k of the game's win curve (`accuracy::win_scale`), for the
    /// page's graph.
    #[serde(rename = "winScale")]
    win_scale: f64,
}

#[derive(Serialize)]
struct Thresholds {
    inaccuracy: i32,
    mistake: i32,
    blunder: i32,
    clamp: i32,
}

impl GameAnalysis {
    pub fn new(engine: String, limit: Limit, movers: Vec<Color>, generation: u64) -> Self {
        GameAnalysis {
            engine,
            limit,
            points: vec![None; movers.len()],
            movers,
            running: true,
            stop: false,
            generation,
            error: None,
        }
    }

    /// The moves whose score drop passes a threshold, where the engine
    /// preferred another move.
    pub fn marks(&self, moves: &[MoveText]) -> Vec<Mark> {
        let mut out = Vec::new();
        for (k, &played) in moves.iter().enumerate() {
            let (Some(Some(before)), Some(Some(after))) =
                (self.points.get(k), self.points.get(k + 1))
            else {
                continue;
            };
            let (Some(b), Some(a)) = (before.eval, after.eval) else {
                continue;
            };
            let sign = match self.movers.get(k) {
                Some(Color::First) => 1,
                Some(Color::Second) => -1,
                None => continue,
            };
            let drop = sign * (b.clamped() - a.clamped());
            let kind = match drop {
                d if d >= BLUNDER => "blunder",
                d if d >= MISTAKE => "mistake",
                d if d >= INACCURACY => "inaccuracy",
                _ => continue,
            };
            if before.best == Some(played) {
                continue;
            }
            out.push(Mark {
                ply: k + 1,
                kind,
                drop,
                played,
                best: before.best,
            });
        }
        out
    }

    /// What the page shows of this analysis of a game of `game`.
    pub fn view<'a>(&'a self, moves: &[MoveText], game: GameId) -> AnalysisView<'a> {
        let marks = self.marks(moves);
        let wins: Vec<Option<f64>> = (self.points.iter())
            .map(|p| {
                p.as_ref()
                    .and_then(|p| p.eval)
                    .map(|e| win_percent(game, e))
            })
            .collect();
        let mut summary = accuracies(&wins, &self.movers);
        for m in &marks {
            let Some(mover) = self.movers.get(m.ply - 1) else {
                continue;
            };
            let s = &mut summary[mover.index()];
            match m.kind {
                "blunder" => s.blunders += 1,
                "mistake" => s.mistakes += 1,
                _ => s.inaccuracies += 1,
            }
        }
        AnalysisView {
            engine: &self.engine,
            limit: self.limit.to_string(),
            points: &self.points,
            done: self.points.iter().filter(|p| p.is_some()).count(),
            total: self.points.len(),
            running: self.running,
            error: self.error.as_deref(),
            marks,
            thresholds: Thresholds {
                inaccuracy: INACCURACY,
                mistake: MISTAKE,
                blunder: BLUNDER,
                clamp: CLAMP,
            },
            summary,
            win_scale: win_scale(game),
        }
    }

    /// The review's three tags, set on a record.
    pub fn tag(&self, r: &mut Record) {
        let points: Vec<String> = (self.points.iter())
            .map(|p| {
                let p = p.clone().unwrap_or_default();
                let eval = p.eval.map_or("?".to_string(), |e| e.to_string());
                let best = p.best.map_or("-".to_string(), |m| m.to_string());
                format!("{eval} {best}")
            })
            .collect();
        r.set_tag(TAG, points.join(", "));
        r.set_tag(TAG_ENGINE, self.engine.clone());
        r.set_tag(TAG_LIMIT, self.limit.to_string());
    }

    /// A review read back from a record's tags: `None` without them, an
    /// error when they are malformed or do not fit the game.
    pub fn from_record(r: &Record, movers: Vec<Color>) -> Option<Result<GameAnalysis, String>> {
        let text = r.tag(TAG)?;
        Some((|| {
            let limit = r
                .tag(TAG_LIMIT)
                .and_then(Limit::parse)
                .ok_or("the AnalysisLimit tag is missing or malformed")?;
            let mut a = GameAnalysis::new(
                r.tag(TAG_ENGINE).unwrap_or("?").to_string(),
                limit,
                movers,
                0,
            );
            a.running = false;
            let entries: Vec<&str> = text.split(',').map(str::trim).collect();
            if entries.len() != a.points.len() {
                return Err(format!(
                    "the Analysis tag has {} points, the game {} positions",
                    entries.len(),
                    a.points.len()
                ));
            }
            for (k, e) in entries.iter().enumerate() {
                let bad =
                    || format!("Analysis tag, point {k}: {e:?} (expected a score and a move)");
                let (eval, best) = e.split_once(' ').ok_or_else(bad)?;
                let eval = match eval {
                    "?" => None,
                    s => Some(Eval::parse(s).ok_or_else(bad)?),
                };
                let best = match best {
                    "-" => None,
                    m => Some(parse_move(m).map_err(|_| bad())?),
                };
                a.points[k] = Some(Point { eval, best });
            }
            Ok(a)
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::InfoScore;

    #[test]
    fn evals_read_back_as_written_and_clamp_at_the_edge() {
        for e in [
            Eval::Cp(35),
            Eval::Cp(-120),
            Eval::Cp(0),
            Eval::Mate(3),
            Eval::Mate(-2),
            Eval::End(1),
            Eval::End(-1),
            Eval::End(0),
        ] {
            assert_eq!(Eval::parse(&e.to_string()), Some(e), "{e}");
        }
        assert_eq!(Eval::Cp(5000).clamped(), CLAMP);
        assert_eq!(Eval::Mate(-1).clamped(), -CLAMP);
        assert_eq!(Eval::End(0).clamped(), 0);
        // From the side to move's view to the first player's.
        assert_eq!(Eval::of(InfoScore::Cp(40), Color::Second), Eval::Cp(-40));
        assert_eq!(Eval::of(InfoScore::Mate(2), Color::Second), Eval::Mate(-2));
        for l in [
            Limit::Depth(4),
            Limit::Nodes(2000),
            Limit::Movetime(Duration::from_millis(250)),
        ] {
            assert_eq!(Limit::parse(&l.to_string()), Some(l));
        }
    }

    #[test]
    fn a_move_is_marked_by_the_drop_for_the_side_that_moved() {
        let movers = vec![Color::First, Color::Second, Color::First, Color::Second];
        let mut a = GameAnalysis::new("e".into(), Limit::Depth(1), movers, 1);
        let m = |s: &str| parse_move(s).unwrap();
        let pt = |cp, best: &str| {
            Some(Point {
                eval: Some(Eval::Cp(cp)),
                best: Some(m(best)),
            })
        };
        // The first player's move loses it 60 (an inaccuracy); the second
        // player's lets the first player's score rise by 350 (a blunder).
        a.points = vec![
            pt(0, "a1a2"),
            pt(-60, "b1b2"),
            pt(290, "c1c2"),
            pt(300, "d1d2"),
        ];
        let moves = [m("a1a3"), m("b1b3"), m("c1c2")];
        let marks = a.marks(&moves);
        let got: Vec<(usize, &str, i32)> = marks.iter().map(|k| (k.ply, k.kind, k.drop)).collect();
        // The third move is the engine's own choice: never marked.
        assert_eq!(got, vec![(1, "inaccuracy", 60), (2, "blunder", 350)]);
    }
}
