//! The summary as one JSON object (`--output format=json` at the end of a
//! match, `--report FILE... --json`), for a CI pipeline: the same numbers
//! as the text summary, without parsing it. An infinite or undefined number
//! (the Elo of a clean sweep) is `null`, its bound given beside it.

use super::report::{ResultRow, tally};
use super::sprt::{Decision, Model, Sprt};
use super::stats;
use super::thinking::Thinking;
use crate::client::reason::Reason;
use crate::core::{Color, Outcome};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// A finite number, else `null`.
fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// One encounter: `a`'s results against `b`.
fn encounter(rows: &[ResultRow], a: &str, b: &str, sprt: Option<&Sprt>) -> Value {
    let t = tally(rows, a, b);
    let mut o = Map::new();
    o.insert("engines".into(), json!([a, b]));
    o.insert("games".into(), json!(t.games()));
    o.insert("wins".into(), json!(t.wins));
    o.insert("losses".into(), json!(t.losses));
    o.insert("draws".into(), json!(t.draws));
    o.insert("points".into(), json!(t.points()));
    o.insert("pentanomial".into(), json!(t.penta.buckets()));
    o.insert("draw_ratio".into(), num(stats::draw_ratio(&t)));
    let elo = stats::elo(&t).map(|e| {
        json!({
            "elo": num(e.elo),
            "error": num(e.error),
            "lower": num(e.lower),
            "upper": num(e.upper),
            "bound": e.bound().map_or(Value::Null, num),
            "nelo": e.nelo.map_or(Value::Null, |(n, _)| num(n)),
            "nelo_error": e.nelo.map_or(Value::Null, |(_, err)| num(err)),
            "los": num(e.los),
            "from": if e.pentanomial { "pairs" } else { "games" },
        })
    });
    o.insert("elo".into(), elo.unwrap_or(Value::Null));
    let mut endings: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut time_losses: BTreeMap<&str, u64> = BTreeMap::from([(a, 0), (b, 0)]);
    for r in rows
        .iter()
        .filter(|r| (r.first == a && r.second == b) || (r.first == b && r.second == a))
    {
        let Some(reason) = r.reason else { continue };
        *endings.entry(reason.message()).or_default() += 1;
        if reason == Reason::TimeForfeit
            && let Outcome::Win(w) = r.outcome
        {
            let loser = if w == Color::First {
                &r.second
            } else {
                &r.first
            };
            *time_losses.entry(loser.as_str()).or_default() += 1;
        }
    }
    o.insert("endings".into(), json!(endings));
    o.insert("time_losses".into(), json!(time_losses));
    if let Some(sp) = sprt {
        let llr = sp.llr(&t);
        o.insert(
            "sprt".into(),
            json!({
                "llr": num(llr),
                "lower": sp.lower,
                "upper": sp.upper,
                "elo0": sp.elo0,
                "elo1": sp.elo1,
                "alpha": sp.alpha,
                "beta": sp.beta,
                "model": match sp.model { Model::Normalized => "normalized", Model::Logistic => "logistic" },
                "state": match sp.decision(llr) {
                    Some(Decision::H0) => "H0",
                    Some(Decision::H1) => "H1",
                    None => "open",
                },
            }),
        );
    }
    Value::Object(o)
}

/// The whole summary: every encounter with games (the first two players'
/// always), the SPRT on the first two, and per engine what it reported
/// about its moves when `thinking` is given (by a match: depth, nodes and
/// time; from records: depth and time, nodes `null`).
pub fn summary(
    rows: &[ResultRow],
    players: &[String],
    sprt: Option<&Sprt>,
    thinking: Option<&[Thinking]>,
) -> Value {
    let mut encounters = Vec::new();
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            if players.len() > 2 && tally(rows, a, b).games() == 0 {
                continue;
            }
            let sp = if players.len() == 2 { sprt } else { None };
            encounters.push(encounter(rows, a, b, sp));
        }
    }
    let engines: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let mine: Vec<&ResultRow> = rows
                .iter()
                .filter(|r| &r.first == p || &r.second == p)
                .collect();
            let points: f64 = mine
                .iter()
                .map(|r| match r.outcome {
                    Outcome::Draw => 0.5,
                    Outcome::Win(Color::First) if &r.first == p => 1.0,
                    Outcome::Win(Color::Second) if &r.second == p => 1.0,
                    Outcome::Win(_) => 0.0,
                })
                .sum();
            let mut e = json!({ "name": p, "games": mine.len(), "points": points });
            if let Some(t) = thinking.and_then(|t| t.get(k)) {
                e["moves"] = json!(t.moves);
                e["depth_per_move"] = t.depth_per_move().map_or(Value::Null, num);
                e["nodes_per_move"] = t.nodes_per_move().map_or(Value::Null, num);
                e["ms_per_move"] = t.ms_per_move().map_or(Value::Null, num);
                e["nps"] = t.nps().map_or(Value::Null, num);
            }
            e
        })
        .collect();
    json!({
        "games": rows.len(),
        "engines": engines,
        "encounters": encounters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        game: u64,
        pair: u64,
        first: &str,
        second: &str,
        outcome: Outcome,
        reason: Reason,
    ) -> ResultRow {
        ResultRow {
            game,
            pair: Some(pair),
            first: first.into(),
            second: second.into(),
            outcome,
            reason: Some(reason),
        }
    }

    #[test]
    fn the_numbers_of_the_text_summary_and_null_for_the_infinite() {
        let rows = vec![
            row(
                1,
                1,
                "a",
                "b",
                Outcome::Win(Color::First),
                Reason::TimeForfeit,
            ),
            row(
                2,
                1,
                "b",
                "a",
                Outcome::Win(Color::Second),
                Reason::ScoreResign,
            ),
        ];
        let players = vec!["a".to_string(), "b".to_string()];
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let v = summary(&rows, &players, Some(&sprt), None);
        let e = &v["encounters"][0];
        assert_eq!(e["wins"], 2);
        assert_eq!(e["pentanomial"], json!([0, 0, 0, 0, 1]));
        assert_eq!(e["time_losses"]["b"], 1);
        assert_eq!(e["endings"]["adjudicated resignation"], 1);
        assert!(e["elo"]["elo"].is_null(), "{e}");
        assert!(e["elo"]["bound"].is_number(), "{e}");
        assert_eq!(e["sprt"]["state"], "open");
        assert_eq!(v["engines"][0]["points"], 2.0);
        assert!(v["engines"][0].get("nps").is_none());
        let text = serde_json::to_string(&v).unwrap();
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    }
}
