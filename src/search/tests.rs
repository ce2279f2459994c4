//! Search tests on every game: mates found and scored exactly (checked
//! against a plain minimax), legal moves always, fixed-depth determinism.

use super::*;
use crate::core::Game;
use crate::core::{Color, End, Outcome};
use crate::games::conformance::Lcg;
use crate::games::{GameId, GameVisitor};

/// The score of a finished game for `side`, `ply` plies from the root:
/// the references below score ends alike.
fn end_score(e: End, side: Color, ply: i32) -> Score {
    match e.outcome {
        Outcome::Win(c) if c == side => MATE - ply,
        Outcome::Win(_) => -(MATE - ply),
        Outcome::Draw => 0,
    }
}

/// Plain minimax to `depth` plies: exact mate scores within the horizon,
/// 0 elsewhere. Repetition cannot matter within three plies.
fn minimax<G: Searchable>(pos: &G, depth: u32, ply: i32) -> Score {
    let end_score = |e: End| end_score(e, pos.side_to_move(), ply);
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

fn run<G: Searchable>(pos: &G, limits: &Limits) -> SearchResult<G::Move> {
    let tt = Tt::new(4);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        limits,
        settings: Settings::default(),
        poll: None,
    };
    search(pos, &crate::core::History::starting_at(pos), &ctx, |_| {})
}

/// Random playout positions of a game, with the moves that led there.
fn sample<G: Searchable>(count: usize, seed: u64) -> Vec<G> {
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
fn near_ends<G: Searchable>(count: usize, seed: u64) -> Vec<G> {
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
    fn visit<G: Searchable>(self) -> Self::Output {
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
    fn visit<G: Searchable>(self) {
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

struct LastLine;

impl GameVisitor for LastLine {
    type Output = ();
    fn visit<G: Searchable>(self) {
        for skill in [Skill::Hard, Skill::Normal, Skill::Easy] {
            for (i, pos) in sample::<G>(150, 11).iter().enumerate() {
                let tt = Tt::new(4);
                let stop = std::sync::atomic::AtomicBool::new(false);
                let mut limits = Limits::infinite();
                limits.nodes = Some(500 + (i as u64 * 7919) % 30_000);
                let ctx = Context {
                    tt: &tt,
                    stop: &stop,
                    limits: &limits,
                    settings: Settings {
                        skill,
                        seed: i as u64,
                        ..Settings::default()
                    },
                    poll: None,
                };
                let mut last = None;
                let history = crate::core::History::starting_at(pos);
                let r = search(pos, &history, &ctx, |rep| {
                    if rep.multipv == 1 {
                        last = Some(rep.pv[0])
                    }
                });
                assert_eq!(
                    last,
                    r.best,
                    "{} {skill:?} {} nodes: the last info line tells the move in {}",
                    G::NAME,
                    limits.nodes.unwrap(),
                    pos.to_text()
                );
            }
        }
    }
}

/// protocol.md: the first move of the last `info ... pv` line is the move
/// played, also when the limit ends an iteration part-way (after a root
/// fail-high, the new best move has been searched in full but no line was
/// printed for it) and when a weaker level picks another move.
#[test]
fn the_last_info_line_names_the_move_played() {
    for &g in GameId::ALL {
        g.visit(LastLine);
    }
}

struct TwoThreads;

impl GameVisitor for TwoThreads {
    type Output = usize;
    /// Mates in one checked.
    fn visit<G: Searchable>(self) -> usize {
        let mut mates = 0;
        for (i, pos) in near_ends::<G>(60, 23).iter().enumerate() {
            let tt = Tt::new(4);
            let stop = std::sync::atomic::AtomicBool::new(false);
            let mut limits = Limits::infinite();
            limits.nodes = Some(2_000 + (i as u64 * 997) % 20_000);
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                limits: &limits,
                settings: Settings {
                    threads: 2 + i % 2,
                    ..Settings::default()
                },
                poll: None,
            };
            let mut last = None;
            let history = crate::core::History::starting_at(pos);
            let r = search(pos, &history, &ctx, |rep| last = Some(rep.pv[0]));
            let best = r.best.expect("a move while moves exist");
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            assert!(moves.contains(&best), "{}: {}", G::NAME, pos.to_text());
            assert_eq!(
                last,
                Some(best),
                "{}: the last info line tells the move",
                G::NAME
            );
            if minimax(pos, 1, 0) == MATE - 1 {
                assert_eq!(r.score, MATE - 1, "{}: {}", G::NAME, pos.to_text());
                assert_eq!(-minimax(&pos.play(best), 0, 1), MATE - 1, "{}", G::NAME);
                mates += 1;
            }
        }
        mates
    }
}

/// With helper threads the answer may be a helper's (the vote): it is
/// legal, the last info line names it, and a mate in one is still played.
#[test]
fn several_threads_play_a_legal_move_and_a_mate_in_one() {
    let mates: usize = GameId::ALL.iter().map(|g| g.visit(TwoThreads)).sum();
    assert!(mates > 0, "mates in one were sampled");
}

struct Twice;

impl GameVisitor for Twice {
    type Output = ();
    fn visit<G: Searchable>(self) {
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
        fn visit<G: Searchable>(self) {
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

/// Plain alpha-beta to `depth` plies that knows only ends: mate scores,
/// repetition scored as the game's rule ends it (as the search does, along
/// `path`), 0 at the horizon. From a full window it gives the exact value
/// within the horizon, far cheaper than `minimax`.
fn ends_alphabeta<G: Searchable>(
    pos: &G,
    depth: u32,
    ply: i32,
    mut alpha: Score,
    beta: Score,
    path: &mut Vec<u64>,
) -> Score {
    let end_score = |e: End| end_score(e, pos.side_to_move(), ply);
    if let Some(e) = pos.terminal() {
        return end_score(e);
    }
    if let Some((last, rest)) = path.split_last()
        && ply > 0
        && rest.contains(last)
    {
        return end_score(pos.repetition_end());
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
    for &m in moves.iter() {
        let child = pos.play(m);
        path.push(child.repetition_key());
        let s = -ends_alphabeta(&child, depth - 1, ply + 1, -beta, -alpha, path);
        path.pop();
        if s > alpha {
            alpha = s;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// Negaeri positions with a win or a loss four or five plies away where
/// the side to move may pass (`play_null`): taken from random games (1 to
/// 12 plies before their end, seed 41) by `ends_alphabeta`, which is
/// random play's rare case (33 of 2,500).
const NEGAERI_FAR_ENDS: [&str; 32] = [
    "2b2r/k+p1p1b/1pp+p2/3+ppp/pB+p1B+r/+r2Kp+r[Pp] w 0 15",
    "r+p1r+P1/+p+bp1+r+P/+B2+PP1/3P1+P/PK1Pk1/R1PB1p[b] b 0 36",
    "+r+P1k+b+R/1+p3+P/+p3+PP/+p1B+B+R+P/+r+p1P2/2K1+p1[BPp] w 0 65",
    "1Pbk1r/+B+Rppp1/1+R1+p1p/2Pp1B/1P1P1P/1RK3[BPp] w 0 7",
    "+ppbkr1/+p1ppp1/2pP2/1+b1Pbp/R2PB1/2K1R1[Prp] b 0 19",
    "k1+p+R+B+R/5P/1p1+R+B+B/+p+R1p+PK/+p1p1+pb/+p1p2+p[P] w 0 42",
    "r1pkr1/pb2pp/+p1Pprp/2PP+PP/+p3KB/1+r3B[b] b 0 41",
    "+B+pp1r+b/2kp2/1B1pp+p/R1+p+p+p1/1P1+rp1/1K1+b+p+p[r] b 0 42",
    "+rk+r1+b1/1Pp1+p+p/PK1+b+b+r/2P1p1/2R+p+b1/4+pp[Ppp] b 0 51",
    "1p1k1r/1ppbP1/B2p+p1/1P1r1+p/r1PKBb/pR2+p1[PP] w 0 19",
    "1b2+p+p/p+r+p1+p+p/4+p+p/BPrk+r+r/3b+p+p/K3+p+p[b] b 0 56",
    "R1bk1r/1Bppp1/6/+R3pp/PPPPp1/PRKB2[PPb] w 0 6",
    "1+bp2r/2pkp1/5P/+PP1BB+P/+PP+PP2/B+R1K+Pp[rr] b 0 35",
    "1+p+p+p2/+r+b+p1pk/P3p1/+B1p2R/+PP2R1/RPK+Pb+p[b] b 0 39",
    "1r1krb/2Pbp1/3p1p/p1RP2/1PP1P1/R1KBp+b[PPP] w 0 8",
    "2pkrb/1P1pp1/+B1p1r1/1PPp+BR/1P4/1RKp+PP[bp] b 0 12",
    "+r+p+p+r+p1/3p1+b/P+R1p1+b/2PP+p+b/P2B2/r1k2K[Ppp] b 0 39",
    "1PP2k/+P2+p+p1/2r1p+p/+B+R+Rp+p+P/1PPb2/R1KB1P[B] w 0 26",
    "RKp+r+p+p/3bk1/r+B1+pr1/3+p1+P/bp+b2P/+p+p2+PP[p] b 0 42",
    "1b+p1r+p/+pb2p1/+R+bkp1p/+R3P+P/2PPP1/1K1BR+P[p] b 0 26",
    "b2krP/P1ppp+b/3+pp1/1+rP2p/PR1+PB+p/2K1+RB[p] b 0 17",
    "2bk2/1b+Rpr+P/Pp2+P1/2RB1B/PPPP2/PRK2p[Pp] b 0 9",
    "1+pb2+p/+p1p1+pp/1+p2kp/+rpp1pP/+r1+P+R2/+r+b2KB[B] w 0 50",
    "1+b2+PP/+p+p3P/p+P+rb1+B/1+Ppk1+R/2+r+p1P/p2pRK[b] b 0 136",
    "1b1kr1/pbRpp1/PP1p2/5B/1PPPr1/1RKB1p[PPP] w 0 9",
    "+P1+Pkr+R/1P+P2B/+B3p1/1P+BR1+p/K1PP2/RB2PP[Pp] b 0 29",
    "3krB/2p1p1/r1+ppb+p/pP1+Pb1/2PP+r1/1RKB1P[PP] w 0 11",
    "+PPbk2/1pp+pr1/+P2+p+b1/B1p+P+p1/1rPPB1/1RK3[rp] b 0 12",
    "3kr1/p1pbp1/+b1+rp2/P+p+pb1+b/+rPPP2/1pK1P1[Pr] b 0 16",
    "1P1kr+r/2p+p+p+p/+P2+p+p1/+R3p1/+P+BK+B+p1/B2r+p+b[p] b 0 44",
    "P+P+B1br/1PP1pp/1+B2kP/1P+PPP1/1P4/RR1KB+R[p] b 0 19",
    "+R1Pr2/1+Pk3/+P+PP1P1/1P1+B2/1K+P+Br+p/P+R+B+p+p+p[b] b 0 72",
];

/// Zugzwang and the null move in Negaeri: where the side to move may pass,
/// a search at depth 7 still finds every win and loss four or five plies
/// away with its exact score. Iterations before the one that finds it
/// search with no mate score in the window, where null moves are tried
/// (the search tries none against a mate score); a null move that hid a
/// zugzwang, or a pass that gave the passer more than a pass, would lose
/// one or see it late.
#[test]
fn negaeri_null_move_hides_no_win_or_loss_four_or_five_plies_away() {
    use crate::games::conformance::position;
    use crate::games::negaeri::Negaeri;
    for text in NEGAERI_FAR_ENDS {
        let pos: Negaeri = position(text, &Default::default());
        assert!(pos.play_null().is_some(), "{text}");
        let exact = ends_alphabeta(&pos, 5, 0, -MATE, MATE, &mut vec![pos.repetition_key()]);
        assert!(is_mate(exact) && MATE - exact.abs() >= 4, "{text}: {exact}");
        assert_eq!(run(&pos, &Limits::depth(7)).score, exact, "{text}");
    }
}

/// The score a depth-1 search with every root move as a line gives the
/// move written `last`, played after `before` from the game's start.
fn score_of_last<G: Searchable>(before: &[&str], last: &str) -> Score {
    let mut line = crate::core::GameLine::<G>::new(&G::Rules::default());
    for text in before {
        let pos = line.current();
        let mut moves = G::MoveList::default();
        pos.generate(&mut moves);
        let m = *moves
            .iter()
            .find(|&&m| pos.move_text(m).to_string() == *text)
            .unwrap_or_else(|| panic!("{}: no move {text}", G::NAME));
        line.play(m);
    }
    let root = line.current().clone();
    let mut moves = G::MoveList::default();
    root.generate(&mut moves);
    let tt = Tt::new(4);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let limits = Limits::depth(1);
    let ctx = Context {
        tt: &tt,
        stop: &stop,
        limits: &limits,
        settings: Settings {
            multipv: moves.len(),
            ..Settings::default()
        },
        poll: None,
    };
    let mut found = None;
    search(&root, line.history(), &ctx, |r| {
        if r.pv
            .first()
            .is_some_and(|&m| root.move_text(m).to_string() == last)
        {
            found = Some(r.score);
        }
    });
    found.unwrap_or_else(|| panic!("{}: no line starts with {last}", G::NAME))
}

/// A move back into a position the game has passed is scored as the draw
/// the repetition rule makes of it, less the game's contempt: the side the
/// search is for plays on rather than repeat, in Kani Nari Ebi and Hasami
/// (where a draw is most of what an equal game ends in). Not 0, and not the
/// contempt the other way round.
#[test]
fn a_move_that_repeats_a_position_costs_the_side_to_move_the_contempt() {
    use crate::games::hasami::Hasami;
    use crate::games::kaninariebi::KaniNariEbi;
    let kani = score_of_last::<KaniNariEbi>(&["a1b1", "e1d1", "b1a1"], "d1e1");
    assert_eq!(kani, -KaniNariEbi::TUNING.contempt);
    // A zero contempt could not tell a wrong sign from a right one.
    const { assert!(KaniNariEbi::TUNING.contempt > 0) };
    let hasami = score_of_last::<Hasami>(&["a1a2", "a9a8", "a2a1"], "a8a9");
    assert_eq!(hasami, -Hasami::TUNING.contempt);
    const { assert!(Hasami::TUNING.contempt > 0) };
}

/// `ordering::score_moves` gives every move the score of the plain reading
/// (hash move, then tactical, killer and quiet history, tested move by
/// move in that order) and returns the move `pick` brings forward first,
/// on random positions of every game with random
/// histories, killers, previous moves and hash moves (none, one of the
/// list's, and one that is not there).
struct Scores;

impl GameVisitor for Scores {
    type Output = usize;
    fn visit<G: Searchable>(self) -> usize {
        use ordering::{HASH_MOVE, Heuristics, KILLER, Node, TACTICAL, quiet_history};
        let mut rng = Lcg(31);
        let mut h = Heuristics::<G::Move>::new(G::MOVE_KEYS, G::CONT_KEYS);
        let (mut scores, mut tactical) = (vec![], vec![]);
        let mut hashes = 0;
        for pos in sample::<G>(80, 9) {
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            let side = pos.side_to_move().index();
            for _ in 0..40 {
                let m = moves[rng.below(moves.len())];
                let bonus = rng.below(4000) as i32 - 2000;
                h.update_quiet(side, pos.move_key(m), bonus);
                h.update_tactical(side, pos.move_key(m), bonus);
                let prev = rng.below(G::CONT_KEYS);
                h.update_cont(prev, pos.cont_key(m), bonus);
            }
            let ply = rng.below(4);
            h.add_killer(ply, moves[rng.below(moves.len())]);
            let prev = [0, 1].map(|_| match rng.below(4) {
                0 => ordering::NO_CONT,
                _ => rng.below(G::CONT_KEYS),
            });
            let hash_move = match rng.below(3) {
                0 => None,
                1 => Some(pos.move_id(moves[rng.below(moves.len())])),
                _ => Some(u32::MAX >> 8),
            };
            let node = Node {
                hash_move,
                ply,
                prev,
            };
            let first = ordering::score_moves(&pos, &moves, &node, &h, &mut scores, &mut tactical);
            let mut picked = moves.to_vec();
            let (mut s, mut t) = (scores.clone(), tactical.clone());
            ordering::pick(&mut picked, &mut s, &mut t, 0);
            assert_eq!(picked[0], moves[first], "first pick in {}", pos.to_text());
            for (i, &m) in moves.iter().enumerate() {
                let expected = if node.hash_move == Some(pos.move_id(m)) {
                    hashes += 1;
                    HASH_MOVE
                } else if pos.is_tactical(m) {
                    TACTICAL + h.tactical(side, pos.move_key(m))
                } else if h.killers[ply].contains(&Some(m)) {
                    KILLER
                } else {
                    quiet_history(&pos, m, &node, &h)
                };
                assert_eq!(scores[i], expected, "{:?} in {}", m, pos.to_text());
            }
        }
        hashes
    }
}

#[test]
fn move_scores_are_those_of_the_plain_reading_in_every_game() {
    for &g in GameId::ALL {
        assert!(g.visit(Scores) > 10, "{g}: too few hash moves scored");
    }
}

/// Tables that know one position, a loss for its side to move, and call
/// every move an exit.
struct OneLoss(u64);

impl<G: Searchable> Probe<G> for OneLoss {
    fn is_exit(&self, _: &G, _: G::Move) -> bool {
        true
    }

    fn wdl(&self, pos: &G) -> Option<i8> {
        (pos.hash() == self.0).then_some(-1)
    }
}

#[test]
fn the_search_takes_a_table_loss_of_the_opponent_and_counts_its_hits() {
    struct Probed;
    impl GameVisitor for Probed {
        type Output = ();
        fn visit<G: Searchable>(self) {
            let root = G::start(&Default::default());
            let mut moves = G::MoveList::default();
            root.generate(&mut moves);
            let target = *moves.last().expect("a move at the start");
            let tables = OneLoss(root.play(target).hash());
            let (tt, stop, limits) = (Tt::new(4), AtomicBool::new(false), Limits::depth(3));
            let ctx = Context {
                tt: &tt,
                stop: &stop,
                limits: &limits,
                settings: Settings::default(),
                poll: None,
            };
            let mut hits = 0;
            let history = crate::core::History::starting_at(&root);
            let r = search_with_tables(&root, &history, &ctx, Some(&tables), |r| hits = r.tbhits);
            assert_eq!(r.best, Some(target), "{}", G::NAME);
            assert_eq!(r.score, score::TABLE_WIN, "{}", G::NAME);
            assert!(hits > 0, "{}", G::NAME);
            // Without the tables (nor what they left in the hash table).
            tt.clear();
            let plain = search(&root, &history, &ctx, |r| assert_eq!(r.tbhits, 0));
            assert_ne!(plain.score, score::TABLE_WIN, "{}", G::NAME);
        }
    }
    for &g in GameId::ALL {
        g.visit(Probed);
    }
}

/// A cleared hash table searches as a new one does: the same move, score
/// and node count, whatever the table held before.
#[test]
fn a_search_after_a_clear_is_the_search_of_a_new_table() {
    struct Cleared;
    impl GameVisitor for Cleared {
        type Output = ();
        fn visit<G: Searchable>(self) {
            let positions = sample::<G>(2, 11);
            let (stop, limits) = (AtomicBool::new(false), Limits::depth(4));
            let searched = |tt: &Tt, pos: &G| {
                let ctx = Context {
                    tt,
                    stop: &stop,
                    limits: &limits,
                    settings: Settings::default(),
                    poll: None,
                };
                let r = search(pos, &crate::core::History::starting_at(pos), &ctx, |_| {});
                (r.best, r.score, r.nodes, r.pv)
            };
            let fresh = searched(&Tt::new(1), &positions[0]);
            let tt = Tt::new(1);
            searched(&tt, &positions[1]);
            searched(&tt, &positions[0]);
            tt.clear();
            assert_eq!(searched(&tt, &positions[0]), fresh, "{}", G::NAME);
        }
    }
    for &g in GameId::ALL {
        g.visit(Cleared);
    }
}
