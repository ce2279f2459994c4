//! Kani Nari Ebi rules: agreement with a naive second implementation.

use super::*;

/// Every turn of `p` and its result, against the naive implementation.
fn compare_with_naive(p: &KaniNariEbi) {
    let me = side_sign(p);
    let g = naive::grid(p);
    let s = p.to_text().to_string();
    assert_eq!(
        p.terminal().is_some(),
        naive::won(&g, -me),
        "terminal in {s}"
    );
    if p.terminal().is_some() {
        return;
    }
    let expected = naive::turns(&g, me, p.rules().bond_any_type);
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    let got: BTreeMap<String, naive::Grid> = moves
        .iter()
        .map(|&m| (p.move_text(m).to_string(), naive::grid(&p.play(m))))
        .collect();
    assert_eq!(got.len(), moves.len(), "duplicate move texts in {s}");
    assert_eq!(p.count_moves(), moves.len(), "count_moves in {s}");
    for (t, n) in &expected {
        assert_eq!(got.get(t), Some(n), "{t} in {s}");
    }
    for t in got.keys() {
        assert!(expected.contains_key(t), "{t} is not legal in {s}");
    }
}

#[test]
fn turns_and_results_agree_with_a_naive_implementation_on_random_playouts() {
    let mut rng = Lcg(2024);
    for r in [rules(), any_type()] {
        for _game in 0..40 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..200 {
                compare_with_naive(&p);
                if game_status(&p).is_some() {
                    break;
                }
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn turns_and_results_agree_with_a_naive_implementation_on_random_positions() {
    let mut rng = Lcg(77);
    let mut checked = 0;
    for r in [rules(), any_type()] {
        for _ in 0..1500 {
            if let Some(p) = random_position(&mut rng, &r) {
                compare_with_naive(&p);
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// `is_tactical` (a note move generation adds) against playing the turn,
/// and `generate_tactical` against filtering `generate`, in order.
fn check_tactical(p: &KaniNariEbi) -> usize {
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut flagged = vec![];
    for &m in moves.iter() {
        let next = p.play(m);
        let real = next.pieces(them) != p.pieces(them)
            || next.shrimps(us).count_ones() > p.shrimps(us).count_ones();
        assert_eq!(p.is_tactical(m), real, "{m:?} in {}", p.to_text());
        if real {
            flagged.push(m);
        }
    }
    let mut tactical = <KaniNariEbi as Game>::MoveList::default();
    p.generate_tactical(&mut tactical);
    let got: Vec<u32> = tactical.iter().map(|&m| p.move_id(m)).collect();
    let want: Vec<u32> = flagged.iter().map(|&m| p.move_id(m)).collect();
    assert_eq!(got, want, "{}", p.to_text());
    flagged.len()
}

#[test]
fn tactical_turns_are_exactly_the_captures_and_promotions() {
    let mut rng = Lcg(31);
    let mut seen = 0;
    for r in [rules(), any_type()] {
        for _game in 0..40 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..200 {
                if game_status(&p).is_some() {
                    break;
                }
                seen += check_tactical(&p);
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
        for _ in 0..500 {
            if let Some(p) = random_position(&mut rng, &r)
                && game_status(&p).is_none()
            {
                seen += check_tactical(&p);
            }
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// The position with the other side to move, if that is a valid position.
fn other_side_to_move(p: &KaniNariEbi) -> Option<KaniNariEbi> {
    let mut t = p.to_text();
    t.side = t.side.opponent();
    KaniNariEbi::from_text(&t, p.rules()).ok()
}

/// The evaluation's sandwich exposure against playing every normal
/// movement of the other side: the pieces some movement would capture.
fn check_exposed(p: &KaniNariEbi) {
    let Some(q) = other_side_to_move(p) else {
        return;
    };
    if game_status(&q).is_some() {
        return;
    }
    let (us, them) = (p.side_to_move(), p.side_to_move().opponent());
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    q.generate(&mut moves);
    let mut taken = 0;
    for &m in moves.iter().filter(|m| m.bond().is_none()) {
        taken |= p.pieces(us) & !q.play(m).pieces(us);
    }
    let r = eval::reach(
        p.pieces(them),
        p.shrimps(them),
        p.pieces(us),
        board::home(us),
    );
    assert_eq!(
        eval::exposed(p.pieces(us), p.pieces(them), r.squares),
        taken,
        "{}",
        p.to_text()
    );
}

#[test]
fn the_evaluation_sees_every_piece_a_movement_could_sandwich() {
    on_sampled_positions(5, check_exposed);
}

/// The evaluation's Crab terms (bit counts) against counting Crab by
/// Crab, and its network summed from the board against the listed inputs.
fn check_eval_parts(p: &KaniNariEbi) {
    let mut d = crate::eval::Dense::<{ eval::TERMS }>::default();
    eval::terms(p, &mut d);
    let term = |name: &str| d.features[eval::NAMES.iter().position(|n| *n == name).unwrap()];
    let us = p.side_to_move();
    let (mut advance, mut open) = (0, 0);
    for (c, sign) in [(us, 1), (us.opponent(), -1)] {
        let enemy = p.pieces(c.opponent());
        for sq in board::squares(p.crabs(c)) {
            let (f, r) = (sq.file(), sq.rank());
            let (gain, mut lane) = match c {
                Color::First => (f, f + 1..5),
                Color::Second => (4 - f, 0..f),
            };
            advance += sign * i32::from(gain);
            if lane.all(|g| enemy & Square::new(g, r).bit() == 0) {
                open += sign;
            }
        }
    }
    let s = p.to_text();
    assert_eq!(term("crab_advance"), advance as f32, "{s}");
    assert_eq!(term("crab_open"), open as f32, "{s}");
    let net = eval::WEIGHTS
        .get()
        .net
        .as_ref()
        .expect("the built-in network");
    assert_eq!(
        eval::net_output(p, net),
        net.evaluate(&eval::inputs(p)),
        "{s}"
    );
}

#[test]
fn the_evaluation_counts_as_piece_by_piece() {
    on_sampled_positions(31, check_eval_parts);
}

/// The keys the search reads from a generated turn's notes, against the
/// turn's movements and the board.
fn check_keys(p: &KaniNariEbi) {
    let mut moves = <KaniNariEbi as Game>::MoveList::default();
    p.generate(&mut moves);
    let mut tactical = <KaniNariEbi as Game>::MoveList::default();
    p.generate_tactical(&mut tactical);
    let s = p.to_text();
    let mut keys = std::collections::BTreeSet::new();
    for &m in moves.iter().chain(tactical.iter()) {
        let f = m.first();
        let shrimp = f.promote || p.shrimps & f.from.bit() != 0;
        let cont = f.to.index() * 4 + usize::from(shrimp) * 2 + usize::from(m.bond().is_some());
        assert_eq!(p.cont_key(m), cont, "{m:?} in {s}");
        let key = match m.bond() {
            None => f,
            Some(b) => b,
        };
        let key = (
            key.from.index(),
            key.to.index(),
            key.promote,
            m.bond().is_some(),
        );
        keys.insert((p.move_key(m), key));
        assert!(p.move_key(m) < KaniNariEbi::MOVE_KEYS, "{m:?} in {s}");
    }
    // One key for each movement keyed, and the other way round.
    let by_key: BTreeMap<_, _> = keys.iter().copied().collect();
    let by_movement: BTreeMap<_, _> = keys.iter().map(|&(k, m)| (m, k)).collect();
    assert_eq!(by_key.len(), keys.len(), "{s}");
    assert_eq!(by_movement.len(), keys.len(), "{s}");
}

#[test]
fn the_noted_keys_are_those_of_the_turn_on_the_board() {
    on_sampled_positions(47, check_keys);
}

/// `check` on positions of random games from the start and on random
/// positions, under both rule sets.
fn on_sampled_positions(seed: u64, check: fn(&KaniNariEbi)) {
    let mut rng = Lcg(seed);
    for r in [rules(), any_type()] {
        for _game in 0..30 {
            let mut p = KaniNariEbi::start(&r);
            for _ply in 0..150 {
                if game_status(&p).is_some() {
                    break;
                }
                check(&p);
                let mut moves = <KaniNariEbi as Game>::MoveList::default();
                p.generate(&mut moves);
                p = p.play(moves[rng.below(moves.len())]);
            }
        }
        for _ in 0..1000 {
            if let Some(p) = random_position(&mut rng, &r) {
                check(&p);
            }
        }
    }
}

/// The evaluation's sandwich threats in three fixed steps per direction
/// (`exposed_along_within`) are those grown until they stop
/// (`exposed_along`), on random boards: a five-square line holds no longer
/// run between a landing square and an enemy man.
#[test]
fn the_sandwich_threats_in_fixed_steps_are_the_grown_ones() {
    use super::board::{FULL, east, north, south, west};
    use crate::games::sandwich::{exposed_along, exposed_along_within};
    let mut rng = Lcg(49);
    for _ in 0..200_000 {
        let (a, b, c) = (rng.next() as u32, rng.next() as u32, rng.next() as u32);
        let ours = a & FULL;
        let theirs = b & FULL & !ours;
        let landing = c & FULL & !(ours | theirs);
        type Step = fn(u32) -> u32;
        let dirs: [(Step, Step); 4] = [(north, south), (south, north), (east, west), (west, east)];
        for (fwd, back) in dirs {
            assert_eq!(
                exposed_along_within::<u32, 3>(ours, theirs, landing, fwd, back),
                exposed_along(ours, theirs, landing, fwd, back),
                "ours {ours:#x} theirs {theirs:#x} landing {landing:#x}"
            );
        }
    }
}
