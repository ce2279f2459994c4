//! Search tests on every game: mates found and scored exactly (checked
//! against a plain minimax), legal moves always, fixed-depth determinism.

use super::*;
use crate::core::{End, Outcome};
use crate::games::conformance::Lcg;
use crate::games::{GameId, GameVisitor};

/// Plain minimax to `depth` plies: exact mate scores within the horizon,
/// 0 elsewhere. Repetition cannot matter within three plies.
fn minimax<G: Game>(pos: &G, depth: u32, ply: i32) -> Score {
    let end_score = |e: End| match e.outcome {
        Outcome::Win(c) if c == pos.side_to_move() => MATE - ply,
        Outcome::Win(_) => -(MATE - ply),
        Outcome::Draw => 0,
    };
    if let Some(e) = pos.terminal() {
        return end_score(e);
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    if moves.is_empty() {
        return -(MATE - ply);
    }
    if let Some(e) = pos.limit_end() {
        return end_score(e);
    }
    if depth == 0 {
        return 0;
    }
    moves
        .iter()
        .map(|&m| -minimax(&pos.play(m), depth - 1, ply + 1))
        .max()
        .unwrap_or(0)
}

fn run<G: Game>(pos: &G, limits: &Limits) -> SearchResult<G::Move> {
    let tt = Tt::new(4);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        limits,
        settings: Settings::default(),
    };
    search(pos, &crate::core::History::starting_at(pos), &ctx, |_| {})
}

/// Random playout positions of a game, with the moves that led there.
fn sample<G: Game>(count: usize, seed: u64) -> Vec<G> {
    let mut rng = Lcg(seed);
    let mut out = vec![];
    let rules = G::Rules::default();
    while out.len() < count {
        let mut p = G::start(&rules);
        let plies = rng.below(60);
        for _ in 0..plies {
            if crate::core::game_status(&p).is_some() {
                break;
            }
            let mut moves = G::MoveList::default();
            p.generate(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
        }
        if crate::core::game_status(&p).is_none() {
            out.push(p);
        }
    }
    out
}

/// Positions one to four plies before the end of random games, where
/// short mates are common.
fn near_ends<G: Game>(count: usize, seed: u64) -> Vec<G> {
    let mut rng = Lcg(seed);
    let mut out = vec![];
    let rules = G::Rules::default();
    while out.len() < count {
        let mut line = vec![G::start(&rules)];
        while line.len() < 400 && crate::core::game_status(line.last().unwrap()).is_none() {
            let p = line.last().unwrap();
            let mut moves = G::MoveList::default();
            p.generate(&mut moves);
            line.push(p.play(moves[rng.below(moves.len())]));
        }
        let back = 1 + rng.below(6);
        if line.len() > back {
            out.push(line[line.len() - 1 - back].clone());
        }
    }
    out
}

struct Mates;

impl GameVisitor for Mates {
    type Output = (usize, usize, usize);
    /// (mates in 1, mates in 2, losses in 1) found and checked.
    fn visit<G: Game>(self) -> Self::Output {
        let mut found = (0, 0, 0);
        for pos in near_ends::<G>(150, 17) {
            let exact = minimax(&pos, 3, 0);
            if !is_mate(exact) {
                continue;
            }
            let r = run(&pos, &Limits::depth(5));
            assert_eq!(r.score, exact, "{}: {}", G::NAME, pos.to_text());
            let best = r.best.expect("a move");
            // The chosen move keeps the value.
            assert_eq!(
                -minimax(&pos.play(best), 2, 1),
                exact,
                "{}: {}",
                G::NAME,
                pos.to_text()
            );
            match exact {
                s if s == MATE - 1 => found.0 += 1,
                s if s == MATE - 3 => found.1 += 1,
                s if s == -(MATE - 2) => found.2 += 1,
                _ => {}
            }
        }
        found
    }
}

#[test]
fn mates_in_one_and_two_are_found_and_scored_exactly_in_every_game() {
    let mut losses = 0;
    for &g in GameId::ALL {
        let (m1, m2, l1) = g.visit(Mates);
        assert!(
            m1 > 0 && m2 > 0,
            "{g}: too few mates sampled ({m1}, {m2}, {l1})"
        );
        losses += l1;
        eprintln!("{g}: {m1} mates in 1, {m2} in 2, {l1} losses in 1");
    }
    assert!(losses > 0, "negative mate scores were checked somewhere");
}

struct Legal;

impl GameVisitor for Legal {
    type Output = ();
    fn visit<G: Game>(self) {
        for (i, pos) in sample::<G>(60, 5).iter().enumerate() {
            let mut limits = Limits::infinite();
            limits.nodes = Some(1 + (i as u64 * 37) % 3000);
            let r = run(pos, &limits);
            let best = r.best.expect("a move while moves exist");
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            assert!(
                moves.contains(&best),
                "{}: illegal {:?} in {}",
                G::NAME,
                best,
                pos.to_text()
            );
        }
    }
}

#[test]
fn a_search_always_returns_a_legal_move_while_moves_exist() {
    for &g in GameId::ALL {
        g.visit(Legal);
    }
}

struct Twice;

impl GameVisitor for Twice {
    type Output = ();
    fn visit<G: Game>(self) {
        for pos in sample::<G>(5, 9) {
            let a = run(&pos, &Limits::depth(4));
            let b = run(&pos, &Limits::depth(4));
            assert_eq!(
                (a.nodes, a.best, a.score),
                (b.nodes, b.best, b.score),
                "{}",
                G::NAME
            );
        }
    }
}

#[test]
fn fixed_depth_single_thread_search_is_deterministic() {
    for &g in GameId::ALL {
        g.visit(Twice);
    }
}

#[test]
fn a_finished_game_gives_no_move() {
    struct Over;
    impl GameVisitor for Over {
        type Output = ();
        fn visit<G: Game>(self) {
            let mut rng = Lcg(3);
            let rules = G::Rules::default();
            for _ in 0..20 {
                let mut p = G::start(&rules);
                while crate::core::game_status(&p).is_none() {
                    let mut moves = G::MoveList::default();
                    p.generate(&mut moves);
                    p = p.play(moves[rng.below(moves.len())]);
                }
                if p.terminal().is_some() {
                    assert!(run(&p, &Limits::depth(3)).best.is_none(), "{}", G::NAME);
                }
            }
        }
    }
    for &g in GameId::ALL {
        g.visit(Over);
    }
}

/// Zugzwang and the null move in Nana: where the side to move may pass
/// (`play_null`, a side holding a cube), a fixed-depth search still finds
/// every win and loss within four plies with its exact score, as plain
/// minimax does; a null move that hid a zugzwang would miss one.
#[test]
fn nana_null_move_hides_no_win_or_loss_within_four_plies() {
    use crate::games::nana::Nana;
    let (mut wins, mut losses) = (0, 0);
    for pos in near_ends::<Nana>(400, 23)
        .into_iter()
        .filter(|p| p.play_null().is_some())
        .take(100)
    {
        let exact = minimax(&pos, 4, 0);
        if !is_mate(exact) {
            continue;
        }
        let r = run(&pos, &Limits::depth(6));
        assert_eq!(r.score, exact, "{}", pos.to_text());
        if exact > 0 {
            wins += 1;
        } else {
            losses += 1;
        }
    }
    assert!(wins > 10 && losses > 0, "too few sampled: {wins}, {losses}");
}
