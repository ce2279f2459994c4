//! The generator: candidate `i` is a playout from the start position of a
//! length and moves drawn from a generator seeded by (seed, i), scored by a
//! fixed search; it is kept when the score lies in the window, the search
//! found no forced result, and no earlier candidate reached the same
//! position or its mirror image. Candidates are searched on every thread
//! but judged in index order, so the suite depends on the seed and the
//! build, never on the thread count.

use super::{Limit, OpeningsError, SCORE_TT_MB, canonical_key, score};
use crate::core::{Game, History, MoveText, OptionValue, Rules, Searchable, status_with_history};
use crate::games::{GameId, GameVisitor};
use crate::record::suite::Header;
use crate::search::{Score, Tt, is_mate};
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How playouts choose their moves (never one that ends the game).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly among the legal moves.
    Random,
    /// Each move scored by a depth-1 search of the position it leads to
    /// (a depth-2 look with quiescence); a move's chance halves every
    /// `temperature` centipawns it scores below the best.
    Weighted { temperature: u32 },
    /// No playouts: every position the ply range reaches, each once (up
    /// to mirror images), in an order shuffled by the seed; for games
    /// small enough to list.
    All,
}

/// Everything that decides a suite (and how many threads make it).
#[derive(Clone, Debug)]
pub struct Config {
    pub variant: GameId,
    /// Rule options set away from their defaults, as given.
    pub rules: Vec<(&'static str, OptionValue)>,
    pub name: String,
    /// How many openings to keep.
    pub positions: usize,
    /// Playout lengths, inclusive.
    pub min_plies: u32,
    pub max_plies: u32,
    pub limit: Limit,
    /// Scores kept, inclusive, in centipawns for the side to move.
    pub window: (Score, Score),
    pub seed: u64,
    pub playout: Playout,
    /// Candidates tried at most before giving up on `positions`.
    pub max_candidates: u64,
    pub threads: usize,
}

impl Config {
    /// The command that makes this suite again: every setting that
    /// decides the output spelled out, so that changed defaults do not
    /// change what it makes.
    pub fn command(&self) -> String {
        let mut s = format!("koma openings --variant {}", self.variant);
        for (n, v) in &self.rules {
            s.push_str(&format!(" --rule {n}={v}"));
        }
        s.push_str(&format!(
            " --name {} --positions {} --plies {}-{} {} --window={},{} --seed {}",
            self.name,
            self.positions,
            self.min_plies,
            self.max_plies,
            self.limit.flag(),
            self.window.0,
            self.window.1,
            self.seed
        ));
        match self.playout {
            Playout::Random => s.push_str(" --playout random"),
            Playout::Weighted { temperature } => {
                s.push_str(&format!(" --playout weighted --temperature {temperature}"))
            }
            Playout::All => s.push_str(" --playout all"),
        }
        s.push_str(&format!(" --max-candidates {}", self.max_candidates));
        s
    }

    /// The settings that cannot make a suite.
    pub fn validate(&self) -> Result<(), OpeningsError> {
        if self.positions == 0 {
            return Err(OpeningsError::Zero("--positions"));
        }
        if self.min_plies > self.max_plies {
            let (min, max) = (self.min_plies, self.max_plies);
            return Err(OpeningsError::Plies { min, max });
        }
        if self.window.0 > self.window.1 {
            let (lo, hi) = self.window;
            return Err(OpeningsError::Window { lo, hi });
        }
        if matches!(self.limit, Limit::Depth(0) | Limit::Nodes(0)) {
            return Err(OpeningsError::NoSearch);
        }
        if self.max_candidates == 0 {
            return Err(OpeningsError::Zero("--max-candidates"));
        }
        if self.name.is_empty() || self.name.contains(char::is_whitespace) {
            return Err(OpeningsError::Name(self.name.clone()));
        }
        Ok(())
    }
}

/// What became of one candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Inside the window: the moves, the score and the duplicate key.
    Inside {
        moves: Vec<MoveText>,
        score: Score,
        key: u64,
    },
    /// Outside the window.
    Outside(Score),
    /// The search found a forced result (a mate score).
    Decided(Score),
    /// Every move would have ended the game before the playout's length.
    Ended,
}

/// Counts of what became of the candidates judged so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub candidates: u64,
    pub kept: u64,
    pub duplicates: u64,
    pub outside: u64,
    pub decided: u64,
    pub ended: u64,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} kept of {} candidates ({} outside the window, {} duplicates or mirror images, {} decided by the search, {} ended early)",
            self.kept, self.candidates, self.outside, self.duplicates, self.decided, self.ended
        )
    }
}

/// A kept opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The candidate's index.
    pub index: u64,
    pub moves: Vec<MoveText>,
    pub score: Score,
}

#[derive(Clone, Debug)]
pub struct Generated {
    pub openings: Vec<Kept>,
    pub tally: Tally,
    /// Whether `positions` were found before `max_candidates` ran out.
    pub complete: bool,
}

/// Where a generation stands, for progress lines.
pub struct Progress<'a> {
    pub tally: &'a Tally,
    pub target: usize,
    pub elapsed: Duration,
}

impl std::fmt::Display for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.tally;
        let secs = self.elapsed.as_secs_f64().max(1e-3);
        write!(
            f,
            "openings: {}/{} kept, {} candidates ({:.1} %), {:.1}/s, {} elapsed",
            t.kept,
            self.target,
            t.candidates,
            100.0 * t.kept as f64 / t.candidates.max(1) as f64,
            t.candidates as f64 / secs,
            clock(secs)
        )?;
        if t.kept > 0 && (t.kept as usize) < self.target {
            let left = (self.target - t.kept as usize) as f64 * secs / t.kept as f64;
            write!(f, ", ETA {}", clock(left))?;
        }
        Ok(())
    }
}

/// `1h02m03s`, `4m05s`, `6s`.
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// The generator of candidate `index`: SplitMix64 from the seed and the
/// index alone.
struct Rng(u64);

impl Rng {
    fn for_candidate(seed: u64, index: u64) -> Rng {
        let (_, s) =
            crate::core::zobrist::splitmix(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        Rng(s)
    }

    fn next(&mut self) -> u64 {
        let (s, v) = crate::core::zobrist::splitmix(self.0);
        self.0 = s;
        v
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// A worker's tables: one for playout move scores (cleared per
/// candidate), one for the scoring search (cleared per search).
pub struct Tables {
    playout: Tt,
    score: Tt,
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            playout: Tt::new(1),
            score: Tt::new(SCORE_TT_MB),
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

/// A move's weight in a weighted playout, `2^20` for the best and halving
/// every `t` centipawns below it (linear in between), in integers so that
/// every machine draws the same moves.
fn weight(below_best: Score, t: u32) -> u64 {
    let t = i64::from(t.max(1));
    let d = i64::from(below_best.max(0));
    let (halvings, rest) = (d / t, d % t);
    if halvings >= 20 {
        return 0;
    }
    ((1u64 << 20) >> halvings) * (2 * t - rest) as u64 / (2 * t) as u64
}

/// The rules from the options given.
pub fn rules_of<G: Game>(
    options: &[(&'static str, OptionValue)],
) -> Result<G::Rules, OpeningsError> {
    let mut rules = G::Rules::default();
    for (n, v) in options {
        (rules.set(n, v)).map_err(|error| OpeningsError::Rule { name: n, error })?;
    }
    Ok(rules)
}

/// Plays and scores candidate `index` of a playout suite.
pub fn candidate<G: Searchable>(cfg: &Config, rules: &G::Rules, index: u64, t: &Tables) -> Verdict {
    match playout::<G>(cfg, rules, index, t) {
        Some((pos, history, moves)) => judge(cfg, rules, &pos, &history, moves, t),
        None => Verdict::Ended,
    }
}

/// The playout of candidate `index`: the position it reaches, its history
/// and its moves; `None` when every move would have ended the game first.
fn playout<G: Searchable>(
    cfg: &Config,
    rules: &G::Rules,
    index: u64,
    t: &Tables,
) -> Option<(G, History, Vec<MoveText>)> {
    let mut rng = Rng::for_candidate(cfg.seed, index);
    let span = u64::from(cfg.max_plies - cfg.min_plies) + 1;
    let plies = u64::from(cfg.min_plies) + rng.below(span);
    let mut pos = G::start(rules);
    let mut history = History::starting_at(&pos);
    let mut moves = Vec::new();
    t.playout.clear();
    for _ in 0..plies {
        let mut legal = G::MoveList::default();
        pos.generate(&mut legal);
        // (move, position after it, weight)
        let mut options: Vec<(G::Move, G, u64)> = Vec::new();
        let mut scores = Vec::new();
        for &m in legal.iter() {
            let next = pos.play(m);
            history.push(next.repetition_key());
            if status_with_history(&next, &history).is_none() {
                if let Playout::Weighted { .. } = cfg.playout {
                    scores.push(-super::search_no_clear(
                        &next,
                        &history,
                        Limit::Depth(1),
                        &t.playout,
                    ));
                }
                options.push((m, next, 1));
            }
            history.pop();
        }
        if options.is_empty() {
            return None;
        }
        if let Playout::Weighted { temperature } = cfg.playout {
            let best = scores.iter().copied().max().unwrap_or(0);
            for (o, &s) in options.iter_mut().zip(&scores) {
                o.2 = weight(best - s, temperature);
            }
        }
        let total: u64 = options.iter().map(|o| o.2).sum();
        let mut pick = rng.below(total);
        let mut chosen = options.len() - 1;
        for (k, o) in options.iter().enumerate() {
            if pick < o.2 {
                chosen = k;
                break;
            }
            pick -= o.2;
        }
        let (m, next, _) = options.swap_remove(chosen);
        moves.push(pos.move_text(m));
        pos = next;
        history.push(pos.repetition_key());
    }
    Some((pos, history, moves))
}

/// Scores a candidate position and judges it against the window.
fn judge<G: Searchable>(
    cfg: &Config,
    rules: &G::Rules,
    pos: &G,
    history: &History,
    moves: Vec<MoveText>,
    t: &Tables,
) -> Verdict {
    let s = score(pos, history, cfg.limit, &t.score);
    if is_mate(s) {
        Verdict::Decided(s)
    } else if s < cfg.window.0 || s > cfg.window.1 {
        Verdict::Outside(s)
    } else {
        Verdict::Inside {
            moves,
            score: s,
            key: canonical_key(pos, rules),
        }
    }
}

/// Every position `min..=max` plies from the start (no move ending the
/// game on the way), each once up to mirror images, as the moves of its
/// first line: by plies, then in move-generation order. Refused when there
/// are more than `cap`.
pub fn every_position<G: Searchable>(
    rules: &G::Rules,
    min: u32,
    max: u32,
    cap: u64,
) -> Result<Vec<Vec<MoveText>>, OpeningsError> {
    let start = G::start(rules);
    let mut level = vec![(start.clone(), History::starting_at(&start), Vec::new())];
    let mut listed = HashSet::new();
    let mut out = Vec::new();
    for ply in 0..=max {
        if ply >= min {
            for (pos, _, moves) in &level {
                if listed.insert(canonical_key(pos, rules)) {
                    if out.len() as u64 == cap {
                        return Err(OpeningsError::TooMany { cap, min, max });
                    }
                    out.push(moves.clone());
                }
            }
        }
        if ply == max {
            break;
        }
        let mut next_level = Vec::new();
        let mut seen = HashSet::new();
        for (pos, history, moves) in &level {
            let mut legal = G::MoveList::default();
            pos.generate(&mut legal);
            for &m in legal.iter() {
                let next = pos.play(m);
                let mut h = history.clone();
                h.push(next.repetition_key());
                if status_with_history(&next, &h).is_some()
                    || !seen.insert(canonical_key(&next, rules))
                {
                    continue;
                }
                let mut line = moves.clone();
                line.push(pos.move_text(m));
                next_level.push((next, h, line));
            }
        }
        level = next_level;
    }
    Ok(out)
}

/// Scores a listed position (`Playout::All`).
fn listed_candidate<G: Searchable>(
    cfg: &Config,
    rules: &G::Rules,
    moves: &[MoveText],
    t: &Tables,
) -> Verdict {
    match crate::core::GameLine::<G>::from_text(None, moves, rules) {
        Ok(line) => judge(
            cfg,
            rules,
            line.current(),
            line.history(),
            moves.to_vec(),
            t,
        ),
        Err(_) => Verdict::Ended,
    }
}

/// Makes a suite; `progress` is called every `every` (and at the end).
pub fn generate(
    cfg: &Config,
    every: Duration,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Generated, OpeningsError> {
    struct Run<'a>(&'a Config, Duration, &'a mut dyn FnMut(&Progress));
    impl GameVisitor for Run<'_> {
        type Output = Result<Generated, OpeningsError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            run::<G>(self.0, self.1, self.2)
        }
    }
    cfg.validate()?;
    cfg.variant.visit(Run(cfg, every, progress))
}

fn run<G: Searchable>(
    cfg: &Config,
    every: Duration,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Generated, OpeningsError> {
    let rules = rules_of::<G>(&cfg.rules)?;
    let listed = match cfg.playout {
        Playout::All => {
            let mut all =
                every_position::<G>(&rules, cfg.min_plies, cfg.max_plies, cfg.max_candidates)?;
            // Shuffled by the seed, so that the suite's first lines (what
            // a short match plays) are not all the shortest.
            let mut rng = Rng::for_candidate(cfg.seed, u64::MAX);
            for i in (1..all.len()).rev() {
                all.swap(i, rng.below(i as u64 + 1) as usize);
            }
            Some(all)
        }
        _ => None,
    };
    let candidates = listed
        .as_ref()
        .map_or(cfg.max_candidates, |l| l.len() as u64);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut openings = Vec::new();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(u64, Verdict)>();
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, stop, rules, listed) = (&next, &stop, &rules, &listed);
            s.spawn(move || {
                let tables = Tables::new();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= candidates {
                        break;
                    }
                    let v = match listed {
                        Some(l) => listed_candidate::<G>(cfg, rules, &l[i as usize], &tables),
                        None => candidate::<G>(cfg, rules, i, &tables),
                    };
                    if tx.send((i, v)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Verdict> = BTreeMap::new();
        let mut seen = HashSet::new();
        let mut last = Instant::now();
        'judge: loop {
            match rx.recv_timeout(every.min(Duration::from_millis(200))) {
                Ok((i, v)) => {
                    pending.insert(i, v);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(v) = pending.remove(&tally.candidates) {
                let index = tally.candidates;
                tally.candidates += 1;
                match v {
                    Verdict::Inside { moves, score, key } => {
                        if seen.insert(key) {
                            tally.kept += 1;
                            openings.push(Kept {
                                index,
                                moves,
                                score,
                            });
                        } else {
                            tally.duplicates += 1;
                        }
                    }
                    Verdict::Outside(_) => tally.outside += 1,
                    Verdict::Decided(_) => tally.decided += 1,
                    Verdict::Ended => tally.ended += 1,
                }
                if openings.len() == cfg.positions {
                    break 'judge;
                }
            }
            if last.elapsed() >= every {
                last = Instant::now();
                progress(&Progress {
                    tally: &tally,
                    target: cfg.positions,
                    elapsed: started.elapsed(),
                });
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    progress(&Progress {
        tally: &tally,
        target: cfg.positions,
        elapsed: started.elapsed(),
    });
    Ok(Generated {
        complete: openings.len() == cfg.positions,
        openings,
        tally,
    })
}

/// The suite's header: what it is for and how it was made. `build` names
/// the program that made it (version and `koma bench` signature), `out`
/// the file it was written to (part of the command).
pub fn header(cfg: &Config, made: &Generated, build: &str, out: Option<&str>) -> Header {
    let mut command = cfg.command();
    if let Some(o) = out {
        command.push_str(&format!(" --out {o}"));
    }
    let rules = cfg
        .variant
        .rule_specs()
        .iter()
        .map(|s| {
            let v = cfg
                .rules
                .iter()
                .find(|(n, _)| *n == s.name)
                .map_or_else(|| s.default_value(), |(_, v)| v.clone());
            (s.name.to_string(), v.to_string())
        })
        .collect();
    let playout = match cfg.playout {
        Playout::Random => "uniformly random moves".to_string(),
        Playout::Weighted { temperature } => format!(
            "moves weighted by a depth-1 search of the position after them, the chance halving every {temperature} cp below the best"
        ),
        Playout::All => String::new(),
    };
    let mut scores: Vec<Score> = made.openings.iter().map(|k| k.score).collect();
    scores.sort_unstable();
    let mut fields = vec![
        ("command".to_string(), command),
        ("build".to_string(), build.to_string()),
        (
            "search".to_string(),
            format!(
                "{} at full strength, one thread, a fresh {SCORE_TT_MB} MB table per position",
                cfg.limit
            ),
        ),
        (
            "window".to_string(),
            format!(
                "{} to {} cp for the side to move, no forced result found",
                cfg.window.0, cfg.window.1
            ),
        ),
        (
            "playouts".to_string(),
            match cfg.playout {
                Playout::All => format!(
                    "none: every position {} to {} plies from the start, each once up to mirror images",
                    cfg.min_plies, cfg.max_plies
                ),
                _ => format!(
                    "{} to {} plies of {playout}, none ending the game",
                    cfg.min_plies, cfg.max_plies
                ),
            },
        ),
        ("made".to_string(), made.tally.to_string()),
    ];
    if let (Some(lo), Some(hi)) = (scores.first(), scores.last()) {
        let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len() as f64;
        fields.push((
            "scores".to_string(),
            format!(
                "mean {mean:+.1}, median {:+}, lowest {lo:+}, highest {hi:+} cp",
                scores[scores.len() / 2]
            ),
        ));
    }
    Header {
        name: cfg.name.clone(),
        variant: cfg.variant,
        rules,
        fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_halve_every_temperature_step() {
        assert_eq!(weight(0, 50), 1 << 20);
        assert_eq!(weight(50, 50), 1 << 19);
        assert_eq!(weight(25, 50), 3 << 18, "linear in between");
        assert_eq!(weight(100, 50), 1 << 18);
        assert_eq!(weight(20 * 50, 50), 0);
        assert_eq!(weight(-5, 50), 1 << 20, "never above the best");
    }

    #[test]
    fn progress_shows_an_eta() {
        let tally = Tally {
            candidates: 40,
            kept: 10,
            ..Default::default()
        };
        let p = Progress {
            tally: &tally,
            target: 100,
            elapsed: Duration::from_secs(60),
        };
        let s = p.to_string();
        assert!(s.contains("10/100 kept, 40 candidates (25.0 %)"), "{s}");
        assert!(s.contains("ETA 9m00s"), "{s}");
        assert_eq!(clock(3723.0), "1h02m03s");
    }
}
