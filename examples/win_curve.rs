//! Fits, per game, the curve the board's game review maps an engine score
//! to a win probability with: P(first player wins) = 1 / (1 + e^(-k·cp)),
//! k chosen by maximum likelihood over every (score, final result) pair of
//! Koma's own match records (a draw counts half a win). The scores are the
//! referee's move comments (`{+0.12/5 0.105s}`, from the mover's view),
//! turned to the first player's view; book moves and mate scores are left
//! out. The fitted k go into each game's presentation (`win_scale`).
//!
//!     cargo run --release --example win_curve                 (docs/matches/*.state)
//!     cargo run --release --example win_curve -- a.pgn b.pgn
//!     cargo run --release --example win_curve -- --svg docs/win-curves.svg
//!
//! `--svg FILE` also draws the curves over the records' own results
//! (the mean result of the positions in each 50 cp bin).

use koma::protocol::InfoScore;
use koma::protocol::record::parse_records;
use koma::record::adjudicate::score_of_comment;
use std::collections::BTreeMap;

/// Scores beyond this decide nothing more about the curve's slope.
const CLAMP: f64 = 2000.0;

fn main() {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    let svg = match files.iter().position(|a| a == "--svg") {
        Some(k) if k + 1 < files.len() => {
            let path = files.remove(k + 1);
            files.remove(k);
            Some(path)
        }
        Some(_) => {
            eprintln!("--svg needs a file name");
            std::process::exit(2);
        }
        None => None,
    };
    if files.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/matches");
        let mut found: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "state"))
                    .map(|p| p.display().to_string())
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        files = found;
    }
    // Per game: (score from the first player's view, first player's result).
    let mut pairs: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut games: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                std::process::exit(2);
            }
        };
        for item in parse_records(&text) {
            let Ok(r) = item.record else { continue };
            let y = match r.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let Some(game) = r.tag("Variant").map(str::to_string) else {
                continue;
            };
            let second_starts = r
                .tag("FEN")
                .and_then(|f| f.split_whitespace().nth(1))
                .is_some_and(|side| side == "b");
            *games.entry(game.clone()).or_default() += 1;
            let out = pairs.entry(game).or_default();
            for (k, m) in r.moves.iter().enumerate() {
                let Some(InfoScore::Cp(cp)) = m.comment.as_deref().and_then(score_of_comment)
                else {
                    continue;
                };
                let first_moved = (k + usize::from(second_starts)).is_multiple_of(2);
                let x = f64::from(cp);
                let x = if first_moved { x } else { -x };
                out.push((x.clamp(-CLAMP, CLAMP), y));
            }
        }
    }
    println!(
        "| game | games | scored positions | k (per cp) | cp at 75% | 100 cp | 300 cp | 600 cp |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut curves = Vec::new();
    for (game, ps) in &pairs {
        let k = fit(ps);
        curves.push((game.as_str(), k, ps));
        let p = |cp: f64| 100.0 / (1.0 + (-k * cp).exp());
        println!(
            "| {game} | {} | {} | {k:.5} | {:.0} | {:.0}% | {:.0}% | {:.0}% |",
            games[game],
            ps.len(),
            3f64.ln() / k,
            p(100.0),
            p(300.0),
            p(600.0)
        );
    }
    if let Some(path) = svg
        && let Err(e) = std::fs::write(&path, drawing(&curves))
    {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    }
}

/// A game's name, its fitted k and its (score, result) pairs.
type Curve<'a> = (&'a str, f64, &'a Vec<(f64, f64)>);

/// The curves (lines) over the records' mean results per 50 cp (dots),
/// -600 to 600 cp.
fn drawing(curves: &[Curve]) -> String {
    const COLOURS: [&str; 4] = ["#b5542c", "#1f6fb2", "#3b8a3b", "#6a1b9a"];
    let (w, h, l, b) = (560.0, 300.0, 40.0, 30.0);
    let x = |cp: f64| l + (cp + 600.0) / 1200.0 * (w - l - 10.0);
    let y = |p: f64| 10.0 + (1.0 - p) * (h - b - 10.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#fffdf8\"/>\n"
    );
    for cp in (-600..=600).step_by(200) {
        let cp = f64::from(cp);
        out += &format!(
            "<line x1=\"{0:.1}\" y1=\"10\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{3}</text>\n",
            x(cp),
            h - b,
            h - b + 14.0,
            cp
        );
    }
    for p in [0.0, 0.25, 0.5, 0.75, 1.0] {
        out += &format!(
            "<line x1=\"{l}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/><text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{4}%</text>\n",
            y(p),
            w - 10.0,
            l - 4.0,
            y(p) + 4.0,
            p * 100.0
        );
    }
    out += &format!(
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">score for the first player (centipawns)</text>\n",
        (w + l) / 2.0,
        h - 2.0
    );
    for (i, (game, k, ps)) in curves.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let pts: Vec<String> = (-600..=600)
            .step_by(10)
            .map(|cp| {
                let cp = f64::from(cp);
                format!("{:.1},{:.1}", x(cp), y(1.0 / (1.0 + (-k * cp).exp())))
            })
            .collect();
        out += &format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"/>\n",
            pts.join(" ")
        );
        let mut bins: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
        for &(cp, r) in ps.iter() {
            if cp.abs() <= 600.0 {
                let e = bins.entry((cp / 50.0).round() as i64).or_default();
                e.0 += r;
                e.1 += 1.0;
            }
        }
        for (bin, (sum, n)) in bins {
            if n >= 30.0 {
                out += &format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.2\" fill=\"{c}\" opacity=\"0.6\"/>\n",
                    x(bin as f64 * 50.0),
                    y(sum / n)
                );
            }
        }
        out += &format!(
            "<text x=\"{}\" y=\"{}\" fill=\"{c}\">{game} (k = {k:.5})</text>\n",
            l + 10.0,
            24 + 14 * i
        );
    }
    out + "</svg>\n"
}

/// The k of greatest likelihood: the log-likelihood is concave in k, so a
/// golden-section search on [0.00001, 0.05] finds it.
fn fit(ps: &[(f64, f64)]) -> f64 {
    let likelihood = |k: f64| -> f64 {
        ps.iter()
            .map(|&(x, y)| {
                let z = k * x;
                // ln p = -ln(1 + e^-z), ln(1 - p) = -ln(1 + e^z), kept finite.
                let (lp, lq) = (-softplus(-z), -softplus(z));
                y * lp + (1.0 - y) * lq
            })
            .sum()
    };
    let (mut lo, mut hi) = (0.00001, 0.05);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let (a, b) = (hi - r * (hi - lo), lo + r * (hi - lo));
        if likelihood(a) < likelihood(b) {
            lo = a;
        } else {
            hi = b;
        }
    }
    (lo + hi) / 2.0
}

/// ln(1 + e^z) without overflow.
fn softplus(z: f64) -> f64 {
    if z > 30.0 { z } else { z.exp().ln_1p() }
}
