//! `-output format=cutechess`: the lines cutechess-cli prints, in the
//! layout fastchess's `output_cutechess` writes them, so that tuners and
//! scripts that parse `Score of A vs B: W - L - D [p] N` read Koma's
//! matches. Elo here is from single games, as cutechess-cli computes it.

use super::report::{ResultRow, tally};
use super::sprt::{Decision, Sprt};
use super::stats::{self, Tally};
use std::fmt::Write;

/// `Score of A vs B: 3 - 1 - 2  [0.667] 6`, from `a`'s side.
pub fn score_line(rows: &[ResultRow], a: &str, b: &str) -> String {
    let t = tally(rows, a, b);
    let n = t.games();
    let score = if n == 0 {
        f64::NAN
    } else {
        t.points() / n as f64
    };
    format!(
        "Score of {a} vs {b}: {} - {} - {}  [{score:.3}] {n}\n",
        t.wins, t.losses, t.draws
    )
}

/// The rating lines: `Elo difference: …, LOS: …, DrawRatio: …` for two
/// engines, the rank table for more, and the SPRT's state.
pub fn interval(rows: &[ResultRow], players: &[String], sprt: Option<&Sprt>) -> String {
    let mut s = String::new();
    if let [a, b] = players {
        let t = games_only(tally(rows, a, b));
        let (elo, los) = match stats::elo_wdl(&t) {
            Some(e) if e.error.is_finite() => (
                format!("{:.2} +/- {:.2}", e.elo + 0.0, e.error),
                format!("{:.2} %", 100.0 * e.los),
            ),
            Some(e) => (
                format!("{:.2} +/- inf", e.elo),
                format!("{:.2} %", 100.0 * e.los),
            ),
            None => ("nan +/- nan".into(), "nan %".into()),
        };
        let _ = writeln!(
            s,
            "Elo difference: {elo}, LOS: {los}, DrawRatio: {:.2} %",
            100.0 * stats::draw_ratio(&t)
        );
        if let Some(sp) = sprt {
            s.push_str(&sprt_line(sp, sp.llr_wdl(&t)));
        }
    } else {
        let _ = writeln!(
            s,
            "{:<4} {:<25} {:>10} {:>10} {:>10} {:>10}",
            "Rank", "Name", "Elo", "+/-", "Games", "Score"
        );
        let mut ranked: Vec<(&String, Tally, f64, f64)> = players
            .iter()
            .map(|p| {
                let mut t = Tally::default();
                for q in players.iter().filter(|q| *q != p) {
                    let u = tally(rows, p, q);
                    t.wins += u.wins;
                    t.losses += u.losses;
                    t.draws += u.draws;
                }
                let (elo, err) =
                    stats::elo_wdl(&t).map_or((f64::NAN, f64::NAN), |e| (e.elo, e.error));
                (p, t, elo, err)
            })
            .collect();
        ranked.sort_by(|x, y| y.2.total_cmp(&x.2));
        for (k, (p, t, elo, err)) in ranked.iter().enumerate() {
            let n = t.games();
            let score = if n == 0 {
                f64::NAN
            } else {
                100.0 * t.points() / n as f64
            };
            let _ = writeln!(
                s,
                "{:>4} {p:<25} {elo:>10.2} {err:>10.2} {n:>10} {score:>9.1}%",
                k + 1
            );
        }
    }
    s
}

/// `SPRT: llr 0.35 (11.9%), lbound -2.94, ubound 2.94` and, once decided,
/// ` - H1 was accepted`.
pub fn sprt_line(sp: &Sprt, llr: f64) -> String {
    let share = if llr < 0.0 {
        llr / sp.lower
    } else {
        llr / sp.upper
    };
    let verdict = match sp.decision(llr) {
        Some(Decision::H1) => " - H1 was accepted",
        Some(Decision::H0) => " - H0 was accepted",
        None => "",
    };
    format!(
        "SPRT: llr {llr:.2} ({:.1}%), lbound {:.2}, ubound {:.2}{verdict}\n",
        100.0 * share,
        sp.lower,
        sp.upper
    )
}

/// The tally without its pairs: cutechess-cli counts single games.
fn games_only(t: Tally) -> Tally {
    Tally {
        penta: Default::default(),
        ..t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Outcome;

    fn row(game: u64, first: &str, second: &str, result: &str) -> ResultRow {
        ResultRow {
            game,
            pair: None,
            first: first.into(),
            second: second.into(),
            outcome: result.parse::<Outcome>().unwrap(),
            reason: None,
        }
    }

    #[test]
    fn the_score_line_counts_from_the_first_engine_s_side() {
        let rows = [
            row(1, "A", "B", "1-0"),
            row(2, "B", "A", "1-0"),
            row(3, "A", "B", "1/2-1/2"),
        ];
        assert_eq!(
            score_line(&rows, "A", "B"),
            "Score of A vs B: 1 - 1 - 1  [0.500] 3\n"
        );
        let s = interval(&rows, &["A".into(), "B".into()], None);
        assert!(s.starts_with("Elo difference: 0.00 +/- "), "{s}");
        assert!(s.contains("DrawRatio: 33.33 %"), "{s}");
    }
}
