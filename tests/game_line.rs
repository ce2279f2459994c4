//! The game line every layer replays moves with: moves are made canonical,
//! refused with their ply when illegal or after the end, and taken back.

use koma::core::{
    AnyLine, Game, GameLine, LineError, MoveText, OptionValue, Outcome, ReplayError, Rules,
};
use koma::games::hasami::Hasami;
use koma::games::nana::Nana;
use koma::protocol::{parse_move, parse_position};

fn moves(s: &str) -> Vec<MoveText> {
    s.split(' ').map(|m| parse_move(m).unwrap()).collect()
}

#[test]
fn a_line_plays_moves_and_keeps_every_position() {
    let rules = Default::default();
    let line = GameLine::<Hasami>::from_text(None, &moves("a1a2 i9i8"), &rules).unwrap();
    assert_eq!((line.plies(), line.start_text()), (2, None));
    assert_eq!(line.history().len(), 3);
    assert_eq!(
        line.position(0).to_text(),
        GameLine::<Hasami>::new(&rules).current().to_text()
    );
    assert_eq!(line.position(9).to_text(), line.current().to_text());
}

#[test]
fn an_illegal_move_is_refused_with_its_ply_and_the_line_stops_before_it() {
    let mut line = GameLine::<Hasami>::new(&Default::default());
    let e = line.play_all(&moves("a1a2 a2a3 i9i8")).unwrap_err();
    assert_eq!(
        e,
        ReplayError::Illegal {
            ply: 2,
            mv: parse_move("a2a3").unwrap()
        }
    );
    assert_eq!(e.to_string(), "move 2 (a2a3) is illegal");
    assert_eq!(line.plies(), 1);
}

#[test]
fn a_move_after_the_end_is_refused_with_the_end() {
    // The first player takes the King on its fifth ply.
    let mut line = GameLine::<Nana>::new(&Default::default());
    line.play_all(&moves("K@b1 K@c3 V@a1 c3c2 b1c2")).unwrap();
    let end = line.status().unwrap();
    assert_eq!(end.reason, koma::games::endings::KING_CAPTURED);
    assert!(matches!(end.outcome, Outcome::Win(_)));
    let e = line.play_text(&parse_move("a1a2").unwrap()).unwrap_err();
    assert!(matches!(e, ReplayError::AfterEnd { ply: 6, .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("move 6 (a1a2) comes after the end (")
    );
    line.undo_to(4);
    assert_eq!((line.plies(), line.status()), (4, None));
}

#[test]
fn a_start_position_is_validated_and_kept_as_it_writes_itself() {
    let rules = <Hasami as Game>::Rules::from_values(&[]).unwrap();
    let bad = parse_position("5/5 w 1").unwrap();
    let e = GameLine::<Hasami>::from_start(Some(&bad), &rules).unwrap_err();
    assert!(matches!(e, LineError::Position { game: "hasami", .. }));
    assert!(
        e.to_string().starts_with("invalid hasami position ("),
        "{e}"
    );
    let start = GameLine::<Hasami>::new(&rules).current().to_text();
    let line = GameLine::<Hasami>::from_start(Some(&start), &rules).unwrap();
    assert_eq!(line.start_text(), Some(&start));
}

#[test]
fn a_line_replayed_from_text_keeps_its_rules_and_a_refused_one_changes_nothing() {
    let rules =
        <Hasami as Game>::Rules::from_values(&[("HasamiWin", OptionValue::Combo("all".into()))])
            .unwrap();
    assert_ne!(rules, Default::default());
    let mut line = GameLine::<Hasami>::new(&rules);
    // Held as any game's line, as the engine's session and the board hold it.
    let any: &mut dyn AnyLine = &mut line;
    any.replay(None, &moves("a1a2 i9i8")).unwrap();
    assert_eq!((any.game(), any.plies()), ("hasami", 2));
    let e = any.replay(None, &moves("a1a2 a2a3")).unwrap_err();
    assert!(matches!(
        e,
        LineError::Move(ReplayError::Illegal { ply: 2, .. })
    ));
    assert_eq!(any.moves(), &moves("a1a2 i9i8")[..]);
    assert_eq!(line.rules(), &rules);
}
