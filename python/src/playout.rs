//! Many random or engine-guided games played in Rust at once, for training loops that
//! would be bound by one Python call per move: their results, lengths and
//! ends, and (when asked) the observation planes of every position a move
//! was chosen in, with that move's action. Game `i` is played from its own
//! seed, so the games do not depend on how they are split over threads.

use crate::actions::ActionSpace;
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
        };
        search(pos, history, &ctx, |_| {}).best
    }
}

/// The games played, in order of their index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playouts {
    /// +1 the first player won, -1 the second, 0 a draw or cut off.
    pub results: Vec<i8>,
    /// The rule that ended each game; `None` when it was cut off.
    pub reasons: Vec<Option<EndReason>>,
    pub plies: Vec<u32>,
    /// With `observations`: the planes of each position a move was chosen
    /// in (`PlaneSpec::len` floats each), the move's action, and the game.
    pub planes: Vec<f32>,
    pub actions: Vec<u32>,
    pub game_index: Vec<u32>,
    /// Wall time of the games themselves (for speed figures).
    pub seconds: f64,
}

impl Playouts {
    fn append(&mut self, mut other: Playouts, first_game: usize) {
        self.results.append(&mut other.results);
        self.reasons.append(&mut other.reasons);
        self.plies.append(&mut other.plies);
        self.planes.append(&mut other.planes);
        self.actions.append(&mut other.actions);
        self.game_index
            .extend(other.game_index.iter().map(|g| g + first_game as u32));
    }

    /// The number of moves played in all games.
    pub fn total_plies(&self) -> u64 {
        self.plies.iter().map(|&p| u64::from(p)).sum()
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

/// Plays games `first..first + count` from `start`.
fn play_range<G: Searchable>(
    spec: &PlayoutSpec,
    start: &G,
    first: usize,
    count: usize,
) -> Playouts {
    let mut out = Playouts::default();
    let space = ActionSpace::of(spec.game);
    let planes = PlaneSpec::of(spec.game);
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
                write_planes(
                    &planes,
                    &pos.to_text(),
                    history.occurrences_of_last(),
                    &mut out.planes,
                );
                let action = space.encode(&pos.move_text(mv)).unwrap_or(usize::MAX);
                out.actions.push(action as u32);
                out.game_index.push((i - first) as u32);
            }
            pos = pos.play(mv);
            history.push(pos.repetition_key());
            plies += 1;
        };
        out.results.push(score(end));
        out.reasons.push(end.map(|e| e.reason));
        out.plies.push(plies);
    }
    out
}

/// Plays `spec.games` random games on up to `spec.threads` threads.
pub fn random_playouts(spec: &PlayoutSpec) -> Result<Playouts, RulesError> {
    // Validates the rules and the start exactly as a `Position` does.
    let checked = new_position(spec.game, &spec.rules, spec.fen.as_deref())?;
    let fen = checked.fen();
    let values = spec
        .game
        .read_rules(spec.rules.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .map_err(|e| RulesError::Parse(e.to_string()))?;
    struct Run<'a>(
        &'a PlayoutSpec,
        &'a str,
        &'a [(&'static str, koma::core::OptionValue)],
    );
    impl GameVisitor for Run<'_> {
        type Output = Result<Playouts, RulesError>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let Run(spec, fen, values) = self;
            let rules =
                G::Rules::from_values(values).map_err(|e| RulesError::Parse(e.to_string()))?;
            let text = parse_position(fen).map_err(|e| RulesError::Parse(e.to_string()))?;
            let start = GameLine::<G>::from_start(Some(&text), &rules)
                .map_err(|e| RulesError::Parse(e.to_string()))?
                .current()
                .clone();
            let threads = spec.threads.clamp(1, spec.games.max(1));
            let per = spec.games.div_ceil(threads);
            let mut all = Playouts::default();
            let clock = std::time::Instant::now();
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let first = (t * per).min(spec.games);
                        let count = per.min(spec.games - first);
                        let start = &start;
                        (
                            first,
                            s.spawn(move || play_range(spec, start, first, count)),
                        )
                    })
                    .collect();
                for (first, h) in handles {
                    // A panic in a playout is a bug of the rules: re-raise it.
                    let part = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                    all.append(part, first);
                }
            });
            all.seconds = clock.elapsed().as_secs_f64();
            Ok(all)
        }
    }
    spec.game.visit(Run(spec, &fen, &values))
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

    /// The batch plays the same games as the per-move rules would: each
    /// game replayed move by move from its actions through a `Position`
    /// reaches the same end after the same number of plies.
    #[test]
    fn batch_games_replay_through_the_per_move_rules() {
        for &game in GameId::ALL {
            let p = random_playouts(&spec(game, 6, 2)).unwrap();
            assert_eq!(p.results.len(), 6);
            let space = ActionSpace::of(game);
            let len = PlaneSpec::of(game).len();
            assert_eq!(p.planes.len(), p.actions.len() * len);
            for g in 0..6 {
                let mut pos = new_position(game, &[], None).unwrap();
                for (k, _) in p.game_index.iter().enumerate().filter(|(_, i)| **i == g) {
                    let mut planes = Vec::new();
                    pos.planes(&mut planes);
                    assert_eq!(planes, p.planes[k * len..(k + 1) * len], "{game}");
                    let mv = space.decode(p.actions[k] as usize).unwrap();
                    pos.push(&mv.to_string()).unwrap();
                }
                assert_eq!(pos.plies() as u32, p.plies[g as usize]);
                let end = pos.outcome();
                assert_eq!(end.map(|e| e.reason), p.reasons[g as usize], "{game}");
                assert_eq!(score(end), p.results[g as usize]);
            }
        }
    }

    #[test]
    fn the_games_do_not_depend_on_the_threads() {
        let mut one = spec(GameId::Nana, 9, 1);
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
        let mut s = spec(GameId::Nana, 4, 2);
        s.depth = 2;
        let p = random_playouts(&s).unwrap();
        assert!(p.plies.iter().all(|&n| n == p.plies[0]));
        assert!(p.results.iter().all(|&r| r == p.results[0]));
        let mut pos = new_position(GameId::Nana, &[], None).unwrap();
        let space = ActionSpace::of(GameId::Nana);
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
            assert_eq!(space.encode(&text), Some(a as usize));
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
        let mut s = spec(GameId::Hasami, 1, 1);
        s.rules = vec![("HasamiWin".into(), "four".into())];
        assert_eq!(
            random_playouts(&s).unwrap_err().to_string(),
            "expected one of five, all, lead3 for HasamiWin at four"
        );
    }
}
