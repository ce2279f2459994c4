//! Summaries: per encounter W/L/D, points, Elo with its 95% error bar,
//! nElo, LOS, draw ratio, pentanomial pair counts and the SPRT state, in
//! the layout fastchess prints; its rank table for a round robin (`merge` prints
//! them for `--report`).

use super::sprt::{Decision, Sprt};
use super::stats::{self, Tally};
use crate::client::reason::Reason;
use crate::core::{Color, Outcome};
use crate::protocol::record::{Record, tag_number};
use crate::record::tags;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One finished game, as statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRow {
    pub game: u64,
    pub pair: Option<u64>,
    pub first: String,
    pub second: String,
    pub outcome: Outcome,
    /// Why the game ended; `None` for a record without a `Termination`
    /// tag the referee knows.
    pub reason: Option<Reason>,
}

/// The row of a record, if it has the tags and a decided result.
pub fn row_of(r: &Record) -> Option<ResultRow> {
    Some(ResultRow {
        game: tag_number(r, tags::GAME)?,
        pair: tag_number(r, tags::PAIR),
        first: r.tag(tags::FIRST)?.to_string(),
        second: r.tag(tags::SECOND)?.to_string(),
        outcome: r.result.parse().ok()?,
        reason: r.tag(tags::TERMINATION).and_then(Reason::from_message),
    })
}

/// Whether `r` is a game between `a` and `b`, in either colour.
fn meets(r: &ResultRow, a: &str, b: &str) -> bool {
    (r.first == a && r.second == b) || (r.first == b && r.second == a)
}

/// Score of `who` in a game, in half points.
fn halves(row: &ResultRow, who: &str) -> u8 {
    let side = if row.first == who {
        Color::First
    } else {
        Color::Second
    };
    match row.outcome {
        Outcome::Draw => 1,
        Outcome::Win(c) if c == side => 2,
        Outcome::Win(_) => 0,
    }
}

/// `a`'s results against `b`; pairs count when both of their games are in.
pub fn tally(rows: &[ResultRow], a: &str, b: &str) -> Tally {
    let mut t = Tally::default();
    let mut pairs: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    for r in rows.iter().filter(|r| meets(r, a, b)) {
        let h = halves(r, a);
        match h {
            2 => t.wins += 1,
            1 => t.draws += 1,
            _ => t.losses += 1,
        }
        if let Some(p) = r.pair {
            pairs.entry(p).or_default().push(h);
        }
    }
    for games in pairs.values() {
        if let [x, y] = games[..] {
            t.penta.add_pair(x, y);
        }
    }
    t
}

fn pct(x: f64) -> String {
    format!("{:.2} %", 100.0 * x)
}

/// The fastchess-style block for `a` against `b`; `context` describes the
/// match (variant, limits).
pub fn encounter(
    rows: &[ResultRow],
    a: &str,
    b: &str,
    context: &str,
    sprt: Option<&Sprt>,
) -> String {
    let t = tally(rows, a, b);
    let mut s = String::new();
    let _ = writeln!(s, "Results of {a} vs {b} ({context}):");
    match stats::elo(&t) {
        Some(e) => {
            let _ = writeln!(
                s,
                "Elo: {}, nElo: {}{}",
                elo_text(&e),
                match e.nelo {
                    Some((n, err)) => format!("{n:.2} +/- {err:.2}"),
                    None => "n/a (every result the same)".to_string(),
                },
                if e.pentanomial {
                    ""
                } else {
                    " (from single games)"
                }
            );
            let p = t.penta;
            let _ = writeln!(
                s,
                "LOS: {}, DrawRatio: {}, PairsRatio: {}",
                pct(e.los),
                pct(stats::draw_ratio(&t)),
                ratio(p.ww + p.wd, p.ld + p.ll)
            );
        }
        None => s.push_str("Elo: no games yet\n"),
    }
    let games = t.games();
    let _ = writeln!(
        s,
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({})",
        t.wins,
        t.losses,
        t.draws,
        t.points(),
        pct(if games == 0 {
            0.0
        } else {
            t.points() / games as f64
        })
    );
    let b5 = t.penta.buckets();
    let _ = writeln!(
        s,
        "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
        b5[0],
        b5[1],
        b5[2],
        b5[3],
        b5[4],
        ratio(t.penta.wl, t.penta.dd)
    );
    if let Some(line) = endings(rows, a, b) {
        s.push_str(&line);
    }
    if let Some(sp) = sprt {
        s.push_str(&llr_line(sp, sp.llr(&t)));
    }
    s
}

/// fastchess's `LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 10.00]`: the share
/// of the way to the bound on its side, then the bounds and the Elo pair.
pub fn llr_line(sp: &Sprt, llr: f64) -> String {
    let share = if llr >= 0.0 {
        llr / sp.upper
    } else {
        -llr / sp.lower
    };
    format!(
        "LLR: {llr:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]\n",
        share * 100.0,
        sp.lower,
        sp.upper,
        sp.elo0,
        sp.elo1
    )
}

/// fastchess's last line of a decided SPRT:
/// `SPRT ([0.00, 5.00]) completed - H1 was accepted`.
pub fn sprt_completed(sp: &Sprt, d: Decision) -> String {
    format!(
        "SPRT ([{:.2}, {:.2}]) completed - {d:?} was accepted\n",
        sp.elo0, sp.elo1
    )
}

/// How the games between `a` and `b` ended, most common first, in the
/// sentences of the game lines: `Endings: draw by repetition 116, new wins
/// by King captured 22, base loses on time 1`. Time losses and
/// repetitions decide how far a result can be trusted, and the score
/// lines cannot show them. `None` when no record says why it ended.
fn endings(rows: &[ResultRow], a: &str, b: &str) -> Option<String> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for r in rows.iter().filter(|r| meets(r, a, b)) {
        if let Some(reason) = r.reason {
            let sentence = reason.sentence(r.outcome, [&r.first, &r.second]);
            *counts.entry(sentence).or_default() += 1;
        }
    }
    let mut by_count: Vec<(String, u64)> = counts.into_iter().collect();
    if by_count.is_empty() {
        return None;
    }
    by_count.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    let words: Vec<String> = by_count.iter().map(|(s, n)| format!("{s} {n}")).collect();
    Some(format!("Endings: {}\n", words.join(", ")))
}

/// `a/b` to two decimals as fastchess prints it: `inf` over no pairs,
/// `nan` for none over none, so that a script reading the number with
/// `float()` gets what it would from fastchess.
fn ratio(a: u64, b: u64) -> String {
    match (a, b) {
        (0, 0) => "nan".into(),
        (_, 0) => "inf".into(),
        _ => format!("{:.2}", a as f64 / b as f64),
    }
}

/// The Elo with its 95% error bar, as fastchess prints it; where the
/// results only bound it (every game lost or won, or an interval that
/// reaches a score of 0 or 1) the bound, in words, instead of an infinity
/// or NaN.
fn elo_text(e: &stats::Estimate) -> String {
    let unit = if e.pentanomial { "pairs" } else { "games" };
    if let Some(b) = e.bound() {
        return if e.score <= 0.0 {
            format!(
                "below {b:.2} ({n} of {n} {unit} lost; 95% bound)",
                n = e.samples
            )
        } else {
            format!(
                "above {b:.2} ({n} of {n} {unit} won; 95% bound)",
                n = e.samples
            )
        };
    }
    // Adding 0 turns -0 (the Elo of a score of exactly 1/2) into 0.
    let e = stats::Estimate {
        elo: e.elo + 0.0,
        ..*e
    };
    match (e.lower.is_finite(), e.upper.is_finite()) {
        (true, true) => format!("{:.2} +/- {:.2}", e.elo, e.error),
        (true, false) => format!(
            "{:.2}, 95% interval above {:.2} (too few {unit} for an upper end)",
            e.elo, e.lower
        ),
        (false, true) => format!(
            "{:.2}, 95% interval below {:.2} (too few {unit} for a lower end)",
            e.elo, e.upper
        ),
        (false, false) => format!("{:.2} (too few {unit} for a 95% interval)", e.elo),
    }
}

const RULE: &str = "--------------------------------------------------";

/// The whole summary: every encounter between `players` that has games,
/// then standings when there are more than two players.
pub fn summary(
    rows: &[ResultRow],
    players: &[String],
    context: &str,
    sprt: Option<&Sprt>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{RULE}");
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            if players.len() > 2 && tally(rows, a, b).games() == 0 {
                continue;
            }
            let sp = if players.len() == 2 { sprt } else { None };
            s.push_str(&encounter(rows, a, b, context, sp));
            if players.len() > 2 {
                s.push('\n');
            }
        }
    }
    if players.len() > 2 {
        s.push_str(&rank_table(rows, players));
    }
    let _ = writeln!(s, "{RULE}");
    s
}

/// fastchess's table for three or more engines: each engine's results
/// against all the others, best Elo first, in its columns.
pub fn rank_table(rows: &[ResultRow], players: &[String]) -> String {
    let width = players.iter().map(|p| p.len()).max().unwrap_or(0).max(25);
    let mut ranked: Vec<(&String, Tally, Option<stats::Estimate>)> = players
        .iter()
        .map(|p| {
            let t = tally_all(rows, p);
            let e = stats::elo(&t);
            (p, t, e)
        })
        .collect();
    // As fastchess sorts: higher Elo first, an engine without one last.
    let key = |e: &Option<stats::Estimate>| e.map_or(f64::NAN, |e| e.elo);
    ranked.sort_by(|x, y| match (key(&x.2).is_nan(), key(&y.2).is_nan()) {
        (false, true) => std::cmp::Ordering::Less,
        (true, false) => std::cmp::Ordering::Greater,
        _ => key(&y.2).total_cmp(&key(&x.2)),
    });
    let mut s = format!(
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>20}\n",
        "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw", "Ptnml(0-2)"
    );
    for (k, (p, t, e)) in ranked.iter().enumerate() {
        let (elo, err) = e.map_or((f64::NAN, f64::NAN), |e| (e.elo, e.error));
        let (nelo, nerr) = e.and_then(|e| e.nelo).unwrap_or((f64::NAN, f64::NAN));
        let games = t.games();
        let score = if games == 0 {
            f64::NAN
        } else {
            100.0 * t.points() / games as f64
        };
        let b = t.penta.buckets();
        let penta = format!("[{}, {}, {}, {}, {}]", b[0], b[1], b[2], b[3], b[4]);
        let _ = writeln!(
            s,
            "{:>4} {p:<width$} {:>10} {:>10} {:>10} {:>10} {games:>10} {:>9}% {:>9}% {penta:>20}",
            k + 1,
            fixed(elo, 2),
            fixed(err, 2),
            fixed(nelo, 2),
            fixed(nerr, 2),
            fixed(score, 1),
            fixed(100.0 * stats::draw_ratio(t), 1),
        );
    }
    s
}

/// A number as C++'s `fmt` prints it: `inf`, `-inf`, `nan` included.
fn fixed(x: f64, places: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:.places$}")
    }
}

/// `who`'s results against every other engine, pairs included.
fn tally_all(rows: &[ResultRow], who: &str) -> Tally {
    let mut t = Tally::default();
    for other in players_of(rows).iter().filter(|p| *p != who) {
        let u = tally(rows, who, other);
        t.wins += u.wins;
        t.draws += u.draws;
        t.losses += u.losses;
        let (p, q) = (&mut t.penta, &u.penta);
        for (x, y) in [
            (&mut p.ll, q.ll),
            (&mut p.ld, q.ld),
            (&mut p.wl, q.wl),
            (&mut p.dd, q.dd),
            (&mut p.wd, q.wd),
            (&mut p.ww, q.ww),
        ] {
            *x += y;
        }
    }
    t
}

/// A gauntlet's tables, one per seed (the first `seeds` players): each
/// opponent's games, wins, losses and draws from the seed's side, its
/// score and Elo.
pub fn gauntlet(rows: &[ResultRow], players: &[String], seeds: usize) -> String {
    let mut s = String::new();
    for (k, seed) in players.iter().take(seeds).enumerate() {
        let _ = writeln!(s, "Gauntlet of {seed} (seed {}):", k + 1);
        let _ = writeln!(
            s,
            "  {:<20} {:>6} {:>5} {:>5} {:>5} {:>8}  Elo",
            "opponent", "games", "W", "L", "D", "score"
        );
        for other in players.iter().filter(|p| *p != seed) {
            let t = tally(rows, seed, other);
            if t.games() == 0 {
                continue;
            }
            let elo = stats::elo(&t).map_or("n/a".to_string(), |e| elo_text(&e));
            let _ = writeln!(
                s,
                "  {other:<20} {:>6} {:>5} {:>5} {:>5} {:>8}  {elo}",
                t.games(),
                t.wins,
                t.losses,
                t.draws,
                pct(t.points() / t.games() as f64)
            );
        }
    }
    s
}

/// Players in order of first appearance.
pub fn players_of(rows: &[ResultRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rows {
        for p in [&r.first, &r.second] {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// `variant, limits`: one limit when all players share it, else each
/// player's.
pub fn context_line(variant: &str, limits: &[(String, String)]) -> String {
    if limits.iter().all(|(_, l)| *l == limits[0].1) {
        match limits.first() {
            Some((_, l)) => format!("{variant}, {l}"),
            None => variant.to_string(),
        }
    } else {
        let each: Vec<String> = limits.iter().map(|(n, l)| format!("{n} {l}")).collect();
        format!("{variant}, {}", each.join(", "))
    }
}

/// `, suite GAME/default (3000 openings)`: the opening suite in a
/// summary's context.
pub fn suite_words(title: &str, size: usize) -> String {
    format!(", suite {title} ({size} openings)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, pair: Option<u64>, first: &str, second: &str, res: &str) -> ResultRow {
        ResultRow {
            game,
            pair,
            first: first.into(),
            second: second.into(),
            outcome: res.parse().unwrap(),
            reason: None,
        }
    }

    fn ended(reason: Reason, r: ResultRow) -> ResultRow {
        ResultRow {
            reason: Some(reason),
            ..r
        }
    }

    #[test]
    fn tallies_follow_colours_and_complete_pairs() {
        let rows = [
            row(1, Some(1), "A", "B", "1-0"),
            row(2, Some(1), "B", "A", "1-0"),
            row(3, Some(2), "A", "B", "1/2-1/2"),
            row(4, Some(2), "B", "A", "0-1"),
            row(5, Some(3), "A", "B", "0-1"),
        ];
        let t = tally(&rows, "A", "B");
        assert_eq!((t.wins, t.losses, t.draws), (2, 2, 1));
        assert_eq!(t.penta.buckets(), [0, 0, 1, 1, 0]);
        assert_eq!(t.penta.wl, 1);
        assert_eq!(tally(&rows, "B", "A"), t.flipped());
    }

    #[test]
    fn a_summary_has_the_fastchess_lines() {
        let rows = [
            row(1, Some(1), "A", "B", "1-0"),
            row(2, Some(1), "B", "A", "0-1"),
        ];
        let sp = Sprt::new(0.0, 5.0, 0.05, 0.05, super::super::sprt::Model::Normalized).unwrap();
        let s = summary(
            &rows,
            &["A".into(), "B".into()],
            "hasami, depth=1",
            Some(&sp),
        );
        assert!(s.contains("Results of A vs B (hasami, depth=1):"), "{s}");
        assert!(s.contains("Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)"));
        assert!(s.contains("Ptnml(0-2): [0, 0, 0, 0, 1]"));
        assert!(s.contains("LLR: "));
        assert!(s.contains("LOS: 100.00 %"));
    }

    #[test]
    fn a_summary_never_prints_nan_or_infinities() {
        let rows_of = |results: &[&str], paired: bool| -> Vec<ResultRow> {
            results
                .iter()
                .enumerate()
                .map(|(k, res)| {
                    let k = k as u64;
                    let pair = paired.then_some(k / 2 + 1);
                    // In a pair the second game has colours swapped: A's
                    // result is given from A's view.
                    let (first, second, res) = if paired && k % 2 == 1 {
                        let flipped = match *res {
                            "1-0" => "0-1",
                            "0-1" => "1-0",
                            d => d,
                        };
                        ("B", "A", flipped)
                    } else {
                        ("A", "B", *res)
                    };
                    row(k + 1, pair, first, second, res)
                })
                .collect()
        };
        let cases: [(&[&str], bool, &str); 7] = [
            (&["0-1"], false, "Elo: below "),
            (&["0-1", "0-1"], true, "(1 of 1 pairs lost; 95% bound)"),
            (&["1-0", "1-0", "1-0", "1-0"], true, "Elo: above "),
            (
                &["1/2-1/2", "1/2-1/2"],
                true,
                "Elo: 0.00 +/- 0.00, nElo: n/a",
            ),
            (
                &[
                    "1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "0-1",
                ],
                false,
                "95% interval above ",
            ),
            // The ratios as fastchess prints them, for float() to read.
            (&["1-0", "0-1"], false, "WL/DD Ratio: nan"),
            (&["1-0", "0-1"], true, "PairsRatio: nan"),
        ];
        for (results, paired, words) in cases {
            let rows = rows_of(results, paired);
            let s = summary(&rows, &["A".into(), "B".into()], "x", None);
            let elo = s
                .lines()
                .find(|l| l.starts_with("Elo:"))
                .unwrap_or_default();
            for bad in ["NaN", "nan", "inf"] {
                assert!(!elo.contains(bad), "{results:?}: {bad} in\n{s}");
            }
            assert!(s.contains(words), "{results:?}: {words:?} in\n{s}");
        }
    }

    #[test]
    fn endings_count_each_way_the_games_ended_most_common_first() {
        use crate::core::EndReason;
        let rep = Reason::Rules(EndReason::Repetition);
        let rows = [
            ended(rep, row(1, Some(1), "A", "B", "1/2-1/2")),
            ended(rep, row(2, Some(1), "B", "A", "1/2-1/2")),
            // A wins once as first, once as second: one count.
            ended(
                Reason::Rules(crate::games::endings::KING_CAPTURED),
                row(3, Some(2), "A", "B", "1-0"),
            ),
            ended(
                Reason::Rules(crate::games::endings::KING_CAPTURED),
                row(4, Some(2), "B", "A", "0-1"),
            ),
            ended(Reason::TimeForfeit, row(5, Some(3), "A", "B", "0-1")),
            // No Termination tag: counted in the score, not in the endings.
            row(6, Some(3), "B", "A", "1-0"),
        ];
        let s = summary(&rows, &["A".into(), "B".into()], "x", None);
        assert!(
            s.contains(
                "Endings: A wins by King captured 2, draw by repetition 2, A loses on time 1\n"
            ),
            "{s}"
        );
        let untagged = [row(1, None, "A", "B", "1-0")];
        let s = summary(&untagged, &["A".into(), "B".into()], "x", None);
        assert!(!s.contains("Endings"), "{s}");
    }

    #[test]
    fn a_round_robin_summary_has_standings() {
        let rows = [
            row(1, None, "A", "B", "1-0"),
            row(2, None, "A", "C", "1/2-1/2"),
            row(3, None, "B", "C", "0-1"),
        ];
        let s = summary(&rows, &players_of(&rows), "x", None);
        assert!(s.contains("Rank Name "), "{s}");
        let a = s.find("   1 A ").unwrap();
        let c = s.find("   2 C ").unwrap();
        let b = s.find("   3 B ").unwrap();
        assert!(a < c && c < b, "{s}");
    }
}
