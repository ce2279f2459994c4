//! The Python package's rules play a game that no file of `python/src/`
//! or `src/` names: Hexapawn, written for the tests
//! (`tests/games/hexapawn.rs`) and registered as Koma's own games are. The
//! same `AnyPosition` the Python `Position` wraps reads its moves, plays
//! them, takes them back, ends the game by its rules, and encodes its
//! moves and positions by the game's entry.

#[path = "../../tests/games/hexapawn.rs"]
mod hexapawn;

use _koma::actions::ActionSpace;
use _koma::planes::PlaneSpec;
use _koma::position::{RulesError, position_of};
use hexapawn::{FAR_RANK, Hexapawn};
use koma::core::{Color, End, EndReason, Outcome};
use koma::games::{GameId, Registered};

#[test]
fn the_python_rules_play_a_game_registered_outside_src() {
    assert!(!GameId::of::<Hexapawn>().listed(), "not in Koma's list");
    let mut pos = position_of::<Hexapawn>(&[], None).expect("the start");
    assert_eq!(pos.entry().name, "hexapawn");
    assert_eq!(pos.fen(), "ppp/3/PPP w 1");
    assert_eq!(pos.legal_moves(), ["a1a2", "b1b2", "c1c2"]);
    assert_eq!(pos.perft(2), Ok(10));
    // A move the rules refuse, in the engine's words.
    assert!(matches!(pos.push("a1b2"), Err(RulesError::Illegal(_))));
    // A line of captures, then the first legal move until the rules end
    // the game (pawns only go forward: it ends within nine moves).
    for mv in ["b1b2", "a3b2", "a1b2", "c3b2"] {
        pos.push(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(pos.turn(), Color::First);
    assert_eq!(pos.legal_moves(), ["c1b2", "c1c2"]);
    while pos.outcome().is_none() {
        assert!(pos.plies() < 9, "{}", pos.fen());
        let mv = pos.legal_moves()[0].clone();
        pos.push(&mv).unwrap();
    }
    let end = pos.outcome().expect("over");
    assert!(
        [FAR_RANK, EndReason::NoLegalMove].contains(&end.reason),
        "{end:?}"
    );
    assert!(pos.legal_moves().is_empty());
    // Taking a move back reopens the game.
    let last = pos.pop().expect("a move to take back");
    assert_eq!(pos.outcome(), None);
    pos.push(&last).unwrap();

    // A position string of another game is refused with the game's words.
    let bad = position_of::<Hexapawn>(&[], Some("ppp/3/PPQ w 1")).err();
    assert_eq!(
        bad.map(|e| e.to_string()).as_deref(),
        Some(
            "invalid hexapawn position (unknown piece Q on c1: Hexapawn pieces are P) at ppp/3/PPQ"
        )
    );
}

#[test]
fn its_actions_and_planes_come_from_its_entry() {
    let space = ActionSpace::of(&Hexapawn::ENTRY);
    // Movements only: 9 x 9 from-to pairs, no drop, pass or `end`.
    assert_eq!(space.size(), 81);
    let spec = PlaneSpec::of(&Hexapawn::ENTRY);
    // A pawn plane a side, the side to move, the move number, repeats.
    assert_eq!(spec.shape(), [5, 3, 3]);
    let pos = position_of::<Hexapawn>(&[], Some("p1p/1P1/3 w 2")).unwrap();
    let actions = pos.legal_actions();
    assert_eq!(actions.len(), pos.legal_moves().len());
    let mut planes = Vec::new();
    pos.planes(None, &mut planes);
    assert_eq!(planes.len(), spec.len());
    // Three pawns stand: one First's, two Second's.
    let area = 9;
    let first: f32 = planes[..area].iter().sum();
    let second: f32 = planes[area..2 * area].iter().sum();
    assert_eq!((first, second), (1.0, 2.0));
    let mut won = position_of::<Hexapawn>(&[], Some("p1p/1P1/3 w 2")).unwrap();
    won.push("b2a3").unwrap();
    assert_eq!(
        won.outcome(),
        Some(End::win(Color::First, FAR_RANK)),
        "{}",
        won.fen()
    );
    assert_eq!(
        won.outcome().map(|e| e.outcome),
        Some(Outcome::Win(Color::First))
    );
}
