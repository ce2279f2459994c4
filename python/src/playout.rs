//! Many random or engine-guided games played in Rust at once, for training loops that
//! would be bound by one Python call per move: their results, lengths and
//! ends, and (when asked) every decision a player took (its action, and
//! the observation planes it was taken in). Game `i` is played from its own
//! seed, so the games do not depend on how they are split over threads.
//! The planes are written in a second pass, replaying the recorded
//! actions into a buffer of the exact size (checked, then allocated once
//! by the caller), so memory peaks near what is returned.

use crate::actions::{ActionSpace, MoveActions};
use crate::planes::{PlaneSpec, write_planes};
use crate::position::{RulesError, new_position};
use crate::rng::Rng;
use koma::core::{
    Color, End, EndReason, GameLine, History, Outcome, Rules, Searchable, status_with_history,
};
use koma::games::{GameId, GameVisitor};
use koma::protocol::parse_position;
use koma::search::limits::Limits;
use koma::search::tt::Tt;
use koma::search::{Context, Settings, search};
use std::sync::atomic::AtomicBool;

/// The most threads one call starts, and the deepest guided search.
pub const MAX_THREADS: usize = 256;
pub const MAX_GUIDE_DEPTH: u32 = 64;

/// What to play.
#[derive(Clone, Debug)]
pub struct PlayoutSpec {
    pub game: GameId,
    pub rules: Vec<(String, String)>,
    pub fen: Option<String>,
    pub games: usize,
    pub seed: u64,
    /// A game still going after this many plies is cut off (a draw with
    /// no reason, as the environments truncate).
    pub max_plies: u32,
    pub observations: bool,
    pub threads: usize,
    /// 0: every move uniformly random. Otherwise each move is Koma's
    /// search's best at this depth (one thread, full strength), except
    /// that with probability `epsilon` it is a random one.
    pub depth: u32,
    pub epsilon: f64,
}

impl PlayoutSpec {
    /// Refuses what would not mean anything or would exhaust the machine
    /// before a game is played.
    fn check(&self) -> Result<(), RulesError> {
        let bad = |m: String| Err(RulesError::Parse(m));
        if !(0.0..=1.0).contains(&self.epsilon) {
            return bad(format!(
                "expected a probability from 0 to 1 for epsilon at {}",
                self.epsilon
            ));
        }
        if self.threads > MAX_THREADS {
            return bad(format!(
                "expected threads from 0 to {MAX_THREADS} at {}",
                self.threads
            ));
        }
        if self.depth > MAX_GUIDE_DEPTH {
            return bad(format!(
                "expected a depth from 0 to {MAX_GUIDE_DEPTH} at {}",
                self.depth
            ));
        }
        if u32::try_from(self.games).is_err() {
            return bad(format!(
                "expected games from 0 to {} at {}",
                u32::MAX,
                self.games
            ));
        }
        Ok(())
    }
}

/// Why playouts were refused or stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayoutError {
    Rules(RulesError),
    /// The memory (or a thread) the games need could not be had.
    Resources(String),
}

impl From<RulesError> for PlayoutError {
    fn from(e: RulesError) -> Self {
        PlayoutError::Rules(e)
    }
}

impl std::fmt::Display for PlayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayoutError::Rules(e) => e.fmt(f),
            PlayoutError::Resources(m) => f.write_str(m),
        }
    }
}

fn out_of_memory() -> PlayoutError {
    PlayoutError::Resources("out of memory for the games' records".into())
}

/// `v.push(x)`, or an error where the allocator has no more memory
/// (where `push` would abort the process).
fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), PlayoutError> {
    v.try_reserve(1).map_err(|_| out_of_memory())?;
    v.push(x);
    Ok(())
}

/// The search a guided game asks for its moves (one per thread).
struct Guide {
    tt: Tt,
    depth: u32,
}

impl Guide {
    fn best<G: Searchable>(&self, pos: &G, history: &History) -> Option<G::Move> {
        let stop = AtomicBool::new(false);
        let limits = Limits::depth(self.depth);
        let ctx = Context {
            tt: &self.tt,
            stop: &stop,
            limits: &limits,
            settings: Settings::default(),
            poll: None,
        };
        search(pos, history, &ctx, |_| {}).best
    }
}

/// No pending movement (a decision that starts a turn).
pub const NO_PENDING: u32 = u32::MAX;

/// The games played, in order of their index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playouts {
    /// +1 the first player won, -1 the second, 0 a draw or cut off.
    pub results: Vec<i8>,
    /// The rule that ended each game; `None` when it was cut off.
    pub reasons: Vec<Option<EndReason>>,
    pub plies: Vec<u32>,
    /// With `observations`, per decision (one per move, two for a turn
    /// of a movement and its Bond): its action, its game, and the
    /// movement action pending before it (`NO_PENDING` if none).
    pub actions: Vec<u32>,
    pub game_index: Vec<u32>,
    pub pending: Vec<u32>,
    /// Wall time of the games themselves (for speed figures).
    pub seconds: f64,
}

impl Playouts {
    fn append(&mut self, mut other: Playouts, first_game: usize) -> Result<(), PlayoutError> {
        let n = other.results.len();
        let k = other.actions.len();
        self.results.try_reserve(n).map_err(|_| out_of_memory())?;
        self.reasons.try_reserve(n).map_err(|_| out_of_memory())?;
        self.plies.try_reserve(n).map_err(|_| out_of_memory())?;
        self.actions.try_reserve(k).map_err(|_| out_of_memory())?;
        self.pending.try_reserve(k).map_err(|_| out_of_memory())?;
        self.game_index
            .try_reserve(k)
            .map_err(|_| out_of_memory())?;
        self.results.append(&mut other.results);
        self.reasons.append(&mut other.reasons);
        self.plies.append(&mut other.plies);
        self.actions.append(&mut other.actions);
        self.pending.append(&mut other.pending);
        self.game_index
            .extend(other.game_index.iter().map(|g| g + first_game as u32));
        Ok(())
    }

    /// The number of moves played in all games.
    pub fn total_plies(&self) -> u64 {
        self.plies.iter().map(|&p| u64::from(p)).sum()
    }

    /// The bytes of the observation planes `write_observations` writes.
    pub fn observation_bytes(&self, game: GameId) -> Option<usize> {
        self.actions
            .len()
            .checked_mul(PlaneSpec::of(game.entry()).len())?
            .checked_mul(std::mem::size_of::<f32>())
    }
}

/// The seed of game `i`.
fn game_seed(seed: u64, i: usize) -> u64 {
    Rng::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407)).next_u64()
}

fn score(end: Option<End>) -> i8 {
    match end.map(|e| e.outcome) {
        Some(Outcome::Win(Color::First)) => 1,
        Some(Outcome::Win(Color::Second)) => -1,
        _ => 0,
    }
}

/// Records the decisions of move `mv` in game `game` (relative to the
/// range): one, or two when its movement also starts a Bond turn here.
fn record<G: Searchable>(
    out: &mut Playouts,
    space: &ActionSpace,
    pos: &G,
    moves: &G::MoveList,
    legal: &mut Vec<MoveActions>,
    mv: G::Move,
    game: u32,
) -> Result<(), PlayoutError> {
    let Some(m) = space.encode(&pos.move_text(mv)) else {
        return Err(RulesError::Illegal(format!("no action for {}", pos.move_text(mv))).into());
    };
    let m = if space.bond {
        legal.clear();
        legal.extend(
            moves
                .iter()
                .filter_map(|&l| space.encode(&pos.move_text(l))),
        );
        space.actions_in(m, legal)
    } else {
        m
    };
    push(&mut out.actions, m.first as u32)?;
    push(&mut out.pending, NO_PENDING)?;
    push(&mut out.game_index, game)?;
    if let Some(then) = m.then {
        push(&mut out.actions, then as u32)?;
        push(&mut out.pending, m.first as u32)?;
        push(&mut out.game_index, game)?;
    }
    Ok(())
}

/// Plays games `first..first + count` from `start`.
fn play_range<G: Searchable>(
    spec: &PlayoutSpec,
    start: &G,
    first: usize,
    count: usize,
) -> Result<Playouts, PlayoutError> {
    let mut out = Playouts::default();
    let space = ActionSpace::of(spec.game.entry());
    let mut legal = Vec::new();
    let guide = (spec.depth > 0).then(|| Guide {
        tt: Tt::new(4),
        depth: spec.depth,
    });
    for i in first..first + count {
        if let Some(g) = &guide {
            // Each game on its own: what one game taught the table must
            // not depend on which thread played the games before it.
            g.tt.clear();
        }
        let mut rng = Rng::new(game_seed(spec.seed, i));
        let mut pos = start.clone();
        let mut history = History::starting_at(&pos);
        let mut plies = 0u32;
        let end = loop {
            if let Some(end) = status_with_history(&pos, &history) {
                break Some(end);
            }
            if plies >= spec.max_plies {
                break None;
            }
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            let random = moves[rng.below(moves.len())];
            let mv = match &guide {
                Some(g) if rng.unit() >= spec.epsilon => g.best(&pos, &history).unwrap_or(random),
                _ => random,
            };
            if spec.observations {
                record(
                    &mut out,
                    &space,
                    &pos,
                    &moves,
                    &mut legal,
                    mv,
                    (i - first) as u32,
                )?;
            }
            pos = pos.play(mv);
            history.push(pos.repetition_key());
            plies += 1;
        };
        push(&mut out.results, score(end))?;
        push(&mut out.reasons, end.map(|e| e.reason))?;
        push(&mut out.plies, plies)?;
    }
    Ok(out)
}

/// Runs `job(t)` for each part `t` of `parts` on its own thread.
fn on_threads<T: Send>(
    parts: usize,
    job: impl Fn(usize) -> Result<T, PlayoutError> + Sync,
) -> Result<Vec<T>, PlayoutError> {
    std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(parts);
        for t in 0..parts {
            let job = &job;
            let h = std::thread::Builder::new()
                .spawn_scoped(s, move || job(t))
                .map_err(|e| PlayoutError::Resources(format!("could not start a thread: {e}")))?;
            handles.push(h);
        }
        handles
            .into_iter()
            // A panic in a playout is a bug of the rules: re-raise it.
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// The start position of the spec, checked exactly as a `Position` does.
fn start_of<G: Searchable>(spec: &PlayoutSpec) -> Result<G, RulesError> {
    let checked = new_position(spec.game, &spec.rules, spec.fen.as_deref())?;
    let values = spec
        .game
        .read_rules(spec.rules.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .map_err(|e| RulesError::Parse(e.to_string()))?;
    let rules = G::Rules::from_values(&values).map_err(|e| RulesError::Parse(e.to_string()))?;
    let text = parse_position(&checked.fen()).map_err(|e| RulesError::Parse(e.to_string()))?;
    Ok(GameLine::<G>::from_start(Some(&text), &rules)
        .map_err(|e| RulesError::Parse(e.to_string()))?
        .current()
        .clone())
}

/// Plays `spec.games` games on up to `spec.threads` threads (the planes
/// are left to `write_observations`).
pub fn random_playouts(spec: &PlayoutSpec) -> Result<Playouts, PlayoutError> {
    spec.check()?;
    struct Run<'a>(&'a PlayoutSpec);
    impl GameVisitor for Run<'_> {
        type Output = Result<Playouts, PlayoutError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let spec = self.0;
            let start = start_of::<G>(spec)?;
            let threads = spec.threads.clamp(1, spec.games.max(1));
            let per = spec.games.div_ceil(threads);
            let clock = std::time::Instant::now();
            let range = |t: usize| {
                let first = (t * per).min(spec.games);
                (first, per.min(spec.games - first))
            };
            let parts = on_threads(threads, |t| {
                let (first, count) = range(t);
                play_range(spec, &start, first, count)
            })?;
            let mut all = Playouts::default();
            for (t, part) in parts.into_iter().enumerate() {
                all.append(part, range(t).0)?;
            }
            all.seconds = clock.elapsed().as_secs_f64();
            Ok(all)
        }
    }
    spec.game.visit(Run(spec))
}

/// Writes the planes of every decision of `p` (played from `spec`) into
/// `out`, as native-endian float32, `PlaneSpec::len` per decision: the
/// recorded actions replayed from the start, on up to `spec.threads`
/// threads. `out` must be `p.observation_bytes` long.
pub fn write_observations(
    spec: &PlayoutSpec,
    p: &Playouts,
    out: &mut [u8],
) -> Result<(), PlayoutError> {
    struct Write<'a>(&'a PlayoutSpec, &'a Playouts, &'a mut [u8]);
    impl GameVisitor for Write<'_> {
        type Output = Result<(), PlayoutError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let Write(spec, p, out) = self;
            let start = start_of::<G>(spec)?;
            let row = PlaneSpec::of(spec.game.entry()).len() * std::mem::size_of::<f32>();
            if Some(out.len()) != p.observation_bytes(spec.game) {
                return Err(PlayoutError::Resources(
                    "observation buffer of the wrong size".into(),
                ));
            }
            // Split at game boundaries into about `threads` parts; the
            // decisions of a game are contiguous and in order.
            let threads = spec.threads.clamp(1, MAX_THREADS);
            let per = p.actions.len().div_ceil(threads).max(1);
            let mut parts: Vec<(std::ops::Range<usize>, &mut [u8])> = Vec::new();
            let mut rest = out;
            let mut k = 0;
            while k < p.actions.len() {
                let mut end = (k + per).min(p.actions.len());
                while end < p.actions.len() && p.game_index[end] == p.game_index[end - 1] {
                    end += 1;
                }
                let (part, tail) = std::mem::take(&mut rest).split_at_mut((end - k) * row);
                parts.push((k..end, part));
                rest = tail;
                k = end;
            }
            let parts: Vec<std::sync::Mutex<_>> =
                parts.into_iter().map(std::sync::Mutex::new).collect();
            on_threads(parts.len(), |t| {
                let mut part = parts[t].lock().unwrap_or_else(|e| e.into_inner());
                let (rows, bytes) = &mut *part;
                replay::<G>(spec, p, &start, rows.clone(), bytes)
            })?;
            Ok(())
        }
    }
    spec.game.visit(Write(spec, p, out))
}

/// Replays the decisions `rows` (whole games) from `start`, writing their
/// planes into `out`.
fn replay<G: Searchable>(
    spec: &PlayoutSpec,
    p: &Playouts,
    start: &G,
    rows: std::ops::Range<usize>,
    out: &mut [u8],
) -> Result<(), PlayoutError> {
    let space = ActionSpace::of(spec.game.entry());
    let planes = PlaneSpec::of(spec.game.entry());
    let row = planes.len() * std::mem::size_of::<f32>();
    let mut buf = Vec::with_capacity(planes.len());
    let mut pos = start.clone();
    let mut history = History::starting_at(&pos);
    let lost = |k: usize| {
        PlayoutError::Rules(RulesError::Illegal(format!(
            "decision {k} does not replay (a bug of the playouts)"
        )))
    };
    for k in rows.clone() {
        if k == rows.start || p.game_index[k] != p.game_index[k - 1] {
            pos = start.clone();
            history = History::starting_at(&pos);
        }
        let pending = (p.pending[k] != NO_PENDING).then_some(p.pending[k] as usize);
        buf.clear();
        write_planes(
            &planes,
            &pos.to_text(),
            history.occurrences_of_last(),
            pending.and_then(|a| space.step_text(a)),
            &mut buf,
        );
        let at = (k - rows.start) * row;
        for (dst, v) in out[at..at + row].chunks_exact_mut(4).zip(&buf) {
            dst.copy_from_slice(&v.to_ne_bytes());
        }
        let first_half = k + 1 < rows.end
            && p.game_index[k + 1] == p.game_index[k]
            && p.pending[k + 1] == p.actions[k];
        if first_half {
            continue;
        }
        let a = p.actions[k] as usize;
        let text = match pending {
            Some(first) => space.decode_pair(first, a),
            None => space.decode(a),
        }
        .ok_or_else(|| lost(k))?;
        let mv = pos.find_move(&text).ok_or_else(|| lost(k))?;
        pos = pos.play(mv);
        history.push(pos.repetition_key());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma::core::Game;

    fn spec(game: GameId, games: usize, threads: usize) -> PlayoutSpec {
        PlayoutSpec {
            game,
            rules: vec![],
            fen: None,
            games,
            seed: 3,
            max_plies: 400,
            observations: true,
            threads,
            depth: 0,
            epsilon: 0.0,
        }
    }

    /// The planes of a playout's decisions, as floats.
    fn planes_of(s: &PlayoutSpec, p: &Playouts) -> Vec<f32> {
        let mut bytes = vec![0u8; p.observation_bytes(s.game).unwrap()];
        write_observations(s, p, &mut bytes).unwrap();
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_ne_bytes(b.try_into().unwrap()))
            .collect()
    }

    /// The batch plays the same games as the per-move rules would: each
    /// game replayed decision by decision from its actions through a
    /// `Position` sees the same planes and reaches the same end after the
    /// same number of plies.
    #[test]
    fn batch_games_replay_through_the_per_move_rules() {
        for &game in GameId::ALL {
            let s = spec(game, 6, 2);
            let p = random_playouts(&s).unwrap();
            assert_eq!(p.results.len(), 6);
            let space = ActionSpace::of(game.entry());
            let len = PlaneSpec::of(game.entry()).len();
            let all = planes_of(&s, &p);
            assert_eq!(all.len(), p.actions.len() * len);
            let mut pairs = 0;
            for g in 0..6 {
                let mut pos = new_position(game, &[], None).unwrap();
                let mut pending = None;
                for (k, _) in p.game_index.iter().enumerate().filter(|(_, i)| **i == g) {
                    let mut planes = Vec::new();
                    pos.planes(pending, &mut planes);
                    assert_eq!(planes, all[k * len..(k + 1) * len], "{game}");
                    let a = p.actions[k] as usize;
                    let legal = pos.legal_actions();
                    let mv = match pending.take() {
                        Some(first) => {
                            pairs += 1;
                            assert!(space.choices(&legal, Some(first)).contains(&a));
                            space.decode_pair(first, a).unwrap()
                        }
                        None if space.needs_follow_up(a, &legal) => {
                            pending = Some(a);
                            continue;
                        }
                        None => space.decode(a).unwrap(),
                    };
                    pos.push(&mv.to_string()).unwrap();
                }
                assert_eq!(pending, None);
                assert_eq!(pos.plies() as u32, p.plies[g as usize]);
                let end = pos.outcome();
                assert_eq!(end.map(|e| e.reason), p.reasons[g as usize], "{game}");
                assert_eq!(score(end), p.results[g as usize]);
            }
            assert_eq!(pairs > 0, space.bond, "{game}");
        }
    }

    #[test]
    fn bad_settings_are_refused_before_any_game() {
        for (epsilon, threads, depth) in [
            (2.0, 1, 0),
            (-1.0, 1, 0),
            (f64::NAN, 1, 0),
            (0.0, 100_000, 0),
            (0.0, 1, 1000),
        ] {
            let mut s = spec(GameId::from_name("nana").unwrap(), 1, 1);
            (s.epsilon, s.threads, s.depth) = (epsilon, threads, depth);
            assert!(matches!(
                random_playouts(&s),
                Err(PlayoutError::Rules(RulesError::Parse(_)))
            ));
        }
    }

    #[test]
    fn the_games_do_not_depend_on_the_threads() {
        let mut one = spec(GameId::from_name("nana").unwrap(), 9, 1);
        one.observations = false;
        let mut three = one.clone();
        three.threads = 3;
        let (mut a, mut b) = (
            random_playouts(&one).unwrap(),
            random_playouts(&three).unwrap(),
        );
        (a.seconds, b.seconds) = (0.0, 0.0);
        assert_eq!(a, b);
    }

    /// Guided games: every move not explored is the search's own choice
    /// at that depth, so with no exploration the games are all one game,
    /// and the search beats random moves.
    #[test]
    fn guided_games_play_the_searchs_moves() {
        let mut s = spec(GameId::from_name("nana").unwrap(), 4, 2);
        s.depth = 2;
        let p = random_playouts(&s).unwrap();
        assert!(p.plies.iter().all(|&n| n == p.plies[0]));
        assert!(p.results.iter().all(|&r| r == p.results[0]));
        let mut pos = new_position(GameId::from_name("nana").unwrap(), &[], None).unwrap();
        let space = ActionSpace::of(GameId::from_name("nana").unwrap().entry());
        let first: Vec<u32> = (0..p.actions.len())
            .filter(|&k| p.game_index[k] == 0)
            .map(|k| p.actions[k])
            .collect();
        let guide = Guide {
            tt: Tt::new(4),
            depth: 2,
        };
        let mut line = koma::core::GameLine::<koma::games::nana::Nana>::new(&Default::default());
        for a in first {
            let best = guide.best(line.current(), line.history()).unwrap();
            let text = line.current().move_text(best);
            assert_eq!(space.encode(&text).map(|m| m.first), Some(a as usize));
            line.play(best);
            pos.push(&text.to_string()).unwrap();
        }
        // Half the moves random: the games differ.
        s.epsilon = 0.5;
        s.games = 8;
        let mixed = random_playouts(&s).unwrap();
        assert!(mixed.plies.iter().any(|&n| n != mixed.plies[0]));
    }

    #[test]
    fn a_bad_rule_option_is_refused_in_the_engines_words() {
        let mut s = spec(GameId::from_name("hasami").unwrap(), 1, 1);
        s.rules = vec![("HasamiWin".into(), "four".into())];
        assert_eq!(
            random_playouts(&s).unwrap_err().to_string(),
            "expected one of five, all, lead3 for HasamiWin at four"
        );
    }
}
