//! A review's per-player summary: scores turned into win probabilities by
//! a curve fitted per game on Koma's own match records, and an accuracy
//! figure on them defined as lichess defines its own (per move from the
//! mover's loss of win probability; per game a mean of the moves weighted
//! by how sharp the game was there, averaged with their harmonic mean).

use super::eval::Eval;
use crate::core::Color;
use crate::games::GameId;
use serde::Serialize;

/// k of P(first player wins) = 1 / (1 + e^(-k·cp)): the game's own, fitted
/// by maximum likelihood on every scored move of the records in
/// `docs/matches/` (`cargo run --release --example win_curve` prints the
/// fit; the README's board section shows the curves). Lichess's chess k
/// is 0.00368.
pub fn win_scale(game: GameId) -> f64 {
    game.presentation().win_scale
}

/// The first player's chance to win, in percent (a draw half a win).
pub fn win_percent(game: GameId, e: Eval) -> f64 {
    match e {
        Eval::Cp(v) => 100.0 / (1.0 + (-win_scale(game) * f64::from(v)).exp()),
        Eval::Mate(m) if m >= 0 => 100.0,
        Eval::Mate(_) => 0.0,
        Eval::End(w) => 50.0 + 50.0 * f64::from(w),
    }
}

/// A move's accuracy, 0-100, from the mover's win percent before and
/// after it (lichess's formula).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    (103.1668 * (-0.04354 * (before - after)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One player's review.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// 0-100, `None` before any move of theirs was scored on both sides.
    pub accuracy: Option<f64>,
    /// Their moves scored.
    pub moves: usize,
}

/// Accuracy per player from the first player's win percent of every
/// position (`None`: not searched) and the side to move in each; the
/// marks' counts are added by the caller.
pub fn accuracies(wins: &[Option<f64>], movers: &[Color]) -> [PlayerSummary; 2] {
    let mut out = [PlayerSummary::default(), PlayerSummary::default()];
    // Each move's accuracy and the sharpness of the game around it: the
    // spread of the win percents in a window ending after it.
    let n = wins.len();
    let window = (n / 10).clamp(2, 8);
    let mut per: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for k in 0..n.saturating_sub(1) {
        let (Some(b), Some(a), Some(&mover)) = (wins[k], wins[k + 1], movers.get(k)) else {
            continue;
        };
        let (b, a) = match mover {
            Color::First => (b, a),
            Color::Second => (100.0 - b, 100.0 - a),
        };
        let hi = (k + 2).max(window).min(n);
        let lo = hi.saturating_sub(window);
        let seen: Vec<f64> = wins[lo..hi].iter().flatten().copied().collect();
        let weight = spread(&seen).clamp(0.5, 12.0);
        per[mover.index()].push((move_accuracy(b, a), weight));
    }
    for (side, moves) in per.iter().enumerate() {
        if moves.is_empty() {
            continue;
        }
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>()
            / moves.iter().map(|(_, w)| w).sum::<f64>();
        // A move of accuracy 0 would make the harmonic mean 0: lichess
        // counts it as a little above.
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        out[side].accuracy = Some((weighted + harmonic) / 2.0);
        out[side].moves = moves.len();
    }
    out
}

/// The standard deviation of the values.
fn spread(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_percent_is_even_at_zero_and_certain_at_a_mate_or_an_end() {
        for &g in GameId::ALL {
            assert_eq!(win_percent(g, Eval::Cp(0)), 50.0);
            let up = win_percent(g, Eval::Cp(300));
            assert!(up > 50.0 && up < 100.0, "{g:?}: {up}");
            assert!((win_percent(g, Eval::Cp(-300)) - (100.0 - up)).abs() < 1e-9);
        }
        let g = GameId::DEFAULT;
        assert_eq!(win_percent(g, Eval::Mate(3)), 100.0);
        assert_eq!(win_percent(g, Eval::Mate(-1)), 0.0);
        assert_eq!(win_percent(g, Eval::End(0)), 50.0);
        assert_eq!(win_percent(g, Eval::End(-1)), 0.0);
    }

    #[test]
    fn a_move_that_keeps_the_chances_is_accurate_and_one_that_throws_them_away_is_not() {
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        // Lichess's formula: a loss of 10 points gives 63.6.
        assert!((move_accuracy(60.0, 50.0) - 63.6).abs() < 0.1);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn accuracy_is_per_player_from_the_movers_view() {
        // The first player keeps its chances; the second player throws a
        // won position away on its only move that matters.
        let wins = [50.0, 50.0, 50.0, 50.0, 90.0, 90.0].map(Some);
        let movers = [
            Color::First,
            Color::Second,
            Color::First,
            Color::Second,
            Color::First,
            Color::Second,
        ];
        let s = accuracies(&wins, &movers);
        assert_eq!(s[0].accuracy, Some(100.0));
        assert_eq!((s[0].moves, s[1].moves), (3, 2));
        let second = s[1].accuracy.unwrap();
        assert!(second < 75.0, "{second}");
        // Nothing searched: no figure.
        let none = accuracies(&[None, None], &movers[..2]);
        assert_eq!(none[0].accuracy, None);
    }
}
