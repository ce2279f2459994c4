//! Adjudication by score, as fastchess does it: `--draw movenumber=N
//! movecount=N score=CP` and `--resign movecount=N score=CP
//! [twosided=true]`. Only the scores the engines themselves report decide
//! (a move without a score breaks a run); a mate score is beyond any CP.
//! A record states the rules it was adjudicated under (its tags) and the
//! scores (its move comments), so the rules live with the record: the
//! referee applies them as it plays, the replay check reads them back.

use crate::client::reason::{Ending, Reason};
use crate::core::{Color, Outcome};
use crate::protocol::InfoScore;
use crate::protocol::record::Record;
use crate::record::tags;

/// `--draw`: a draw once both engines have reported |score| <= `score`
/// for `movecount` consecutive moves each, from full move `movenumber` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `--resign`: an engine that has reported a score of -`score` or worse
/// for `movecount` consecutive moves of its own loses; `twosided`: only
/// when both engines agree on it for `movecount` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Both rules of a match; `None`: not adjudicated so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
}

impl std::fmt::Display for DrawRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "movenumber={} movecount={} score={}",
            self.movenumber, self.movecount, self.score
        )
    }
}

impl std::fmt::Display for ResignRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "movecount={} score={}", self.movecount, self.score)?;
        if self.twosided {
            f.write_str(" twosided=true")?;
        }
        Ok(())
    }
}

/// The score seen from the side that reported it: `Some(true)` winning
/// beyond `cp`, `Some(false)` losing beyond it, `None` within it (or no
/// score). Mate is beyond any `cp`; `mate 0` and below is being mated.
fn beyond(score: Option<InfoScore>, cp: i32) -> Option<bool> {
    match score? {
        InfoScore::Mate(m) => Some(m > 0),
        InfoScore::Cp(c) if c >= cp => Some(true),
        InfoScore::Cp(c) if c <= -cp => Some(false),
        InfoScore::Cp(_) => None,
    }
}

/// One game's runs of scores.
#[derive(Clone, Debug)]
pub struct Tracker {
    rules: Adjudication,
    /// Consecutive plies within the draw score.
    draw_run: u32,
    /// By colour: consecutive own moves at -score or worse.
    resign_run: [u32; 2],
    /// Consecutive plies on which the mover's score agreed on one winner.
    agreed: Option<(Color, u32)>,
}

impl Tracker {
    pub fn new(rules: Adjudication) -> Tracker {
        Tracker {
            rules,
            draw_run: 0,
            resign_run: [0; 2],
            agreed: None,
        }
    }

    /// After `mover` played a move reporting `score`, with `plies` plies
    /// on the board (the opening's included): the adjudicated end, if any.
    pub fn after_move(
        &mut self,
        mover: Color,
        score: Option<InfoScore>,
        plies: usize,
        names: [&str; 2],
    ) -> Option<Ending> {
        if let Some(r) = self.rules.resign {
            let view = beyond(score, r.score);
            if r.twosided {
                self.agreed = match view {
                    None => None,
                    Some(winning) => {
                        let winner = if winning { mover } else { mover.opponent() };
                        match self.agreed {
                            Some((w, n)) if w == winner => Some((w, n + 1)),
                            _ => Some((winner, 1)),
                        }
                    }
                };
                if let Some((w, n)) = self.agreed
                    && n >= 2 * r.movecount
                {
                    return Some(Ending {
                        outcome: Outcome::Win(w),
                        reason: Reason::ScoreResign,
                        detail: Some(format!(
                            "both engines scored {} {} cp or more ahead for {} moves",
                            names[w.index()],
                            r.score,
                            r.movecount
                        )),
                    });
                }
            } else {
                let run = &mut self.resign_run[mover.index()];
                *run = if view == Some(false) { *run + 1 } else { 0 };
                if *run >= r.movecount {
                    return Some(Ending {
                        outcome: Outcome::Win(mover.opponent()),
                        reason: Reason::ScoreResign,
                        detail: Some(format!(
                            "{} scored -{} cp or worse for {} moves",
                            names[mover.index()],
                            r.score,
                            r.movecount
                        )),
                    });
                }
            }
        }
        if let Some(d) = self.rules.draw {
            // unsigned_abs: the absolute value of i32::MIN, which an engine
            // may send, does not fit an i32 (abs wraps it to itself).
            let within = matches!(score, Some(InfoScore::Cp(c))
                if c.unsigned_abs() <= d.score.unsigned_abs());
            self.draw_run = if within { self.draw_run + 1 } else { 0 };
            if plies / 2 >= d.movenumber as usize && self.draw_run >= 2 * d.movecount {
                return Some(Ending {
                    outcome: Outcome::Draw,
                    reason: Reason::ScoreDraw,
                    detail: Some(format!(
                        "both engines within {} cp for {} moves, from move {}",
                        d.score, d.movecount, d.movenumber
                    )),
                });
            }
        }
        None
    }
}

/// The rules a record was adjudicated under (its `DrawAdjudication` and
/// `ResignAdjudication` tags; none for a record without them).
pub fn rules_of(r: &Record) -> Result<Adjudication, AdjudicationError> {
    let keys = |tag: &'static str, v: &str| -> Result<Vec<(String, String)>, AdjudicationError> {
        v.split_whitespace()
            .map(|w| {
                w.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| AdjudicationError::NotKeyValue {
                        tag,
                        word: w.to_string(),
                    })
            })
            .collect()
    };
    let tag = |name: &'static str| r.tag(name).map(|v| keys(name, v));
    Ok(Adjudication {
        draw: tag(tags::DRAW_ADJUDICATION)
            .transpose()?
            .map(|k| draw_rule(&k))
            .transpose()?,
        resign: tag(tags::RESIGN_ADJUDICATION)
            .transpose()?
            .map(|k| resign_rule(&k))
            .transpose()?,
    })
}

/// The score a move comment shows (`+0.12/5 0.105s`: 12 cp, `-M3/9 …`:
/// mated in 3); `None` for a move without one.
pub fn score_of_comment(c: &str) -> Option<InfoScore> {
    let first = c.split_whitespace().next()?;
    let score = first.split('/').next()?;
    // The distance is digits alone (`-M-3` is no score), and negated in
    // i64: `-M2147483648` is mate -2147483648, which the engine may send.
    let distance = |m: &str, sign: i64| {
        let digits = m.bytes().all(|b| b.is_ascii_digit());
        let m: i64 = m.parse().ok().filter(|_| digits)?;
        i32::try_from(sign * m).ok().map(InfoScore::Mate)
    };
    if let Some(m) = score.strip_prefix("+M") {
        return distance(m, 1);
    }
    if let Some(m) = score.strip_prefix("-M") {
        return distance(m, -1);
    }
    if !score.starts_with(['+', '-']) {
        return None;
    }
    let pawns: f64 = score.parse().ok()?;
    // Beyond an i32 of cp (which `as` would saturate into one) is no
    // score the referee wrote.
    let cp = (pawns * 100.0).round();
    (f64::from(i32::MIN)..=f64::from(i32::MAX))
        .contains(&cp)
        .then_some(InfoScore::Cp(cp as i32))
}

/// Replays the rules over a record's move comments, as the game fed them
/// the scores: the first ply after which they end the game, and how.
pub fn first_call(r: &Record, rules: Adjudication) -> Option<(usize, Ending)> {
    if rules == Adjudication::default() {
        return None;
    }
    let names = [r.tag(tags::FIRST)?, r.tag(tags::SECOND)?];
    let first_to_move = r
        .tag(tags::FEN)
        .and_then(|f| f.split_whitespace().nth(1))
        .is_none_or(|side| side == "w");
    let mut t = Tracker::new(rules);
    for (k, m) in r.moves.iter().enumerate() {
        let comment = m.comment.as_deref().unwrap_or("book");
        if comment == "book" {
            continue;
        }
        let mover = if (k + usize::from(!first_to_move)).is_multiple_of(2) {
            Color::First
        } else {
            Color::Second
        };
        if let Some(e) = t.after_move(mover, score_of_comment(comment), k + 1, names) {
            return Some((k + 1, e));
        }
    }
    None
}

/// Why the words of `--draw` or `--resign` (or a record's tag holding
/// them) cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdjudicationError {
    /// A word of the record's `tag` that is not `KEY=VALUE`.
    NotKeyValue {
        tag: &'static str,
        word: String,
    },
    /// A key `flag` does not take; `expected` lists those it does.
    UnknownKey {
        flag: &'static str,
        key: String,
        expected: &'static str,
    },
    NotWhole {
        key: String,
        value: String,
        min: u32,
    },
    NotCentipawns {
        key: String,
        value: String,
    },
    /// `twosided=` with neither `true` nor `false`.
    NotTrueOrFalse(String),
    /// `--resign` without a score above 0.
    ResignAtZero,
}

impl std::fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdjudicationError::NotKeyValue { tag, word } => {
                write!(f, "{tag}: {word} is not KEY=VALUE")
            }
            AdjudicationError::UnknownKey {
                flag,
                key,
                expected,
            } => write!(f, "{flag}: unknown key {key} (expected {expected})"),
            AdjudicationError::NotWhole { key, value, min } => {
                write!(f, "{key}={value}: expected a whole number of {min} or more")
            }
            AdjudicationError::NotCentipawns { key, value } => {
                write!(f, "{key}={value}: expected centipawns from 0 to 1000000")
            }
            AdjudicationError::NotTrueOrFalse(v) => {
                write!(f, "--resign twosided={v}: expected true or false")
            }
            AdjudicationError::ResignAtZero => f.write_str(
                "--resign needs score=CP above 0 (a score of 0 or worse would resign even games)",
            ),
        }
    }
}

impl std::error::Error for AdjudicationError {}

/// `KEY=VALUE` words of `--draw`.
pub fn draw_rule(keys: &[(String, String)]) -> Result<DrawRule, AdjudicationError> {
    let mut r = DrawRule {
        movenumber: 0,
        movecount: 1,
        score: 0,
    };
    for (k, v) in keys {
        match k.as_str() {
            "movenumber" => r.movenumber = whole(k, v, 0)?,
            "movecount" => r.movecount = whole(k, v, 1)?,
            "score" => r.score = centipawns(k, v)?,
            _ => {
                return Err(AdjudicationError::UnknownKey {
                    flag: "--draw",
                    key: k.clone(),
                    expected: "movenumber, movecount, score",
                });
            }
        }
    }
    Ok(r)
}

/// `KEY=VALUE` words of `--resign`.
pub fn resign_rule(keys: &[(String, String)]) -> Result<ResignRule, AdjudicationError> {
    let mut r = ResignRule {
        movecount: 1,
        score: 0,
        twosided: false,
    };
    for (k, v) in keys {
        match k.as_str() {
            "movecount" => r.movecount = whole(k, v, 1)?,
            "score" => r.score = centipawns(k, v)?,
            "twosided" => {
                r.twosided = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(AdjudicationError::NotTrueOrFalse(v.clone())),
                }
            }
            _ => {
                return Err(AdjudicationError::UnknownKey {
                    flag: "--resign",
                    key: k.clone(),
                    expected: "movecount, score, twosided",
                });
            }
        }
    }
    if r.score == 0 {
        return Err(AdjudicationError::ResignAtZero);
    }
    Ok(r)
}

fn whole(k: &str, v: &str, min: u32) -> Result<u32, AdjudicationError> {
    v.parse::<u32>()
        .ok()
        .filter(|&n| n >= min)
        .ok_or_else(|| AdjudicationError::NotWhole {
            key: k.to_string(),
            value: v.to_string(),
            min,
        })
}

fn centipawns(k: &str, v: &str) -> Result<i32, AdjudicationError> {
    v.parse::<i32>()
        .ok()
        .filter(|&n| (0..=1_000_000).contains(&n))
        .ok_or_else(|| AdjudicationError::NotCentipawns {
            key: k.to_string(),
            value: v.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{First, Second};

    const NAMES: [&str; 2] = ["a", "b"];

    fn feed(
        rules: Adjudication,
        plies: &[Option<InfoScore>],
        start: usize,
    ) -> Option<(usize, Ending)> {
        let mut t = Tracker::new(rules);
        for (k, s) in plies.iter().enumerate() {
            let mover = if k % 2 == 0 { First } else { Second };
            if let Some(e) = t.after_move(mover, *s, start + k + 1, NAMES) {
                return Some((k + 1, e));
            }
        }
        None
    }

    fn cp(c: i32) -> Option<InfoScore> {
        Some(InfoScore::Cp(c))
    }

    #[test]
    fn a_draw_needs_both_engines_within_the_score_for_the_count_after_the_move_number() {
        let draw = Adjudication {
            draw: Some(DrawRule {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
            resign: None,
        };
        let quiet = [
            cp(5),
            cp(-10),
            cp(0),
            cp(3),
            cp(1),
            cp(2),
            cp(0),
            cp(0),
            cp(0),
            cp(0),
        ];
        let (ply, e) = feed(draw, &quiet, 0).unwrap();
        // Four quiet plies by ply 4, but move 3 is reached at ply 6.
        assert_eq!(
            (ply, e.outcome, e.reason),
            (6, Outcome::Draw, Reason::ScoreDraw)
        );
        // A score beyond it, a mate, or no score at all break the run.
        for breaker in [cp(11), Some(InfoScore::Mate(5)), None] {
            let mut s = quiet;
            s[4] = breaker;
            assert_eq!(feed(draw, &s, 0).map(|(p, _)| p), Some(9), "{breaker:?}");
        }
    }

    #[test]
    fn the_losing_engine_resigns_on_its_own_scores_and_mate_counts_beyond_any_score() {
        let resign = Adjudication {
            draw: None,
            resign: Some(ResignRule {
                movecount: 2,
                score: 500,
                twosided: false,
            }),
        };
        // b (second) reports -500 and a mate against it: b loses on its 2nd.
        let s = [cp(100), cp(-500), cp(900), Some(InfoScore::Mate(-3))];
        let (ply, e) = feed(resign, &s, 0).unwrap();
        assert_eq!((ply, e.outcome), (4, Outcome::Win(First)));
        assert!(e.detail.unwrap().contains("b scored -500"));
        // a's optimism is not b's resignation.
        let s = [cp(900), cp(-100), cp(900), cp(-499)];
        assert!(feed(resign, &s, 0).is_none());
        // One own move in between without a score: the run starts again.
        let s = [cp(0), cp(-600), cp(0), None, cp(0), cp(-600)];
        assert!(feed(resign, &s, 0).is_none());
    }

    #[test]
    fn twosided_resignation_needs_both_engines_to_agree() {
        let two = Adjudication {
            draw: None,
            resign: Some(ResignRule {
                movecount: 2,
                score: 300,
                twosided: true,
            }),
        };
        // a claims +400, b admits -400 (a ahead), twice each.
        let s = [cp(400), cp(-400), cp(350), Some(InfoScore::Mate(-2))];
        let (ply, e) = feed(two, &s, 0).unwrap();
        assert_eq!(
            (ply, e.outcome, e.reason),
            (4, Outcome::Win(First), Reason::ScoreResign)
        );
        // Both claim to be winning: no agreement.
        let s = [cp(400), cp(400), cp(400), cp(400), cp(400)];
        assert!(feed(two, &s, 0).is_none());
    }

    #[test]
    fn bad_keys_are_refused() {
        let kv = |s: &str| -> Vec<(String, String)> {
            s.split_whitespace()
                .map(|w| {
                    let (k, v) = w.split_once('=').unwrap();
                    (k.to_string(), v.to_string())
                })
                .collect()
        };
        let words = |e: AdjudicationError| e.to_string();
        assert_eq!(
            draw_rule(&kv("movenumber=x")).map_err(words),
            Err("movenumber=x: expected a whole number of 0 or more".into())
        );
        assert_eq!(
            draw_rule(&kv("movecount=0")).map_err(words),
            Err("movecount=0: expected a whole number of 1 or more".into())
        );
        assert_eq!(
            draw_rule(&kv("nope=1")).map_err(words),
            Err("--draw: unknown key nope (expected movenumber, movecount, score)".into())
        );
        assert!(
            resign_rule(&kv("movecount=3"))
                .unwrap_err()
                .to_string()
                .contains("score")
        );
        assert_eq!(
            resign_rule(&kv("score=5 twosided=yes")).map_err(words),
            Err("--resign twosided=yes: expected true or false".into())
        );
        assert_eq!(
            resign_rule(&kv("score=-5")).map_err(words),
            Err("score=-5: expected centipawns from 0 to 1000000".into())
        );
        assert_eq!(
            resign_rule(&kv("movecount=3 score=600 twosided=true"))
                .unwrap()
                .to_string(),
            "movecount=3 score=600 twosided=true"
        );
    }

    #[test]
    fn comments_give_back_the_scores() {
        assert_eq!(score_of_comment("+0.12/5 0.105s"), Some(InfoScore::Cp(12)));
        assert_eq!(score_of_comment("-0.05 0.105s"), Some(InfoScore::Cp(-5)));
        assert_eq!(score_of_comment("+M3/9 0.010s"), Some(InfoScore::Mate(3)));
        assert_eq!(score_of_comment("-M2/9 0.010s"), Some(InfoScore::Mate(-2)));
        assert_eq!(score_of_comment("0.010s"), None);
    }

    #[test]
    fn the_extreme_scores_an_engine_may_send_read_back_and_stay_out_of_a_draw() {
        let least = InfoScore::Cp(i32::MIN);
        assert_eq!(score_of_comment("-21474836.48/1 0.001s"), Some(least));
        assert_eq!(
            score_of_comment("+21474836.47/1 0.001s"),
            Some(InfoScore::Cp(i32::MAX))
        );
        assert_eq!(score_of_comment("-21474836.49/1 0.001s"), None);
        assert_eq!(
            score_of_comment("-M2147483648/1 0.001s"),
            Some(InfoScore::Mate(i32::MIN))
        );
        assert_eq!(score_of_comment("+M2147483648/1 0.001s"), None);
        assert_eq!(score_of_comment("-M-3/1 0.001s"), None);
        assert_eq!(score_of_comment("+M+3/1 0.001s"), None);
        let draw = Adjudication {
            draw: Some(DrawRule {
                movenumber: 0,
                movecount: 1,
                score: 0,
            }),
            resign: None,
        };
        assert_eq!(
            feed(draw, &[Some(least), cp(0), Some(least), cp(0)], 0),
            None
        );
        // As the resign rule sees it: as lost as a score can be.
        let resign = Adjudication {
            draw: None,
            resign: Some(ResignRule {
                movecount: 1,
                score: 1_000_000,
                twosided: false,
            }),
        };
        let (ply, e) = feed(resign, &[Some(least)], 0).unwrap();
        assert_eq!((ply, e.outcome), (1, Outcome::Win(Second)));
    }
}
