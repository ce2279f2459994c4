//! One game's moves and positions, behind an object-safe trait so a table
//! can hold any game: `GamePlay<G>` implements it once for every game
//! (made by `new_play_of`, a `BoardGame`'s): its line is core's `AnyLine`, and it
//! turns positions and legal moves into the JSON the page draws. Legality is the rules library's alone:
//! moves arrive as text and are matched against the generated moves.

use crate::core::{
    AnyLine, Color, Coord, Game, GameLine, LineError, MoveText, OptionValue, PieceText,
    PositionText, RuleError, RuleValues, Rules, StepText, with_defaults,
};
use crate::games::{GameId, Registered};
use crate::protocol::{PositionLine, PositionStart};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt::Display;

/// See `Play::move_check`.
pub type MoveCheck = Box<dyn FnOnce(&MoveText) -> Option<MoveText> + Send>;

pub trait Play: Send {
    /// The game it is of.
    fn game(&self) -> GameId;
    /// The game's moves and positions.
    fn line(&self) -> &dyn AnyLine;
    fn line_mut(&mut self) -> &mut dyn AnyLine;
    /// Every rule option with its value in this game.
    fn rules(&self) -> &RuleValues;
    /// The same game from its start, no move played.
    fn restarted(&self) -> Box<dyn Play>;
    /// A check of moves in the latest position, for another thread: the
    /// canonical text of a legal move, `None` for any other.
    fn move_check(&self) -> MoveCheck;
    /// The board after `ply` moves and what the move to it did.
    fn view(&self, ply: usize) -> View;
    /// The legal moves of the latest position.
    fn legal(&self) -> Legal;
}

/// The `position` command of the latest position of `line`.
pub fn position_command(line: &dyn AnyLine) -> String {
    let start = match line.start_text() {
        None => PositionStart::StartPos,
        Some(t) => PositionStart::Fen(t.clone()),
    };
    PositionLine::new(&start, line.moves()).as_str().to_string()
}

/// A new game of `G` under the rule options given (the others at their
/// defaults), from its start position or from `start` (`BoardGame::new_play`).
pub fn new_play_of<G: Registered>(
    rules: &[(&'static str, OptionValue)],
    start: Option<&PositionText>,
) -> Result<Box<dyn Play>, PlayRefused> {
    Ok(Box::new(GamePlay::<G>::new(
        GameId::of::<G>(),
        rules,
        start,
    )?))
}

/// Why a game cannot be set up: its rule values, or its start position.
#[derive(Debug)]
pub enum PlayRefused {
    Rules(RuleError),
    Start(LineError),
}

impl std::fmt::Display for PlayRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayRefused::Rules(e) => e.fmt(f),
            PlayRefused::Start(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayRefused {}

#[derive(Clone)]
pub struct GamePlay<G: Game> {
    game: GameId,
    rule_values: RuleValues,
    line: GameLine<G>,
}

impl<G: Game> GamePlay<G> {
    fn new(
        game: GameId,
        given: &[(&'static str, OptionValue)],
        start: Option<&PositionText>,
    ) -> Result<Self, PlayRefused> {
        let mut line = GameLine::new(&G::Rules::from_values(given).map_err(PlayRefused::Rules)?);
        line.replay(start, &[]).map_err(PlayRefused::Start)?;
        Ok(GamePlay {
            game,
            rule_values: with_defaults(G::Rules::specs(), given),
            line,
        })
    }
}

impl<G: Game> Play for GamePlay<G> {
    fn game(&self) -> GameId {
        self.game
    }

    fn line(&self) -> &dyn AnyLine {
        &self.line
    }

    fn line_mut(&mut self) -> &mut dyn AnyLine {
        &mut self.line
    }

    fn rules(&self) -> &RuleValues {
        &self.rule_values
    }

    fn restarted(&self) -> Box<dyn Play> {
        let mut fresh = self.clone();
        fresh.line.undo_to(0);
        Box::new(fresh)
    }

    fn move_check(&self) -> MoveCheck {
        let pos = self.line.current().clone();
        Box::new(move |t| pos.find_move(t).map(|m| pos.move_text(m)))
    }

    fn view(&self, ply: usize) -> View {
        let k = ply.min(self.line.plies());
        let pos = self.line.position(k);
        let text = pos.to_text();
        let mut captures = [0usize; 2];
        let moves = self.line.moves();
        for j in 1..=k {
            let before = self.line.position(j - 1);
            let diff = Diff::of(
                &before.to_text(),
                &self.line.position(j).to_text(),
                &moves[j - 1],
                before.side_to_move(),
            );
            captures[before.side_to_move().index()] += diff.captured.len();
        }
        let last = (k > 0).then(|| {
            let before = self.line.position(k - 1);
            let mv_text = moves[k - 1];
            let mover = before.side_to_move();
            let diff = Diff::of(&before.to_text(), &text, &mv_text, mover);
            let hint = before
                .find_move(&mv_text)
                .map(|m| before.hint(m))
                .unwrap_or_default();
            let steps = steps_of(&mv_text);
            // The movements the rules moved on, and the squares they may
            // have passed through.
            let paths = (steps.iter().zip(&hint.paths))
                .filter(|(_, via)| !via.is_empty())
                .map(|(s, via)| PathStep {
                    from: s.from,
                    to: s.to,
                    via: texts(via),
                })
                .collect();
            LastMove {
                text: mv_text,
                side: side_name(mover),
                before: BoardView::of(&before.to_text(), G::FILES, G::RANKS),
                steps: steps.iter().map(|&s| s.into()).collect(),
                drop: match mv_text {
                    MoveText::Drop { piece, to } => Some(DropView { piece, to }),
                    _ => None,
                },
                squares: move_squares(&mv_text),
                captured: texts(&diff.captured),
                changed: texts(&diff.changed),
                levels: hint.levels.iter().map(|l| texts(l)).collect(),
                paths,
            }
        });
        View {
            ply: k,
            board: BoardView::of(&text, G::FILES, G::RANKS),
            side: side_name(pos.side_to_move()),
            position: text.to_string(),
            last,
            captures,
        }
    }

    fn legal(&self) -> Legal {
        let pos = self.line.current();
        let mut legal = Legal::default();
        if self.line.status().is_some() {
            return legal;
        }
        let before = pos.to_text();
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        // The first movements that have Bond continuations (the board
        // after each is in `bond_boards`).
        let mut after_first: Vec<StepText> = Vec::new();
        for &m in list.iter() {
            let t = pos.move_text(m);
            let via = pos.hint(m).paths;
            let step = |k: usize, s: &StepText| LegalStep {
                step: (*s).into(),
                via: texts(via.get(k).map_or(&[][..], |v| v)),
            };
            let mut entry = LegalMove {
                t,
                steps: Vec::new(),
                drop: None,
                pass: false,
            };
            match t {
                MoveText::Step(s) => entry.steps = vec![step(0, &s)],
                MoveText::Bond(a, b) => {
                    if !after_first.contains(&a) {
                        let first = MoveText::Step(a);
                        if let Some(fm) = pos.find_move(&first) {
                            let mid = pos.play(fm).to_text();
                            after_first.push(a);
                            (legal.bond_boards)
                                .insert(first.to_string(), BoardView::of(&mid, G::FILES, G::RANKS));
                        }
                    }
                    entry.steps = vec![step(0, &a), step(1, &b)];
                }
                MoveText::Drop { piece, to } => {
                    let hand =
                        hand_letter_used(&before, &pos.play(m).to_text(), pos.side_to_move())
                            .unwrap_or(piece);
                    entry.drop = Some(LegalDrop { hand, piece, to });
                }
                MoveText::Pass => entry.pass = true,
            }
            legal.moves.push(entry);
        }
        legal
    }
}

/// The board after some moves and what the last of them did, as the page
/// draws it.
#[derive(Serialize)]
pub struct View {
    ply: usize,
    board: BoardView,
    side: &'static str,
    position: String,
    last: Option<LastMove>,
    /// Pieces each side has taken so far.
    captures: [usize; 2],
}

#[derive(Serialize)]
struct LastMove {
    #[serde(serialize_with = "shown")]
    text: MoveText,
    side: &'static str,
    before: BoardView,
    steps: Vec<PlainStep>,
    drop: Option<DropView>,
    squares: Vec<String>,
    captured: Vec<String>,
    changed: Vec<String>,
    /// `MoveHint::levels`.
    levels: Vec<Vec<String>>,
    /// The movements with a `MoveHint::paths` entry.
    paths: Vec<PathStep>,
}

#[derive(Serialize)]
struct PlainStep {
    #[serde(serialize_with = "shown")]
    from: Coord,
    #[serde(serialize_with = "shown")]
    to: Coord,
    promote: bool,
}

impl From<StepText> for PlainStep {
    fn from(s: StepText) -> PlainStep {
        PlainStep {
            from: s.from,
            to: s.to,
            promote: s.promote,
        }
    }
}

#[derive(Serialize)]
struct PathStep {
    #[serde(serialize_with = "shown")]
    from: Coord,
    #[serde(serialize_with = "shown")]
    to: Coord,
    via: Vec<String>,
}

#[derive(Serialize)]
struct DropView {
    piece: char,
    #[serde(serialize_with = "shown")]
    to: Coord,
}

/// The legal moves of a position, with what the page needs to offer each
/// of them with the mouse: none once the game is over.
#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Legal {
    pub moves: Vec<LegalMove>,
    /// The board after each first movement that has Bond continuations.
    bond_boards: BTreeMap<String, BoardView>,
}

/// One legal move: its text and, by kind, its movements (each with the
/// squares a click may name), its drop, or that it is a pass.
#[derive(Serialize)]
pub struct LegalMove {
    #[serde(serialize_with = "shown")]
    pub t: MoveText,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    steps: Vec<LegalStep>,
    #[serde(skip_serializing_if = "Option::is_none")]
    drop: Option<LegalDrop>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pass: bool,
}

#[derive(Serialize)]
struct LegalStep {
    #[serde(flatten)]
    step: PlainStep,
    /// The squares that name this movement by a click (`MoveHint::paths`);
    /// empty when its destination does.
    via: Vec<String>,
}

#[derive(Serialize)]
struct LegalDrop {
    /// The hand letter the piece is taken from.
    hand: char,
    piece: char,
    #[serde(serialize_with = "shown")]
    to: Coord,
}

/// Writes a value as its text (squares, moves).
pub fn shown<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::First => "first",
        Color::Second => "second",
    }
}

/// The movements of a move, in order.
fn steps_of(mv: &MoveText) -> Vec<StepText> {
    match *mv {
        MoveText::Step(a) => vec![a],
        MoveText::Bond(a, b) => vec![a, b],
        _ => Vec::new(),
    }
}

fn texts(squares: &[Coord]) -> Vec<String> {
    squares.iter().map(Coord::to_string).collect()
}

/// The squares a move names, in order.
fn move_squares(mv: &MoveText) -> Vec<String> {
    match mv {
        MoveText::Step(s) => vec![s.from.to_string(), s.to.to_string()],
        MoveText::Bond(a, b) => vec![
            a.from.to_string(),
            a.to.to_string(),
            b.from.to_string(),
            b.to.to_string(),
        ],
        MoveText::Drop { to, .. } => vec![to.to_string()],
        MoveText::Pass => Vec::new(),
    }
}

/// What a move did to the board, read from the boards before and after.
struct Diff {
    /// Enemy pieces that left the board (or were taken on the square the
    /// mover arrived on).
    captured: Vec<Coord>,
    /// Enemy pieces that became the mover's where nothing moved.
    changed: Vec<Coord>,
}

impl Diff {
    fn of(before: &PositionText, after: &PositionText, mv: &MoveText, mover: Color) -> Diff {
        let arrivals: Vec<Coord> = match mv {
            MoveText::Step(s) => vec![s.to],
            MoveText::Bond(a, b) => vec![a.to, b.to],
            MoveText::Drop { to, .. } => vec![*to],
            MoveText::Pass => Vec::new(),
        };
        let mut d = Diff {
            captured: Vec::new(),
            changed: Vec::new(),
        };
        for (row, rank) in before.ranks.iter().enumerate() {
            for (file, piece) in rank.iter().enumerate() {
                let Some(b) = piece else { continue };
                if b.color == mover {
                    continue;
                }
                let a = after
                    .ranks
                    .get(row)
                    .and_then(|r| r.get(file))
                    .copied()
                    .flatten();
                let Some(c) = coord_of(before, row, file) else {
                    continue;
                };
                match a {
                    None => d.captured.push(c),
                    Some(a) if a.color == mover && arrivals.contains(&c) => d.captured.push(c),
                    Some(a) if a.color == mover => d.changed.push(c),
                    Some(_) => {}
                }
            }
        }
        d
    }
}

fn coord_of(t: &PositionText, row: usize, file: usize) -> Option<Coord> {
    let rank = t.ranks.len().checked_sub(row + 1)?;
    Some(Coord::new(
        u8::try_from(file).ok()?,
        u8::try_from(rank).ok()?,
    ))
}

/// Counts of each letter in a side's hand, in the order the position
/// string writes them.
fn hand_counts(t: &PositionText, side: Color) -> Vec<(char, usize)> {
    let mut out: Vec<(char, usize)> = Vec::new();
    for p in t.hand.iter().flatten().filter(|p| p.color == side) {
        match out.iter_mut().find(|(l, _)| *l == p.letter) {
            Some(e) => e.1 += 1,
            None => out.push((p.letter, 1)),
        }
    }
    out
}

/// The hand letter a drop took from `side`'s hand.
fn hand_letter_used(before: &PositionText, after: &PositionText, side: Color) -> Option<char> {
    let b = hand_counts(before, side);
    let a = hand_counts(after, side);
    b.into_iter()
        .find(|(l, n)| a.iter().find(|(m, _)| m == l).map_or(0, |x| x.1) < *n)
        .map(|(l, _)| l)
}

/// The board as the page draws it: `squares[row][file]`, the highest rank
/// first, and each side's hand (`null` for games without one).
#[derive(Serialize)]
pub struct BoardView {
    files: u8,
    ranks: u8,
    squares: Vec<Vec<Option<PieceView>>>,
    hands: Option<[Vec<HandCount>; 2]>,
}

#[derive(Serialize)]
struct PieceView {
    l: char,
    c: usize,
    p: bool,
}

#[derive(Serialize)]
struct HandCount {
    l: char,
    n: usize,
}

impl BoardView {
    pub fn of(t: &PositionText, files: u8, ranks: u8) -> BoardView {
        let piece = |p: &PieceText| PieceView {
            l: p.letter,
            c: p.color.index(),
            p: p.promoted,
        };
        let hand = |c| {
            let counts = hand_counts(t, c).into_iter();
            counts.map(|(l, n)| HandCount { l, n }).collect()
        };
        BoardView {
            files,
            ranks,
            squares: (t.ranks.iter())
                .map(|r| r.iter().map(|p| p.as_ref().map(piece)).collect())
                .collect(),
            hands: t.hand.as_ref().map(|_| Color::BOTH.map(hand)),
        }
    }
}
