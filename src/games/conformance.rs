//! The conformance suite every game runs, from its start position and from
//! seeded random playouts: no duplicate moves, text and position round
//! trips, legality lookup agreeing with generation, incremental hash equal
//! to the from-scratch hash, bulk count equal to generation, tactical marks
//! equal to `is_tactical`, tactical generation inside it, null moves that
//! only hand the move over, `gives_check` equal to playing the move and
//! asking `in_check`, and playouts that end without a panic.

use crate::core::{
    EndReason, Game, History, MoveSink, Searchable, game_status, status_with_history,
};
use crate::protocol::{parse_move, parse_position};
use std::collections::HashSet;

/// A tiny deterministic generator, so failures replay exactly.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The board field of a position string (what a null move keeps).
fn board_of(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// Every check on one position: its rules, then its search hooks.
pub fn check_position<G: Searchable>(pos: &G, rules: &G::Rules) {
    check_rules(pos, rules);
    check_search_hooks(pos, rules);
}

/// The checks of the rules alone (what `Game` promises).
pub fn check_rules<G: Game>(pos: &G, rules: &G::Rules) {
    let text = pos.to_text();
    let s = text.to_string();
    let parsed = parse_position(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(parsed, text, "position string does not parse back: {s}");
    let again = G::from_text(&parsed, rules).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(
        again.to_text().to_string(),
        s,
        "position does not round-trip"
    );
    assert_eq!(
        again.hash(),
        pos.hash(),
        "incremental hash differs from scratch: {s}"
    );
    if pos.terminal().is_some() {
        return;
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    assert_eq!(moves.len(), pos.count_moves(), "count_moves disagrees: {s}");
    assert_eq!(
        !moves.is_empty(),
        pos.has_moves(),
        "has_moves disagrees: {s}"
    );
    let mut seen = HashSet::new();
    for &m in moves.iter() {
        let t = pos.move_text(m);
        let ms = t.to_string();
        assert!(seen.insert(ms.clone()), "duplicate move {ms} in {s}");
        assert_eq!(
            parse_move(&ms).as_ref(),
            Ok(&t),
            "move text {ms} does not parse back"
        );
        assert_eq!(pos.find_move(&t), Some(m), "find_move({ms}) in {s}");
        let next = pos.play(m);
        assert_eq!(
            next.side_to_move(),
            pos.side_to_move().opponent(),
            "{ms} in {s}"
        );
    }
}

/// The checks of what a search asks beyond the rules (`Searchable`).
pub fn check_search_hooks<G: Searchable>(pos: &G, rules: &G::Rules) {
    let s = pos.to_text().to_string();
    if pos.terminal().is_some() {
        return;
    }
    let mut moves = G::MoveList::default();
    pos.generate(&mut moves);
    // A null move (where the game offers one) only hands the move over:
    // the same board with the other side to move, its hash from scratch.
    // (Not from a game a move-count limit ended: no position follows it.)
    if let Some(null) = pos.play_null().filter(|_| pos.limit_end().is_none()) {
        assert_eq!(null.side_to_move(), pos.side_to_move().opponent(), "{s}");
        let ns = null.to_text().to_string();
        let again = G::from_text(&null.to_text(), rules).unwrap_or_else(|e| panic!("{ns}: {e}"));
        assert_eq!(
            again.hash(),
            null.hash(),
            "null move hash differs: {s} -> {ns}"
        );
        assert_eq!(
            board_of(&ns),
            board_of(&s),
            "null move changed the board: {s} -> {ns}"
        );
    }
    // The whole-node tactical marks agree with `is_tactical`.
    let mut marks = Vec::new();
    pos.mark_tactical(&moves, &mut marks);
    let expected: Vec<bool> = moves.iter().map(|&m| pos.is_tactical(m)).collect();
    assert_eq!(marks, expected, "mark_tactical disagrees: {s}");
    // Quiescence's moves are legal tactical moves (a game may leave out
    // some not worth resolving, and order them as it likes).
    let mut tactical = G::MoveList::default();
    pos.generate_tactical(&mut tactical);
    for &m in tactical.iter() {
        assert!(
            moves.contains(&m) && pos.is_tactical(m),
            "generate_tactical gave {} in {s}",
            pos.move_text(m)
        );
    }
    for &m in moves.iter() {
        let ms = pos.move_text(m).to_string();
        let next = pos.play(m);
        // The search's before-the-move check test and history index.
        assert_eq!(
            pos.gives_check(m),
            next.in_check(),
            "gives_check({ms}) in {s}"
        );
        assert!(pos.cont_key(m) < G::CONT_KEYS, "cont_key({ms}) in {s}");
    }
}

/// Plays `games` random games of at most `max_plies` plies from the start,
/// checking every position on the way; returns the number of finished
/// games, so callers can check playouts do reach ends.
pub fn random_playouts<G: Searchable>(
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> usize {
    let mut rng = Lcg(seed);
    let mut finished = 0;
    for _ in 0..games {
        let mut pos = G::start(rules);
        let mut history = History::starting_at(&pos);
        for _ in 0..max_plies {
            check_position(&pos, rules);
            if let Some(end) = status_with_history(&pos, &history) {
                check_ending::<G>(end.reason);
                finished += 1;
                break;
            }
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            assert!(!moves.is_empty(), "no moves but no end: {}", pos.to_text());
            pos = pos.play(moves[rng.below(moves.len())]);
            history.push(pos.repetition_key());
        }
    }
    finished
}

/// A game's own ending is one it lists in `Game::ENDINGS` (the registry
/// reads `Termination` tags back by that list), and its words are no
/// generic ending's.
pub fn check_ending<G: Game>(reason: EndReason) {
    if let EndReason::Game(words) = reason {
        assert!(
            G::ENDINGS.contains(&reason),
            "{}: ending {words:?} is not in ENDINGS",
            G::NAME
        );
        assert!(
            EndReason::GENERIC.iter().all(|g| g.message() != words),
            "{}: ending {words:?} has a generic ending's words",
            G::NAME
        );
    }
}

/// A move sink that records move texts, for readable assertions.
pub fn move_strings<G: Game>(pos: &G) -> Vec<String> {
    struct Texts<'a, G: Game>(&'a G, Vec<String>);
    impl<G: Game> MoveSink<G::Move> for Texts<'_, G> {
        fn push(&mut self, m: G::Move) {
            self.1.push(self.0.move_text(m).to_string());
        }
    }
    let mut t = Texts(pos, Vec::new());
    if game_status(pos).is_none() {
        pos.generate(&mut t);
    }
    let mut v = t.1;
    v.sort();
    v
}

/// A position from its string, panicking with the reason in tests.
pub fn position<G: Game>(s: &str, rules: &G::Rules) -> G {
    let t = parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    G::from_text(&t, rules).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Plays a move given as text, panicking if it is not legal.
pub fn play<G: Game>(pos: &G, mv: &str) -> G {
    let t = parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let m = pos
        .find_move(&t)
        .unwrap_or_else(|| panic!("{mv} is not legal in {}", pos.to_text()));
    pos.play(m)
}

/// Whether a move given as text is legal.
pub fn is_legal<G: Game>(pos: &G, mv: &str) -> bool {
    parse_move(mv)
        .ok()
        .and_then(|t| pos.find_move(&t))
        .is_some()
}

/// `in_check` against its definition on random playouts: the side to move
/// is in check exactly when, were the opponent to move instead, one of its
/// moves would end the game by taking the King. Returns how many checks
/// were seen, so a caller can require that the sample had some.
pub fn check_in_check<G: Searchable>(rules: &G::Rules, games: usize, seed: u64) -> usize {
    let mut rng = Lcg(seed);
    let mut checks = 0;
    for _ in 0..games {
        let mut pos = G::start(rules);
        for _ in 0..200 {
            if game_status(&pos).is_some() {
                break;
            }
            let mut text = pos.to_text();
            text.side = text.side.opponent();
            if let Ok(turned) = G::from_text(&text, rules) {
                let mut replies = G::MoveList::default();
                turned.generate(&mut replies);
                let takes_king = replies.iter().any(|&m| {
                    turned
                        .play(m)
                        .terminal()
                        .is_some_and(|e| e.reason == super::endings::KING_CAPTURED)
                });
                assert_eq!(pos.in_check(), takes_king, "{}", pos.to_text());
                checks += usize::from(takes_king);
            }
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    checks
}

/// Checks that `axis` is a symmetry of the rules on seeded random
/// playouts: for every position `p` on the way, its reflection is a valid
/// position with the same end (if any), its legal moves are exactly the
/// reflections of `p`'s, and reflecting after a move gives the position
/// the reflected move reaches: mirror(play(p, m)) == play(mirror(p),
/// mirror(m)). Returns the positions checked, or the first difference.
pub fn check_mirror<G: Game>(
    axis: crate::core::Mirror,
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> Result<usize, String> {
    let (f, r) = (G::FILES, G::RANKS);
    let reflect = |p: &G| {
        let t = axis.position(&p.to_text());
        G::from_text(&t, rules).map_err(|e| format!("{} has no valid mirror ({e})", p.to_text()))
    };
    let mut rng = Lcg(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = G::start(rules);
        for _ in 0..max_plies {
            let s = pos.to_text().to_string();
            let m = reflect(&pos)?;
            if reflect(&m)?.to_text() != pos.to_text() {
                return Err(format!("{s}: mirroring twice does not give it back"));
            }
            if game_status(&pos) != game_status(&m) {
                return Err(format!(
                    "{s} and its mirror {} end differently",
                    m.to_text()
                ));
            }
            checked += 1;
            if game_status(&pos).is_some() {
                break;
            }
            let mut want: Vec<String> = Vec::new();
            let mut moves = G::MoveList::default();
            pos.generate(&mut moves);
            for &mv in moves.iter() {
                let mt = axis.move_text(pos.move_text(mv), f, r);
                want.push(mt.to_string());
                let Some(mm) = m.find_move(&mt) else {
                    return Err(format!(
                        "{s}: {} has no mirror move {mt} in {}",
                        pos.move_text(mv),
                        m.to_text()
                    ));
                };
                let after = reflect(&pos.play(mv))?.to_text();
                if after != m.play(mm).to_text() {
                    return Err(format!(
                        "{s}: mirror after {} is {after}, {mt} from the mirror gives {}",
                        pos.move_text(mv),
                        m.play(mm).to_text()
                    ));
                }
            }
            want.sort();
            if want != move_strings(&m) {
                return Err(format!("{s}: its mirror {} has other moves", m.to_text()));
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    Ok(checked)
}

mod mirror_tests {
    use super::check_mirror;
    use crate::core::{Game, Mirror, OptionValue, Rules};
    use crate::games::{hasami::Hasami, kaninariebi::KaniNariEbi, nana::Nana, negaeri::Negaeri};

    fn with<G: Game>(options: &[(&str, OptionValue)]) -> G::Rules {
        let mut r = G::Rules::default();
        for (n, v) in options {
            r.set(n, v).unwrap();
        }
        r
    }

    /// Each game's claimed mirror, under its default rules and each option
    /// that changes play.
    fn claimed<G: Game>(rule_sets: &[G::Rules], seed: u64) {
        let axis = G::MIRROR.unwrap_or_else(|| panic!("{} claims no mirror", G::NAME));
        for (k, rules) in rule_sets.iter().enumerate() {
            let n = check_mirror::<G>(axis, rules, 30, 120, seed + k as u64)
                .unwrap_or_else(|e| panic!("{} {rules:?}: {e}", G::NAME));
            assert!(n > 400, "{}: only {n} positions checked", G::NAME);
        }
    }

    #[test]
    fn kaninariebi_mirrors_across_ranks() {
        claimed::<KaniNariEbi>(
            &[
                Default::default(),
                with::<KaniNariEbi>(&[("KaniBondAnyType", OptionValue::Check(true))]),
            ],
            1,
        );
    }

    #[test]
    fn hasami_mirrors_across_files() {
        claimed::<Hasami>(
            &[
                Default::default(),
                with::<Hasami>(&[
                    ("HasamiWin", OptionValue::Combo("lead3".into())),
                    ("HasamiLines", OptionValue::Check(false)),
                    ("HasamiCorners", OptionValue::Check(false)),
                ]),
            ],
            11,
        );
    }

    #[test]
    fn nana_mirrors_across_files() {
        claimed::<Nana>(&[Default::default()], 21);
    }

    #[test]
    fn negaeri_mirrors_across_files() {
        claimed::<Negaeri>(
            &[
                Default::default(),
                with::<Negaeri>(&[
                    ("NegaeriEdge", OptionValue::Check(false)),
                    ("NegaeriChainLimit", OptionValue::Spin(2)),
                ]),
            ],
            31,
        );
    }

    /// The check can fail: reflections the rules do see are caught. In
    /// Kani Nari Ebi swapping files swaps the home columns (each side would
    /// promote in its own); in Negaeri and Nana swapping ranks turns the
    /// Pawn's, the Tile general's and the Dog's forward steps backwards.
    #[test]
    fn reflections_the_rules_see_are_caught() {
        let rules = Default::default();
        assert!(check_mirror::<KaniNariEbi>(Mirror::Files, &rules, 30, 120, 1).is_err());
        let rules = Default::default();
        assert!(check_mirror::<Negaeri>(Mirror::Ranks, &rules, 30, 120, 1).is_err());
        assert!(check_mirror::<Nana>(Mirror::Ranks, &Default::default(), 30, 120, 1).is_err());
    }
}
